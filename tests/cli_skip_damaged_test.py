#!/usr/bin/env python3
"""--skip-damaged beyond `ntidx stats` (issue 28, item 5): query, dump, top, export and sql (the events table's
on_error = 'skip') over a trace with one damaged region.

A generated V6 trace has 16 bytes of 0xff written over an event header in the middle of its region 2 (as
tests/python/test_frames.py damages it). For each command:
- without the flag it fails (exit 1), naming the file and an offset inside region 2;
- with it, it exits 0, its answer is the undamaged trace's answer without region 2's events, and stderr says
  "region 2 (offset O, B bytes) skipped" and the count of regions left out;
- a window that does not meet region 2 reads and says nothing of it.
The analysis commands have no --skip-damaged (their records pair events across regions): they still fail.

usage: cli_skip_damaged_test.py NTIDX
"""
import collections
import csv
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

NTIDX = None
D = None  # scratch folder, set up once


def run(*args):
    return subprocess.run([NTIDX, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def ok(*args):
    p = run(*args)
    if p.returncode != 0:
        raise AssertionError(f"ntidx {' '.join(args)} exited {p.returncode}: {p.stderr}")
    return p


class SkipDamaged(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.good = os.path.join(D, "whole.nettrace")
        ok("gen", "-q", "-o", cls.good, "--events", "20000", "--seed", "5", "--thread-flush-every", "3")
        cls.rows = [json.loads(line) for line in ok("query", cls.good, "--format", "jsonl").stdout.splitlines()]
        regions = list(csv.DictReader(io.StringIO(ok("sql", cls.good, "SELECT region, offset, bytes FROM regions",
                                                      "--format", "csv").stdout)))
        cls.nregions = len(regions)
        assert cls.nregions >= 5, regions
        cls.off, cls.bytes = int(regions[2]["offset"]), int(regions[2]["bytes"])
        inr = sorted(r["offset"] for r in cls.rows if cls.in_region(r["offset"]))
        assert len(inr) > 100
        cls.bad = os.path.join(D, "bad.nettrace")
        shutil.copy(cls.good, cls.bad)
        with open(cls.bad, "r+b") as f:  # an event header in the middle of region 2
            f.seek(inr[len(inr) // 2])
            f.write(b"\xff" * 16)
        cls.index = os.path.join(D, "bad.ntidx")
        ok("index", cls.bad, "-o", cls.index)  # block headers only: the damage is in an event
        cls.kept = [r for r in cls.rows if not cls.in_region(r["offset"])]

    @classmethod
    def in_region(cls, offset):
        return cls.off <= offset < cls.off + cls.bytes

    def fails_at_damage(self, p):
        """Exit 1, the file and an offset inside region 2 said."""
        self.assertEqual(p.returncode, 1, p.stderr)
        m = re.search(r"bad\.nettrace: offset (\d+)", p.stderr)
        self.assertTrue(m, p.stderr)
        self.assertTrue(self.in_region(int(m.group(1))), p.stderr)

    def said(self, p, what):
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("warning: region 2 (offset %d, %d bytes) skipped: " % (self.off, self.bytes), p.stderr)
        self.assertIn("warning: 1 damaged region left out of the %s" % what, p.stderr)

    def test_query(self):
        self.fails_at_damage(run("query", self.bad, "--index", self.index, "--format", "jsonl"))
        p = run("query", self.bad, "--index", self.index, "--format", "jsonl", "--skip-damaged")
        self.said(p, "answer")
        self.assertEqual([json.loads(x) for x in p.stdout.splitlines()], self.kept)
        # file order too, and a filter: the same events
        p = run("query", self.bad, "--index", self.index, "--format", "jsonl", "--order", "file",
                "--provider", "Microsoft-Windows-DotNETRuntime", "--skip-damaged")
        self.said(p, "answer")
        want = sorted((r for r in self.kept if r["provider"] == "Microsoft-Windows-DotNETRuntime"),
                      key=lambda r: r["offset"])
        self.assertEqual([json.loads(x) for x in p.stdout.splitlines()], want)
        # a window before region 2: nothing to leave out, nothing said
        t1 = min(r["ts"] for r in self.rows if self.in_region(r["offset"]))
        p = ok("query", self.bad, "--index", self.index, "--format", "jsonl", "--to", str(t1), "--skip-damaged")
        self.assertNotIn("skipped", p.stderr)
        want = [r for r in self.rows if r["ts"] < t1]
        self.assertTrue(want)
        self.assertEqual([json.loads(x) for x in p.stdout.splitlines()], want)
        # --limit: the rows given count, not those of the region left out; regions past the limit are not read
        p = ok("query", self.bad, "--index", self.index, "--format", "jsonl", "--limit", "10", "--skip-damaged")
        self.assertNotIn("skipped", p.stderr)
        self.assertEqual([json.loads(x) for x in p.stdout.splitlines()], self.kept[:10])
        before = sum(1 for r in self.rows if r["offset"] < self.off)
        p = run("query", self.bad, "--index", self.index, "--format", "jsonl", "--limit", str(before + 5),
                "--skip-damaged")
        self.said(p, "answer")
        self.assertEqual([json.loads(x) for x in p.stdout.splitlines()], self.kept[:before + 5])

    def test_dump(self):
        self.fails_at_damage(run("dump", self.bad, "--format", "jsonl"))
        p = run("dump", self.bad, "--format", "jsonl", "--skip-damaged")  # indexes it (TRACE.ntidx in D)
        self.said(p, "dump")
        self.assertEqual([json.loads(x) for x in p.stdout.splitlines()], sorted(self.kept, key=lambda r: r["offset"]))
        # the undamaged trace: the reader's lines exactly, in both orders
        for order in ("file", "time"):
            self.assertEqual(ok("dump", self.good, "--order", order, "--skip-damaged").stdout,
                             ok("dump", self.good, "--order", order).stdout)

    def test_top(self):
        self.fails_at_damage(run("top", self.bad, "--index", self.index, "--json"))
        p = run("top", self.bad, "--index", self.index, "--json", "--by", "provider", "-n", "100", "--skip-damaged")
        self.said(p, "counts")
        doc = json.loads(p.stdout)
        self.assertEqual(doc["events"], len(self.kept))
        self.assertEqual({i["provider"]: i["count"] for i in doc["items"]},
                         dict(collections.Counter(r["provider"] for r in self.kept)))

    def test_export(self):
        out = os.path.join(D, "export.jsonl")
        self.fails_at_damage(run("export", self.bad, "--index", self.index, "--format", "jsonl", "-o", out))
        self.assertFalse(os.path.exists(out))  # a failed export leaves nothing behind
        p = run("export", self.bad, "--index", self.index, "--format", "jsonl", "-o", out, "--skip-damaged")
        self.said(p, "export")
        with open(out) as f:
            self.assertEqual([json.loads(x) for x in f], self.kept)
        chrome = os.path.join(D, "export.json")
        p = run("export", self.bad, "--index", self.index, "--format", "chrome", "-o", chrome, "--skip-damaged")
        self.said(p, "export")
        self.assertIn("%d events written" % len(self.kept), p.stderr)

    def test_sql(self):
        count = "SELECT count(*) AS n FROM events"
        self.fails_at_damage(run("sql", self.bad, "--index", self.index, count))
        p = run("sql", self.bad, "--index", self.index, "--format", "jsonl", "--skip-damaged",
                count + "; SELECT ntidx_damaged_regions() AS d; SELECT ntidx_warning() AS w")
        self.assertEqual(p.returncode, 0, p.stderr)
        n, d, w = [json.loads(x) for x in p.stdout.splitlines()]
        self.assertEqual(n["n"], len(self.kept))
        regions = json.loads(d["d"])
        self.assertEqual([(r["region"], r["offset"], r["bytes"]) for r in regions], [(2, self.off, self.bytes)])
        self.assertTrue(self.in_region(regions[0]["at"]))
        self.assertIn("bad.nettrace: offset %d" % regions[0]["at"], regions[0]["error"])
        self.assertIn("1 damaged region left out of the scan; region 2 (offset %d, %d bytes) skipped"
                      % (self.off, self.bytes), w["w"])
        self.assertIn("bad.nettrace: warning: 1 damaged region left out of the scan", p.stderr)
        # the rows themselves, in time order, and the hidden column on either table
        cols = "ts, provider, event_name, thread, offset"
        for stmt in ("SELECT %s FROM events WHERE on_error = 'skip' ORDER BY ts" % cols,
                     "SELECT %s FROM ntidx_events('%s', '%s') WHERE on_error = 'skip' ORDER BY ts"
                     % (cols, self.bad, self.index)):
            p = run("sql", self.bad, "--index", self.index, "--format", "jsonl", stmt)
            self.assertEqual(p.returncode, 0, p.stderr)
            got = [json.loads(x) for x in p.stdout.splitlines()]
            self.assertEqual([(r["ts"], r["offset"]) for r in got], [(r["ts"], r["offset"]) for r in self.kept])
            self.assertIn("region 2 (offset %d, %d bytes) skipped" % (self.off, self.bytes), p.stderr)
        # a GROUP BY (counted by the scan, not the statistics, while skipping)
        p = ok("sql", self.bad, "--index", self.index, "--format", "jsonl", "--skip-damaged",
               "SELECT provider, count(*) AS n FROM events GROUP BY provider")
        self.assertEqual({json.loads(x)["provider"]: json.loads(x)["n"] for x in p.stdout.splitlines()},
                         dict(collections.Counter(r["provider"] for r in self.kept)))
        # on_error = 'raise' is the default's failure; any other value is the statement's mistake
        self.fails_at_damage(run("sql", self.bad, "--index", self.index, count + " WHERE on_error = 'raise'"))
        p = run("sql", self.bad, "--index", self.index, count + " WHERE on_error = 'ignore'")
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertIn("on_error = 'ignore': 'raise' (the default) or 'skip'", p.stderr)
        # the module argument, as a host creates the table
        p = run("sql", self.bad, "--index", self.index, "--format", "jsonl",
                "CREATE VIRTUAL TABLE temp.ev USING ntidx('%s', index='%s', on_error='skip'); SELECT count(*) AS n FROM ev"
                % (self.bad, self.index))
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(json.loads(p.stdout)["n"], len(self.kept))
        p = run("sql", self.bad, "--index", self.index,
                "CREATE VIRTUAL TABLE temp.ev USING ntidx('%s', on_error='ignore')" % self.bad)
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertIn("on_error='ignore': 'raise' (the default) or 'skip'", p.stderr)
        # the undamaged trace: nothing left out, an empty list
        p = ok("sql", self.good, "--format", "jsonl", "--skip-damaged",
               count + "; SELECT ntidx_damaged_regions() AS d")
        n, d = [json.loads(x) for x in p.stdout.splitlines()]
        self.assertEqual((n["n"], d["d"]), (len(self.rows), "[]"))
        self.assertNotIn("damaged", p.stderr)

    def test_analyses_still_fail(self):
        # an analysis pairs events across regions: it cannot leave one out soundly, and has no flag to
        p = run("gc", self.bad, "--index", self.index)
        self.fails_at_damage(p)
        self.assertEqual(run("gc", self.bad, "--index", self.index, "--skip-damaged").returncode, 2)


if __name__ == "__main__":
    NTIDX = sys.argv[1]
    del sys.argv[1:]
    with tempfile.TemporaryDirectory(prefix="ntidx-skip-") as D:
        os.environ["NTIDX_INDEX_DIR"] = D
        unittest.main()
