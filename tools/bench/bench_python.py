#!/usr/bin/python3
"""Benchmarks of the Python module and ntidx.dask (prints figures, asserts nothing; zstd -b style).

  frame TRACE [REPS]
      Trace.frame() of the whole trace, without fields and with three payload fields, against the C
      library reading the same events in the same run (tools/bench/bench_query: a time-order query over
      every event; the same into columns; the query with the payloads decoded and three fields looked up).
      Targets (issue 28): frame() without fields at least 60% of the C query's events/s, and with the three
      fields at least 70% of the C query decoding the same fields; both printed by one run. The C and
      Python runs alternate.

  dask [--reps N] TRACE...
      ntidx.dask.stats() of the traces on a distributed.LocalCluster of one worker process and of two (one
      thread each; the cluster started before the clock), same answer checked, against `ntidx stats` of
      each trace in a shell loop. Target: two workers at least 1.7x one.

usage: PYTHONPATH=build/tools/python /usr/bin/python3 tools/bench/bench_python.py MODE ...
       (run from the source folder after `ninja -C build`; build/tools/bench/bench_query, build/tools/ntidx)
"""

import os
import resource
import statistics
import subprocess
import sys
import time

import ntidx

HERE = os.path.dirname(os.path.abspath(__file__))
BUILD = os.environ.get("NTIDX_BUILD", os.path.join(HERE, "..", "..", "build"))
FIELDS = ["TypeName", "AllocationAmount64", "Count"]


def load():
    return open("/proc/loadavg").read().split()[0]


def timed(fn, reps):
    secs, out = [], None
    for _ in range(reps):
        t0 = time.perf_counter()
        out = fn()
        secs.append(time.perf_counter() - t0)
    return statistics.median(secs), out


def c_rate(trace, mode):
    """One run of bench_query in MODE: (events, seconds)."""
    out = subprocess.run([os.path.join(BUILD, "tools", "bench", "bench_query"), "-r", "1", "-f", ",".join(FIELDS),
                          trace, mode], capture_output=True, text=True, check=True).stdout.split()
    return int(out[1]), float(out[2])


def bench_frame(trace, reps):
    """The C runs and the Python runs alternate, so that both see the same machine (a shared machine's load
    and page cache drift over minutes); medians of each."""
    size = os.path.getsize(trace)
    with ntidx.open(trace) as t:  # the index built or loaded before any clock
        pass
    subprocess.run(["cat", trace], stdout=subprocess.DEVNULL, check=True)
    secs = {k: [] for k in ("events", "batch", "fields", "frame", "frame_fields")}
    n = rows = 0
    filled = {}
    mem = 0
    with ntidx.open(trace) as t:
        for _ in range(reps):
            for mode in ("events", "batch", "fields"):
                n, sec = c_rate(trace, mode)
                secs[mode].append(sec)
            t0 = time.perf_counter()
            df = t.frame()
            secs["frame"].append(time.perf_counter() - t0)
            rows, mem = len(df), df.memory_usage(deep=False).sum()
            del df
            t0 = time.perf_counter()
            df = t.frame(fields=FIELDS)
            secs["frame_fields"].append(time.perf_counter() - t0)
            filled = {f: int(df[f].notna().sum()) for f in FIELDS if f in df}
            del df
    m = {k: statistics.median(v) for k, v in secs.items()}
    rate = {k: n / v for k, v in m.items()}
    print("trace %s: %.2f GB, %d events, median of %d runs (C and Python runs alternating), load average %s"
          % (trace, size / 1e9, n, reps, load()))
    print("C query, every event:          %8.3f s  %12.0f events/s" % (m["events"], rate["events"]))
    print("C batch into columns:          %8.3f s  %12.0f events/s" % (m["batch"], rate["batch"]))
    print("Trace.frame(), no fields:      %8.3f s  %12.0f events/s  = %.0f%% of the C query (target >= 60%%); "
          "%d rows, %.0f MB" % (m["frame"], rate["frame"], 100 * rate["frame"] / rate["events"], rows, mem / 1e6))
    print("C query + 3 fields decoded:    %8.3f s  %12.0f events/s" % (m["fields"], rate["fields"]))
    print("Trace.frame(fields=3 fields):  %8.3f s  %12.0f events/s  = %.0f%% of the C query with fields (target >= 70%%); "
          "cells filled %s" % (m["frame_fields"], rate["frame_fields"], 100 * rate["frame_fields"] / rate["fields"],
                               filled))
    print("rows equal the C query's events: %s; peak RSS %.0f MB" %
          ("yes" if rows == n else "NO (%d != %d)" % (rows, n),
           resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024))


def bench_dask(traces, reps):
    """Both clusters are up before the clock and every measure is taken once per round, in turns (a shared
    machine's load drifts); medians of each."""
    import ntidx.dask
    from distributed import Client, LocalCluster

    total = sum(os.path.getsize(p) for p in traces)
    ntidx_bin = os.path.join(BUILD, "tools", "ntidx")
    for p in traces:  # indexes built, pages cached: every run below does the same work
        subprocess.run([ntidx_bin, "index", p], stdout=subprocess.DEVNULL, check=True)
        subprocess.run(["cat", p], stdout=subprocess.DEVNULL, check=True)

    def loop(*flags):
        script = "for f in \"$@\"; do \"$0\" stats \"$f\" --json %s >/dev/null; done" % " ".join(flags)
        t0 = time.perf_counter()
        subprocess.run(["bash", "-c", script, ntidx_bin] + traces, check=True)
        return time.perf_counter() - t0

    kw = dict(threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None, silence_logs=40)
    secs = {k: [] for k in ("w1", "w2", "loop", "t1", "t2")}
    answers = {}
    with LocalCluster(n_workers=1, **kw) as c1, LocalCluster(n_workers=2, **kw) as c2, \
            Client(c1, set_as_default=False) as k1, Client(c2, set_as_default=False) as k2:
        for k in (k1, k2):
            ntidx.dask.stats(traces[:1], client=k)  # workers warmed up (imports)
        for _ in range(reps):
            for name, client in (("w1", k1), ("w2", k2)):
                t0 = time.perf_counter()
                answers[name] = ntidx.dask.stats(traces, client=client)
                secs[name].append(time.perf_counter() - t0)
            secs["loop"].append(loop())
            # what this machine gives two cores' worth of work right now: the library's own threads
            secs["t1"].append(loop("--threads", "1"))
            secs["t2"].append(loop("--threads", "2"))
    m = {k: statistics.median(v) for k, v in secs.items()}
    gb = total / 1e9
    print("%d traces, %.2f GB, %d cores, median of %d rounds (every measure once per round, in turns), "
          "load average %s" % (len(traces), gb, os.cpu_count(), reps, load()))
    print("ntidx.dask.stats, 1 worker:     %8.3f s  %6.2f GB/s" % (m["w1"], gb / m["w1"]))
    print("ntidx.dask.stats, 2 workers:    %8.3f s  %6.2f GB/s  speed-up %.2fx (target >= 1.7x); same answer: %s"
          % (m["w2"], gb / m["w2"], m["w1"] / m["w2"], "yes" if answers["w1"] == answers["w2"] else "NO"))
    print("ntidx stats in a shell loop:    %8.3f s  %6.2f GB/s  (2 workers: %.2fx the loop's speed)"
          % (m["loop"], gb / m["loop"], m["loop"] / m["w2"]))
    print("machine now: ntidx stats loop --threads 1 %.3f s, --threads 2 %.3f s: %.2fx (what two cores give the "
          "C library in these rounds)" % (m["t1"], m["t2"], m["t1"] / m["t2"]))
    print("total events %d" % answers["w2"]["total"]["events"])


def main():
    if len(sys.argv) < 3 or sys.argv[1] not in ("frame", "dask"):
        sys.exit(__doc__)
    if sys.argv[1] == "frame":
        bench_frame(sys.argv[2], int(sys.argv[3]) if len(sys.argv) > 3 else 3)
    else:
        args, reps = sys.argv[2:], 3
        if args[0] == "--reps":
            reps, args = int(args[1]), args[2:]
        bench_dask(args, reps)


if __name__ == "__main__":
    main()
