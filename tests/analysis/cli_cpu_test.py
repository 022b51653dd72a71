#!/usr/bin/env python3
"""`ntidx cpu`: its outputs (text, jsonl, csv, json), the contract's keys, TraceEvent's frame names,
windows and the thread filter held against the trace's own samples (`ntidx query`), --by-thread,
callers and callees, the same answer on one and two threads and over a --full index (with fewer
bytes read), usage errors.

usage: cli_cpu_test.py NTIDX TRACES_DIR
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
SAMPLER = "Microsoft-DotNETCore-SampleProfiler"
KEYS = ["method", "inclusive", "exclusive", "inclusive_ms", "exclusive_ms", "inclusive_percent", "exclusive_percent"]
MAIN = "ManagedModule!EventGenerator.Program.Main(class System.String[])"
LAMBDA = "ManagedModule!EventGenerator.Program+<>c__DisplayClass1_0.<Main>b__0()"


def run(*args, check=True):
    p = subprocess.run([NTIDX, *args], capture_output=True, text=True)
    if check and p.returncode != 0:
        raise AssertionError(f"ntidx {' '.join(args)} exited {p.returncode}: {p.stderr}")
    return p


class Cpu(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        # a copy: the index is written beside the trace, never beside the shared one
        cls.tmp = tempfile.mkdtemp()
        cls.trace = os.path.join(cls.tmp, TRACE)
        shutil.copyfile(os.path.join(TRACES, TRACE), cls.trace)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)

    def rows(self, *args):
        out = run("cpu", self.trace, "--format", "jsonl", *args).stdout
        return [json.loads(line) for line in out.splitlines()]

    def samples(self, *args):
        """The trace's own Thread/Sample events (of a window, a thread), from `ntidx query`."""
        out = run("query", self.trace, "--format", "jsonl", "--provider", SAMPLER, "--event", "0", *args).stdout
        return [json.loads(line) for line in out.splitlines()]

    def test_jsonl_keys_and_values(self):
        rows = self.rows()
        self.assertEqual(len(rows), 22)
        for r in rows:
            self.assertEqual(list(r)[:len(KEYS)], KEYS)
            self.assertNotIn("thread", r)
            self.assertEqual(r["inclusive_ms"], r["inclusive"] * 1.0)  # TraceEvent's 1 ms a sample
        by = {r["method"]: r for r in rows}
        self.assertEqual((by["?!?"]["inclusive"], by["?!?"]["exclusive"]), (35148, 34736))
        self.assertEqual((by[MAIN]["inclusive"], by[MAIN]["exclusive"]), (4529, 13))
        self.assertIn("system.private.xml!System.Xml.NameTable.Add(wchar[],int32,int32)", by)
        self.assertEqual(rows[0]["method"], "?!?")  # the most exclusive samples first
        self.assertEqual([r["exclusive"] for r in rows], sorted((r["exclusive"] for r in rows), reverse=True))
        self.assertAlmostEqual(by["?!?"]["exclusive_percent"], 34736 * 100 / 35161)
        self.assertEqual(sum(r["exclusive"] for r in rows), len(self.samples()))

    def test_csv_json_and_text(self):
        rows = list(csv.DictReader(io.StringIO(run("cpu", self.trace, "--format", "csv").stdout)))
        self.assertEqual(len(rows), 22)
        self.assertEqual(list(rows[0].keys()), KEYS)
        summary = list(csv.DictReader(io.StringIO(run("cpu", self.trace, "--format", "csv", "--summary").stdout)))
        self.assertEqual(summary, [{"samples": "35161", "samples_without_stack": "0", "threads": "13",
                                    "interval_ms": "1.0", "total_ms": "35161.0", "methods": "22"}])
        d = json.loads(run("cpu", self.trace, "--format", "json").stdout)
        self.assertEqual(d["analysis"], "cpu")
        self.assertEqual(len(d["cpu"]), 22)
        self.assertEqual(d["cpu_summary"][0]["samples"], 35161)
        self.assertEqual(d["stats"]["events"], 35161)
        self.assertEqual(d["stats"]["field_errors"], 0)
        text = run("cpu", self.trace, "--top", "5").stdout
        lines = text.splitlines()
        self.assertTrue(lines[0].startswith("35161 samples"), lines[0])
        self.assertTrue(any(l.endswith(" ?!?") and "34736" in l for l in lines), text)
        self.assertIn("(17 more; --top 0 shows all)", lines)
        self.assertIn("35161 events read", lines[-1])
        self.assertFalse(any(l != l.rstrip() for l in lines))
        self.assertEqual(len(run("cpu", self.trace, "--top", "0").stdout.splitlines()), len(lines) - 1 + 17)

    def test_window_and_thread(self):
        window = self.rows("--from", "10s", "--to", "12s")
        n = len(self.samples("--from", "10s", "--to", "12s"))
        self.assertTrue(0 < n < 35161)
        self.assertEqual(sum(r["exclusive"] for r in window), n)
        self.assertEqual(max(r["inclusive"] for r in window), n)
        counts = {}
        for e in self.samples():
            counts[e["thread"]] = counts.get(e["thread"], 0) + 1
        th, n = max(counts.items(), key=lambda kv: kv[1])
        one = self.rows("--thread", str(th))
        self.assertEqual(sum(r["exclusive"] for r in one), n)
        split = self.rows("--by-thread")
        self.assertEqual({r["thread"] for r in split}, set(counts))
        self.assertEqual(sorted((r["method"], r["inclusive"], r["exclusive"]) for r in split if r["thread"] == th),
                         sorted((r["method"], r["inclusive"], r["exclusive"]) for r in one))
        total = {}
        for r in split:
            total[r["method"]] = total.get(r["method"], 0) + r["exclusive"]
        self.assertEqual(total, {r["method"]: r["exclusive"] for r in self.rows()})
        self.assertEqual(run("cpu", self.trace, "--format", "jsonl", "--by-thread", "--threads", "1").stdout,
                         run("cpu", self.trace, "--format", "jsonl", "--by-thread", "--threads", "2").stdout)

    def test_callers_and_callees(self):
        callers = self.rows("--callers", "EventGenerator.Program+<>c__DisplayClass1_0.<Main>b__0")
        self.assertTrue(callers)
        self.assertEqual({r["focus"] for r in callers}, {LAMBDA})
        total = {r["method"]: r for r in self.rows()}
        for r in callers:
            self.assertLessEqual(r["inclusive"], total[LAMBDA]["inclusive"])
        callees = self.rows("--callees", MAIN)
        self.assertTrue(callees)
        self.assertEqual({r["focus"] for r in callees}, {MAIN})
        # Main's own exclusive samples are not a callee's; every other sample of Main called something
        self.assertGreaterEqual(sum(r["inclusive"] for r in callees), total[MAIN]["inclusive"] - total[MAIN]["exclusive"])
        d = json.loads(run("cpu", self.trace, "--format", "json", "--callers", MAIN, "--callees", MAIN).stdout)
        self.assertEqual(d["cpu_callees"], callees)
        text = run("cpu", self.trace, "--callees", MAIN).stdout
        self.assertIn("Callees of " + MAIN + ":", text)
        self.assertIn("No sampled frame is named Nowhere.Made", run("cpu", self.trace, "--callers", "Nowhere.Made").stdout)

    def test_tree(self):
        tree = self.rows("--tree")
        self.assertEqual(list(tree[0]), ["node", "parent", "depth", "method", "inclusive", "exclusive",
                                         "inclusive_ms", "exclusive_ms"])
        methods = {r["method"]: r for r in self.rows()}
        children, exclusive = {}, {}
        for i, r in enumerate(tree):
            self.assertEqual(r["node"], i)
            self.assertLess(r["parent"], i)  # a node after the frame that called it
            if r["parent"] >= 0:
                self.assertEqual(r["depth"], tree[r["parent"]]["depth"] + 1)
                children[r["parent"]] = children.get(r["parent"], 0) + r["inclusive"]
            exclusive[r["method"]] = exclusive.get(r["method"], 0) + r["exclusive"]
        for i, r in enumerate(tree):
            self.assertEqual(r["inclusive"], r["exclusive"] + children.get(i, 0))
        self.assertEqual([r["inclusive"] for r in tree], sorted((r["inclusive"] for r in tree), reverse=True))
        self.assertEqual(sum(r["inclusive"] for r in tree if r["parent"] < 0), 35161)
        self.assertEqual(exclusive, {m: r["exclusive"] for m, r in methods.items()})
        # Main is not an outermost frame: its paths' inclusive samples add up to its own
        self.assertEqual(sum(r["inclusive"] for r in tree if r["method"] == MAIN), methods[MAIN]["inclusive"])
        d = json.loads(run("cpu", self.trace, "--format", "json", "--tree").stdout)
        self.assertEqual(d["cpu_tree"], tree)
        self.assertEqual(d["cpu"], self.rows())
        by = self.rows("--tree", "--by-thread")
        self.assertIn("thread", by[0])
        self.assertEqual(sum(r["inclusive"] for r in by if r["parent"] < 0), 35161)
        self.assertTrue(all(r["thread"] == by[r["parent"]]["thread"] for r in by if r["parent"] >= 0))
        self.assertEqual(run("cpu", self.trace, "--format", "csv", "--tree", "--threads", "1").stdout,
                         run("cpu", self.trace, "--format", "csv", "--tree", "--threads", "2").stdout)
        p = run("cpu", self.trace, "--tree", check=False)
        self.assertEqual(p.returncode, 2)
        self.assertIn("--tree", p.stderr)
        p = run("cpu", self.trace, "--format", "jsonl", "--tree", "--summary", check=False)
        self.assertEqual(p.returncode, 2)
        self.assertIn("one table", p.stderr)

    def test_full_index_reads_less(self):
        full = os.path.join(self.tmp, "full.ntidx")
        run("index", self.trace, "--full", "-o", full)
        plain = json.loads(run("cpu", self.trace, "--format", "json").stdout)
        pruned = json.loads(run("cpu", self.trace, "--format", "json", "--index", full).stdout)
        self.assertEqual(plain["cpu"], pruned["cpu"])
        self.assertLess(pruned["stats"]["bytes_read"], plain["stats"]["bytes_read"])

    def test_usage_and_bad_input(self):
        self.assertEqual(run("cpu", self.trace, "--thread", "x", check=False).returncode, 2)
        self.assertEqual(run("cpu", self.trace, "--top", "x", check=False).returncode, 2)
        self.assertEqual(run("cpu", self.trace, "--format", "xml", check=False).returncode, 2)
        p = run("cpu", self.trace, "--format", "jsonl", "--callers", "A", "--callees", "B", check=False)
        self.assertEqual(p.returncode, 2)
        self.assertIn("one table", p.stderr)
        self.assertEqual(run("cpu", check=False).returncode, 2)
        bad = os.path.join(self.tmp, "not-a-trace")
        with open(bad, "wb") as f:
            f.write(b"hello, this is not a trace at all" * 10)
        p = run("cpu", bad, check=False)
        self.assertEqual(p.returncode, 1)
        self.assertIn("not-a-trace", p.stderr)
        self.assertIn("--by-thread", run("cpu", "--help").stdout)


if __name__ == "__main__":
    NTIDX, TRACES = sys.argv[1], sys.argv[2]
    unittest.main(argv=sys.argv[:1], verbosity=2)
