#!/usr/bin/env python3
"""Hold ntidx's analyses of a trace against TraceEvent's, record by record.

    conformance_compare_analyses.py NTIDX TRACE PREFIX [--analysis NAME]... [--max-diffs N]

For each analysis (gc, jit, cpu, exceptions, alloc, contention, activities; all of them unless
--analysis names some) the comparer runs `ntidx ANALYSIS TRACE --format jsonl` and reads what the
reference dumper (tests/dotnet/dumper, `dumper ANALYSIS TRACE`) printed from TraceEvent for the
same trace: PREFIX.ANALYSIS.traceevent.jsonl, or its compressed .jsonl.xz / .jsonl.gz. Both print
one JSON object per record with the contract's keys (TraceEvent's names in snake_case, times in ms
since the trace's sync time; docs/conformance.md). ntidx may print more keys than the contract's.

  gc          the same GCs (pid, number): generation, type, reason, is_complete equal; times
              within 1 us; heap sizes and promoted MB equal to the byte. A GC that never ended
              (is_complete false on both sides) is compared on what its start says.
  jit         the same jitted methods, per name in start order: IL and native size, optimization
              tier equal; start and JIT time within 1 us.
  cpu         the same methods (and threads, when TraceEvent's records are split by thread): the
              same inclusive and exclusive samples; milliseconds within 1 us.
  cpu-by-thread  (only when named) cpu split by thread: `ntidx cpu --by-thread` against
              `dumper cpu-by-thread`.
  gc-summary  (only when named) TraceEvent's GCStats, `ntidx gc --summary` against `dumper gc-summary`:
              per (pid, generation; -1 all GCs) count and induced equal, pause times within 1 us,
              MB to the byte, the percentage paused within 0.001.
  exceptions  the same (type, message, thrown_by): count equal, first and last time within 1 us.
  alloc       the same (type_name, kind): count and bytes equal.
  contention  the same (lock_id, thread): count equal, total and max wait within 1 us. A row of
              ntidx's whose waits all lack their stop (count 0, only `incomplete`) is not
              compared: TraceEvent's dumper counts only waits that ended.
  activities  the same activities, per (provider, name, activity_id, thread) in start order:
              parent and completeness equal, start and (of complete ones) duration within 1 us.
              Where TraceEvent's output lists a tie ({"tie": ...}: Starts or Stops of one id on two
              threads at one timestamp, which the two readers may take in either order), what the
              order decides on those threads is compared loosely and counted (tie_loosened).

Prints one line per analysis ("gc: 14 traceevent records, 14 ntidx records: agree") and the
differences, field by field. When ntidx has no such command yet it says "ntidx has no `gc`
command". Exit status 0 when every analysis agrees, 1 otherwise, 2 on a usage error.
Standard library only (any Python 3.8+).
"""
import argparse
import gzip
import json
import lzma
import os
import subprocess
import sys
import tempfile
from collections import defaultdict

ANALYSES = ('gc', 'jit', 'cpu', 'exceptions', 'alloc', 'contention', 'activities')

# Variants compared only when --analysis names them: NAME -> (the analysis, ntidx's extra arguments).
# TraceEvent's side is `dumper NAME TRACE` in PREFIX.NAME.traceevent.jsonl[.xz|.gz].
VARIANTS = {'cpu-by-thread': ('cpu', ('--by-thread',)), 'gc-summary': ('gc-summary', ('--summary',))}

# The command each compared analysis runs (`ntidx gc --summary` for gc-summary).
COMMAND = {'gc-summary': 'gc'}

TIME_MS = 0.001        # 1 us
SIZE_MB = 0.000001     # one byte, in TraceEvent's MB (10^6 bytes)

# The contract's keys, per analysis (docs/conformance.md, issue 30); `thread` of cpu only when split.
CONTRACT = {
    'gc-summary': ('pid', 'generation', 'count', 'num_induced', 'total_pause_time_ms', 'mean_pause_duration_ms',
                   'max_pause_duration_ms', 'max_suspend_duration_ms', 'gc_pause_time_percentage',
                   'total_allocated_mb', 'total_promoted_mb', 'total_size_after_mb', 'mean_size_after_mb',
                   'process_duration_ms'),
    'gc': ('number', 'generation', 'type', 'reason', 'start_relative_ms', 'duration_ms',
           'pause_start_relative_ms', 'pause_duration_ms', 'suspend_duration_ms', 'heap_size_before_mb',
           'heap_size_after_mb', 'promoted_mb', 'is_complete', 'pid'),
    'jit': ('method_name', 'il_size', 'native_size', 'jit_time_ms', 'optimization_tier', 'start_relative_ms'),
    'cpu': ('method', 'inclusive', 'exclusive', 'inclusive_ms', 'exclusive_ms'),
    'exceptions': ('type', 'message', 'count', 'first_relative_ms', 'last_relative_ms', 'thrown_by'),
    'alloc': ('type_name', 'kind', 'count', 'bytes'),
    'contention': ('lock_id', 'thread', 'count', 'total_wait_ms', 'max_wait_ms'),
    'activities': ('provider', 'name', 'activity_id', 'parent_activity_id', 'thread', 'start_relative_ms',
                   'duration_ms', 'is_complete'),
}

# How each field compares: 'exact', or an absolute tolerance.
TOLERANCE = {
    'start_relative_ms': TIME_MS, 'duration_ms': TIME_MS, 'pause_start_relative_ms': TIME_MS,
    'pause_duration_ms': TIME_MS, 'suspend_duration_ms': TIME_MS, 'jit_time_ms': TIME_MS,
    'inclusive_ms': TIME_MS, 'exclusive_ms': TIME_MS, 'first_relative_ms': TIME_MS,
    'last_relative_ms': TIME_MS, 'total_wait_ms': TIME_MS, 'max_wait_ms': TIME_MS,
    'heap_size_before_mb': SIZE_MB, 'heap_size_after_mb': SIZE_MB, 'promoted_mb': SIZE_MB,
    # GCStats: sums and means of the GCs' own values, which are held to 1 us and a byte each
    'total_pause_time_ms': TIME_MS, 'mean_pause_duration_ms': TIME_MS, 'max_pause_duration_ms': TIME_MS,
    'max_suspend_duration_ms': TIME_MS, 'process_duration_ms': TIME_MS, 'gc_pause_time_percentage': 1e-3,
    'total_allocated_mb': SIZE_MB, 'total_promoted_mb': SIZE_MB, 'total_size_after_mb': SIZE_MB,
    'mean_size_after_mb': SIZE_MB,
}

# Fields of a GC that only its end sets: not compared for a GC that never ended.
GC_END_FIELDS = {'duration_ms', 'pause_duration_ms', 'heap_size_before_mb', 'heap_size_after_mb', 'promoted_mb'}


def open_text(path):
    if path.endswith('.xz'):
        return lzma.open(path, 'rt', encoding='utf-8')
    if path.endswith('.gz'):
        return gzip.open(path, 'rt', encoding='utf-8')
    return open(path, encoding='utf-8')


def traceevent_file(prefix, analysis):
    for ext in ('.jsonl', '.jsonl.xz', '.jsonl.gz'):
        path = f'{prefix}.{analysis}.traceevent{ext}'
        if os.path.exists(path):
            return path
    return None


def normalize(key, v):
    """The same value whatever its spelling: GUIDs in lower case without braces, lock ids as numbers."""
    if key in ('activity_id', 'parent_activity_id') and isinstance(v, str):
        return v.strip('{}').lower()
    if key == 'lock_id' and isinstance(v, str):
        try:
            return int(v, 0)
        except ValueError:
            return v
    return v


def nan_as_null(v):
    """TraceEvent's NaN (a mean of no GC; the dumper prints it "NaN") is ntidx's null."""
    return None if v == 'NaN' or (isinstance(v, float) and v != v) else v


def is_number(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def field_diff(key, te, nt):
    """None when TraceEvent's value te and ntidx's nt agree, else the words that say how not."""
    te, nt = nan_as_null(normalize(key, te)), nan_as_null(normalize(key, nt))
    tol = TOLERANCE.get(key)
    if tol is not None and is_number(te) and is_number(nt):
        d = abs(float(te) - float(nt))
        return None if d <= tol else f'traceevent {te!r} ntidx {nt!r} (off by {d:.6g}, more than {tol:g})'
    if is_number(te) and is_number(nt):
        return None if te == nt else f'traceevent {te!r} ntidx {nt!r}'
    return None if type(te) is type(nt) and te == nt else f'traceevent {te!r} ntidx {nt!r}'


class Analysis:
    """One analysis' comparison: its differences counted, the first ones printed."""

    def __init__(self, name, max_diffs):
        self.name = name
        self.max_diffs = max_diffs
        self.diffs = 0
        self.excused = 0   # records that differ only where a same-time tie may make them (tie_loosened)
        self.lines = []

    def diff(self, text):
        self.diffs += 1
        if self.diffs <= self.max_diffs:
            self.lines.append(f'DIFF {self.name} {text}')

    def fields(self, what, te, nt, skip=()):
        for k in CONTRACT[self.name] + (('thread',) if self.name == 'cpu' and 'thread' in te else ()):
            if k in skip:
                continue
            if k not in nt:
                self.diff(f'{what}: ntidx has no `{k}` (traceevent {te.get(k)!r})')
                continue
            words = field_diff(k, te.get(k), nt[k])
            if words:
                self.diff(f'{what} {k}: {words}')

    def keyed(self, te, nt, key_fields, describe):
        """Records matched by a key that names one record on each side."""
        def index(rows, side):
            out = {}
            for r in rows:
                k = tuple(normalize(f, r.get(f)) for f in key_fields)
                if k in out:
                    self.diff(f'{side} has two records for {describe(k)}')
                out[k] = r
            return out
        ti, ni = index(te, 'traceevent'), index(nt, 'ntidx')
        for k in sorted(set(ti) | set(ni), key=repr):
            if k not in ni:
                self.diff(f'{describe(k)}: missing in ntidx (traceevent {compact(ti[k])})')
            elif k not in ti:
                self.diff(f'{describe(k)}: extra in ntidx ({compact(ni[k])})')
            else:
                self.fields(describe(k), ti[k], ni[k])

    def in_order(self, te, nt, group_fields, describe, skip=lambda t, n: ()):
        """Records grouped by some fields and paired in start order inside each group (a method
        jitted at several tiers, an activity id a thread reuses)."""
        def groups(rows):
            g = defaultdict(list)
            for r in rows:
                g[tuple(normalize(f, r.get(f)) for f in group_fields)].append(r)
            for v in g.values():
                v.sort(key=lambda r: r.get('start_relative_ms') if is_number(r.get('start_relative_ms')) else 0)
            return g
        tg, ng = groups(te), groups(nt)
        for k in sorted(set(tg) | set(ng), key=repr):
            ts, ns = tg.get(k, []), ng.get(k, [])
            for i in range(max(len(ts), len(ns))):
                what = describe(k) + (f' #{i + 1}' if max(len(ts), len(ns)) > 1 else '')
                if i >= len(ns):
                    self.diff(f'{what}: missing in ntidx (traceevent {compact(ts[i])})')
                elif i >= len(ts):
                    self.diff(f'{what}: extra in ntidx ({compact(ns[i])})')
                else:
                    self.fields(what, ts[i], ns[i], skip(ts[i], ns[i]))


def compact(r):
    s = json.dumps(r, separators=(',', ':'))
    return s if len(s) <= 240 else s[:237] + '...'


def tie_loosened(ties, t, n):
    """What of TraceEvent's activity t and ntidx's n a same-time tie may change (docs/conformance.md).

    Two Starts or Stops of one activity id on two threads at the same timestamp (the runtime's
    ExceptionCatch events carry the zero id of a thread outside any activity) are taken in file order
    by ntidx and in the order of its heap of thread queues by TraceEvent, so the two can pair them
    differently. What that changes: on the two threads, whether an activity of that id open at the
    tie was stopped (and when), and which activity of that id later activities there name as their
    parent (a catch that never stopped is the thread's activity until the trace ends). Nothing else
    is loosened."""
    loose = set()
    start = t.get('start_relative_ms')
    if not is_number(start):
        return ()
    for tie in ties:
        if t.get('thread') not in tie['threads']:
            continue
        ms, tid = tie['relative_ms'], normalize('activity_id', tie['activity_id'])
        dur = t.get('duration_ms') if is_number(t.get('duration_ms')) else 0
        open_at_tie = start <= ms + TIME_MS and (not t.get('is_complete') or start + dur >= ms - TIME_MS)
        if normalize('activity_id', t.get('activity_id')) == tid and open_at_tie:
            loose |= {'is_complete', 'duration_ms'}
        if start >= ms - TIME_MS and tid in (normalize('parent_activity_id', t.get('parent_activity_id')),
                                             normalize('parent_activity_id', n.get('parent_activity_id'))):
            loose.add('parent_activity_id')
    return tuple(sorted(loose))


def compare(a, te, nt, ties=()):
    n = a.name
    if n == 'gc-summary':
        a.keyed(te, nt, ('pid', 'generation'), lambda k: f'GCStats of pid {k[0]} generation {k[1]}')
    elif n == 'gc':
        def gc_skip(t, _n):
            return GC_END_FIELDS if t.get('is_complete') is False else ()
        a.in_order(te, nt, ('pid', 'number'), lambda k: f'GC #{k[1]} (pid {k[0]})', gc_skip)
    elif n == 'jit':
        a.in_order(te, nt, ('method_name',), lambda k: f'method {k[0]}')
    elif n == 'cpu':
        fields = ('method', 'thread') if te and 'thread' in te[0] else ('method',)
        a.keyed(te, nt, fields, lambda k: f'method {k[0]}' + (f' on thread {k[1]}' if len(k) > 1 else ''))
    elif n == 'exceptions':
        a.keyed(te, nt, ('type', 'message', 'thrown_by'),
                lambda k: f'exception {k[0]} {k[1]!r} thrown by {k[2]}')
    elif n == 'alloc':
        a.keyed(te, nt, ('type_name', 'kind'), lambda k: f'allocations of {k[0]} ({k[1]})')
    elif n == 'contention':
        nt = [r for r in nt if r.get('count') != 0]
        a.keyed(te, nt, ('lock_id', 'thread'), lambda k: f'lock {k[0]} on thread {k[1]}')
    elif n == 'activities':
        def activity_skip(t, n_):
            skip = ['duration_ms'] if not (t.get('is_complete') and n_.get('is_complete')) else []
            loose = tie_loosened(ties, t, n_)
            if any(field_diff(k, t.get(k), n_.get(k)) for k in loose if k not in skip):
                a.excused += 1
            return tuple(skip) + loose
        a.in_order(te, nt, ('provider', 'name', 'activity_id', 'thread'),
                   lambda k: f'activity {k[0]}/{k[1]} {k[2]} on thread {k[3]}', activity_skip)


def run_ntidx(ntidx, analysis, trace, index, extra=()):
    """ntidx's records, or (None, the words that say why there are none). The index goes to INDEX, not
    beside the trace (a golden trace lies in the sources)."""
    try:
        p = subprocess.run([ntidx, analysis, trace, '--format', 'jsonl', '--index', index, *extra],
                           capture_output=True)
    except OSError as e:
        return None, f'cannot run {ntidx}: {e}'
    err = p.stderr.decode('utf-8', 'replace').strip()
    if p.returncode != 0:
        if 'unknown command' in err:
            return None, f'ntidx has no `{analysis}` command'
        return None, f'`ntidx {analysis} {trace} --format jsonl` exited {p.returncode}: {err[:300]}'
    rows = []
    for i, line in enumerate(p.stdout.decode('utf-8', 'replace').splitlines()):
        if not line.strip():
            continue
        try:
            rows.append(json.loads(line))
        except ValueError as e:
            return None, f'`ntidx {analysis}` printed a line that is not JSON (line {i + 1}: {e}): {line[:120]!r}'
    return rows, None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('ntidx')
    ap.add_argument('trace')
    ap.add_argument('prefix', help="TraceEvent's outputs: PREFIX.ANALYSIS.traceevent.jsonl[.xz|.gz]")
    ap.add_argument('--analysis', action='append', choices=ANALYSES + tuple(VARIANTS),
                    help='compare only this one (repeatable)')
    ap.add_argument('--max-diffs', type=int, default=20, help='differences printed per analysis (all are counted)')
    a = ap.parse_args()

    failed = 0
    tmp = tempfile.TemporaryDirectory(prefix='ntidx-compare-analyses-')
    index = os.path.join(tmp.name, 'trace.ntidx')
    for name in a.analysis or ANALYSES:
        path = traceevent_file(a.prefix, name)
        if path is None:
            print(f'{name}: no TraceEvent output {a.prefix}.{name}.traceevent.jsonl[.xz|.gz]')
            failed += 1
            continue
        with open_text(path) as f:
            te = [json.loads(line) for line in f if line.strip()]
        ties = [r['tie'] for r in te if 'tie' in r]
        te = [r for r in te if 'tie' not in r]
        analysis, extra = VARIANTS.get(name, (name, ()))
        nt, why = run_ntidx(a.ntidx, COMMAND.get(analysis, analysis), a.trace, index, extra)
        if nt is None:
            print(f'{name}: {len(te)} traceevent records; {why}')
            failed += 1
            continue
        an = Analysis(analysis, a.max_diffs)
        compare(an, te, nt, ties)
        verdict = 'agree' if an.diffs == 0 else f'{an.diffs} differences'
        if an.excused:
            verdict += (f' ({an.excused} records differ only as {len(ties)} same-time Starts or Stops of one id on '
                        'two threads allow: docs/conformance.md)')
        print(f'{name}: {len(te)} traceevent records, {len(nt)} ntidx records: {verdict}')
        for line in an.lines:
            print('  ' + line)
        if an.diffs:
            failed += 1
    tmp.cleanup()
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
