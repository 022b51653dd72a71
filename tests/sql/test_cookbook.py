#!/usr/bin/python3
"""The cookbook of docs/sql.md, run: every recipe (each ```sql block under a "### " heading of its
"## Cookbook" section) through `ntidx sql` on every sample trace (tests/data), and on generated traces
that hold what no real one does (exceptions, dropped events). Each result is checked against `ntidx stats`
or `ntidx query`: non-empty where the trace holds the events, empty where it does not.

usage: test_cookbook.py NTIDX TRACES_DIR SQL_MD
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

NTIDX = TRACES = DOC = TMP = None
RUNTIME = "Microsoft-Windows-DotNETRuntime"
OBJVER4 = "eventpipe-dotnetcore3.0-win-x64-objver4.nettrace"
SAMPLES = "only_managed_samples.nettrace"


def run(*args):
    p = subprocess.run([NTIDX, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if p.returncode != 0:
        raise AssertionError(f"ntidx {' '.join(args[:2])} ... exited {p.returncode}: {p.stderr}")
    return p.stdout


def recipes():
    """{title: [sql, ...]} of the cookbook section."""
    text = open(DOC, encoding="utf-8").read()
    book = text.split("\n## Cookbook", 1)[1]
    out = {}
    for part in re.split(r"\n### ", book)[1:]:
        title = part.split("\n", 1)[0].strip()
        out[title] = re.findall(r"```sql\n(.*?)```", part, re.S)
    return out


class Cookbook(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.book = recipes()
        cls.traces = {}
        for name in sorted(os.listdir(TRACES)):
            if name.endswith(".ntidx"):
                continue
            link = os.path.join(TMP, name)  # the indexes are written beside the link
            os.symlink(os.path.join(TRACES, name), link)
            cls.traces[name] = link
        for name, args in (("gen-v5.nettrace", ["--format-version", "5", "--events", "30000", "--seed", "21"]),
                           ("gen-v6-drops.nettrace", ["--events", "30000", "--seed", "22", "--drop-rate", "0.02"])):
            path = os.path.join(TMP, name)
            run("gen", "-o", path, "-q", *args)
            cls.traces[name] = path
        cls.stats = {n: json.loads(run("stats", p, "--json")) for n, p in cls.traces.items()}

    def rows(self, title, trace, block=0):
        st = self.book[title][block]
        return [json.loads(l) for l in run("sql", self.traces[trace], st, "--format", "jsonl").splitlines()]

    def count(self, trace, provider, event_id=None, event_name=None):
        return sum(t["count"] for t in self.stats[trace]["types"] if t["provider"] == provider and
                   (event_id is None or t["event_id"] == event_id) and
                   (event_name is None or t["event_name"] == event_name))

    def test_every_recipe_has_sql(self):
        self.assertGreaterEqual(len(self.book), 10)
        for title, blocks in self.book.items():
            self.assertTrue(blocks, title)

    def test_events_per_second_and_by_type(self):
        for name, s in self.stats.items():
            per_second = self.rows("Events per second", name)
            self.assertEqual(sum(r["events"] for r in per_second), s["events"], name)
            self.assertEqual([r["second"] for r in per_second], sorted(r["second"] for r in per_second))
            by_type = self.rows("Events by type", name)
            self.assertEqual(sum(r["events"] for r in by_type), s["events"], name)
            self.assertEqual(len(by_type), len({(t["provider"], t["event_name"]) for t in s["types"]}))

    def test_gc_pauses(self):
        for name, path in self.traces.items():
            rows = self.rows("GC pauses", name)
            gcs = [json.loads(l) for l in run("gc", path, "--format", "jsonl").splitlines()]
            self.assertEqual(sorted(r["number"] for r in rows), sorted(g["number"] for g in gcs), name)
            by_number = {g["number"]: g for g in gcs}
            for r in rows:
                g = by_number[r["number"]]
                self.assertEqual((r["generation"], r["type"], r["reason"]), (g["generation"], g["type"], g["reason"]))
                self.assertAlmostEqual(r["pause_ms"], g["pause_duration_ms"], places=3)
            self.assertEqual([r["pause_ms"] for r in rows], sorted((r["pause_ms"] for r in rows), reverse=True))
            if name == OBJVER4:
                self.assertEqual(len(rows), 478)
                self.assertTrue(all(r["pause_ms"] > r["gc_ms"] > 0 for r in rows))
            elif not self.count(name, RUNTIME, 1):
                self.assertEqual(rows, [], name)
            summary = self.rows("GC pauses per generation", name)
            want = [json.loads(l) for l in run("gc", path, "--summary", "--format", "jsonl").splitlines()]
            self.assertEqual([(r["pid"], r["generation"], r["count"]) for r in summary],
                             [(w["pid"], w["generation"], w["count"]) for w in want], name)
            if name == OBJVER4:
                self.assertEqual(summary[-1]["generation"], -1)
                self.assertEqual(summary[-1]["count"], 478)
                self.assertGreater(summary[-1]["pct_paused"], 0)

    def test_suspensions(self):
        for name in self.traces:
            rows = self.rows("Execution-engine suspensions", name)
            starts = self.count(name, RUNTIME, 9)
            pauses = sum(r["pauses"] for r in rows)
            if name in (OBJVER4, SAMPLES):
                self.assertGreater(pauses, 0.9 * starts, name)
                self.assertLessEqual(pauses, starts)
                self.assertTrue(all(r["max_ms"] >= r["avg_ms"] > 0 for r in rows))
                if name == SAMPLES:
                    self.assertEqual(pauses, 7423)
            elif not name.startswith("gen-"):
                self.assertEqual(rows, [], name)

    def test_allocations_by_type(self):
        for name in self.traces:
            rows = self.rows("Allocations by type", name)
            ticks = self.count(name, RUNTIME, 10)
            self.assertEqual(sum(r["ticks"] for r in rows), ticks, name)
            if name == OBJVER4:
                self.assertEqual(ticks, 35458)
                self.assertEqual(rows[0]["type"], "System.Char[]")
                self.assertGreater(rows[0]["bytes"], 10 ** 9)
            if ticks and not name.startswith("gen-"):  # the generator's strings include ""
                self.assertTrue(all(r["type"] for r in rows))

    def test_exceptions_by_type(self):
        thrown_somewhere = 0
        for name in self.traces:
            rows = self.rows("Exceptions by type", name)
            thrown = self.count(name, RUNTIME, 80)
            self.assertEqual(sum(r["thrown"] for r in rows), thrown, name)
            if not name.startswith("gen-"):
                self.assertEqual(rows, [], name)  # no real trace here holds an exception
            thrown_somewhere += thrown
        self.assertGreater(thrown_somewhere, 1000)
        self.assertGreater(len(self.rows("Exceptions by type", "gen-v6-drops.nettrace")), 5)

    def test_cpu_samples(self):
        for name in self.traces:
            samples = self.count(name, "Microsoft-DotNETCore-SampleProfiler")
            exclusive = self.rows("CPU samples by method", name)
            self.assertEqual(sum(r["samples"] for r in exclusive), samples, name)
            inclusive = self.rows("CPU samples by method, inclusive", name)
            if name in (OBJVER4, SAMPLES):
                self.assertGreater(samples, 7000)
                self.assertTrue(inclusive)
                self.assertLessEqual(inclusive[0]["samples"], samples)
            if name == SAMPLES:
                # every frame of this trace is a managed method, named
                self.assertFalse([r for r in exclusive if r["method"].startswith("?!")])
                self.assertEqual(exclusive[0]["method"].split("(")[0], "NoNativeStacks.Program.FindByte")
                self.assertEqual(inclusive[0]["samples"], samples)  # Main is on every stack
            if not samples:
                self.assertEqual(exclusive, [], name)
                self.assertEqual(inclusive, [], name)

    def test_dropped_events(self):
        for name, s in self.stats.items():
            table = self.rows("Dropped events per thread", name, 0)
            gaps = self.rows("Dropped events per thread", name, 1)
            want = {}
            for d in s["dropped_by_thread"]:
                want[d["thread"]] = want.get(d["thread"], 0) + d["dropped"]
            self.assertEqual({r["thread"]: r["dropped"] for r in table}, want, name)
            for r in gaps:
                self.assertLessEqual(r["dropped"], want.get(r["thread"], 0), name)
            if name == "gen-v6-drops.nettrace":
                self.assertGreater(s["dropped_events"], 100)
                self.assertGreater(sum(r["dropped"] for r in gaps), 0.9 * s["dropped_events"])
            if not s["dropped_events"]:
                self.assertEqual((table, gaps), ([], []), name)

    def test_window(self):
        nonempty = 0
        for name, path in self.traces.items():
            rows = self.rows("What happened in a window", name)
            want = [json.loads(l) for l in run("query", path, "--from", "2.5s", "--to", "2.51s", "--format",
                                               "jsonl").splitlines()]
            self.assertEqual(len(rows), len(want), name)
            self.assertEqual([r["event_name"] for r in rows], [e["event_name"] for e in want])
            self.assertEqual([r["fields"] for r in rows if r["fields"] is not None],
                             [e["fields"] for e in want if "fields" in e])
            nonempty += bool(rows)
        self.assertGreaterEqual(nonempty, 2)


def main():
    global NTIDX, TRACES, DOC, TMP
    NTIDX, TRACES, DOC = sys.argv[1:4]
    TMP = tempfile.mkdtemp(prefix="ntidx-cookbook-")
    try:
        unittest.main(argv=[sys.argv[0]] + sys.argv[4:], verbosity=2)
    finally:
        shutil.rmtree(TMP, ignore_errors=True)


if __name__ == "__main__":
    main()
