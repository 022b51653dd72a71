#!/usr/bin/env python3
"""Hold ntidx's reading of a trace against TraceEvent's, event for event.

    conformance_compare.py NTIDX TRACE TRACEEVENT_DUMP [--max-diffs N] [--summary]

NTIDX is the ntidx binary, TRACE a .nettrace, TRACEEVENT_DUMP what tests/dotnet/dumper printed for
it (`dumper dump TRACE`; .jsonl, or compressed .jsonl.xz / .jsonl.gz). The comparer runs
`ntidx dump --format jsonl --order time TRACE` and `ntidx stats --json --no-index TRACE` and checks:

  events    TraceEvent's events in its dispatch order against ntidx's in time order: the same
            count, and event for event the same timestamp (ticks), provider, event name, id,
            version, thread and payload (field names and values). Events with one timestamp are
            compared as a group, whatever their order inside it (the two readers break ties
            differently; neither order is wrong).
  errors    when TraceEvent refused the trace (the dump ends with {"error":...}), ntidx must also
            exit 1 with a message naming the file and an offset, after printing at least the events
            TraceEvent dispatched; when TraceEvent read it, ntidx must exit 0. A trace that just
            ends (no end-of-stream marker: a killed writer, a cut copy) is the one documented
            exception: TraceEvent throws when the data runs out, ntidx warns that the trace is
            incomplete and exits 0 (docs/errors.md); the events before the end must agree.
  stats     ntidx stats' event count, counts per event type (provider/name) and dropped events
            equal what TraceEvent dispatched and lost; the same statistics through an index (on one
            thread and two, and from a --full index's region statistics) equal them.

Where TraceEvent presents a payload differently from the bytes of the trace (its parsers for the
runtime's providers are hand-written and add, hide or rework fields), the tables below say so,
each entry with its reason; they are the whole list of what is not compared as is
(docs/conformance.md). Exit status 0 when everything agrees, 1 otherwise, 2 on a usage error.
Standard library only (any Python 3.8+).
"""
import argparse
import gzip
import os
import json
import lzma
import re
import subprocess
import tempfile
import sys
from collections import Counter, defaultdict

RUNTIME = 'Microsoft-Windows-DotNETRuntime'
# TraceEvent's words when a trace ends before its end-of-stream marker.
END_OF_DATA = re.compile(r'past end of stream|EndOfStream|end of the stream', re.I)
RUNDOWN = 'Microsoft-Windows-DotNETRuntimeRundown'

# ---- How TraceEvent presents the runtime's events (ClrTraceEventParser and friends) ----
#
# TraceEvent's parsers for the runtime's providers are hand-written classes, not the manifest: they
# add fields computed from others, hide some, rename a few and rework some values. ntidx shows the
# payload as the runtime wrote it (the manifest's fields). Each entry below says, for one event,
# how TraceEvent's view follows from ntidx's; everything not listed is compared as is. Keys are
# (provider, event name), '*' for any provider. Per entry:
#   derived:  fields only TraceEvent shows -> a function of ntidx's fields giving TraceEvent's
#             value, or None when it cannot be computed from the payload (not compared);
#   hidden:   fields of the payload TraceEvent does not show;
#   renamed:  {TraceEvent's name: ntidx's name} for the same value;
#   value:    {field: function of ntidx's value giving TraceEvent's};
#   reworked: fields whose value TraceEvent computes its own way (not compared).

JITTED = 0x8                                   # MethodFlags.Jitted
METHOD_FLAGS_MASK = ~(0x7 << 7 | 0xF << 28)    # TraceEvent's MethodFlagsMask: no tier, no extent


def int32(v):
    """TraceEvent reads some UInt32 fields as Int32: the same 32 bits."""
    return v - (1 << 32) if isinstance(v, int) and v >= 1 << 31 else v


METHOD_LOAD = {
    'derived': {'ReJITID': lambda f: f.get('ReJITID', 0),
                'OptimizationTier': lambda f: (f.get('MethodFlags', 0) >> 7) & 7 if f.get('MethodFlags', 0) & JITTED else 0},
    'value': {'MethodFlags': lambda v: v & METHOD_FLAGS_MASK},
}
MODULE = {'hidden': {'ClrInstanceID', 'Reserved1'}, 'derived': {'ModuleILFileName': None}}
IL_TO_NATIVE = {'hidden': {'ILOffsets', 'NativeOffsets', 'ILVersionID'}}

TE_PRESENTATION = {
    # MethodFlags carries the optimization tier (bits 7-9) and the method extent (28-31):
    # TraceEvent splits them off; ReJITID is shown as 0 for versions without it.
    ('*', 'Method/LoadVerbose'): METHOD_LOAD,
    ('*', 'Method/UnloadVerbose'): METHOD_LOAD,
    ('*', 'Method/Load'): METHOD_LOAD,
    ('*', 'Method/Unload'): METHOD_LOAD,
    ('*', 'Method/DCStartVerbose'): METHOD_LOAD,
    ('*', 'Method/DCStopVerbose'): METHOD_LOAD,
    ('*', 'Method/DCStart'): METHOD_LOAD,
    ('*', 'Method/DCStop'): METHOD_LOAD,
    # The module events: TraceEvent hides Reserved1 and (v2) ClrInstanceID, and adds the IL
    # file name cut from ModuleILPath.
    ('*', 'Loader/ModuleLoad'): MODULE,
    ('*', 'Loader/ModuleUnload'): MODULE,
    ('*', 'Loader/ModuleDCStart'): MODULE,
    ('*', 'Loader/ModuleDCStop'): MODULE,
    ('*', 'Loader/DomainModuleLoad'): MODULE,
    ('*', 'Loader/DomainModuleDCStart'): MODULE,
    ('*', 'Loader/DomainModuleDCStop'): MODULE,
    # The IL-to-native maps' arrays are methods in TraceEvent (ILOffset(i)); it knows no v1.
    ('*', 'Method/ILToNativeMap'): IL_TO_NATIVE,
    ('*', 'Method/ILToNativeMapDCStart'): IL_TO_NATIVE,
    ('*', 'Method/ILToNativeMapDCStop'): IL_TO_NATIVE,
    # HRESULTs and the suspension count are Int32 in TraceEvent, UInt32 in the manifest.
    (RUNTIME, 'Exception/Start'): {'value': {'ExceptionHRESULT': int32}},
    (RUNTIME, 'GC/SuspendEEStart'): {'value': {'Count': int32}},
    # Sums TraceEvent adds, and a depth guessed from what was promoted.
    (RUNTIME, 'GC/HeapStats'): {'derived': {
        'TotalHeapSize': lambda f: sum(f.get(f'GenerationSize{i}', 0) for i in range(5)),
        'TotalPromoted': lambda f: sum(f.get(f'TotalPromotedSize{i}', 0) for i in range(5)),
        'Depth': lambda f: 2 if f.get('TotalPromotedSize2') else 1 if f.get('TotalPromotedSize1') else 0}},
    # The type name comes from an earlier Type/BulkType (TraceEvent's type table).
    (RUNTIME, 'GC/FinalizeObject'): {'derived': {'TypeName': None}},
    # TraceEvent shows the first type of the batch as TypeID_0 and TypeName_0.
    (RUNTIME, 'Type/BulkType'): {'hidden': {'Values'}, 'derived': {
        'TypeID_0': lambda f: f['Values'][0]['TypeID'] if f.get('Values') else None,
        'TypeName_0': lambda f: f['Values'][0]['Name'] if f.get('Values') else None}},
    (RUNTIME, 'GC/MarkWithType'): {'renamed': {'Promoted': 'Bytes'}},
    # Server GC's joins: TraceEvent calls the manifest's JoinID "ID" (and reads it as Int32).
    (RUNTIME, 'GC/Join'): {'renamed': {'ID': 'JoinID'}},
    # The arrays of structs after Count are not in TraceEvent's payload names.
    (RUNTIME, 'GC/GlobalHeapHistory'): {'hidden': {'Values'}},
    (RUNTIME, 'GC/FitBucketInfo'): {'hidden': {'Values'}},
    (RUNTIME, 'GC/LOHCompact'): {'hidden': {'Values'}},
    # Version 3's mechanisms are decoded bit fields in TraceEvent (an index, not the mask).
    (RUNTIME, 'GC/PerHeapHistory'): {'hidden': {'Values'}, 'reworked': {
        'CompactMechanisms', 'ExpandMechanisms', 'ConcurrentCompactMechanisms', 'MemoryPressure'}},
}


# The providers TraceEvent decodes with hand-written parsers: they read many unsigned manifest
# fields with signed getters (GetInt16At, GetInt32At), so a value with its high bit set shows
# negative there (ClrInstanceID 46920 is -18616). The same bits: not a difference.
PARSED_PROVIDERS = {RUNTIME, RUNDOWN, 'Microsoft-Windows-DotNETRuntimePrivate',
                    'Microsoft-Windows-DotNETRuntimeStress', 'Microsoft-DotNETCore-SampleProfiler'}


def same_bits(te, nt):
    """TraceEvent's negative te and ntidx's unsigned nt are the same 8, 16, 32 or 64 bits."""
    if not isinstance(te, int) or not isinstance(nt, int) or isinstance(te, bool) or te >= 0:
        return False
    return any(-(1 << (b - 1)) <= te and nt == te + (1 << b) for b in (8, 16, 32, 64))


# TraceEvent has no decoder for EventPipe's Decimal type (16 bytes): it shows this text instead;
# ntidx shows the 16 bytes in hex.
TE_UNSUPPORTED = '[UNSUPPORTED TYPE]'


def unsupported_decimal(te, nt):
    return te == TE_UNSUPPORTED and isinstance(nt, str) and re.fullmatch(r'[0-9a-f]{32}', nt) is not None


def load_template_names():
    """TraceEvent's name of each runtime event (tests/dotnet/golden/traceevent-names.tsv): a V6 label
    list may rename an event ("GC/Reply"), its presentation is still its template's."""
    names = {}
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'tests', 'dotnet', 'golden',
                        'traceevent-names.tsv')
    try:
        with open(path, encoding='utf-8') as f:
            for line in f:
                prov, eid, name = line.rstrip('\n').split('\t')[:3]
                names[(prov, int(eid))] = name
    except OSError:
        pass
    return names


TEMPLATE_NAMES = load_template_names()


def presentation(provider, name, event_id=None):
    name = TEMPLATE_NAMES.get((provider, event_id), name)
    return TE_PRESENTATION.get((provider, name), TE_PRESENTATION.get(('*', name), {}))


def te_default(v):
    """What TraceEvent's parsers show for a field the event's version does not have."""
    return v in (0, '', None, False) or v == '00000000-0000-0000-0000-000000000000'


def open_text(path):
    if path.endswith('.xz'):
        return lzma.open(path, 'rt', encoding='utf-8')
    if path.endswith('.gz'):
        return gzip.open(path, 'rt', encoding='utf-8')
    return open(path, encoding='utf-8')


def number(v):
    """JSON numbers compare by value (1.0 == 1); strings that spell numbers do not."""
    return v if isinstance(v, (int, float)) and not isinstance(v, bool) else None


def same_value(a, b):
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same_value(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same_value(x, y) for x, y in zip(a, b))
    na, nb = number(a), number(b)
    if na is not None and nb is not None:
        return float(na) == float(nb) if isinstance(na, float) or isinstance(nb, float) else na == nb
    return type(a) is type(b) and a == b


class Comparer:
    def __init__(self, max_diffs):
        self.max_diffs = max_diffs
        self.diffs = 0
        self.summary = Counter()

    def diff(self, kind, what):
        self.diffs += 1
        self.summary[kind] += 1
        if self.diffs <= self.max_diffs:
            print('DIFF ' + what)

    def event_diffs(self, te, nt):
        """The differences between one TraceEvent event and one ntidx event, as (kind, text)."""
        out = []
        prov, name = te['provider'], te['event_name']
        for k in ('ts', 'provider', 'thread'):
            if te[k] != nt[k]:
                out.append((k, f'{k}: traceevent {te[k]!r} ntidx {nt[k]!r}'))
        nt_name = nt['event_name'] or f'EventID({nt["event_id"]})'
        dyn = gc_dynamic(te, nt)
        if dyn is not None:
            return out + dyn
        if name != nt_name:
            out.append((f'name {prov}/{nt_name}', f'event_name: traceevent {name!r} ntidx {nt_name!r}'))
        if te['event_id'] != nt['event_id']:
            out.append(('event_id', f'event_id: traceevent {te["event_id"]} ntidx {nt["event_id"]}'))
        if te['version'] != nt['version']:
            out.append(('version', f'version: traceevent {te["version"]} ntidx {nt["version"]}'))
        if 'field_error' in te or 'field_error' in nt:
            if 'field_error' not in te or 'field_error' not in nt:
                out.append((f'field_error {prov}/{name}',
                            f'field_error: traceevent {te.get("field_error")!r} ntidx {nt.get("field_error")!r}'))
            return out
        out += self.field_diffs(prov, name, te['fields'], nt['fields'], te['event_id'])
        return out

    def field_diffs(self, prov, name, tf, nf, event_id=None):
        out = []
        pr = presentation(prov, name, event_id)
        derived, hidden = pr.get('derived', {}), pr.get('hidden', set())
        renamed, value, reworked = pr.get('renamed', {}), pr.get('value', {}), pr.get('reworked', set())
        if name.startswith('EventID(') and not tf:
            return out  # TraceEvent has no template: it shows no fields, ntidx decodes the manifest's
        for k, tv in tf.items():
            nk = renamed.get(k, k)
            if k in reworked:
                continue
            if nk not in nf:
                if prov in PARSED_PROVIDERS and te_default(tv) and k not in derived:
                    continue  # a field of a later version of the event: TraceEvent shows 0 or ""
                if k not in derived:
                    out.append((f'te-only {prov}/{name}.{k}', f'{name}: field {k} only in traceevent ({tv!r})'))
                elif derived[k] is not None:
                    want = derived[k](nf)
                    if want is not None and not same_value(tv, want):
                        out.append((f'derived {prov}/{name}.{k}',
                                    f'{name}.{k}: traceevent {tv!r}, from ntidx\'s fields {want!r}'))
                continue
            nv = nf[nk]
            if k in value:
                nv = value[k](nv)
            if same_value(tv, nv) or unsupported_decimal(tv, nv):
                continue
            if prov in PARSED_PROVIDERS and same_bits(tv, nv):
                continue
            out.append((f'value {prov}/{name}.{k}', f'{name}.{k}: traceevent {tv!r} ntidx {nv!r}'))
        te_names = {renamed.get(k, k) for k in tf}
        for k in nf:
            if k not in te_names and k not in hidden:
                out.append((f'ntidx-only {prov}/{name}.{k}', f'{name}: field {k} only in ntidx ({nf[k]!r})'))
        return out


# TraceEvent's name for a GC/DynamicEvent whose payload name it has no class for (the DATAS events
# of server GC: SizeAdaptationSample, SizeAdaptationTuning, SizeAdaptationFullGCTuning): id 39, the
# fields as written.
TE_GC_DYNAMIC_OTHER = 'GC/DynamicTraceEvent'


def gc_dynamic(te, nt):
    """TraceEvent turns the runtime's GC/DynamicEvent (id 39) into an event of its own per payload
    name ("GC/CommittedUsage", a made-up id) and decodes its Data, or names it GC/DynamicTraceEvent
    when it knows no such payload name; ntidx shows event 39 as written. The two agree when ntidx's
    event is 39 and its Name field is TraceEvent's name."""
    if nt['provider'] != RUNTIME or nt['event_id'] != 39 or te['provider'] != RUNTIME:
        return None
    f = nt.get('fields', {})
    want = 'GC/' + str(f.get('Name', ''))
    out = []
    if te['event_name'] not in (want, 'GC/DynamicEvent', TE_GC_DYNAMIC_OTHER):
        out.append(('gc-dynamic name', f'GC/DynamicEvent: traceevent {te["event_name"]!r} ntidx Name {want!r}'))
    if isinstance(f.get('Data'), list) and f.get('DataSize') != len(f['Data']):
        out.append(('gc-dynamic size', f'GC/DynamicEvent: DataSize {f.get("DataSize")} but {len(f["Data"])} bytes'))
    return out


def te_key(e):
    """TraceEvent's (provider, event name) as ntidx would show it, for statistics."""
    if e['provider'] == RUNTIME and (e['event_id'] >= 65000 or e['event_name'] == TE_GC_DYNAMIC_OTHER):
        return (RUNTIME, 'GC/DynamicEvent')
    return (e['provider'], e['event_name'])


def groups(it):
    """Consecutive events with one timestamp."""
    group = []
    for e in it:
        if group and e['ts'] != group[0]['ts']:
            yield group
            group = []
        group.append(e)
    if group:
        yield group


def match_group(cmp, tg, ng):
    """Pair the events of one timestamp: equal ones first, then by (provider, id, thread)."""
    rest = list(ng)
    unmatched = []
    for t in tg:
        for i, n in enumerate(rest):
            if not cmp.event_diffs(t, n):
                del rest[i]
                break
        else:
            unmatched.append(t)
    for t in unmatched:
        best = None
        for i, n in enumerate(rest):
            if (n['provider'], n['thread']) == (t['provider'], t['thread']):
                best = i
                if n['event_id'] == t['event_id']:
                    break
        if best is None:
            cmp.diff('missing in ntidx', f'ts {t["ts"]}: ntidx has no {t["provider"]}/{t["event_name"]} '
                                         f'on thread {t["thread"]}')
            continue
        n = rest.pop(best)
        for kind, text in cmp.event_diffs(t, n):
            cmp.diff(kind, f'ts {t["ts"]} {t["provider"]}/{t["event_name"]}: {text}')
    for n in rest:
        cmp.diff('extra in ntidx', f'ts {n["ts"]}: ntidx has {n["provider"]}/{n["event_name"]} '
                                   f'on thread {n["thread"]}, traceevent none')


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('ntidx')
    ap.add_argument('trace')
    ap.add_argument('traceevent_dump')
    ap.add_argument('--max-diffs', type=int, default=20, help='differences printed (all are counted)')
    ap.add_argument('--summary', action='store_true', help='print the count of each kind of difference')
    a = ap.parse_args()

    cmp = Comparer(a.max_diffs)
    te_events = []
    te_end = None
    with open_text(a.traceevent_dump) as f:
        for line in f:
            d = json.loads(line)
            if 'ts' in d:
                te_events.append(d)
            else:
                te_end = d
    if te_end is None:
        print(f'{a.traceevent_dump}: no summary or error line: the dump was cut short')
        return 1

    proc = subprocess.Popen([a.ntidx, 'dump', '--format', 'jsonl', '--order', 'time', a.trace],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    nt_events = [json.loads(line) for line in proc.stdout]
    nt_err = proc.stderr.read().decode('utf-8', 'replace')
    nt_rc = proc.wait()

    # errors: TraceEvent's refusal against ntidx's
    incomplete = nt_rc == 0 and 'warning: trace is incomplete' in nt_err
    cut = 'error' in te_end and incomplete and END_OF_DATA.search(te_end['error'])
    if cut:
        # A trace without its end (a crashed or still-running writer): TraceEvent throws when the
        # data runs out, ntidx reads the same complete blocks, warns with the offset and exits 0
        # (docs/errors.md, "Incomplete traces"). The events before that point must agree.
        # TraceEvent never dispatches the events it held back for sorting when the data runs out;
        # ntidx prints them too (more events, not fewer).
        last = te_events[-1]['ts'] if te_events else -1
        extra = len(nt_events)
        nt_events = [e for e in nt_events if e['ts'] <= last]
        extra -= len(nt_events)
        print(f'{a.trace}: cut short: traceevent stopped at ts {last}; ntidx read {extra} events more')
    elif 'error' in te_end:
        if nt_rc != 1 or not re.search(r'offset \d+', nt_err):
            cmp.diff('error', f'traceevent refused the trace ({te_end["error"]}) but ntidx exited {nt_rc} '
                              f'({nt_err.strip()[:200]!r})')
        if len(nt_events) < len(te_events):
            cmp.diff('error', f'ntidx printed {len(nt_events)} events before its error, traceevent '
                              f'{len(te_events)} before its own')
        # compare what both read: TraceEvent's events, and ntidx's up to TraceEvent's last time
        last = te_events[-1]['ts'] if te_events else -1
        nt_events = [e for e in nt_events if e['ts'] <= last]
    elif nt_rc != 0:
        cmp.diff('error', f'traceevent read the trace, ntidx exited {nt_rc}: {nt_err.strip()[:300]}')

    # events, group by group
    tgs, ngs = list(groups(te_events)), list(groups(nt_events))
    i = j = 0
    while i < len(tgs) or j < len(ngs):
        tg = tgs[i] if i < len(tgs) else None
        ng = ngs[j] if j < len(ngs) else None
        if tg and ng and tg[0]['ts'] == ng[0]['ts']:
            match_group(cmp, tg, ng)
            i += 1
            j += 1
        elif ng is None or (tg and tg[0]['ts'] < ng[0]['ts']):
            for t in tg:
                cmp.diff('missing in ntidx', f'ts {t["ts"]}: ntidx has no {t["provider"]}/{t["event_name"]}')
            i += 1
        else:
            for n in ng:
                cmp.diff('extra in ntidx', f'ts {n["ts"]}: ntidx has {n["provider"]}/{n["event_name"]}, '
                                           f'traceevent none')
            j += 1

    # statistics, of a trace TraceEvent read to its end (of a cut one, TraceEvent never dispatches the
    # events it held back for sorting; ntidx counts every complete block: more, by design)
    if 'summary' in te_end:
        st = subprocess.run([a.ntidx, 'stats', '--json', '--no-index', a.trace], capture_output=True)
        if st.returncode != 0:
            cmp.diff('stats', f'ntidx stats exited {st.returncode}: {st.stderr.decode()[:200]}')
        else:
            s = json.loads(st.stdout)
            if s['events'] != len(te_events):
                cmp.diff('stats', f'stats: ntidx {s["events"]} events, traceevent {len(te_events)}')
            if s['dropped_events'] != te_end['summary']['lost']:
                cmp.diff('stats', f'stats: ntidx {s["dropped_events"]} dropped, traceevent lost '
                                  f'{te_end["summary"]["lost"]}')
            nt_types = Counter()
            for t in s['types']:
                nt_types[(t['provider'], t['event_name'] or f'EventID({t["event_id"]})')] += t['count']
            te_types = Counter(te_key(e) for e in te_events)
            for k in sorted(set(nt_types) | set(te_types)):
                if nt_types[k] != te_types[k]:
                    cmp.diff('stats', f'stats: {k[0]}/{k[1]}: ntidx {nt_types[k]}, traceevent {te_types[k]}')
            # one answer: the statistics through an index (parallel, and a --full index's region
            # statistics) are those of the whole read (the index goes to a scratch folder, never beside
            # the trace)
            with tempfile.TemporaryDirectory() as scratch:
                index = os.path.join(scratch, 'trace.ntidx')
                for args in ([], ['--threads', '2']):
                    ix = subprocess.run([a.ntidx, 'stats', a.trace, '--json', '--index', index, *args],
                                        capture_output=True)
                    if ix.returncode != 0:
                        cmp.diff('stats', f'ntidx stats {args} exited {ix.returncode}: {ix.stderr.decode()[:200]}')
                        continue
                    si = json.loads(ix.stdout)
                    for k in ('events', 'dropped_events', 'types', 'threads', 'providers'):
                        if si[k] != s[k]:
                            cmp.diff('stats', f'stats through the index {args}: {k} differs from the whole read')
                    if not args:
                        subprocess.run([a.ntidx, 'index', a.trace, '--full', '-o', index], capture_output=True)

    verdict = 'agree' if cmp.diffs == 0 else f'{cmp.diffs} differences'
    print(f'{a.trace}: {len(te_events)} traceevent events, {len(nt_events)} ntidx events compared: {verdict}')
    if a.summary and cmp.diffs:
        for kind, n in cmp.summary.most_common():
            print(f'  {n:8d}  {kind}')
    return 0 if cmp.diffs == 0 else 1


if __name__ == '__main__':
    sys.exit(main())
