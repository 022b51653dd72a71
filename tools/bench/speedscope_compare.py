#!/usr/bin/env python3
"""Samples per frame: ntidx's speedscope export against TraceEvent's CPU samples.

    speedscope_compare.py TRACEEVENT_SAMPLES NTIDX_SPEEDSCOPE

TRACEEVENT_SAMPLES is `dumper samples TRACE ETLX` (tests/dotnet/dumper): TraceEvent's samples as
dotnet-trace's speedscope export builds them (TraceLog and SampleProfilerThreadTimeComputer), each
frame's inclusive and self sample counts. dotnet-trace's .speedscope.json itself weighs samples by
thread time (an "evented" profile of open/close times), which is not a count, hence this route.
NTIDX_SPEEDSCOPE is `ntidx export --format speedscope` of the same trace: an "evented" profile per
thread, each sample at its time and lasting the sampling interval, so every open/close span of a
frame is a whole number of samples (samples_of() recovers them; a "sampled" profile, weight 1 per
sample, is read as it is).

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


def spans(profile):
    """An evented profile's (start, end, stack) spans: the stack (frame indices, root first) open from
    start to end, for every stretch of time in which some frame is open."""
    out, stack, at = [], [], None
    for e in profile['events']:
        if stack and e['at'] > at:
            out.append((at, e['at'], tuple(stack)))
        at = e['at']
        if e['type'] == 'O':
            stack.append(e['frame'])
        else:
            if not stack or stack[-1] != e['frame']:
                raise ValueError(f'{profile["name"]}: close of frame {e["frame"]} at {at} does not match the open one')
            stack.pop()
    if stack:
        raise ValueError(f'{profile["name"]}: frames left open at the end')
    return out


def interval_of(profiles):
    """The sampling interval of ntidx's evented profiles: every span is a whole number of intervals, and
    the shortest is one."""
    lengths = [b - a for p in profiles if p['type'] == 'evented' for a, b, _ in spans(p)]
    return min(lengths) if lengths else 1.0


def samples_of(profile, interval):
    """A profile's samples as (start, stack, weight): an evented profile's spans cut into samples of one
    interval; a sampled profile's samples, laid out from startValue."""
    if profile['type'] == 'sampled':
        out, at = [], profile['startValue']
        for s, w in zip(profile['samples'], profile['weights']):
            out.append((at, tuple(s), w))
            at += w
        return out
    out = []
    for a, b, stack in spans(profile):
        k = round((b - a) / interval)
        if k < 1 or abs((b - a) - k * interval) > 1e-5 * max(1.0, k):
            raise ValueError(f'{profile["name"]}: a span of {b - a} ms is not a whole number of {interval} ms samples')
        out += [(a + i * interval, stack, 1) for i in range(k)]
    return out


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
    interval = interval_of(nt['profiles'])
    for p in nt['profiles']:
        m = re.search(r'(\d+)\)?$', p['name'])
        tid = int(m.group(1)) if m else -1
        samples = [(stack, w) for _, stack, w in samples_of(p, interval)]
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
