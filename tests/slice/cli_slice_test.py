#!/usr/bin/env python3
"""ntidx slice from the command line: `ntidx dump OUT --format jsonl` equals
`ntidx query TRACE --format jsonl` over the same window and filters (as JSON
objects, `offset` aside, in file and in time order), `ntidx info` reports the
input's format version, a slice of the slice equals the slice, and the usage
errors exit 2.

usage: cli_slice_test.py NTIDX TRACES_DIR
"""
import json
import os
import random
import subprocess
import sys
import tempfile
import unittest

NTIDX = None
TRACES = None


def run(*args, check=True):
    p = subprocess.run([NTIDX, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if check and p.returncode != 0:
        raise AssertionError(f"ntidx {' '.join(args)} exited {p.returncode}: {p.stderr}")
    return p


def events(text, v3=False):
    out = []
    for line in text.splitlines():
        e = json.loads(line)
        del e["offset"]
        if v3:
            del e["stack_id"]  # V3 stacks are inline; the slice numbers them
        out.append(e)
    return out


class Slice(unittest.TestCase):
    tmp = None

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.gen = []
        specs = [
            ("v5.nettrace", ["--format-version", "5", "--drop-rate", "0.02"]),
            ("v5u.nettrace", ["--format-version", "5", "--uncompressed"]),
            ("v6.nettrace", ["--format-version", "6", "--drop-rate", "0.02", "--metadata-flush-every", "2",
                             "--thread-flush-every", "3", "--remove-threads"]),
            ("v6u.nettrace", ["--format-version", "6", "--uncompressed", "--threads", "3"]),
        ]
        for name, flags in specs:
            path = os.path.join(cls.tmp.name, name)
            run("gen", "-o", path, "--events", "6000", "--seed", "7", "-q", *flags)
            cls.gen.append(path)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def index_for(self, trace):
        return os.path.join(self.tmp.name, os.path.basename(trace) + ".ntidx")

    def info(self, path):
        return json.loads(run("info", path, "--json").stdout)

    def check(self, trace, window, filters):
        v3 = trace.endswith(".netperf")
        idx = self.index_for(trace)
        out = os.path.join(self.tmp.name, "out.nettrace")
        run("slice", trace, *window, "-o", out, "--index", idx, *filters)
        for order in ("file", "time"):
            q = events(run("query", trace, *window, "--format", "jsonl", "--order", order, "--index", idx,
                           *filters).stdout, v3)
            d = events(run("dump", out, "--format", "jsonl", "--order", order).stdout, v3)
            self.assertEqual(len(q), len(d), f"{trace} {window} {filters} {order}")
            self.assertEqual(q, d, f"{trace} {window} {filters} {order}")
        expect = 4 if v3 else self.info(trace)["format_version"]
        self.assertEqual(self.info(out)["format_version"], expect)
        stats = json.loads(run("stats", out, "--json", "--no-index").stdout)
        self.assertTrue(stats["complete"])
        # a slice of the slice over the same window and filters equals the slice
        out2 = os.path.join(self.tmp.name, "out2.nettrace")
        run("slice", out, *window, "-o", out2, "--index", os.path.join(self.tmp.name, "out.ntidx"), *filters)
        self.assertEqual(events(run("dump", out2, "--format", "jsonl").stdout),
                         events(run("dump", out, "--format", "jsonl").stdout))
        os.unlink(os.path.join(self.tmp.name, "out.ntidx"))
        return len(d)

    def windows(self, trace, n, rnd, whole=True):
        info = self.info(trace)
        first, last = info.get("first_ts"), info.get("last_ts")
        sample = events(run("dump", trace, "--format", "jsonl").stdout)[:5000]
        if whole:  # (the C test slices every real trace whole)
            yield ["--from", "0", "--to", str(2**63)], []
        for _ in range(n):
            a, b = sorted(rnd.randint(first - 10, last + 10) for _ in range(2))
            window = ["--from", str(a), "--to", str(b)]
            filters = []
            if sample and rnd.random() < 0.4:
                e = rnd.choice(sample)
                filters = rnd.choice([["--provider", e["provider"]], ["--event", str(e["event_id"])],
                                      ["--thread", str(e["thread"])]] +
                                     ([["--event", e["event_name"]]] if e["event_name"] else []))
            yield window, filters
        # a time with a unit, as for query
        yield ["--from", "10ms", "--to", "0.5s"], []

    def test_generated(self):
        rnd = random.Random(1)
        total = 0
        for trace in self.gen:
            for window, filters in self.windows(trace, 4, rnd):
                total += self.check(trace, window, filters)
        self.assertGreater(total, 0)

    def test_real_traces(self):
        rnd = random.Random(2)
        for f in sorted(os.listdir(TRACES)):
            if f.endswith(".ntidx"):
                continue
            trace = os.path.join(TRACES, f)
            for window, filters in self.windows(trace, 2, rnd, whole=False):
                self.check(trace, window, filters)

    def test_usage(self):
        trace = self.gen[0]
        out = os.path.join(self.tmp.name, "u.nettrace")
        self.assertEqual(run("slice", trace, "--from", "0", "--to", "1", check=False).returncode, 2)  # no -o
        self.assertEqual(run("slice", "-o", out, check=False).returncode, 2)  # no trace
        self.assertEqual(run("slice", trace, "--from", "soon", "-o", out, check=False).returncode, 2)
        self.assertEqual(run("slice", os.path.join(self.tmp.name, "missing"), "-o", out, check=False).returncode, 1)
        size = os.path.getsize(trace)
        p = run("slice", trace, "-o", trace, "--index", self.index_for(trace), check=False)
        self.assertEqual(p.returncode, 2)
        self.assertIn("is the input", p.stderr)
        self.assertEqual(os.path.getsize(trace), size)
        p = run("slice", trace, "--from", "0", "--to", "1s", "-o", out, "--stats", "--index", self.index_for(trace))
        self.assertIn("bytes of the trace read", p.stderr)
        self.assertEqual(run("slice", "--help").returncode, 0)


if __name__ == "__main__":
    NTIDX, TRACES = sys.argv[1], sys.argv[2]
    unittest.main(argv=sys.argv[:1], verbosity=1)
