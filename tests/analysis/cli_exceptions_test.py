#!/usr/bin/env python3
"""`ntidx exceptions`: its outputs (text, jsonl, csv, json), the contract's keys, windows, the thread
filter, the same answer on one and two threads and over a --full index, usage errors; the counts held
against the trace's own Exception/Start events (`ntidx query`).

usage: cli_exceptions_test.py NTIDX GOLDEN_TRACE
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
from collections import Counter

NTIDX = GOLDEN = None
KEYS = ["type", "message", "count", "first_relative_ms", "last_relative_ms", "thrown_by"]


def run(*args, check=True):
    p = subprocess.run([NTIDX, *args], capture_output=True, text=True)
    if check and p.returncode != 0:
        raise AssertionError(f"ntidx {' '.join(args)} exited {p.returncode}: {p.stderr}")
    return p


class Exceptions(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp()
        cls.trace = os.path.join(cls.tmp, "analyses.nettrace")
        shutil.copyfile(GOLDEN, cls.trace)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)

    def rows(self, *args):
        return [json.loads(l) for l in run("exceptions", self.trace, "--format", "jsonl", *args).stdout.splitlines()]

    def throws(self, *args):
        return [json.loads(l) for l in run("query", self.trace, "--format", "jsonl", "--event", "Exception/Start",
                                           *args).stdout.splitlines()]

    def per_type_and_message(self, rows):
        c = Counter()
        for r in rows:
            c[(r["type"], r["message"])] += r["count"]
        return c

    def test_against_the_events(self):
        rows = self.rows()
        for r in rows:
            for k in KEYS + ["first_ts", "last_ts"]:
                self.assertIn(k, r)
        evs = self.throws()
        self.assertEqual(len(evs), 21)
        self.assertEqual(self.per_type_and_message(rows),
                         Counter((e["fields"]["ExceptionType"], e["fields"]["ExceptionMessage"]) for e in evs))
        # in the order of their first throw; each row's first and last throw are throws of its type and message
        self.assertEqual([r["first_ts"] for r in rows], sorted(r["first_ts"] for r in rows))
        for r in rows:
            ts = [e["ts"] for e in evs if (e["fields"]["ExceptionType"], e["fields"]["ExceptionMessage"]) ==
                  (r["type"], r["message"])]
            self.assertIn(r["first_ts"], ts)
            self.assertIn(r["last_ts"], ts)
        # the thrower: the workload's own method, past the runtime's dispatch (System.Runtime.EH)
        first = rows[0]
        self.assertEqual((first["type"], first["message"], first["count"]),
                         ("System.InvalidOperationException", "workload exception 0", 1))
        self.assertEqual(first["thrown_by"], "Workload!Ntidx.Workload.Program.Thrower(int32)")
        self.assertFalse(any("System.Runtime.EH." in (r["thrown_by"] or "") for r in rows))

    def test_csv_json_and_text(self):
        rows = list(csv.DictReader(io.StringIO(run("exceptions", self.trace, "--format", "csv").stdout)))
        self.assertEqual(list(rows[0].keys())[:len(KEYS)], KEYS)
        self.assertEqual(sum(int(r["count"]) for r in rows), 21)
        d = json.loads(run("exceptions", self.trace, "--format", "json").stdout)
        self.assertEqual(d["analysis"], "exceptions")
        self.assertEqual(d["exceptions"], self.rows())
        self.assertEqual((d["stats"]["events"], d["stats"]["field_errors"]), (21, 0))
        text = run("exceptions", self.trace).stdout
        lines = text.splitlines()
        self.assertTrue(lines[0].startswith("21 exceptions thrown, 13 kinds"), lines[0])
        self.assertTrue(any("The input string 'not a number' was not in a correct format." in l for l in lines))
        self.assertFalse(any(l != l.rstrip() for l in lines))

    def test_window_thread_and_threads(self):
        everything = self.rows()
        mid = everything[4]["first_relative_ms"]
        window = self.rows("--from", "%.6fms" % (mid - 0.0005))
        evs = self.throws("--from", "%.6fms" % (mid - 0.0005))
        self.assertEqual(sum(r["count"] for r in window), len(evs))
        self.assertEqual(self.per_type_and_message(window),
                         Counter((e["fields"]["ExceptionType"], e["fields"]["ExceptionMessage"]) for e in evs))
        th = Counter(e["thread"] for e in self.throws()).most_common(1)[0][0]
        mine = self.rows("--thread", str(th))
        self.assertEqual(sum(r["count"] for r in mine), len(self.throws("--thread", str(th))))
        self.assertEqual(run("exceptions", self.trace, "--format", "jsonl", "--threads", "1").stdout,
                         run("exceptions", self.trace, "--format", "jsonl", "--threads", "2").stdout)
        # a window without exceptions
        self.assertEqual(self.rows("--to", "1ms"), [])

    def test_full_index(self):
        full = os.path.join(self.tmp, "full.ntidx")
        run("index", self.trace, "--full", "-o", full)
        plain = json.loads(run("exceptions", self.trace, "--format", "json").stdout)
        pruned = json.loads(run("exceptions", self.trace, "--format", "json", "--index", full).stdout)
        self.assertEqual(plain["exceptions"], pruned["exceptions"])
        self.assertLessEqual(pruned["stats"]["bytes_read"], plain["stats"]["bytes_read"])

    def test_usage_and_bad_input(self):
        self.assertEqual(run("exceptions", self.trace, "--thread", "x", check=False).returncode, 2)
        self.assertEqual(run("exceptions", self.trace, "--format", "xml", check=False).returncode, 2)
        self.assertEqual(run("exceptions", check=False).returncode, 2)
        bad = os.path.join(self.tmp, "not-a-trace")
        with open(bad, "wb") as f:
            f.write(b"hello, this is not a trace at all" * 10)
        p = run("exceptions", bad, check=False)
        self.assertEqual(p.returncode, 1)
        self.assertIn("not-a-trace", p.stderr)
        self.assertIn("--thread", run("exceptions", "--help").stdout)


if __name__ == "__main__":
    NTIDX, GOLDEN = sys.argv[1], sys.argv[2]
    unittest.main(argv=sys.argv[:1], verbosity=2)
