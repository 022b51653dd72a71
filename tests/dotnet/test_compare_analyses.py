#!/usr/bin/env python3
"""The analyses comparer (tools/conformance_compare_analyses.py) finds what it must, without ntidx.

    test_compare_analyses.py COMPARER PREFIX

PREFIX names TraceEvent's golden answers (tests/dotnet/golden/analyses: PREFIX.ANALYSIS.traceevent.
jsonl.xz, from `dumper ANALYSIS`). A stand-in for ntidx prints those same records, changed one way
or another, and the comparer must agree where the change is within the contract's tolerance or a
spelling (1 us, one byte, GUID case, a lock id in hex, keys ntidx adds) and name the field where it
is not; and it must say plainly when ntidx has no such command. Exit status 0 when every case
behaves.
"""
import copy
import json
import lzma
import os
import subprocess
import sys
import tempfile

ANALYSES = ('gc', 'jit', 'cpu', 'exceptions', 'alloc', 'contention', 'activities', 'gc-summary')

# The stand-in: `ntidx ANALYSIS TRACE --format jsonl` prints $FAKE_DIR/ANALYSIS.jsonl, or refuses the
# command as ntidx refuses one it does not have.
FAKE = '''#!/bin/sh
f="$FAKE_DIR/$1.jsonl"
case " $* " in *" --summary "*) f="$FAKE_DIR/$1-summary.jsonl" ;; esac
[ -f "$f" ] || { echo "ntidx: unknown command '$1'" >&2; exit 2; }
exec cat "$f"
'''

def main():
    comparer, prefix = sys.argv[1:3]
    golden = {}
    for a in ANALYSES:
        with lzma.open(f'{prefix}.{a}.traceevent.jsonl.xz', 'rt', encoding='utf-8') as f:
            golden[a] = [json.loads(line) for line in f]
        if not golden[a]:
            print(f'{prefix}.{a}: no records: the golden trace must have every kind')
            return 1

    failures = 0
    with tempfile.TemporaryDirectory(prefix='ntidx-compare-analyses-') as tmp:
        fake = os.path.join(tmp, 'ntidx')
        with open(fake, 'w') as f:
            f.write(FAKE)
        os.chmod(fake, 0o755)
        data = os.path.join(tmp, 'data')
        os.mkdir(data)

        def run(analysis, rows, want_rc, *want_words, te_prefix=prefix):
            """ntidx prints ROWS for ANALYSIS (None: it has no such command); the comparer must exit
            WANT_RC and say every one of WANT_WORDS. TraceEvent's side: TE_PREFIX's file."""
            nonlocal failures
            path = os.path.join(data, analysis + '.jsonl')
            if os.path.exists(path):
                os.remove(path)
            if rows is not None:
                with open(path, 'w') as f:
                    f.writelines(json.dumps(r) + '\n' for r in rows)
            p = subprocess.run([sys.executable, comparer, fake, os.path.join(tmp, 'trace.nettrace'), te_prefix,
                                '--analysis', analysis], capture_output=True, text=True,
                               env=dict(os.environ, FAKE_DIR=data))
            out = p.stdout + p.stderr
            missing = [w for w in want_words if w not in out]
            if p.returncode != want_rc or missing:
                failures += 1
                print(f'FAIL {analysis}: exit {p.returncode} (want {want_rc}), missing {missing!r} in:\n{out}')

        def changed(analysis, index, **fields):
            rows = copy.deepcopy(golden[analysis])
            rows[index].update(fields)
            return rows

        def first(analysis, pred):
            return next(i for i, r in enumerate(golden[analysis]) if pred(r))

        # the same records: every analysis agrees
        for a in ANALYSES:
            run(a, golden[a], 0, f'{a}: {len(golden[a])} traceevent records, {len(golden[a])} ntidx records: agree')
        # no such command yet
        run('gc', None, 1, 'ntidx has no `gc` command')

        # gc: times within 1 us, sizes to the byte, names exactly; every contract key present
        g = golden['gc'][0]
        run('gc', changed('gc', 0, pause_duration_ms=g['pause_duration_ms'] + 0.0004), 0, 'agree')
        run('gc', changed('gc', 0, pause_duration_ms=g['pause_duration_ms'] + 0.002), 1,
            f'GC #{g["number"]}', 'pause_duration_ms', 'off by')
        run('gc', changed('gc', 0, heap_size_before_mb=g['heap_size_before_mb'] + 0.000002), 1, 'heap_size_before_mb')
        run('gc', changed('gc', 0, reason='Induced' if g['reason'] != 'Induced' else 'AllocSmall'), 1, 'reason')
        run('gc', changed('gc', 0, type='BackgroundGC' if g['type'] != 'BackgroundGC' else 'NonConcurrentGC'), 1, 'type')
        rows = copy.deepcopy(golden['gc'])
        del rows[0]['suspend_duration_ms']
        run('gc', rows, 1, 'ntidx has no `suspend_duration_ms`')
        rows = copy.deepcopy(golden['gc'])
        for r in rows:
            r['ts'] = 12345  # keys beyond the contract are ntidx's business
        run('gc', rows, 0, 'agree')
        run('gc', golden['gc'][1:], 1, 'missing in ntidx')

        # jit: the tier, one record less, per method in start order
        run('jit', changed('jit', 0, optimization_tier='OptimizedTier1'
                           if golden['jit'][0]['optimization_tier'] != 'OptimizedTier1' else 'QuickJitted'),
            1, 'optimization_tier', golden['jit'][0]['method_name'])
        run('jit', golden['jit'][:-1], 1, 'missing in ntidx')
        run('jit', changed('jit', 0, native_size=golden['jit'][0]['native_size'] + 1), 1, 'native_size')

        # cpu: samples exactly, a method more
        run('cpu', changed('cpu', 0, exclusive=golden['cpu'][0]['exclusive'] + 1), 1, 'exclusive')
        run('cpu', golden['cpu'] + [dict(golden['cpu'][0], method='Nowhere!Made.Up()')], 1, 'extra in ntidx')

        # exceptions and allocations: counts and bytes exactly
        run('exceptions', changed('exceptions', 0, count=golden['exceptions'][0]['count'] + 1), 1, 'count')
        run('exceptions', changed('exceptions', 0, thrown_by='Elsewhere!Other()'), 1, 'missing in ntidx', 'extra in ntidx')
        run('alloc', changed('alloc', 0, bytes=golden['alloc'][0]['bytes'] + 8), 1, 'bytes')

        # contention: a lock id spelled in hex is the same lock; waits within 1 us
        c = golden['contention'][0]
        run('contention', changed('contention', 0, lock_id=hex(c['lock_id'])), 0, 'agree')
        run('contention', changed('contention', 0, total_wait_ms=c['total_wait_ms'] + 0.01), 1, 'total_wait_ms')
        # a lock and thread whose only wait never ended: ntidx's row (count 0), which TraceEvent's dumper has not
        open_wait = dict(c, lock_id=c['lock_id'] + 1, count=0, total_wait_ms=0, max_wait_ms=None, incomplete=1)
        run('contention', golden['contention'] + [open_wait], 0, 'agree')
        run('contention', golden['contention'] + [dict(open_wait, count=1)], 1, 'extra in ntidx')

        # gc-summary (`ntidx gc --summary`): per pid and generation, an integer (-1: all GCs); pauses within
        # 1 us, MB to the byte; TraceEvent's NaN (a mean of no GC) is ntidx's null
        s = golden['gc-summary'][0]
        run('gc-summary', changed('gc-summary', 0, total_pause_time_ms=s['total_pause_time_ms'] + 0.0004), 0, 'agree')
        run('gc-summary', changed('gc-summary', 0, total_pause_time_ms=s['total_pause_time_ms'] + 0.002), 1,
            'total_pause_time_ms')
        run('gc-summary', changed('gc-summary', 0, count=s['count'] + 1), 1, 'count')
        run('gc-summary', changed('gc-summary', 0, total_allocated_mb=s['total_allocated_mb'] + 0.000002), 1,
            'total_allocated_mb')
        run('gc-summary', changed('gc-summary', 3, generation='all'), 1, 'generation all', 'missing in ntidx')
        nan = copy.deepcopy(golden['gc-summary'])
        nan[0]['mean_pause_duration_ms'] = None
        run('gc-summary', nan, 1, 'mean_pause_duration_ms')

        # activities: GUIDs in any case, the parent exactly, no duration for one never stopped
        i = first('activities', lambda r: r['parent_activity_id'] is not None)
        a = golden['activities'][i]
        run('activities', changed('activities', i, activity_id='{' + a['activity_id'].upper() + '}'), 0, 'agree')
        run('activities', changed('activities', i, parent_activity_id='00000000-0000-0000-0000-0000000000ff'), 1,
            'parent_activity_id')
        j = first('activities', lambda r: not r['is_complete'])
        run('activities', changed('activities', j, duration_ms=golden['activities'][j]['duration_ms'] + 5), 0, 'agree')
        k = first('activities', lambda r: r['is_complete'])
        run('activities', changed('activities', k, duration_ms=golden['activities'][k]['duration_ms'] + 0.01), 1,
            'duration_ms')
        run('activities', changed('activities', k, is_complete=False), 1, 'is_complete')

        # activities after a same-time tie of one id on two threads (docs/conformance.md): on those threads,
        # a later parent of that id and the completeness of that id's activity open at the tie are what
        # the readers' orders may change; nothing else, and nowhere else
        def with_tie(tie):
            te_prefix = os.path.join(tmp, f'tied-{len(os.listdir(tmp))}')
            with open(te_prefix + '.activities.traceevent.jsonl', 'w') as f:
                f.writelines(json.dumps(r) + '\n' for r in golden['activities'])
                f.write(json.dumps({'tie': tie}) + '\n')
            return te_prefix
        t = with_tie({'relative_ms': a['start_relative_ms'] - 1, 'threads': [a['thread'], a['thread'] + 1],
                      'activity_id': a['parent_activity_id']})
        run('activities', golden['activities'], 0, 'agree', te_prefix=t)
        run('activities', changed('activities', i, parent_activity_id=None), 0, 'agree', '1 records differ only as 1 same-time',
            te_prefix=t)
        other = with_tie({'relative_ms': a['start_relative_ms'] - 1, 'threads': [a['thread'], a['thread'] + 1],
                          'activity_id': '00000000-0000-0000-0000-0000000000ee'})
        run('activities', changed('activities', i, parent_activity_id=None), 1, 'parent_activity_id', te_prefix=other)
        run('activities', changed('activities', i, start_relative_ms=a['start_relative_ms'] + 0.01), 1,
            'start_relative_ms', te_prefix=t)
        elsewhere = with_tie({'relative_ms': a['start_relative_ms'] - 1, 'threads': [a['thread'] + 1, a['thread'] + 2],
                              'activity_id': a['parent_activity_id']})
        run('activities', changed('activities', i, parent_activity_id=None), 1, 'parent_activity_id', te_prefix=elsewhere)
        later = with_tie({'relative_ms': a['start_relative_ms'] + 1, 'threads': [a['thread'], a['thread'] + 1],
                          'activity_id': a['parent_activity_id']})
        run('activities', changed('activities', i, parent_activity_id=None), 1, 'parent_activity_id', te_prefix=later)
        # the tie's own id: an activity open at the tie may end or not
        o = first('activities', lambda r: r['is_complete'])
        ao = golden['activities'][o]
        t = with_tie({'relative_ms': ao['start_relative_ms'] + ao['duration_ms'] / 2, 'threads': [ao['thread'], 0],
                      'activity_id': ao['activity_id']})
        run('activities', changed('activities', o, is_complete=False), 0, 'agree', te_prefix=t)
        run('activities', changed('activities', o, provider='Else'), 1, 'missing in ntidx', te_prefix=t)

    print(f'analyses comparer: {failures} cases failed')
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
