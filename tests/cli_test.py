#!/usr/bin/env python3
"""CLI contract tests: command names, flags, exit codes and JSON keys that
scripts rely on, cross-checked between commands (stats against dump).

usage: cli_test.py NTIDX TRACES_DIR
"""
import json
import os
import subprocess
import sys
import tempfile
import unittest

NTIDX = None
TRACES = None
STATS_KEYS = ["format_version", "complete", "events", "first_ts", "last_ts", "sync_ticks",
              "tick_frequency", "providers", "types", "threads", "dropped_events"]
TYPE_KEYS = ["provider", "event_id", "event_name", "version", "count", "first_ts"]
DUMP_KEYS = ["ts", "provider", "event_id", "event_name", "thread", "capture_thread", "seq",
             "stack_id", "offset"]


def run(*args, check=True):
    p = subprocess.run([NTIDX, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if check and p.returncode != 0:
        raise AssertionError(f"ntidx {' '.join(args)} exited {p.returncode}: {p.stderr}")
    return p


def traces():
    return sorted(os.path.join(TRACES, f) for f in os.listdir(TRACES))


def dump(path, order="file"):
    out = run("dump", path, "--format", "jsonl", "--order", order).stdout
    return [json.loads(line) for line in out.splitlines()]


class StatsAgainstDump(unittest.TestCase):
    def check_trace(self, path):
        s = json.loads(run("stats", path, "--json").stdout)
        for k in STATS_KEYS:
            self.assertIn(k, s, k)
        events = dump(path)
        self.assertEqual(s["events"], len(events))
        for e in events:
            for k in DUMP_KEYS:
                self.assertIn(k, e)
            self.assertTrue(("fields" in e) != ("field_error" in e))
        if events:
            self.assertEqual(s["first_ts"], min(e["ts"] for e in events))
            self.assertEqual(s["last_ts"], max(e["ts"] for e in events))
        # providers and types count the same events dump lists
        by_provider = {}
        by_type = {}
        by_thread = {}
        first = {}
        for e in events:
            by_provider[e["provider"]] = by_provider.get(e["provider"], 0) + 1
            key = (e["provider"], e["event_id"], e["event_name"], e["version"])
            by_type[key] = by_type.get(key, 0) + 1
            first[key] = min(first.get(key, e["ts"]), e["ts"])
            by_thread[e["thread"]] = by_thread.get(e["thread"], 0) + 1
        self.assertEqual(s["providers"], by_provider)
        types = {}
        for t in s["types"]:
            for k in TYPE_KEYS:
                self.assertIn(k, t)
            key = (t["provider"], t["event_id"], t["event_name"], t["version"])
            types[key] = t["count"]
            self.assertEqual(t["first_ts"], first[key])
        self.assertEqual(types, by_type)
        self.assertEqual({t["thread"]: t["count"] for t in s["threads"]}, by_thread)
        # time order: same events, never backwards
        timed = dump(path, "time")
        self.assertEqual(sorted(e["offset"] for e in timed), [e["offset"] for e in events])
        ts = [e["ts"] for e in timed]
        self.assertEqual(ts, sorted(ts))
        return s

    def test_real_traces(self):
        for path in traces():
            with self.subTest(trace=os.path.basename(path)):
                s = self.check_trace(path)
                self.assertTrue(s["complete"])

    def test_generated_traces(self):
        with tempfile.TemporaryDirectory() as d:
            for v in ("5", "6"):
                with self.subTest(version=v):
                    p = os.path.join(d, f"g{v}.nettrace")
                    run("gen", "-o", p, "--format-version", v, "--events", "20000", "--seed", "7")
                    s = self.check_trace(p)
                    self.assertEqual(s["format_version"], int(v))
                    self.assertEqual(s["events"], 20000)
                    self.assertGreater(len(s["threads"]), 1)


class Gen(unittest.TestCase):
    def test_deterministic(self):
        with tempfile.TemporaryDirectory() as d:
            a, b, c = (os.path.join(d, n) for n in "abc")
            run("gen", "-o", a, "--events", "5000", "--seed", "3", "--threads", "4")
            run("gen", "-o", b, "--events", "5000", "--seed", "3", "--threads", "4")
            run("gen", "-o", c, "--events", "5000", "--seed", "4", "--threads", "4")
            with open(a, "rb") as fa, open(b, "rb") as fb, open(c, "rb") as fc:
                da, db, dc = fa.read(), fb.read(), fc.read()
            self.assertEqual(da, db)
            self.assertNotEqual(da, dc)

    def test_size(self):
        with tempfile.TemporaryDirectory() as d:
            p = os.path.join(d, "s.nettrace")
            run("gen", "-o", p, "--size", "2M")
            size = os.path.getsize(p)
            self.assertGreaterEqual(size, 2 << 20)
            self.assertLess(size, (2 << 20) + (1 << 20))


class Errors(unittest.TestCase):
    def test_usage(self):
        self.assertEqual(run(check=False).returncode, 2)
        self.assertEqual(run("nosuchcommand", check=False).returncode, 2)
        self.assertEqual(run("stats", check=False).returncode, 2)
        self.assertEqual(run("dump", traces()[0], "--order", "sideways", check=False).returncode, 2)

    def test_missing_file_names_it(self):
        p = run("stats", "/nonexistent/x.nettrace", check=False)
        self.assertEqual(p.returncode, 1)
        self.assertIn("/nonexistent/x.nettrace", p.stderr)

    def test_not_a_trace(self):
        with tempfile.NamedTemporaryFile(suffix=".nettrace") as f:
            f.write(b"this is not a trace at all" * 10)
            f.flush()
            p = run("info", f.name, check=False)
            self.assertEqual(p.returncode, 1)
            self.assertIn(f.name, p.stderr)
            self.assertIn("offset 0", p.stderr)

    def test_truncated_trace_is_read_and_reported(self):
        src = os.path.join(TRACES, "eventpipe-dotnetcore3.0-win-x64-objver4.nettrace")
        with open(src, "rb") as f:
            data = f.read()
        full = json.loads(run("stats", src, "--json").stdout)
        with tempfile.NamedTemporaryFile(suffix=".nettrace") as f:
            f.write(data[: len(data) // 2])
            f.flush()
            p = run("stats", f.name, "--json")
            s = json.loads(p.stdout)
            self.assertFalse(s["complete"])
            self.assertIn("incomplete", p.stderr)
            self.assertIn("offset", s["incomplete_reason"])
            self.assertGreater(s["events"], 0)
            self.assertLess(s["events"], full["events"])
            info = json.loads(run("info", f.name, "--json").stdout)
            self.assertFalse(info["complete"])

    def test_newer_major_version_refused(self):
        with tempfile.NamedTemporaryFile(suffix=".nettrace") as f:
            f.write(b"Nettrace" + (0).to_bytes(4, "little") + (7).to_bytes(4, "little") + (0).to_bytes(4, "little"))
            f.flush()
            p = run("info", f.name, check=False)
            self.assertEqual(p.returncode, 1)
            self.assertIn("major version 7", p.stderr)


class Info(unittest.TestCase):
    def test_info_json(self):
        for path in traces():
            with self.subTest(trace=os.path.basename(path)):
                i = json.loads(run("info", path, "--json").stdout)
                s = json.loads(run("stats", path, "--json").stdout)
                self.assertEqual(i["format_version"], s["format_version"])
                self.assertTrue(i["complete"])
                self.assertEqual(i["size"], os.path.getsize(path))
                self.assertLessEqual(i["first_ts"], s["first_ts"])
                self.assertGreaterEqual(i["last_ts"], s["last_ts"])
                self.assertEqual(i["blocks"]["event"], s["blocks"]["event"])


if __name__ == "__main__":
    NTIDX, TRACES = sys.argv[1], sys.argv[2]
    unittest.main(argv=[sys.argv[0], "-v"])
