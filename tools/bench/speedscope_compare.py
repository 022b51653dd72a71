#!/usr/bin/env python3
"""Samples per frame: ntidx's speedscope export against TraceEvent's CPU samples.

    speedscope_compare.py TRACEEVENT_SAMPLES NTIDX_SPEEDSCOPE

TRACEEVENT_SAMPLES is `dumper samples TRACE ETLX` (tests/dotnet/dumper): TraceEvent's samples as
dotnet-trace's speedscope export builds them (TraceLog and SampleProfilerThreadTimeComputer), each
frame's inclusive and self sample counts. dotnet-trace's .speedscope.json itself weighs samples by
thread time (an "evented" profile of open/close times), which is not a count, hence this route.
NTIDX_SPEEDSCOPE is `ntidx export --format speedscope` of the same trace (a "sampled" profile per
thread, weight 1 per sample).

TraceEvent's thread-time computer logs each sample when the thread's next one arrives, so a thread's
last sample is missing there unless something closes the thread (the main thread's is kept): per
thread, ntidx's samples are taken whole, or without the last one, whichever matches TraceEvent's
count for that thread ("Thread (TID)" frame). Then every frame must have the same inclusive and
self counts (TraceEvent's own frames, process, thread and the like, have no "!" and are left out).
Prints the figures; exit status 0 when every frame agrees.
"""
import collections
import json
import re
import sys


def main():
    te = json.load(open(sys.argv[1], encoding='utf-8'))
    nt = json.load(open(sys.argv[2], encoding='utf-8'))
    te_frames = te['frames']
    te_thread = {}
    for name, (inc, _self) in te_frames.items():
        m = re.match(r'Thread \((\d+)\)', name)
        if m:
            te_thread[int(m.group(1))] = te_thread.get(int(m.group(1)), 0) + inc
    names = [f['name'] for f in nt['shared']['frames']]
    inc, self_ = collections.Counter(), collections.Counter()
    total = trimmed = 0
    for p in nt['profiles']:
        m = re.search(r'(\d+)$', p['name'])
        tid = int(m.group(1)) if m else -1
        samples = list(zip(p['samples'], p['weights']))
        n = sum(w for _, w in samples)
        # a thread whose one sample was its last has no "Thread (TID)" frame at all in TraceEvent's
        if samples and te_thread.get(tid, 0) == n - samples[-1][1]:
            samples = samples[:-1]
            trimmed += 1
        for s, w in samples:
            total += w
            for f in set(s):
                inc[names[f]] += w
            if s:
                self_[names[s[-1]]] += w
    code = {k: v for k, v in te_frames.items() if '!' in k}
    frames = set(code) | set(inc)
    differ = [(k, code.get(k, [0, 0]), [inc[k], self_[k]]) for k in sorted(frames)
              if code.get(k, [0, 0]) != [inc[k], self_[k]]]
    print(f'speedscope: TraceEvent {te["samples"]} samples, ntidx {total} ({trimmed} threads without their '
          f'last sample, as TraceEvent); {len(frames)} frames, {len(frames) - len(differ)} with equal inclusive '
          f'and self counts, {len(differ)} differ')
    for k, a, b in differ[:20]:
        print(f'  {k[:100]}: traceevent {a} ntidx {b}')
    return 0 if not differ and te['samples'] == total else 1


if __name__ == '__main__':
    sys.exit(main())
