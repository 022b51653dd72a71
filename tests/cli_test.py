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


def run(*args, check=True, env=None):
    p = subprocess.run([NTIDX, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                       env=None if env is None else {**os.environ, **env})
    if check and p.returncode != 0:
        raise AssertionError(f"ntidx {' '.join(args)} exited {p.returncode}: {p.stderr}")
    return p


def traces():
    return sorted(os.path.join(TRACES, f) for f in os.listdir(TRACES) if not f.endswith(".ntidx"))


def dump(path, order="file"):
    out = run("dump", path, "--format", "jsonl", "--order", order).stdout
    return [json.loads(line) for line in out.splitlines()]


class StatsAgainstDump(unittest.TestCase):
    def check_trace(self, path):
        s = json.loads(run("stats", path, "--json").stdout)
        seq = json.loads(run("stats", path, "--json", "--no-index").stdout)
        one = run("stats", path, "--json", "--threads", "1", "--buckets", "16").stdout
        two = run("stats", path, "--json", "--threads", "2", "--buckets", "16").stdout
        self.assertEqual(one, two)  # byte for byte, whatever the thread count
        hist = json.loads(one)["histogram"]
        self.assertEqual(sum(b["events"] for b in hist), s["events"])
        # "blocks" too: one key, one meaning, with an index or without one
        for k in ("events", "first_ts", "last_ts", "providers", "types", "threads", "dropped_events", "blocks"):
            self.assertEqual(s[k], seq[k], k)
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

    def test_help_and_version(self):
        """Every command's --help prints its usage on stdout and exits 0; usage texts say times count from the
        sync time; --version names the library's version."""
        listed = run("--help").stdout
        section = listed.split("commands:\n", 1)[1].split("\n\n", 1)[0]
        cmds = [l.split()[0] for l in section.splitlines()]
        self.assertEqual(set(cmds), {"info", "stats", "dump", "gen", "index", "query", "seek", "export", "slice", "top",
                                     "sql", "gc", "contention", "activities",
                                     "cpu", "jit", "alloc", "exceptions", "report"})
        for c in cmds:
            for flag in ("--help", "-h"):
                p = run(c, flag, check=False)
                self.assertEqual(p.returncode, 0, (c, flag, p.stderr))
                self.assertTrue(p.stdout.startswith("usage: ntidx %s" % c), p.stdout[:80])
                self.assertNotIn("trace start", p.stdout)
            if "--from" in run(c, "--help").stdout:
                self.assertIn("sync time", run(c, "--help").stdout)
        v = run("--version")
        self.assertRegex(v.stdout, r"^ntidx \d+\.\d+\.\d+\n$")
        # a mistake: exit 2 and the usage on stderr
        p = run("query", traces()[0], "--limit", "many", check=False)
        self.assertEqual(p.returncode, 2)
        self.assertIn("usage: ntidx query", p.stderr)

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


def varuint(v):
    out = bytearray()
    while True:
        b = v & 0x7F
        v >>= 7
        out.append(b | (0x80 if v else 0))
        if not v:
            return bytes(out)


def v6str(s):
    b = s.encode()
    return varuint(len(b)) + b


def v6block(kind, payload):
    return (len(payload) | (kind << 24)).to_bytes(4, "little") + payload


def u16(v): return v.to_bytes(2, "little")
def u32(v): return v.to_bytes(4, "little")
def u64(v): return v.to_bytes(8, "little")


def v6_trace_with_bad_relloc(month=1):
    """A V6 trace written from the spec by hand: one event type with a UInt32
    field and a RelLoc array of UInt16; three events, the second's RelLoc
    range points past its payload."""
    trace = b"".join(u16(x) for x in (2026, month, 4, 1, 0, 0, 0, 0)) + u64(1000) + u64(10_000_000) + u32(8) + u32(0)
    f_count = v6str("Count") + bytes([10])  # UInt32
    f_arr = v6str("Values") + bytes([24, 8])  # RelLoc of UInt16
    fields = u16(2) + u16(len(f_count)) + f_count + u16(len(f_arr)) + f_arr
    row = varuint(1) + v6str("Hand-Made") + varuint(42) + v6str("Tick") + fields + u16(0)
    metadata = u16(0) + u16(len(row)) + row
    thread = varuint(1) + bytes([3]) + varuint(4242)
    threads = u16(len(thread)) + thread

    def payload(count, size, pos, values):
        return u32(count) + u32((size << 16) | pos) + b"".join(u16(v) for v in values)

    events = [(2000, payload(7, 4, 0, [1, 2])), (2100, payload(8, 40, 0, [3])), (2200, payload(9, 2, 0, [5]))]
    rows = b""
    prev_ts = 0
    seq = 0
    for ts, pl in events:
        seq += 1
        body = u32(1) + u32(seq) + u64(1) + u64(1) + u32(0) + u32(0) + u64(ts) + u32(0) + u32(len(pl))
        rows += u32(len(body) + len(pl)) + body + pl
    header = u16(20) + u16(0) + u64(2000) + u64(2200)  # uncompressed rows
    sp = u64(2300) + u32(0) + u32(0)
    return (b"Nettrace" + u32(0) + u32(6) + u32(0) + v6block(1, trace) + v6block(3, metadata)
            + v6block(6, threads) + v6block(2, header + rows) + v6block(4, sp) + v6block(0, b""))


class HandMadeV6(unittest.TestCase):
    def test_invalid_sync_date_is_said_not_printed_as_garbage(self):
        with tempfile.NamedTemporaryFile(suffix=".nettrace") as f:
            f.write(v6_trace_with_bad_relloc(month=13))
            f.flush()
            info = json.loads(run("info", f.name, "--json").stdout)
            self.assertIsNone(info["sync_time_utc"])
            self.assertIn("not a valid date", run("info", f.name).stdout)
            self.assertEqual(json.loads(run("stats", f.name, "--json", "--no-index").stdout)["events"], 3)

    def test_payload_errors_listed_and_counted(self):
        with tempfile.NamedTemporaryFile(suffix=".nettrace") as f:
            f.write(v6_trace_with_bad_relloc())
            f.flush()
            p = run("dump", f.name, "--format", "jsonl")
            events = [json.loads(l) for l in p.stdout.splitlines()]
            self.assertEqual(len(events), 3)
            self.assertEqual(events[0]["fields"], {"Count": 7, "Values": [1, 2]})
            self.assertEqual(events[0]["thread"], 4242)
            self.assertEqual(events[0]["provider"], "Hand-Made")
            self.assertEqual(events[0]["event_name"], "Tick")
            self.assertIn("field_error", events[1])
            self.assertIn("Values", events[1]["field_error"])
            self.assertEqual(events[2]["fields"], {"Count": 9, "Values": [5]})
            self.assertIn("1 events have payloads that do not match", p.stderr)
            s = json.loads(run("stats", f.name, "--json").stdout)
            self.assertEqual(s["events"], 3)
            self.assertTrue(s["complete"])
            self.assertEqual(s["format_version"], 6)
            self.assertEqual((s["first_ts"], s["last_ts"]), (2000, 2200))
            self.assertEqual(s["threads"], [{"thread": 4242, "count": 3}])


class Times(unittest.TestCase):
    """Times no tick names are usage errors naming the value (exit 2), never clamped to the first or last tick
    nor wrapped; a window that ends before it starts is a mistake too (issue 25, items 5 and 6)."""

    NS_TRACE = "only_managed_samples.nettrace"  # nanosecond ticks from 2020: they end in 2604

    def test_out_of_range_times_refused(self):
        path = os.path.join(TRACES, self.NS_TRACE)
        for v in ("1e400s", "infs", "99999999999s", "184467440737s", "9999-12-31T23:59:59Z", "99999-01-01T00:00:00Z",
                  "18446744073709551616", "-300000s"):
            for cmd in (["stats", path, "--json", "--from", v], ["stats", path, "--to", v],
                        ["query", path, "--from", v, "--format", "jsonl"], ["seek", path, "--at", v],
                        ["top", path, "--from", v]):
                with self.subTest(cmd=cmd):
                    p = run(*cmd, check=False)
                    self.assertEqual(p.returncode, 2, p.stderr)
                    self.assertIn(v, p.stderr)
                    self.assertEqual(p.stdout, "")

    def test_far_times_that_are_ticks(self):
        path = os.path.join(TRACES, self.NS_TRACE)
        whole = json.loads(run("stats", path, "--json").stdout)["events"]
        # 2600 is a tick of this trace, after its end: nothing from it, everything before it
        self.assertEqual(json.loads(run("stats", path, "--json", "--from", "2600-01-01T00:00:00Z").stdout)["events"], 0)
        self.assertEqual(json.loads(run("stats", path, "--json", "--to", "2600-01-01T00:00:00Z").stdout)["events"],
                         whole)
        # 100 ns ticks from 2026: the year 9999 and 99999999999 s are ticks, after the trace
        with tempfile.TemporaryDirectory() as d:
            g = os.path.join(d, "g.nettrace")
            run("gen", "-o", g, "--events", "2000", "-q")
            for v in ("9999-12-31T23:59:59Z", "99999999999s"):
                self.assertEqual(json.loads(run("stats", g, "--json", "--from", v).stdout)["events"], 0)
                self.assertEqual(json.loads(run("stats", g, "--json", "--to", v).stdout)["events"], 2000)
            self.assertEqual(run("stats", g, "--from", "99999999999999s", check=False).returncode, 2)

    def test_bucket_width_out_of_range(self):
        with tempfile.TemporaryDirectory() as d:
            g = os.path.join(d, "g.nettrace")
            run("gen", "-o", g, "--events", "2000", "-q")
            for v in ("99999999999999999999s", "99999999999999999999", "1e400s", "-1s", "infs"):
                p = run("stats", g, "--bucket", v, check=False)
                self.assertEqual(p.returncode, 2, (v, p.stderr))
                self.assertIn(v, p.stderr)
            # as wide as the ticks reach: one bucket, which ends after it starts
            s = json.loads(run("stats", g, "--json", "--bucket", "1800000000000s").stdout)
            self.assertEqual(len(s["histogram"]), 1)
            b = s["histogram"][0]
            self.assertEqual(b["events"], 2000)
            self.assertGreater(b["end_ts"], b["start_ts"])
            text = run("stats", g, "--bucket", "1800000000000s").stdout
            self.assertIn("1800000000000.", text)
            self.assertNotIn(" -", text.split("bucket (seconds")[1])

    def test_window_ending_before_it_starts(self):
        with tempfile.TemporaryDirectory() as d:
            g = os.path.join(d, "g.nettrace")
            run("gen", "-o", g, "--events", "2000", "-q")
            for cmd in (["stats", g], ["top", g], ["query", g], ["slice", g, "-o", os.path.join(d, "s.nettrace")],
                        ["export", g, "--format", "chrome", "-o", os.path.join(d, "e.json")]):
                with self.subTest(cmd=cmd[0]):
                    p = run(*cmd, "--from", "2s", "--to", "1s", check=False)
                    self.assertEqual(p.returncode, 2, p.stderr)
                    self.assertIn("--from 2s --to 1s", p.stderr)
            self.assertFalse(os.path.exists(os.path.join(d, "s.nettrace")))
            self.assertFalse(os.path.exists(os.path.join(d, "e.json")))
            # the empty window of equal ends is a window, with nothing in it
            self.assertEqual(json.loads(run("stats", g, "--json", "--from", "1s", "--to", "1s").stdout)["events"], 0)


class Names(unittest.TestCase):
    """Provider names match without regard to case, as EventPipe and dotnet-trace compare them, also where a
    --full index prunes blocks by type; a --provider or --event that names nothing the trace defines gives a
    warning naming the closest names when the answer is empty (issue 25, item 6)."""

    @classmethod
    def setUpClass(cls):
        cls.d = tempfile.TemporaryDirectory()
        cls.g = os.path.join(cls.d.name, "g.nettrace")
        run("gen", "-o", cls.g, "--events", "20000", "--seed", "8", "-q")

    @classmethod
    def tearDownClass(cls):
        cls.d.cleanup()

    def q(self, *args):
        p = run("query", self.g, "--format", "jsonl", *args)
        return [json.loads(l) for l in p.stdout.splitlines()], p.stderr

    def test_provider_without_regard_to_case(self):
        for full in (False, True):
            if full:
                run("index", "--full", self.g)
            for extra in ([], ["--event", "3"], ["--event", "Heartbeat"]):
                with self.subTest(full=full, extra=extra):
                    want, _ = self.q("--provider", "Contoso-TypeZoo", *extra)
                    self.assertTrue(want)
                    for spelling in ("contoso-typezoo", "CONTOSO-TYPEZOO"):
                        got, err = self.q("--provider", spelling, *extra)
                        self.assertEqual(got, want)
                        self.assertNotIn("warning", err)
        at = self.q("--provider", "Contoso-TypeZoo", "--limit", "1")[0][0]["ts"]
        self.assertEqual(json.loads(run("seek", self.g, "--at", str(at), "--provider", "contoso-TYPEZOO",
                                        "--format", "jsonl").stdout)["provider"], "Contoso-TypeZoo")

    def test_unknown_names_warned_with_the_closest(self):
        cases = [(["--provider", "Contoso-TypeZo"], "no provider 'Contoso-TypeZo' in the trace (closest: Contoso-TypeZoo)"),
                 (["--event", "Haertbeat"], "no event 'Haertbeat' in the trace (closest: Heartbeat)"),
                 (["--provider", "System.Runtime", "--event", "Heartbeat"],
                  "no event 'Heartbeat' of provider 'System.Runtime' in the trace"),
                 (["--event", "4242"], "no event with id 4242 in the trace")]
        out = os.path.join(self.d.name, "out")
        for args, said in cases:
            for cmd in (["query", self.g, "--format", "jsonl"], ["seek", self.g, "--at", "0"],
                        ["slice", self.g, "-o", out + ".nettrace"], ["export", self.g, "--format", "jsonl", "-o", out]):
                with self.subTest(cmd=cmd[0], args=args):
                    p = run(*cmd, *args)  # an empty answer is an answer: exit 0
                    self.assertIn("ntidx: %s: warning: %s" % (self.g, said), p.stderr)
        # names the trace defines: no warning, also when the window is empty
        for args in (["--provider", "contoso-typezoo"], ["--event", "heartbeat"], ["--event", "3"]):
            p = run("query", self.g, "--from", "100s", *args)
            self.assertEqual((p.stdout, p.stderr), ("", ""))
            p = run("query", self.g, "--limit", "1", *args)
            self.assertNotIn("warning", p.stderr)


def v6_blocks(data):
    """(offset, kind, payload_offset, size) of each block of a V6 trace (header: 20 bytes)."""
    pos, out = 20, []
    while pos + 4 <= len(data):
        word = int.from_bytes(data[pos:pos + 4], "little")
        size, kind = word & 0xFFFFFF, word >> 24
        out.append((pos, kind, pos + 4, size))
        if kind == 0:
            break
        pos += 4 + size
    return out


class AllOnesBlockMaximum(unittest.TestCase):
    """one-collect may close its last event block with a maximum of 0xFFFFFFFFFFFFFFFF: not a timestamp.
    No command may show it as last_ts, and the index, queries and seeks must not take it for one."""

    def test_all_ones_maximum_is_not_a_timestamp(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "allones.nettrace")
            run("gen", "-o", path, "--format-version", "6", "--events", "5000", "--seed", "9")
            data = bytearray(open(path, "rb").read())
            last_event_block = [b for b in v6_blocks(data) if b[1] == 2][-1]
            hdr = last_event_block[2]  # event block header: u16 size, u16 flags, u64 min, u64 max
            data[hdr + 12:hdr + 20] = b"\xff" * 8
            open(path, "wb").write(bytes(data))
            true_last = max(e["ts"] for e in dump(path))
            info = json.loads(run("info", path, "--json").stdout)
            self.assertEqual(info["last_ts"], true_last)
            for extra in ([], ["--no-index"]):
                s = json.loads(run("stats", path, "--json", *extra).stdout)
                self.assertEqual(s["last_ts"], true_last)
            ix = json.loads(run("index", path, "--json").stdout)
            self.assertTrue(ix["complete"])
            # a seek and a window past the true end find nothing; the last event is found
            self.assertIn("no event", run("seek", path, "--at", str(true_last + 1)).stderr)
            q = run("query", path, "--from", str(true_last), "--format", "jsonl").stdout.splitlines()
            self.assertEqual([json.loads(l)["ts"] for l in q][-1:], [true_last])
            top = json.loads(run("top", path, "--json").stdout)
            self.assertLess(top["duration_s"], 1e6)


class IndexAndQuery(unittest.TestCase):
    """The index commands' contract: names, flags, keys; answers equal a filtered dump."""

    def setUp(self):
        self.d = tempfile.TemporaryDirectory()
        self.trace = os.path.join(self.d.name, "q.nettrace")
        run("gen", "-o", self.trace, "--events", "40000", "--seed", "5")
        self.events = dump(self.trace)
        self.t_lo = min(e["ts"] for e in self.events)
        self.t_hi = max(e["ts"] for e in self.events)

    def tearDown(self):
        self.d.cleanup()

    def test_index_built_when_missing_and_reused(self):
        p = run("query", self.trace, "--from", str(self.t_lo), "--to", str(self.t_lo + 1000), "--format", "jsonl")
        self.assertIn("indexing", p.stderr)
        self.assertTrue(os.path.exists(self.trace + ".ntidx"))
        p = run("query", self.trace, "--from", str(self.t_lo), "--to", str(self.t_lo + 1000), "--format", "jsonl")
        self.assertEqual(p.stderr, "")
        info = json.loads(run("index", self.trace, "--json").stdout)
        self.assertEqual(info["action"], "up to date")
        for k in ("blocks", "regions", "bytes", "ratio", "sequence_points"):
            self.assertIn(k, info)

    def test_query_equals_filtered_dump(self):
        s = json.loads(run("stats", self.trace, "--json").stdout)
        freq, sync = s["tick_frequency"], s["sync_ticks"]
        mid = (self.t_lo + self.t_hi) // 2
        t0, t1 = mid, mid + freq // 20  # 50 ms
        want = sorted((e for e in self.events if t0 <= e["ts"] < t1), key=lambda e: (e["ts"], e["offset"]))
        got = [json.loads(l) for l in run("query", self.trace, "--from", str(t0), "--to", str(t1),
                                          "--format", "jsonl").stdout.splitlines()]
        self.assertEqual(got, want)
        # the same window in seconds since the sync time, and in file order
        got = [json.loads(l) for l in run("query", self.trace, "--from", f"{(t0 - sync) / freq:.7f}s",
                                          "--to", f"{(t1 - sync) / freq:.7f}s", "--order", "file",
                                          "--format", "jsonl").stdout.splitlines()]
        self.assertEqual([e["offset"] for e in got], sorted(e["offset"] for e in want))
        # filters
        pick = want[len(want) // 2]
        got = [json.loads(l) for l in run("query", self.trace, "--from", str(t0), "--to", str(t1),
                                          "--provider", pick["provider"], "--event", str(pick["event_id"]),
                                          "--thread", str(pick["thread"]), "--format", "jsonl").stdout.splitlines()]
        self.assertEqual(got, [e for e in want if e["provider"] == pick["provider"]
                               and e["event_id"] == pick["event_id"] and e["thread"] == pick["thread"]])
        got = run("query", self.trace, "--from", str(t0), "--to", str(t1), "--event", pick["event_name"],
                  "--limit", "3", "--format", "jsonl").stdout.splitlines()
        self.assertEqual([json.loads(l) for l in got],
                         [e for e in want if e["event_name"] == pick["event_name"]][:3])
        csv_lines = run("query", self.trace, "--from", str(t0), "--to", str(t1), "--format", "csv").stdout.splitlines()
        self.assertTrue(csv_lines[0].startswith("ts,time_s,provider,event_id,event_name"))
        self.assertEqual(len(csv_lines) - 1, len(want))
        # window stats: same keys as whole-trace stats, counts of the window
        ws = json.loads(run("stats", self.trace, "--from", str(t0), "--to", str(t1), "--json").stdout)
        for k in STATS_KEYS:
            self.assertIn(k, ws)
        self.assertEqual(ws["events"], len(want))
        self.assertEqual((ws["first_ts"], ws["last_ts"]), (want[0]["ts"], want[-1]["ts"]))
        self.assertEqual(s["dropped_events"], 0)  # generated without drops:
        self.assertEqual(ws["dropped_events"], 0)  # a window entered mid-trace must not invent any

    def test_seek(self):
        mid = (self.t_lo + self.t_hi) // 2
        by_time = sorted(self.events, key=lambda e: (e["ts"], e["offset"]))
        first = next(e for e in by_time if e["ts"] >= mid)
        got = json.loads(run("seek", self.trace, "--at", str(mid), "--format", "jsonl").stdout)
        self.assertEqual(got, first)
        text = run("seek", self.trace, "--at", str(mid)).stdout
        self.assertTrue(text.startswith(f"offset {first['offset']}:"))
        p = run("seek", self.trace, "--at", str(self.t_hi + 1))
        self.assertEqual(p.stdout, "")
        self.assertIn("no event", p.stderr)

    def test_iso_times(self):
        info = json.loads(run("info", self.trace, "--json").stdout)
        self.assertTrue(info["sync_time_utc"].endswith("Z"))
        # the sync time itself, as ISO-8601, is the trace's sync ticks
        got = run("seek", self.trace, "--at", info["sync_time_utc"], "--format", "jsonl").stdout
        self.assertEqual(json.loads(got)["ts"], min(e["ts"] for e in self.events))
        self.assertEqual(run("query", self.trace, "--from", "yesterday", check=False).returncode, 2)

    def test_stale_index_rebuilt_and_said(self):
        run("index", self.trace)
        with open(self.trace, "r+b") as f:  # rewrite one byte in place, same size
            f.seek(40)
            b = f.read(1)
            f.seek(40)
            f.write(bytes([b[0] ^ 1]))
        p = run("query", self.trace, "--from", str(self.t_lo), "--to", str(self.t_lo + 10), check=False)
        self.assertIn("rebuilding the index", p.stderr)

    def test_corrupt_index_rebuilt(self):
        run("index", self.trace)
        with open(self.trace + ".ntidx", "r+b") as f:
            f.seek(600)
            b = f.read(1)
            f.seek(600)
            f.write(bytes([b[0] ^ 0x10]))
        p = run("query", self.trace, "--from", str(self.t_lo), "--to", str(self.t_lo + 10))
        self.assertIn("checksum", p.stderr)
        self.assertIn("rebuilding the index", p.stderr)

    def corrupt_block_entry(self, fraction, every=False):
        """Flip a bit in the BLOCKS entry `fraction` of the way through the index (or in every entry)."""
        path = self.trace + ".ntidx"
        with open(path, "r+b") as f:
            head = f.read(512)
            nsec = int.from_bytes(head[20:24], "little")
            for i in range(nsec):
                d = head[128 + 32 * i:160 + 32 * i]
                if int.from_bytes(d[0:4], "little") == 1:  # BLOCKS
                    entry = int.from_bytes(d[4:8], "little")
                    off = int.from_bytes(d[8:16], "little")
                    count = int.from_bytes(d[16:24], "little")
            for i in range(count) if every else [int(count * fraction)]:
                f.seek(off + i * entry + 24)  # the block's earliest timestamp
                b = f.read(1)
                f.seek(off + i * entry + 24)
                f.write(bytes([b[0] ^ 0x04]))

    def test_block_entry_corruption_found_on_use_and_recovered(self):
        """Large indexes are checked region by region on first use (NTIDX_INDEX_VERIFY=on-use forces it on this
        small one): a corrupt entry found mid-output is rebuilt around, and the output goes on exactly."""
        on_use = {"NTIDX_INDEX_VERIFY": "on-use"}
        run("index", self.trace)
        want_stats = run("stats", self.trace, "--json").stdout
        by_time = sorted(self.events, key=lambda e: (e["ts"], e["offset"]))
        self.corrupt_block_entry(0.6)
        p = run("query", self.trace, "--order", "file", "--format", "jsonl", env=on_use)
        self.assertEqual([json.loads(l) for l in p.stdout.splitlines()], self.events)
        self.assertIn("checksum", p.stderr)
        self.assertIn("rebuilding the index", p.stderr)
        self.assertEqual(json.loads(run("index", self.trace, "--json").stdout)["action"], "up to date")
        # the same for seek and statistics
        at = by_time[int(len(by_time) * 0.8)]["ts"]
        self.corrupt_block_entry(0, every=True)  # whichever region the seek needs
        p = run("seek", self.trace, "--at", str(at), "--format", "jsonl", env=on_use)
        self.assertEqual(json.loads(p.stdout), next(e for e in by_time if e["ts"] >= at))
        self.assertIn("rebuilding the index", p.stderr)
        self.corrupt_block_entry(0.3)
        p = run("stats", self.trace, "--json", env=on_use)
        self.assertEqual(p.stdout, want_stats)
        self.assertIn("rebuilding the index", p.stderr)
        # and the SQL tables: a scan goes on over the rebuilt index where it stopped (the library rebuilds
        # nothing by itself: each client recovers with ntidx_index_recover())
        self.corrupt_block_entry(0.6)
        p = run("sql", self.trace, "SELECT offset FROM events", "--format", "csv", env=on_use)  # file order
        self.assertEqual([int(l) for l in p.stdout.splitlines()[1:]], [e["offset"] for e in self.events])
        self.assertIn("rebuilding the index", p.stderr)
        # and every analysis command: each recovers once and answers as over a sound index
        for cmd in ("gc", "contention", "activities", "cpu", "jit", "alloc", "exceptions"):
            want = run(cmd, self.trace, "--format", "json").stdout
            self.corrupt_block_entry(0, every=True)  # whichever region the analysis reads first
            p = run(cmd, self.trace, "--format", "json", env=on_use, check=False)
            self.assertEqual((p.returncode, p.stdout), (0, want), cmd + ": " + p.stderr)
            self.assertIn("rebuilding the index", p.stderr, cmd)
        # and an analysis's SQL table
        want = run("sql", self.trace, "SELECT * FROM gc_summary", "--format", "csv").stdout
        self.corrupt_block_entry(0, every=True)
        p = run("sql", self.trace, "SELECT * FROM gc_summary", "--format", "csv", env=on_use, check=False)
        self.assertEqual((p.returncode, p.stdout), (0, want), "sql gc_summary: " + p.stderr)
        self.assertIn("rebuilding the index", p.stderr)
        # without the variable, `ntidx index` checks it whole and rebuilds it
        self.corrupt_block_entry(0.5)
        p = run("index", self.trace, "--json")
        self.assertEqual(json.loads(p.stdout)["action"], "rebuilt")
        self.assertIn("checksum", p.stderr)

    def test_whole_trace_stats_build_a_full_index(self):
        """stats of the whole trace reads every event anyway: an index it has to build is built --full (its
        regions decoded while the scan reads on), and answers as a pass without an index does; a window's
        stats, a query or an existing plain index keep a plain one."""
        no_index = json.loads(run("stats", self.trace, "--json", "--no-index").stdout)
        first = json.loads(run("stats", self.trace, "--json").stdout)
        self.assertTrue(json.loads(run("index", self.trace, "--json").stdout)["full"])
        self.assertGreater(first["regions_from_index"], 0)
        for k in ("events", "types", "threads", "providers", "first_ts", "last_ts", "dropped_events"):
            self.assertEqual(first[k], no_index[k], k)
        os.remove(self.trace + ".ntidx")
        run("stats", self.trace, "--json", "--from", str(self.t_lo), "--to", str(self.t_lo + 1000))
        self.assertFalse(json.loads(run("index", self.trace, "--json").stdout)["full"])
        # a current plain index is used as it is, never rebuilt for it
        self.assertEqual(json.loads(run("stats", self.trace, "--json").stdout)["regions_from_index"], 0)
        self.assertFalse(json.loads(run("index", self.trace, "--json").stdout)["full"])
        os.remove(self.trace + ".ntidx")
        run("query", self.trace, "--format", "jsonl")
        self.assertFalse(json.loads(run("index", self.trace, "--json").stdout)["full"])

    def test_full_index_answers_counts(self):
        """With a --full index, stats and top take the regions wholly inside the window from the index's
        stored counts: the same numbers, without reading those regions' event blocks."""
        run("index", self.trace)
        plain = json.loads(run("stats", self.trace, "--json").stdout)
        top = run("top", self.trace, "--by", "thread", "--json").stdout
        self.assertEqual(plain["regions_from_index"], 0)
        run("index", "--full", self.trace)
        full = json.loads(run("stats", self.trace, "--json").stdout)
        self.assertGreater(full["regions_from_index"], 0)
        self.assertEqual({k: v for k, v in full.items() if k != "regions_from_index"},
                         {k: v for k, v in plain.items() if k != "regions_from_index"})
        self.assertEqual(run("top", self.trace, "--by", "thread", "--json").stdout, top)
        # a histogram needs every timestamp: decoded, same numbers
        h = json.loads(run("stats", self.trace, "--json", "--buckets", "5").stdout)
        self.assertEqual(h["regions_from_index"], 0)
        self.assertEqual(sum(b["events"] for b in h["histogram"]), plain["events"])

    def test_unsavable_index_still_answers(self):
        where = os.path.join(self.d.name, "no-such-directory", "q.ntidx")
        p = run("query", self.trace, "--from", str(self.t_lo), "--to", str(self.t_hi + 1), "--limit", "2",
                "--format", "jsonl", "--index", where)
        self.assertIn("could not be saved", p.stderr)
        self.assertEqual(len(p.stdout.splitlines()), 2)
        self.assertFalse(os.path.exists(where))


def with_unknown_blocks(src, dst):
    """A copy of a generated V6 trace with two blocks of kinds no version defines (readers skip them): one among
    the event blocks, one after the last sequence point, in a region of its own without events."""
    with open(src, "rb") as f:
        data = f.read()
    blocks = v6_blocks(data)
    mid = [b for b in blocks if b[1] == 2][2][0]
    end = blocks[-1][0]
    assert blocks[-1][1] == 0
    with open(dst, "wb") as f:
        f.write(data[:mid] + v6block(200, b"future!!") + data[mid:end] + v6block(201, b"") + data[end:])


class JsonDocumentsAgree(unittest.TestCase):
    """A key means one thing, with one JSON type and shape, in every document that has it (issue 25, item 15):
    `blocks` is the per-kind object of `info --json` (with "unknown") in stats and index too, the total is
    `block_total` in both info and index; top's items say what they are under the keys stats uses."""

    def setUp(self):
        self.d = tempfile.TemporaryDirectory()
        self.g = os.path.join(self.d.name, "g.nettrace")
        run("gen", "-o", self.g, "--events", "20000", "--seed", "3", "-q")

    def tearDown(self):
        self.d.cleanup()

    def test_blocks_one_shape_and_total(self):
        u = os.path.join(self.d.name, "u.nettrace")
        with_unknown_blocks(self.g, u)
        info = json.loads(run("info", u, "--json").stdout)
        self.assertEqual(info["blocks"]["unknown"], 2)
        idx = json.loads(run("index", u, "--json").stdout)
        self.assertEqual(idx["blocks"], info["blocks"])
        self.assertEqual(idx["block_total"], info["block_total"])
        self.assertEqual(idx["block_total"], sum(info["blocks"].values()))
        for extra in ([], ["--no-index"], ["--threads", "1"]):
            self.assertEqual(json.loads(run("stats", u, "--json", *extra).stdout)["blocks"], info["blocks"], extra)
        self.assertEqual(json.loads(run("stats", u, "--json").stdout)["events"], 20000)
        run("index", "--full", u)
        full = json.loads(run("stats", u, "--json").stdout)
        self.assertGreater(full["regions_from_index"], 0)
        self.assertEqual(full["blocks"], info["blocks"])
        # the texts say the same total
        self.assertIn("blocks:           %d\n" % info["block_total"], run("info", u).stdout)
        self.assertIn("  %d blocks," % info["block_total"], run("index", u).stdout)

    def test_top_items_as_stats_gives_them(self):
        s = json.loads(run("stats", self.g, "--json").stdout)
        top = json.loads(run("top", self.g, "--json", "--by", "thread", "-n", "1000").stdout)
        self.assertEqual({i["thread"]: i["count"] for i in top["items"]}, {t["thread"]: t["count"] for t in s["threads"]})
        for i in top["items"]:
            self.assertIsInstance(i["thread"], int)
            self.assertEqual(i["name"], str(i["thread"]))  # kept: the key is a contract
        top = json.loads(run("top", self.g, "--json", "--by", "type", "-n", "1000").stdout)
        key = ("provider", "event_id", "event_name", "version")
        self.assertEqual({tuple(i[k] for k in key): i["count"] for i in top["items"]},
                         {tuple(t[k] for k in key): t["count"] for t in s["types"]})
        top = json.loads(run("top", self.g, "--json", "--by", "provider", "-n", "1000").stdout)
        self.assertEqual({i["provider"]: i["count"] for i in top["items"]}, s["providers"])
        self.assertEqual({i["name"]: i["count"] for i in top["items"]}, s["providers"])

    def test_shared_keys_one_type(self):
        """Every key found in several of the documents (info, index, stats, top, query, dump, seek, sql --format json,
        gc, jit, alloc and exceptions --format json) has one JSON type there (null aside: no value), and an
        object-valued key the same keys. Payload `fields` objects are per event type; SQL's tables (types,
        regions) are columns of their own entities, documented in docs/sql.md."""
        u = os.path.join(self.d.name, "u.nettrace")
        with_unknown_blocks(self.g, u)
        docs = {
            "info": json.loads(run("info", u, "--json").stdout),
            "info-empty": json.loads(run("info", self.empty(), "--json").stdout),
            "index": json.loads(run("index", u, "--json", "--full").stdout),
            "stats": json.loads(run("stats", u, "--json", "--buckets", "3").stdout),
            "stats-empty": json.loads(run("stats", u, "--json", "--from", "100s").stdout),
            "query": [json.loads(l) for l in run("query", u, "--format", "jsonl", "--limit", "300").stdout.splitlines()],
            "dump": [json.loads(l) for l in run("dump", u, "--format", "jsonl").stdout.splitlines()[:300]],
            "seek": json.loads(run("seek", u, "--at", "0", "--format", "jsonl").stdout),
            "sql": json.loads(run("sql", u, "SELECT * FROM events LIMIT 300", "--format", "json").stdout),
            "gc": json.loads(run("gc", u, "--format", "json").stdout),
            "jit": json.loads(run("jit", u, "--format", "json").stdout),
            "alloc": json.loads(run("alloc", u, "--format", "json").stdout),
            "exceptions": json.loads(run("exceptions", u, "--format", "json").stdout),
        }
        for by in ("type", "thread", "provider"):
            docs["top-" + by] = json.loads(run("top", u, "--json", "--by", by).stdout)
            docs["top-empty-" + by] = json.loads(run("top", u, "--json", "--by", by, "--from", "100s").stdout)
        seen = {}

        def kind(v):
            if isinstance(v, bool):
                return "bool"
            if isinstance(v, int):
                return "int"
            if isinstance(v, float):
                return "float"
            if isinstance(v, dict):
                return "object"
            return type(v).__name__

        def walk(where, v):
            if isinstance(v, list):
                for x in v:
                    walk(where, x)
                return
            if not isinstance(v, dict):
                return
            for k, x in v.items():
                if x is not None:
                    shape = kind(x)
                    if isinstance(x, dict) and k not in ("fields", "providers", "keyvalues"):
                        shape += ":" + ",".join(sorted(x))
                    if k != "fields":
                        seen.setdefault(k, {}).setdefault(shape, set()).add(where)
                if k != "fields":
                    walk(where, x)

        # An analysis's "stats" are the run's own figures (bytes read, worker threads as --threads counts
        # them): not the trace's, whose "threads" are the events' threads.
        for analysis in ("gc", "jit", "alloc", "exceptions"):
            del docs[analysis]["stats"]
        for name, doc in docs.items():
            walk(name, doc)
        mixed = {k: v for k, v in seen.items() if len(v) > 1}
        self.assertEqual(mixed, {})
        self.assertIn("blocks", seen)  # the walk saw what it is about
        self.assertEqual(len(seen["thread"]), 1)

    def empty(self):
        """A V6 trace without events: its header, its trace block and the end."""
        p = os.path.join(self.d.name, "empty.nettrace")
        trace = b"".join(u16(x) for x in (2026, 1, 4, 1, 0, 0, 0, 0)) + u64(1000) + u64(10_000_000) + u32(8) + u32(0)
        with open(p, "wb") as f:
            f.write(b"Nettrace" + u32(0) + u32(6) + u32(0) + v6block(1, trace) + v6block(0, b""))
        return p


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

    def test_info_from_index(self):
        """With a current index beside the trace, info answers from it: the same bytes as the walk, and
        an index is never written by info."""
        with tempfile.TemporaryDirectory() as d:
            made = []
            for name, extra in (("gen.nettrace", ("--metadata-flush-every", "2", "--remove-threads")),
                                ("unfinished.nettrace", ("--no-finish",))):
                made.append(os.path.join(d, name))
                run("gen", "-o", made[-1], "--events", "20000", "--seed", "5", "-q", *extra)
            for path in traces() + made:
                with self.subTest(trace=os.path.basename(path)):
                    link = os.path.join(d, "t-" + os.path.basename(path))
                    os.symlink(os.path.realpath(path), link)
                    walked = [run("info", link, *a).stdout for a in ((), ("--json",))]
                    self.assertFalse(os.path.exists(link + ".ntidx"))
                    run("index", link)
                    with open(link + ".ntidx", "rb") as f:
                        before = f.read()
                    self.assertEqual([run("info", link, *a).stdout for a in ((), ("--json",))], walked)
                    with open(link + ".ntidx", "rb") as f:
                        self.assertEqual(f.read(), before)


if __name__ == "__main__":
    NTIDX = sys.argv[1]
    # Commands that need an index write TRACE.ntidx beside the trace: work on links to the
    # sample traces in a scratch directory, never in the folder of the traces themselves.
    with tempfile.TemporaryDirectory() as scratch:
        for name in os.listdir(sys.argv[2]):
            os.symlink(os.path.abspath(os.path.join(sys.argv[2], name)), os.path.join(scratch, name))
        TRACES = scratch
        prog = unittest.main(argv=[sys.argv[0], "-v"], exit=False)
        ok = prog.result.wasSuccessful() and not prog.result.skipped
    sys.exit(0 if ok else 1)
