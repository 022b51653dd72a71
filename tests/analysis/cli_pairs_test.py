#!/usr/bin/env python3
"""`ntidx contention` and `ntidx activities`: their outputs (text, jsonl, csv, json), the contract's
keys, windows (a window with no lookahead is the analysis of the slice of that window), the thread
filter, the same answer on one and two threads and over a --full index (with fewer bytes read),
usage errors; the records held against the trace's own events (`ntidx query`).

usage: cli_pairs_test.py NTIDX TRACES_DIR GOLDEN_TRACE
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
CORE3 = "eventpipe-dotnetcore3.0-win-x64-objver4.nettrace"
CONTENTION_KEYS = ["lock_id", "thread", "count", "total_wait_ms", "max_wait_ms"]
ACTIVITY_KEYS = ["provider", "name", "activity_id", "parent_activity_id", "thread", "start_relative_ms",
                 "duration_ms", "is_complete"]


def run(*args, check=True):
    p = subprocess.run([NTIDX, *args], capture_output=True, text=True)
    if check and p.returncode != 0:
        raise AssertionError(f"ntidx {' '.join(args)} exited {p.returncode}: {p.stderr}")
    return p


def lines(out):
    return [json.loads(line) for line in out.splitlines()]


class Pairs(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        # copies: indexes are written beside the traces, never beside the shared ones or the sources
        cls.tmp = tempfile.mkdtemp()
        cls.core3 = os.path.join(cls.tmp, CORE3)
        shutil.copyfile(os.path.join(TRACES, CORE3), cls.core3)
        cls.golden = os.path.join(cls.tmp, "analyses.nettrace")
        shutil.copyfile(GOLDEN, cls.golden)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)

    def jsonl(self, command, trace, *args):
        return lines(run(command, trace, "--format", "jsonl", *args).stdout)

    # ---- contention ----

    def test_contention_against_the_events(self):
        """Each wait is a Contention/Start and the next Contention/Stop of its thread, its length the
        stop's DurationNs (`ntidx query`)."""
        evs = lines(run("query", self.golden, "--format", "jsonl", "--order", "time",
                        "--provider", "Microsoft-Windows-DotNETRuntime").stdout)
        open_at, waits = {}, []
        for e in evs:
            if e["event_name"] == "Contention/Start":
                open_at[e["thread"]] = e
            elif e["event_name"] == "Contention/Stop" and e["thread"] in open_at:
                s = open_at.pop(e["thread"])
                waits.append((s["ts"], s["thread"], s["fields"]["LockID"], e["fields"]["DurationNs"] / 1e6))
        got = self.jsonl("contention", self.golden, "--waits")
        self.assertEqual(len(got), len(waits))
        self.assertEqual(len(got), 8)
        for g, (ts, thread, lock, ms) in zip(got, sorted(waits)):
            self.assertEqual((g["ts"], g["thread"], g["lock_id"]), (ts, thread, lock))
            self.assertAlmostEqual(g["duration_ms"], ms, places=9)
            self.assertTrue(g["is_complete"])
            self.assertEqual(g["kind"], "Managed")
        rows = self.jsonl("contention", self.golden)
        for r in rows:
            for k in CONTENTION_KEYS:
                self.assertIn(k, r)
        self.assertEqual(sum(r["count"] for r in rows), 8)
        self.assertEqual([(r["lock_id"], r["thread"]) for r in rows],
                         sorted((r["lock_id"], r["thread"]) for r in rows))
        mine = [r for r in rows if r["thread"] == 31023][0]
        self.assertEqual((mine["lock_id"], mine["count"]), (140165184380584, 2))
        self.assertAlmostEqual(mine["total_wait_ms"], 5.517337, places=9)
        self.assertAlmostEqual(mine["max_wait_ms"], 3.30512, places=9)

    def test_contention_outputs(self):
        rows = list(csv.DictReader(io.StringIO(run("contention", self.core3, "--format", "csv").stdout)))
        self.assertEqual(list(rows[0].keys())[:len(CONTENTION_KEYS)], CONTENTION_KEYS)
        self.assertEqual(len(rows), 6)
        self.assertEqual({r["lock_id"] for r in rows}, {"0"})  # .NET Core 3.0: no lock ids
        locks = self.jsonl("contention", self.core3, "--locks")
        self.assertEqual(len(locks), 1)
        self.assertEqual((locks[0]["lock_id"], locks[0]["thread_count"], locks[0]["count"]), (0, 6, 8))
        d = json.loads(run("contention", self.core3, "--format", "json").stdout)
        self.assertEqual(d["analysis"], "contention")
        self.assertEqual((len(d["contention"]), len(d["contention_locks"]), len(d["contention_waits"])), (6, 1, 8))
        self.assertEqual(d["stats"]["events"], 16)
        self.assertEqual(d["stats"]["unmatched"] + d["stats"]["incomplete"] + d["stats"]["field_errors"], 0)
        self.assertAlmostEqual(sum(r["total_wait_ms"] for r in d["contention"]), locks[0]["total_wait_ms"], places=9)
        text = run("contention", self.core3).stdout
        tl = text.splitlines()
        self.assertTrue(tl[0].startswith("8 waits for 1 lock (6 lock and thread pairs), 453.9"), tl[0])
        self.assertIn("16 events read", tl[-1])
        self.assertTrue(any(l.split()[:3] == ["0", "12248", "2"] for l in tl), text)
        self.assertFalse(any(l != l.rstrip() for l in tl))

    def test_contention_window_thread_threads_full(self):
        # the second burst of waits only, and one thread's
        window = self.jsonl("contention", self.core3, "--waits", "--from", "4.4s", "--to", "4.5s")
        self.assertEqual(len(window), 5)
        self.assertEqual(self.jsonl("contention", self.core3, "--waits", "--thread", "12248"),
                         [w for w in self.jsonl("contention", self.core3, "--waits") if w["thread"] == 12248])
        # a window whose stops lie past its end: found by the lookahead, not without it
        cut = self.jsonl("contention", self.core3, "--waits", "--from", "3s", "--to", "3.1s")
        self.assertEqual([w["is_complete"] for w in cut], [True, True, True])
        cut0 = self.jsonl("contention", self.core3, "--waits", "--from", "3s", "--to", "3.1s", "--lookahead", "0")
        self.assertEqual([w["is_complete"] for w in cut0], [False, False, False])
        self.assertEqual(run("contention", self.core3, "--format", "json", "--threads", "1").stdout.split('"stats"')[0],
                         run("contention", self.core3, "--format", "json", "--threads", "2").stdout.split('"stats"')[0])
        full = os.path.join(self.tmp, "core3-full.ntidx")
        run("index", self.core3, "--full", "-o", full)
        plain = json.loads(run("contention", self.core3, "--format", "json").stdout)
        pruned = json.loads(run("contention", self.core3, "--format", "json", "--index", full).stdout)
        self.assertEqual(plain["contention_waits"], pruned["contention_waits"])
        self.assertLess(pruned["stats"]["bytes_read"], plain["stats"]["bytes_read"] / 2)

    # ---- activities ----

    def test_activities_jsonl(self):
        acts = self.jsonl("activities", self.golden)
        self.assertEqual(len(acts), 59)
        for a in acts:
            for k in ACTIVITY_KEYS:
                self.assertIn(k, a)
        self.assertEqual([a["ts"] for a in acts], sorted(a["ts"] for a in acts))
        ids = {a["activity_id"] for a in acts}
        for a in acts:  # a parent is an activity of the window (or the zero id of an open catch)
            if a["parent_activity_id"] is not None:
                self.assertIn(a["parent_activity_id"], ids)
        first = acts[0]
        self.assertEqual((first["provider"], first["name"], first["thread"], first["parent_activity_id"]),
                         ("Ntidx-Workload", "Work", 30919, None))
        self.assertEqual(first["activity_path"], "/#30906/1/55/")
        self.assertEqual(acts[2]["parent_activity_id"], first["activity_id"])
        self.assertEqual(acts[2]["depth"], 1)
        self.assertEqual(sum(1 for a in acts if not a["is_complete"]), 3)
        # the Work/Start and Work/Stop events of the first activity, as `ntidx query` shows them
        evs = lines(run("query", self.golden, "--format", "jsonl", "--order", "time", "--provider",
                        "Ntidx-Workload").stdout)
        start = next(e for e in evs if e["event_name"] == "Work/Start")
        self.assertEqual(start["ts"], first["ts"])
        self.assertEqual(start["thread"], first["thread"])

    def test_activities_outputs(self):
        summary = self.jsonl("activities", self.golden, "--summary")
        self.assertEqual([(s["provider"], s["name"]) for s in summary][:2],
                         [("Ntidx-Workload", "Work"), ("Ntidx-TraceLogging", "Request")])
        self.assertEqual(sum(s["count"] for s in summary), 59)
        rows = list(csv.DictReader(io.StringIO(run("activities", self.golden, "--format", "csv").stdout)))
        self.assertEqual(list(rows[0].keys())[:len(ACTIVITY_KEYS)], ACTIVITY_KEYS)
        self.assertEqual(rows[0]["parent_activity_id"], "")
        d = json.loads(run("activities", self.golden, "--format", "json").stdout)
        self.assertEqual(d["analysis"], "activities")
        self.assertEqual(len(d["activities"]), 59)
        self.assertEqual(len(d["activities_summary"]), len(summary))
        self.assertEqual(d["stats"]["incomplete"], 3)
        text = run("activities", self.golden).stdout
        tl = text.splitlines()
        self.assertEqual(tl[0], f"59 activities of {len(summary)} kinds, 3 without their stop")
        self.assertTrue(any(l.endswith("30919   Ntidx-TraceLogging/Request /#30906/1/55/1/") for l in tl), text)
        self.assertTrue(any("incomplete" in l.split() for l in tl))
        self.assertIn("125 events read", tl[-1])
        self.assertFalse(any(l != l.rstrip() for l in tl))

    def test_activities_window_thread_threads_full(self):
        everything = self.jsonl("activities", self.golden)
        t = [a for a in everything if a["thread"] == 30906]
        self.assertEqual(self.jsonl("activities", self.golden, "--thread", "30906"), t)
        # a window without lookahead is the analysis of the slice of that window
        sliced = os.path.join(self.tmp, "slice.nettrace")
        run("slice", self.golden, "--from", "800ms", "--to", "1380ms", "-o", sliced)
        window = self.jsonl("activities", self.golden, "--from", "800ms", "--to", "1380ms", "--lookahead", "0")
        self.assertEqual(window, self.jsonl("activities", sliced))
        self.assertTrue(any(not a["is_complete"] for a in window))
        # the lookahead finds the stops past the window
        ahead = self.jsonl("activities", self.golden, "--from", "800ms", "--to", "1380ms")
        self.assertEqual(len(ahead), len(window))
        self.assertLess(sum(not a["is_complete"] for a in ahead), sum(not a["is_complete"] for a in window))
        self.assertEqual(run("activities", self.golden, "--format", "jsonl", "--threads", "1").stdout,
                         run("activities", self.golden, "--format", "jsonl", "--threads", "2").stdout)
        full = os.path.join(self.tmp, "golden-full.ntidx")
        run("index", self.golden, "--full", "-o", full)
        plain = json.loads(run("activities", self.golden, "--format", "json").stdout)
        pruned = json.loads(run("activities", self.golden, "--format", "json", "--index", full).stdout)
        self.assertEqual(plain["activities"], pruned["activities"])
        self.assertLess(pruned["stats"]["bytes_read"], plain["stats"]["bytes_read"])
        # a trace without an activity: nothing, and no region read
        none = json.loads(run("activities", self.core3, "--format", "json").stdout)
        self.assertEqual((none["activities"], none["stats"]["regions"], none["stats"]["bytes_read"]), ([], 0, 0))

    def test_keys_one_type(self):
        """A key has one JSON type across the analyses' documents and the trace's statistics (null aside): a
        double column prints 0.0, not 0, and no analysis names a count as the statistics name a list."""
        docs = {c: json.loads(run(c, self.golden, "--format", "json").stdout) for c in ("contention", "activities")}
        docs["gc"] = json.loads(run("gc", self.golden, "--format", "jsonl").stdout.splitlines()[0])
        docs["stats"] = json.loads(run("stats", self.golden, "--json").stdout)
        seen = {}

        def walk(where, v):
            if isinstance(v, list):
                for x in v:
                    walk(where, x)
            elif isinstance(v, dict):
                for k, x in v.items():
                    if x is not None and k != "fields" and not (k == "stats" and where != "stats"):
                        t = "bool" if isinstance(x, bool) else type(x).__name__
                        seen.setdefault(k, {}).setdefault(t, set()).add(where)
                        walk(where, x)

        for name, doc in docs.items():
            walk(name, doc)
        self.assertEqual({k: v for k, v in seen.items() if len(v) > 1}, {})
        self.assertEqual(set(seen["duration_ms"]), {"float"})  # incomplete activities: 0.0
        self.assertIn("thread_count", seen)

    def test_usage_and_bad_input(self):
        for cmd in ("contention", "activities"):
            self.assertEqual(run(cmd, self.golden, "--thread", "x", check=False).returncode, 2)
            self.assertEqual(run(cmd, self.golden, "--lookahead", "-1", check=False).returncode, 2)
            self.assertEqual(run(cmd, self.golden, "--format", "xml", check=False).returncode, 2)
            self.assertEqual(run(cmd, check=False).returncode, 2)
            bad = os.path.join(self.tmp, "not-a-trace")
            with open(bad, "wb") as f:
                f.write(b"hello, this is not a trace at all" * 10)
            p = run(cmd, bad, check=False)
            self.assertEqual(p.returncode, 1)
            self.assertIn("not-a-trace", p.stderr)
            self.assertIn("--lookahead", run(cmd, "--help").stdout)
        self.assertEqual(run("contention", self.golden, "--locks", "--waits", check=False).returncode, 2)


if __name__ == "__main__":
    NTIDX, TRACES, GOLDEN = sys.argv[1], sys.argv[2], sys.argv[3]
    unittest.main(argv=sys.argv[:1], verbosity=2)
