"""The analyses through the Python module (Trace.gc() and its kin) against the command (`ntidx gc`).

usage: test_analysis.py NTIDX TRACES_DIR GEN_GC_TRACE   (the package on PYTHONPATH)

- Trace.gc() equals `ntidx gc --format jsonl` row for row and key for key, and Trace.gc(summary=True)
  `ntidx gc --summary`, on the real .NET Core 3.0 trace (478 GCs) and on generated traces of known GCs
  (gen_gc_trace: V5 and V6, a background GC, a GC cut off by the end, a bad payload, an end of no GC),
  for the whole trace and random windows and threads; df.attrs["stats"] equals the command's "stats".
- The columns are the contract's keys, typed (uint64, int64, float64, bool, categories); missing values
  are NaN; a window of nothing is an empty frame of the same columns and types.
- Methods are generated from the library's list: every analysis it has is a method, the contract's
  analyses it lacks raise NotImplementedError naming the analysis; ntidx.analyses() lists them.
- A damaged trace raises the module's errors (CorruptError with .file and .offset); a truncated one gives
  its GCs, the last incomplete, as the command does.
- The GIL is released while the library works.
"""

import bisect
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import unittest

import numpy as np
import pandas as pd

import ntidx

NTIDX = TRACES = GEN = TMP = None
OBJVER4 = "eventpipe-dotnetcore3.0-win-x64-objver4.nettrace"
CONTRACT = ["number", "generation", "type", "reason", "start_relative_ms", "duration_ms", "pause_start_relative_ms",
            "pause_duration_ms", "suspend_duration_ms", "heap_size_before_mb", "heap_size_after_mb", "promoted_mb",
            "is_complete", "pid"]
STATS = ["t0", "t1", "events", "field_errors", "unmatched", "incomplete", "regions", "units", "threads", "bytes_read",
         "blocks_read", "event_blocks_read", "lookahead_events", "lookahead_bytes"]


def run(*args, check=True):
    p = subprocess.run([NTIDX] + [str(a) for a in args], capture_output=True, text=True)
    if check and p.returncode != 0:
        raise AssertionError("ntidx %s exited %d: %s" % (" ".join(map(str, args)), p.returncode, p.stderr))
    return p


def cli_rows(path, *args):
    return [json.loads(line) for line in run("gc", path, "--format", "jsonl", *args).stdout.splitlines()]


def rows(df):
    """A frame's rows as the command's JSON gives them: NaN as None, numpy scalars as Python's."""
    out = []
    cols = list(df.columns)
    values = [df[c].astype(object).tolist() if isinstance(df[c].dtype, pd.CategoricalDtype) else df[c].tolist()
              for c in cols]
    for i in range(len(df)):
        r = {}
        for c, v in zip(cols, values):
            x = v[i]
            if x is pd.NA or (isinstance(x, float) and np.isnan(x)) or (x is not None and x != x):
                x = None
            r[c] = x
        out.append(r)
    return out


def gen(name, *args):
    path = os.path.join(TMP, name)
    if not os.path.exists(path):
        subprocess.run([GEN, path, *args], check=True)
    return path


def real(name):
    link = os.path.join(TMP, name)  # the index is written beside the link, never beside the shared trace
    if not os.path.exists(link):
        os.symlink(os.path.join(TRACES, name), link)
    return link


def traces():
    return [real(OBJVER4), gen("g6.nettrace", "--gcs", "30"), gen("g5.nettrace", "--gcs", "12", "--v5"),
            gen("g6cut.nettrace", "--gcs", "7", "--cut"), gen("g6none.nettrace")]


class Gc(unittest.TestCase):
    def assertFrameIs(self, df, want, what):
        got = rows(df)
        self.assertEqual(len(got), len(want), what)
        for g, w in zip(got, want):
            self.assertEqual(g, w, what)

    def test_whole_traces_equal_the_command(self):
        for path in traces():
            with ntidx.open(path) as t:
                df = t.gc(threads=1)
                self.assertFrameIs(df, cli_rows(path), path)
                self.assertFrameIs(t.gc(summary=True), cli_rows(path, "--summary"), path)
                self.assertFrameIs(t.gc(table="gc_summary"), cli_rows(path, "--summary"), path)
                doc = json.loads(run("gc", path, "--format", "json", "--threads", "1").stdout)
                self.assertEqual({k: df.attrs["stats"][k] for k in STATS}, {k: doc["stats"][k] for k in STATS}, path)
                self.assertEqual(df.attrs["analysis"], "gc")
                self.assertEqual(df.attrs["table"], "gc")
                self.assertEqual(df.attrs["trace"], path)
                # one run, every table
                both = t.analyze_tables("gc")
                self.assertEqual(list(both), ["gc", "gc_summary"])
                self.assertFrameIs(both["gc"], rows(df), path)

    def test_real_trace(self):
        with ntidx.open(real(OBJVER4)) as t:
            df = t.gc()
        self.assertEqual(len(df), 478)
        self.assertEqual(df.number.tolist(), list(range(1, 479)))
        self.assertTrue(df.is_complete.all())
        g = df.iloc[0]
        self.assertEqual((g.generation, g.type, g.reason, g.pid, g.ts, g.thread),
                         (0, "NonConcurrentGC", "AllocSmall", 10064, 100952297212, 12272))
        self.assertEqual(df.attrs["stats"]["field_errors"], 0)
        self.assertEqual(df.attrs["stats"]["incomplete"], 0)

    def test_columns_and_types(self):
        with ntidx.open(gen("g6cut.nettrace", "--gcs", "7", "--cut")) as t:
            df = t.gc()
            empty = t.gc(start="1ms", end="2ms")
        header = run("gc", gen("g6cut.nettrace"), "--format", "csv").stdout.splitlines()[0].split(",")
        self.assertEqual(list(df.columns), header)
        self.assertEqual(list(df.columns[:len(CONTRACT)]), CONTRACT)
        types = {"number": np.uint64, "generation": np.int64, "pid": np.uint64, "ts": np.uint64, "thread": np.uint64,
                 "pause_duration_ms": np.float64, "gen0_size_after_mb": np.float64, "is_complete": np.bool_}
        for c, ty in types.items():
            self.assertEqual(df[c].dtype, np.dtype(ty), c)
        for c in ("type", "reason"):
            self.assertIsInstance(df[c].dtype, pd.CategoricalDtype, c)
        # the known GCs of gen_gc_trace
        self.assertEqual(df.number.tolist(), list(range(1, 15)))
        self.assertEqual(df.generation.tolist()[:6], [0, 1, 2, 2, 1, 0])
        self.assertEqual(df.type.tolist()[:6], ["NonConcurrentGC", "NonConcurrentGC", "NonConcurrentGC",
                                                "BackgroundGC", "NonConcurrentGC", "ForegroundGC"])
        self.assertEqual(df.reason[2], "Induced")
        self.assertAlmostEqual(df.pause_duration_ms[2], 150.5, places=9)
        self.assertEqual(df.thread.tolist()[:3], [1001, 1002, 1003])
        last = df.iloc[-1]
        self.assertFalse(last.is_complete)
        self.assertTrue(np.isnan(last.gen0_size_after_mb))
        self.assertEqual(last.heap_size_after_mb, -1)
        s = df.attrs["stats"]
        self.assertEqual((s["field_errors"], s["unmatched"], s["incomplete"]), (1, 1, 1))
        # the generation of a summary row is a text: 0, 1, 2, all
        with ntidx.open(gen("g6cut.nettrace")) as t:
            self.assertEqual(t.gc(summary=True).generation.tolist(), [0, 1, 2, -1])
        # nothing in the window: the same columns, the same types
        self.assertEqual(len(empty), 0)
        self.assertEqual(list(empty.columns), list(df.columns))
        self.assertEqual(list(empty.dtypes[[c for c in df.columns if c not in ("type", "reason")]]),
                         list(df.dtypes[[c for c in df.columns if c not in ("type", "reason")]]))

    def test_windows_and_threads_equal_the_command(self):
        rnd = random.Random(30)
        found = 0
        for path in traces():
            with ntidx.open(path) as t:
                info = t.info()
                whole = cli_rows(path)
                span_ms = int(max((r["pause_start_relative_ms"] for r in whole), default=350)) + 50
                threads = sorted({r["thread"] for r in whole})
                for _ in range(8):
                    a = rnd.randrange(0, max(1, span_ms))
                    b = a + rnd.randrange(1, max(2, span_ms // 3))
                    args, kw = ["--from", "%dms" % a, "--to", "%dms" % b], {"start": "%dms" % a, "end": "%dms" % b}
                    if threads and rnd.random() < 0.5:
                        th = rnd.choice(threads)
                        args += ["--thread", str(th)]
                        kw["thread"] = th
                    want = cli_rows(path, *args)
                    self.assertFrameIs(t.gc(**kw), want, (path, kw))
                    found += len(want)
                    self.assertFrameIs(t.gc(summary=True, **kw), cli_rows(path, "--summary", *args), (path, kw))
                # a window in ticks and as a timedelta name the same GCs; no lookahead leaves GCs open
                tick = info["sync_ticks"] + info["tick_frequency"] // 5
                import datetime
                self.assertFrameIs(t.gc(end=tick), rows(t.gc(end=datetime.timedelta(milliseconds=200))), path)
                self.assertFrameIs(t.gc(end="200ms", lookahead=0), cli_rows(path, "--to", "200ms", "--lookahead", "0"),
                                   path)
        self.assertGreater(found, 50)  # the windows held GCs

    def test_bad_arguments(self):
        with ntidx.open(gen("g6.nettrace", "--gcs", "30")) as t:
            with self.assertRaises(ntidx.ArgumentError):
                t.gc(start="2ms", end="1ms")
            with self.assertRaises(ntidx.TimeError):
                t.gc(start="soon")
            with self.assertRaises(ntidx.ArgumentError):
                t.gc(table="nosuch")
            with self.assertRaises(ntidx.ArgumentError):
                t.gc(table="gc", summary=True)
            with self.assertRaises(ntidx.ArgumentError):
                t.gc(lookahead=-1)
            with self.assertRaises(ntidx.ArgumentError) as cm:
                t.analyze("gcc")
            self.assertIn("gc", str(cm.exception))
            with self.assertRaises(TypeError):
                t.gc(thread="main")
        with self.assertRaises(ValueError):
            t.gc()  # closed


class Generated(unittest.TestCase):
    """The methods come from the library's list."""

    def test_methods_follow_the_library(self):
        listed = ntidx.analyses()
        names = [a["name"] for a in listed]
        self.assertIn("gc", names)
        gc = listed[names.index("gc")]
        self.assertEqual(list(gc["tables"]), ["gc", "gc_summary"])
        self.assertEqual([c["name"] for c in gc["tables"]["gc"]][:len(CONTRACT)], CONTRACT)
        self.assertEqual(gc["tables"]["gc"][0]["type"], "uint")
        path = gen("g6.nettrace", "--gcs", "30")
        with ntidx.open(path) as t:
            for a in listed:
                df = getattr(t, a["method"])()
                self.assertEqual(list(df.columns), [c["name"] for c in a["tables"][next(iter(a["tables"]))]])
                self.assertEqual(df.attrs["analysis"], a["name"])
            contract = {"gc": "gc", "jit": "jit", "cpu": "cpu", "exceptions": "exceptions", "allocations": "alloc",
                        "contention": "contention", "activities": "activities"}
            for method, name in contract.items():
                self.assertTrue(callable(getattr(t, method)), method)
                if name not in names:
                    with self.assertRaises(NotImplementedError) as cm:
                        getattr(t, method)()
                    self.assertIn("the %s analysis is not in this build" % name, str(cm.exception))
                    with self.assertRaises(NotImplementedError):
                        t.analyze(name)
        self.assertIn("GCs", ntidx.Trace.gc.__doc__)


class BadInput(unittest.TestCase):
    def test_damaged_trace_raises(self):
        path = os.path.join(TMP, "damaged.nettrace")
        shutil.copyfile(gen("g6big.nettrace", "--gcs", "40"), path)
        size = os.path.getsize(path)
        with open(path, "r+b") as f:
            f.seek(size // 2)
            f.write(b"\xff" * 64)
        t = ntidx.open(path, build_index=False)  # the index is built inside gc(): its error is gc()'s
        with self.assertRaises(ntidx.CorruptError) as cm:
            t.gc()
        e = cm.exception
        self.assertEqual(e.file, path)
        self.assertIsInstance(e.offset, int)
        self.assertTrue(size // 2 - 70000 < e.offset < size // 2 + 70000, e.offset)
        t.close()

    def test_truncated_trace_keeps_its_gcs(self):
        src = gen("g6big.nettrace", "--gcs", "40")
        path = os.path.join(TMP, "truncated.nettrace")
        with open(src, "rb") as f, open(path, "wb") as g:
            g.write(f.read()[:os.path.getsize(src) * 2 // 3 + 5])
        with ntidx.open(path) as t:
            self.assertFalse(t.complete)
            df = t.gc()
        want = cli_rows(path)
        self.assertEqual(rows(df), want)
        self.assertTrue(10 < len(df) < 46, len(df))


class Threads(unittest.TestCase):
    def test_gil_released(self):
        t = ntidx.open(real(OBJVER4))
        calls = []

        # The switch interval is a second, longer than the whole test: a thread that holds the GIL keeps it
        # until it blocks or releases it. The main thread spins and gives the GIL back every few steps
        # (sleep(0)), so that a call returning gets it at once. If the library held the GIL, the worker would
        # keep it from its first call to its last (nothing in between blocks) and the main thread could take
        # no step inside any call. The calls are short (a few ms): on a loaded machine the main thread may not
        # be scheduled inside one of them even when the GIL is free, so there are many, and one is enough;
        # they stop well before the interval ends, which would force a switch.
        def work():
            t0 = time.perf_counter()
            while len(calls) < 20 and time.perf_counter() - t0 < 0.5:
                a = time.perf_counter()
                t._analyze("gc", None, None, None, None, 1)
                calls.append((a, time.perf_counter()))

        old = sys.getswitchinterval()
        sys.setswitchinterval(1.0)
        steps = []
        try:
            th = threading.Thread(target=work)
            th.start()
            while th.is_alive():
                steps.append(time.perf_counter())
                if len(steps) % 64 == 0:
                    time.sleep(0)
            th.join()
        finally:
            sys.setswitchinterval(old)
        inside = [bisect.bisect_right(steps, b) - bisect.bisect_left(steps, a) for a, b in calls]  # steps ascend
        self.assertGreater(max(inside), 1000, "the main thread stood still in every call (%.3f s in all): the GIL "
                           "was held" % sum(b - a for a, b in calls))
        # threads over one Trace get the one-thread answer
        want = rows(t.gc())
        got = [None] * 4

        def one(i):
            got[i] = rows(t.gc(threads=1))

        ths = [threading.Thread(target=one, args=(i,)) for i in range(4)]
        for x in ths:
            x.start()
        for x in ths:
            x.join()
        self.assertEqual(got, [want] * 4)
        t.close()


def main():
    global NTIDX, TRACES, GEN, TMP
    NTIDX, TRACES, GEN = sys.argv[1:4]
    TMP = tempfile.mkdtemp(prefix="ntidx-py-analysis-")
    try:
        unittest.main(argv=[sys.argv[0]] + sys.argv[4:], verbosity=2)
    finally:
        shutil.rmtree(TMP, ignore_errors=True)


if __name__ == "__main__":
    main()
