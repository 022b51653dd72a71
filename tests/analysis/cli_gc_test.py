#!/usr/bin/env python3
"""`ntidx gc`: its outputs (text, jsonl, csv, json), the contract's keys, windows, the thread
filter, the same answer on one and two threads and over a --full index (with fewer bytes read),
usage errors; the GCs held against the trace's own events (`ntidx query`).

usage: cli_gc_test.py NTIDX TRACES_DIR
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

NTIDX = TRACES = None
TRACE = "eventpipe-dotnetcore3.0-win-x64-objver4.nettrace"
KEYS = ["number", "generation", "type", "reason", "start_relative_ms", "duration_ms", "pause_start_relative_ms",
        "pause_duration_ms", "suspend_duration_ms", "heap_size_before_mb", "heap_size_after_mb", "promoted_mb",
        "is_complete", "pid"]
SUMMARY_KEYS = ["pid", "generation", "count", "num_induced", "total_pause_time_ms", "mean_pause_duration_ms",
                "max_pause_duration_ms", "max_suspend_duration_ms", "gc_pause_time_percentage", "total_allocated_mb",
                "total_promoted_mb", "process_duration_ms"]


def run(*args, check=True):
    p = subprocess.run([NTIDX, *args], capture_output=True, text=True)
    if check and p.returncode != 0:
        raise AssertionError(f"ntidx {' '.join(args)} exited {p.returncode}: {p.stderr}")
    return p


class Gc(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        # a copy: the index is written beside the trace, never beside the shared one
        cls.tmp = tempfile.mkdtemp()
        cls.trace = os.path.join(cls.tmp, TRACE)
        shutil.copyfile(os.path.join(TRACES, TRACE), cls.trace)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)

    def gcs(self, *args):
        out = run("gc", self.trace, "--format", "jsonl", *args).stdout
        return [json.loads(line) for line in out.splitlines()]

    def test_jsonl_keys_and_values(self):
        gcs = self.gcs()
        self.assertEqual(len(gcs), 478)
        for g in gcs:
            for k in KEYS:
                self.assertIn(k, g)
        self.assertEqual([g["number"] for g in gcs], list(range(1, 479)))
        g = gcs[0]
        self.assertEqual((g["generation"], g["type"], g["reason"], g["is_complete"], g["pid"]),
                         (0, "NonConcurrentGC", "AllocSmall", True, 10064))
        self.assertIsInstance(g["pause_duration_ms"], float)
        self.assertEqual(g["ts"], 100952297212)
        self.assertEqual(g["thread"], 12272)
        self.assertEqual(g["heap_size_after_mb"], 0.245416)
        self.assertEqual(g["promoted_mb"], 0.175504)

    def test_against_the_events(self):
        """Each GC's pause is RestartEE/Stop - SuspendEE/Start of its GC's thread, from `ntidx query`."""
        evs = [json.loads(l) for l in run("query", self.trace, "--format", "jsonl", "--order", "time",
                                          "--provider", "Microsoft-Windows-DotNETRuntime").stdout.splitlines()]
        freq, sync = 3124099, 100935252313
        ms = lambda ts: (ts - sync) * 1000.0 / freq
        starts = [e for e in evs if e["event_name"] == "GC/Start"]
        gcs = self.gcs()
        self.assertEqual(len(starts), len(gcs))
        checked = 0
        for i, e in enumerate(evs):
            if e["event_name"] != "GC/Start" or checked == 20:
                continue
            th = e["thread"]
            susp = next(x for x in reversed(evs[:i]) if x["event_name"] == "GC/SuspendEEStart"
                        and x["thread"] == th and x["fields"]["Reason"] == 1)
            restart = next(x for x in evs[i:] if x["event_name"] == "GC/RestartEEStop" and x["thread"] == th)
            stop = next(x for x in evs[i:] if x["event_name"] == "GC/Stop")
            g = gcs[checked]
            self.assertEqual(g["number"], e["fields"]["Count"])
            self.assertAlmostEqual(g["pause_start_relative_ms"], ms(susp["ts"]), places=9)
            self.assertAlmostEqual(g["pause_duration_ms"], ms(restart["ts"]) - ms(susp["ts"]), places=9)
            self.assertAlmostEqual(g["duration_ms"], ms(stop["ts"]) - ms(e["ts"]), places=9)
            checked += 1
        self.assertEqual(checked, 20)

    def test_csv_and_summary(self):
        rows = list(csv.DictReader(io.StringIO(run("gc", self.trace, "--format", "csv").stdout)))
        self.assertEqual(len(rows), 478)
        self.assertEqual(list(rows[0].keys())[:len(KEYS)], KEYS)
        self.assertEqual(rows[0]["is_complete"], "true")
        summary = list(csv.DictReader(io.StringIO(run("gc", self.trace, "--format", "csv", "--summary").stdout)))
        self.assertEqual([r["generation"] for r in summary], ["0", "1", "2", "-1"])
        for k in SUMMARY_KEYS:
            self.assertIn(k, summary[0])
        self.assertEqual(int(summary[3]["count"]), 478)
        self.assertEqual(int(summary[0]["count"]) + int(summary[1]["count"]) + int(summary[2]["count"]), 478)
        self.assertEqual(summary[2]["mean_pause_duration_ms"], "")  # no gen2 GC: no mean
        total = sum(float(r["pause_duration_ms"]) for r in rows)
        self.assertAlmostEqual(float(summary[3]["total_pause_time_ms"]), total, places=6)
        lines = [json.loads(l) for l in run("gc", self.trace, "--format", "jsonl", "--summary").stdout.splitlines()]
        self.assertEqual(len(lines), 4)
        self.assertIsNone(lines[2]["mean_pause_duration_ms"])

    def test_json_and_text(self):
        d = json.loads(run("gc", self.trace, "--format", "json").stdout)
        self.assertEqual(d["analysis"], "gc")
        self.assertEqual(len(d["gc"]), 478)
        self.assertEqual(len(d["gc_summary"]), 4)
        for k in ("events", "field_errors", "unmatched", "incomplete", "bytes_read", "regions", "units"):
            self.assertIn(k, d["stats"])
        self.assertEqual(d["stats"]["field_errors"], 0)
        text = run("gc", self.trace).stdout
        lines = text.splitlines()
        self.assertTrue(lines[0].startswith("478 GCs; "), lines[0])
        self.assertTrue(any(l.split()[:2] == ["All", "478"] for l in lines), text[:500])
        first = next(l for l in lines if l.split()[:2] == ["1", "0N"])
        self.assertIn("AllocSmall", first)
        self.assertIn("55278 events read", lines[-1])
        self.assertFalse(any(l != l.rstrip() for l in lines))

    def test_window_thread_and_threads(self):
        window = self.gcs("--from", "10s", "--to", "10.5s")
        self.assertEqual([g["number"] for g in window], list(range(76, 85)))
        everything = self.gcs()
        # the window's second GC is the whole trace's (its first differs: what it allocated counts from the
        # window's start, as for a trace's first GC)
        self.assertEqual(window[1], everything[76])
        by_thread = {}
        for g in everything:
            by_thread.setdefault(g["thread"], []).append(g["number"])
        th, numbers = max(by_thread.items(), key=lambda kv: len(kv[1]))
        self.assertEqual([g["number"] for g in self.gcs("--thread", str(th))], numbers)
        self.assertEqual(run("gc", self.trace, "--format", "jsonl", "--threads", "1").stdout,
                         run("gc", self.trace, "--format", "jsonl", "--threads", "2").stdout)

    def test_full_index_reads_less(self):
        full = os.path.join(self.tmp, "full.ntidx")
        run("index", self.trace, "--full", "-o", full)
        plain = json.loads(run("gc", self.trace, "--format", "json").stdout)
        pruned = json.loads(run("gc", self.trace, "--format", "json", "--index", full).stdout)
        self.assertEqual(plain["gc"], pruned["gc"])
        self.assertLessEqual(pruned["stats"]["bytes_read"], plain["stats"]["bytes_read"])

    def test_usage_and_bad_input(self):
        self.assertEqual(run("gc", self.trace, "--thread", "x", check=False).returncode, 2)
        self.assertEqual(run("gc", self.trace, "--lookahead", "-1", check=False).returncode, 2)
        self.assertEqual(run("gc", self.trace, "--format", "xml", check=False).returncode, 2)
        self.assertEqual(run("gc", check=False).returncode, 2)
        bad = os.path.join(self.tmp, "not-a-trace")
        with open(bad, "wb") as f:
            f.write(b"hello, this is not a trace at all" * 10)
        p = run("gc", bad, check=False)
        self.assertEqual(p.returncode, 1)
        self.assertIn("not-a-trace", p.stderr)
        self.assertIn("--lookahead", run("gc", "--help").stdout)


if __name__ == "__main__":
    NTIDX, TRACES = sys.argv[1], sys.argv[2]
    unittest.main(argv=sys.argv[:1], verbosity=2)
