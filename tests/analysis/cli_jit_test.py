#!/usr/bin/env python3
"""`ntidx jit`: its outputs (text, jsonl, csv, json), the contract's keys, windows and their lookahead,
the thread filter, the same answer on one and two threads and over a --full index (with fewer bytes
read), usage errors; the methods held against the trace's own events (`ntidx query`).

usage: cli_jit_test.py NTIDX TRACES_DIR GOLDEN_TRACE
"""
import csv
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

NTIDX = TRACES = GOLDEN = None
TRACE = "eventpipe-dotnetcore3.0-win-x64-objver4.nettrace"
KEYS = ["method_name", "il_size", "native_size", "jit_time_ms", "optimization_tier", "start_relative_ms"]


def run(*args, check=True):
    p = subprocess.run([NTIDX, *args], capture_output=True, text=True)
    if check and p.returncode != 0:
        raise AssertionError(f"ntidx {' '.join(args)} exited {p.returncode}: {p.stderr}")
    return p


class Jit(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        # copies: the index is written beside the trace, never beside the shared one
        cls.tmp = tempfile.mkdtemp()
        cls.trace = os.path.join(cls.tmp, TRACE)
        shutil.copyfile(os.path.join(TRACES, TRACE), cls.trace)
        cls.golden = os.path.join(cls.tmp, "analyses.nettrace")
        shutil.copyfile(GOLDEN, cls.golden)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)

    def methods(self, trace, *args):
        out = run("jit", trace, "--format", "jsonl", *args).stdout
        return [json.loads(line) for line in out.splitlines()]

    def test_jsonl_keys_and_values(self):
        ms = self.methods(self.golden)
        self.assertEqual(len(ms), 390)
        for m in ms:
            for k in KEYS + ["is_complete", "pid", "thread", "ts", "version_id", "compilation_thread_kind"]:
                self.assertIn(k, m)
        # the first method, as the trace's events say (ntidx query: Method/JittingStarted at 55.611787 ms,
        # its Method/LoadVerbose 2.650787 ms later, MethodSize 1066, MethodFlags 398: tier bits 3, QuickJitted)
        m = ms[0]
        self.assertEqual(m["method_name"], "System.RuntimeType+IGenericCacheEntry`1[System.__Canon]"
                                           ".CreateAndCache(class System.RuntimeType)")
        self.assertEqual((m["il_size"], m["native_size"], m["optimization_tier"], m["is_complete"]),
                         (165, 1066, "QuickJitted", True))
        self.assertAlmostEqual(m["start_relative_ms"], 55.611787, places=6)
        self.assertAlmostEqual(m["jit_time_ms"], 2.650787, places=6)
        self.assertEqual(m["ts"], 2058432283515)
        tiers = {m["optimization_tier"] for m in ms}
        self.assertTrue({"QuickJitted", "OptimizedTier1", "OptimizedTier1OSR", "OptimizedTier1Instrumented"} <= tiers)
        self.assertTrue(all(m["version_id"] > 0 for m in ms if m["optimization_tier"] == "OptimizedTier1Instrumented"))

    def test_against_the_events(self):
        """One record per Method/JittingStarted, in their order, named and sized by them."""
        evs = [json.loads(l) for l in run("query", self.trace, "--format", "jsonl", "--event",
                                          "Method/JittingStarted").stdout.splitlines()]
        ms = self.methods(self.trace)
        self.assertEqual(len(evs), len(ms))
        for e, m in zip(evs, ms):
            f = e["fields"]
            sig = f["MethodSignature"]
            self.assertEqual(m["method_name"], f["MethodNamespace"] + "." + f["MethodName"] + sig[sig.index("("):])
            self.assertEqual(m["il_size"], f["MethodILSize"])
            self.assertEqual(m["ts"], e["ts"])
            self.assertEqual(m["thread"], e["thread"])

    def test_csv_summary_json_and_text(self):
        rows = list(csv.DictReader(io.StringIO(run("jit", self.golden, "--format", "csv").stdout)))
        self.assertEqual(len(rows), 390)
        self.assertEqual(list(rows[0].keys())[:len(KEYS)], KEYS)
        summary = [json.loads(l) for l in run("jit", self.golden, "--format", "jsonl", "--summary").stdout.splitlines()]
        self.assertEqual(summary[-1]["optimization_tier"], "all")
        self.assertEqual(summary[-1]["count"], 390)
        self.assertEqual(sum(s["count"] for s in summary[:-1]), 390)
        self.assertAlmostEqual(summary[-1]["total_jit_time_ms"], sum(float(r["jit_time_ms"]) for r in rows), places=6)
        self.assertEqual(summary[-1]["total_il_size"], sum(int(r["il_size"]) for r in rows))
        d = json.loads(run("jit", self.golden, "--format", "json").stdout)
        self.assertEqual(d["analysis"], "jit")
        self.assertEqual(len(d["jit"]), 390)
        self.assertEqual(d["jit_summary"], summary)
        self.assertEqual((d["stats"]["events"], d["stats"]["unmatched"], d["stats"]["incomplete"]), (780, 0, 0))
        text = run("jit", self.golden).stdout
        lines = text.splitlines()
        self.assertTrue(lines[0].startswith("390 methods JIT-compiled in "), lines[0])
        self.assertTrue(any(l.split()[:2] == ["all", "390"] for l in lines), text[:800])
        self.assertTrue(any("CreateAndCache(class System.RuntimeType)" in l for l in lines))
        self.assertIn("780 events read", lines[-1])
        self.assertFalse(any(l != l.rstrip() for l in lines))

    def test_window_thread_and_threads(self):
        everything = self.methods(self.trace)
        self.assertEqual(len(everything), 54)
        self.assertEqual(sum(not m["is_complete"] for m in everything), 1)
        # a window's methods are the whole trace's that began in it: their loads are found past its end
        window = self.methods(self.trace, "--from", "1s", "--to", "3s")
        self.assertEqual(window, [m for m in everything if 1000 <= m["start_relative_ms"] < 3000])
        self.assertEqual(len(window), 23)
        # without a lookahead, those loaded past the window's end stay open
        cut = self.methods(self.trace, "--from", "1s", "--to", "1.2s", "--lookahead", "0")
        later = [m for m in everything if 1000 <= m["start_relative_ms"] < 1200]
        self.assertEqual(len(cut), len(later))
        for c, m in zip(cut, later):
            done = m["start_relative_ms"] + m["jit_time_ms"] < 1200
            self.assertEqual(c["is_complete"], done)
        by_thread = {}
        for m in everything:
            by_thread.setdefault(m["thread"], []).append(m)
        th, ms = max(by_thread.items(), key=lambda kv: len(kv[1]))
        self.assertEqual(self.methods(self.trace, "--thread", str(th)), ms)
        self.assertEqual(run("jit", self.trace, "--format", "jsonl", "--threads", "1").stdout,
                         run("jit", self.trace, "--format", "jsonl", "--threads", "2").stdout)

    def test_full_index_reads_less(self):
        full = os.path.join(self.tmp, "full.ntidx")
        run("index", self.trace, "--full", "-o", full)
        plain = json.loads(run("jit", self.trace, "--format", "json").stdout)
        pruned = json.loads(run("jit", self.trace, "--format", "json", "--index", full).stdout)
        self.assertEqual(plain["jit"], pruned["jit"])
        self.assertLess(pruned["stats"]["bytes_read"], plain["stats"]["bytes_read"])

    def test_rows_formatted_on_threads(self):
        # A table of more rows than the command formats in one chunk (tools/analysis_print.c): on one thread and
        # on four, every format the same bytes but for the statistics, which say how many threads ran.
        big = os.path.join(self.tmp, "big.nettrace")
        run("gen", "-o", big, "--size", "64M", "--seed", "3")
        rows = self.methods(big, "--threads", "1")
        self.assertGreater(len(rows), 3 * 2048)
        # Two processes whose compilations interleave in the trace: rows by process, then in the order they began
        # (the generator's, their start times), whatever the merge found.
        pids = [r["pid"] for r in rows]
        self.assertGreater(len(set(pids)), 1)
        self.assertEqual(pids, sorted(pids))
        for a, b in zip(rows, rows[1:]):
            if a["pid"] == b["pid"]:
                self.assertLessEqual(a["ts"], b["ts"])

        def body(fmt, threads):
            out = run("jit", big, "--format", fmt, "--threads", threads).stdout
            if fmt == "json":
                return out[:out.index(',"stats":')]
            return "\n".join(line for line in out.splitlines() if "events read" not in line)

        for fmt in ("jsonl", "csv", "json", "text"):
            with self.subTest(fmt=fmt):
                one = body(fmt, "1")
                self.assertEqual(body(fmt, "4"), one)
                self.assertGreaterEqual(len(one.splitlines()) if fmt != "json" else one.count('"method_name"'), len(rows))
        self.assertEqual(self.methods(big, "--threads", "4"), rows)

    def test_usage_and_bad_input(self):
        self.assertEqual(run("jit", self.trace, "--thread", "x", check=False).returncode, 2)
        self.assertEqual(run("jit", self.trace, "--lookahead", "-1", check=False).returncode, 2)
        self.assertEqual(run("jit", self.trace, "--format", "xml", check=False).returncode, 2)
        self.assertEqual(run("jit", check=False).returncode, 2)
        bad = os.path.join(self.tmp, "not-a-trace")
        with open(bad, "wb") as f:
            f.write(b"hello, this is not a trace at all" * 10)
        p = run("jit", bad, check=False)
        self.assertEqual(p.returncode, 1)
        self.assertIn("not-a-trace", p.stderr)
        self.assertIn("--lookahead", run("jit", "--help").stdout)


if __name__ == "__main__":
    NTIDX, TRACES, GOLDEN = sys.argv[1], sys.argv[2], sys.argv[3]
    unittest.main(argv=sys.argv[:1], verbosity=2)
