#!/usr/bin/env python3
"""`ntidx alloc`: its outputs (text, jsonl, csv, json), the contract's keys, windows, the thread filter,
the same answer on one and two threads and over a --full index (with fewer bytes read), usage errors;
the sums held against the trace's own GC/AllocationTick events (`ntidx query`).

usage: cli_alloc_test.py NTIDX TRACES_DIR GOLDEN_TRACE
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
from collections import defaultdict

NTIDX = TRACES = GOLDEN = None
TRACE = "eventpipe-dotnetcore3.0-win-x64-objver4.nettrace"
KEYS = ["type_name", "kind", "count", "bytes"]
KINDS = {0: "Small", 1: "Large", 2: "Pinned"}


def run(*args, check=True):
    p = subprocess.run([NTIDX, *args], capture_output=True, text=True)
    if check and p.returncode != 0:
        raise AssertionError(f"ntidx {' '.join(args)} exited {p.returncode}: {p.stderr}")
    return p


class Alloc(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp()
        cls.trace = os.path.join(cls.tmp, TRACE)
        shutil.copyfile(os.path.join(TRACES, TRACE), cls.trace)
        cls.golden = os.path.join(cls.tmp, "analyses.nettrace")
        shutil.copyfile(GOLDEN, cls.golden)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)

    def rows(self, trace, *args):
        return [json.loads(l) for l in run("alloc", trace, "--format", "jsonl", *args).stdout.splitlines()]

    def ticks(self, trace, *args):
        """The sums per (type, kind) of the trace's own ticks, and their threads."""
        evs = [json.loads(l) for l in run("query", trace, "--format", "jsonl", "--event", "GC/AllocationTick",
                                          *args).stdout.splitlines()]
        sums = defaultdict(lambda: [0, 0])
        for e in evs:
            f = e["fields"]
            s = sums[(f["TypeName"], KINDS[f["AllocationKind"]])]
            s[0] += 1
            s[1] += f["AllocationAmount64"]
        return {k: tuple(v) for k, v in sums.items()}, evs

    def as_sums(self, rows):
        return {(r["type_name"], r["kind"]): (r["count"], r["bytes"]) for r in rows}

    def test_against_the_events(self):
        for trace in (self.trace, self.golden):
            rows = self.rows(trace)
            for r in rows:
                for k in KEYS:
                    self.assertIn(k, r)
            want, _ = self.ticks(trace)
            self.assertEqual(self.as_sums(rows), want)
            self.assertEqual([r["bytes"] for r in rows], sorted((r["bytes"] for r in rows), reverse=True))
        kinds = {r["kind"] for r in self.rows(self.golden)}
        self.assertEqual(kinds, {"Small", "Large", "Pinned"})

    def test_csv_summary_json_and_text(self):
        rows = list(csv.DictReader(io.StringIO(run("alloc", self.golden, "--format", "csv").stdout)))
        self.assertEqual(list(rows[0].keys())[:len(KEYS)], KEYS)
        self.assertEqual(len(rows), 19)
        summary = [json.loads(l) for l in run("alloc", self.golden, "--format", "jsonl", "--summary").stdout.splitlines()]
        self.assertEqual([s["kind"] for s in summary], ["Small", "Large", "Pinned", "all"])
        self.assertEqual(summary[-1]["count"], sum(int(r["count"]) for r in rows))
        self.assertEqual(summary[-1]["bytes"], sum(int(r["bytes"]) for r in rows))
        d = json.loads(run("alloc", self.golden, "--format", "json").stdout)
        self.assertEqual(d["analysis"], "alloc")
        self.assertEqual(d["alloc_summary"], summary)
        self.assertEqual(d["stats"]["events"], 1271)
        text = run("alloc", self.golden).stdout
        lines = text.splitlines()
        self.assertTrue(lines[0].startswith("1271 allocation ticks, "), lines[0])
        first = next(l for l in lines if l.endswith("System.Byte[]"))
        self.assertEqual(first.split()[:3], ["711", "75.705", "Small"])
        self.assertFalse(any(l != l.rstrip() for l in lines))

    def test_window_thread_and_threads(self):
        window = self.rows(self.trace, "--from", "10s", "--to", "12s")
        want, evs = self.ticks(self.trace, "--from", "10s", "--to", "12s")
        self.assertEqual(self.as_sums(window), want)
        threads = defaultdict(int)
        for e in evs:
            threads[e["thread"]] += 1
        th = max(threads, key=threads.get)
        want, _ = self.ticks(self.trace, "--from", "10s", "--to", "12s", "--thread", str(th))
        self.assertEqual(self.as_sums(self.rows(self.trace, "--from", "10s", "--to", "12s", "--thread", str(th))), want)
        self.assertEqual(run("alloc", self.trace, "--format", "jsonl", "--threads", "1").stdout,
                         run("alloc", self.trace, "--format", "jsonl", "--threads", "2").stdout)

    def test_full_index_reads_less(self):
        full = os.path.join(self.tmp, "full.ntidx")
        run("index", self.golden, "--full", "-o", full)
        plain = json.loads(run("alloc", self.golden, "--format", "json").stdout)
        pruned = json.loads(run("alloc", self.golden, "--format", "json", "--index", full).stdout)
        self.assertEqual(plain["alloc"], pruned["alloc"])
        self.assertLessEqual(pruned["stats"]["bytes_read"], plain["stats"]["bytes_read"])

    def test_usage_and_bad_input(self):
        self.assertEqual(run("alloc", self.trace, "--thread", "x", check=False).returncode, 2)
        self.assertEqual(run("alloc", self.trace, "--format", "xml", check=False).returncode, 2)
        self.assertEqual(run("alloc", check=False).returncode, 2)
        bad = os.path.join(self.tmp, "not-a-trace")
        with open(bad, "wb") as f:
            f.write(b"hello, this is not a trace at all" * 10)
        p = run("alloc", bad, check=False)
        self.assertEqual(p.returncode, 1)
        self.assertIn("not-a-trace", p.stderr)
        self.assertIn("--summary", run("alloc", "--help").stdout)


if __name__ == "__main__":
    NTIDX, TRACES, GOLDEN = sys.argv[1], sys.argv[2], sys.argv[3]
    unittest.main(argv=sys.argv[:1], verbosity=2)
