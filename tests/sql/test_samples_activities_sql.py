#!/usr/bin/python3
"""SQL's `cpu_samples` table and `activities`' `dur` column (issue 30, docs/sql.md "Analyses"), through
`ntidx sql`:

 - cpu_samples: one row per sample profiler event of the `events` table (same ts, thread and stack_key,
   in time order); its leaf methods counted equal `cpu_methods`' exclusive samples; a stack_key joins
   `stacks`; `ts` and `time_s` bounds become the analysis's window (the statistics say which, a narrow
   window reads a part of the trace) and give the rows of the whole table in that window;
 - activities.dur: the Stop's ts minus the Start's in ticks, `duration_ms` x ticks per ms for every
   complete activity, NULL for those never stopped; `ts` bounds pushed down as for the other tables.

usage: test_samples_activities_sql.py NTIDX TRACES_DIR ANALYSES_TRACE
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

NTIDX = TRACES = ANALYSES = TMP = None
OBJVER4 = "eventpipe-dotnetcore3.0-win-x64-objver4.nettrace"


def run(*args):
    p = subprocess.run([NTIDX, *map(str, args)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if p.returncode != 0:
        raise AssertionError(f"ntidx {' '.join(map(str, args))} exited {p.returncode}: {p.stderr}")
    return p


def sql(path, statement):
    return [json.loads(l) for l in run("sql", path, statement, "--format", "jsonl").stdout.splitlines()]


def link(path):
    """The trace behind a link in the temporary folder: its index is written there, not beside the trace."""
    out = os.path.join(TMP, os.path.basename(path))
    if not os.path.exists(out):
        os.symlink(os.path.abspath(path), out)
    return out


def stats(path, statement):
    rows = sql(path, statement + "; SELECT ntidx_analysis_stats() AS s")
    return rows[:-1], json.loads(rows[-1]["s"])


class CpuSamples(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.path = link(os.path.join(TRACES, OBJVER4))
        cls.all = sql(cls.path, "SELECT * FROM cpu_samples")

    def test_one_row_per_sample_event(self):
        events = sql(self.path, "SELECT ts, thread, stack_key FROM events "
                                "WHERE provider = 'Microsoft-DotNETCore-SampleProfiler' ORDER BY ts, offset")
        self.assertGreater(len(events), 1000)
        self.assertEqual([(r["ts"], r["thread"], r["stack_key"]) for r in self.all],
                         [(r["ts"], r["thread"], r["stack_key"]) for r in events])
        self.assertEqual(list(self.all[0])[:4], ["ts", "thread", "stack_key", "leaf_method"])

    def test_leaf_methods_are_the_exclusive_samples(self):
        counts = {}
        for r in self.all:
            if r["leaf_method"] is not None:
                counts[r["leaf_method"]] = counts.get(r["leaf_method"], 0) + 1
        methods = {r["method"]: r["exclusive"] for r in sql(self.path, "SELECT method, exclusive FROM cpu_methods")
                   if r["exclusive"]}
        self.assertEqual(counts, methods)
        self.assertIn("?!?", counts)
        # a sample without a stack has neither key nor leaf
        for r in self.all:
            self.assertEqual(r["stack_key"] is None, r["leaf_method"] is None, r)
            self.assertEqual(r["depth"] == 0, r["stack_key"] is None, r)

    def test_stack_key_joins_stacks(self):
        rows = sql(self.path, "SELECT c.leaf_method, s.method, s.module, s.depth FROM cpu_samples c "
                              "JOIN stacks s ON s.stack_key = c.stack_key AND s.depth = 0 LIMIT 200")
        self.assertEqual(len(rows), 200)
        for r in rows:
            if r["method"] is not None:  # the stacks table names the frame by its module and method too
                self.assertTrue(r["leaf_method"].endswith("!" + r["method"]), r)

    def test_time_bounds_are_pushed_down(self):
        a, b = self.all[len(self.all) // 3]["ts"], self.all[len(self.all) // 3 + 300]["ts"]
        got, st = stats(self.path, f"SELECT * FROM cpu_samples WHERE ts >= {a} AND ts < {b}")
        self.assertEqual((st[0]["t0"], st[0]["t1"]), (a, b))
        self.assertEqual(got, [r for r in self.all if a <= r["ts"] < b])
        self.assertGreaterEqual(len(got), 300)
        _, whole = stats(self.path, "SELECT count(*) FROM cpu_samples")
        self.assertLess(st[0]["bytes_read"] * 3, whole[0]["bytes_read"])
        s0, s1 = got[0]["time_relative_ms"] / 1000, got[-1]["time_relative_ms"] / 1000
        got, st = stats(self.path, f"SELECT ts FROM cpu_samples WHERE time_s BETWEEN {s0!r} AND {s1!r}")
        self.assertLessEqual(st[0]["t0"], a)
        self.assertEqual([r["ts"] for r in got], [r["ts"] for r in self.all if a <= r["ts"] <= got[-1]["ts"]])
        thread = self.all[0]["thread"]
        got = sql(self.path, f"SELECT ts FROM cpu_samples WHERE thread = {thread}")
        self.assertEqual([r["ts"] for r in got], [r["ts"] for r in self.all if r["thread"] == thread])


class ActivitiesDur(unittest.TestCase):
    def test_dur_is_the_duration_in_ticks(self):
        path = link(ANALYSES)
        info = json.loads(run("info", path, "--json").stdout)
        per_ms = info["tick_frequency"] / 1000
        rows = sql(path, "SELECT ts, dur, duration_ms, is_complete FROM activities")
        self.assertTrue(any(r["is_complete"] for r in rows) and not all(r["is_complete"] for r in rows))
        for r in rows:
            if not r["is_complete"]:
                self.assertIsNone(r["dur"], r)
            else:
                self.assertIsInstance(r["dur"], int)
                self.assertAlmostEqual(r["dur"], r["duration_ms"] * per_ms, delta=1.0)
        # ts bounds: the window of the analysis, and dur the same in it
        ts = sorted(r["ts"] for r in rows)
        a, b = ts[len(ts) // 4], ts[3 * len(ts) // 4]
        got, st = stats(path, f"SELECT ts, dur FROM activities WHERE ts >= {a} AND ts < {b}")
        self.assertEqual((st[0]["t0"], st[0]["t1"]), (a, b))
        self.assertTrue(got)
        whole = {r["ts"]: r["dur"] for r in rows}
        for r in got:
            self.assertTrue(a <= r["ts"] < b)
            if r["dur"] is not None:
                self.assertEqual(r["dur"], whole[r["ts"]])


def main():
    global NTIDX, TRACES, ANALYSES, TMP
    NTIDX, TRACES, ANALYSES = sys.argv[1:4]
    TMP = tempfile.mkdtemp(prefix="ntidx-sql-samples-")
    try:
        unittest.main(argv=[sys.argv[0]] + sys.argv[4:], verbosity=2)
    finally:
        shutil.rmtree(TMP, ignore_errors=True)


if __name__ == "__main__":
    main()
