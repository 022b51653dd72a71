#!/usr/bin/env python3
"""Reading correctly, as the commands show it: damaged traces said with their
offset, truncated traces warned about, one block count, one event name, one
dropped-events count whatever the path through the library.

usage: cli_reading_test.py NTIDX
"""
import json
import os
import subprocess
import sys
import tempfile
import unittest

NTIDX = None


def run(*args, check=True):
    p = subprocess.run([NTIDX, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if check and p.returncode != 0:
        raise AssertionError(f"ntidx {' '.join(args)} exited {p.returncode}: {p.stderr}")
    return p


def v6_blocks(data):
    """(offset, kind, size) of each block of a V6 trace (stream header: 20 bytes), up to end-of-stream."""
    pos, out = 20, []
    while pos + 4 <= len(data):
        word = int.from_bytes(data[pos:pos + 4], "little")
        size, kind = word & 0xFFFFFF, word >> 24
        out.append((pos, kind, size))
        if kind == 0:
            break
        pos += 4 + size
    return out


class DamagedTrace(unittest.TestCase):
    """Zeros written over the middle of a trace: a V6 end-of-stream block is a zero word, so the first zero
    block header used to end the trace there, silently, with everything after it unread. Every command now
    says the trace is damaged, with the offset, and exits 1; the same for V4/V5 framing."""

    def zeroed(self, d, version, at, length):
        path = os.path.join(d, f"z{version}.nettrace")
        run("gen", "-o", path, "--format-version", str(version), "--size", "3M", "--seed", "5")
        whole = os.path.join(d, f"whole{version}.nettrace")
        with open(path, "rb") as f:
            data = f.read()
        with open(whole, "wb") as f:
            f.write(data)
        # indexed while whole: the damage must not be hidden behind an index that says "up to date"
        self.assertIn("built", run("index", path).stdout)
        with open(path, "r+b") as f:
            f.seek(at)
            f.write(bytes(length))
        return path, data

    def check_damaged(self, path, where):
        info = run("info", path, check=False)
        self.assertEqual(info.returncode, 1, info.stderr)
        self.assertIn("complete:         no (damaged", info.stdout)
        self.assertIn(where, info.stdout)
        self.assertIn(where, info.stderr)
        js = run("info", path, "--json", check=False)
        self.assertEqual(js.returncode, 1)
        doc = json.loads(js.stdout)
        self.assertFalse(doc["complete"])
        self.assertIn(where, doc["incomplete_reason"])
        for args in (["stats"], ["stats", "--json"], ["stats", "--threads", "2"], ["index"], ["index", "--full"],
                     ["query", "--from", "0.2s", "--to", "0.3s"], ["seek", "--at", "0.2s"], ["top"],
                     ["sql", "SELECT count(*) FROM events"]):
            p = run(args[0], path, *args[1:], check=False)
            self.assertEqual(p.returncode, 1, (args, p.stdout[:200], p.stderr))
            self.assertIn(where, p.stderr, args)
        # without an index: the reader stops at the damaged block (the one the zeros begin in, or the
        # end-of-stream after it), with an error naming its offset
        for args in (["stats", "--no-index"], ["dump"]):
            p = run(args[0], path, *args[1:], check=False)
            self.assertEqual(p.returncode, 1, (args, p.stderr))
            self.assertRegex(p.stderr, r"offset \d+ \(0x[0-9a-f]+\)")

    def test_v6_zeros_at_a_block_boundary(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "probe.nettrace")
            run("gen", "-o", path, "--format-version", "6", "--size", "3M", "--seed", "5")
            blocks = v6_blocks(open(path, "rb").read())
            at = next(off for off, kind, size in blocks if off >= 1 << 20)
            path, data = self.zeroed(d, 6, at, 256 << 10)
            follow = len(data) - at - 4
            self.check_damaged(path, "offset %d (0x%x): end-of-stream block, but %d bytes of the file follow it: "
                                     "the trace is damaged here (zeros" % (at, at, follow))

    def test_v6_zeros_inside_a_block(self):
        with tempfile.TemporaryDirectory() as d:
            at = (1 << 20) + 1000
            path, data = self.zeroed(d, 6, at, 300 << 10)
            # the block the zeros begin in keeps its header; the first block header among them reads as the
            # end-of-stream block
            eos = next(off for off, kind, size in v6_blocks(open(path, "rb").read()) if kind == 0)
            self.assertLess(eos, len(data) - 4)
            self.check_damaged(path, "offset %d (0x%x): end-of-stream block, but" % (eos, eos))

    def test_v5_zeros(self):
        with tempfile.TemporaryDirectory() as d:
            path, _ = self.zeroed(d, 5, (1 << 20) + 1000, 300 << 10)
            self.check_damaged(path, "): expected the end-of-object tag (6)")

    def test_bytes_after_the_end_of_stream(self):
        """What follows the end-of-stream marker is damage too, in V6 and in V4/V5."""
        with tempfile.TemporaryDirectory() as d:
            for v in (5, 6):
                path = os.path.join(d, f"tail{v}.nettrace")
                run("gen", "-o", path, "--format-version", str(v), "--size", "1M")
                end = os.path.getsize(path) - (4 if v == 6 else 1)
                with open(path, "ab") as f:
                    f.write(b"\x01" * 10)
                what = "end-of-stream block" if v == 6 else "end-of-stream tag"
                self.check_damaged(path, "offset %d (0x%x): %s, but 10 bytes of the file follow it" % (end, end, what))


class DroppedEvents(unittest.TestCase):
    """dropped_events is one number whatever the path: a read of the whole trace (--no-index, TraceEvent's
    count), the parallel statistics through the index with any number of threads, and a --full index's
    region statistics. A V6 thread counts from 0: in a slice, whose threads start in the middle of their
    numbering, the indexed paths said 0 where a whole read says thousands."""

    def dropped(self, path, *args):
        return json.loads(run("stats", path, "--json", *args).stdout)["dropped_events"]

    def same_everywhere(self, path):
        whole = self.dropped(path, "--no-index")
        for threads in ("1", "2", "3"):
            self.assertEqual(self.dropped(path, "--threads", threads), whole, (path, threads))
        run("index", path, "--full")
        s = json.loads(run("stats", path, "--json").stdout)
        self.assertGreater(s["regions_from_index"], 0)
        self.assertEqual(s["dropped_events"], whole, path)
        os.unlink(path + ".ntidx")
        return whole

    def test_slices_and_flushes(self):
        with tempfile.TemporaryDirectory() as d:
            shapes = {"v6": ["--format-version", "6"],
                      "v6-flushes": ["--format-version", "6", "--drop-rate", "0.02", "--metadata-flush-every", "3",
                                     "--thread-flush-every", "4", "--remove-threads"],
                      "v5-drops": ["--format-version", "5", "--drop-rate", "0.02"],
                      "one-collect": ["--shape", "one-collect"]}
            for name, args in shapes.items():
                src = os.path.join(d, name + ".nettrace")
                run("gen", "-q", "-o", src, "--size", "3M", "--seed", "7", *args)
                with self.subTest(trace=name):
                    whole = self.same_everywhere(src)
                    if "drop-rate" in " ".join(args):
                        self.assertGreater(whole, 0)
                    info = json.loads(run("info", src, "--json").stdout)
                    span = info["last_ts"] - info["first_ts"]
                    cut = os.path.join(d, name + "-slice.nettrace")
                    run("slice", src, "--from", str(info["first_ts"] + span // 3), "--to",
                        str(info["first_ts"] + 2 * span // 3), "-o", cut)
                    if name != "v5-drops":  # V6: every thread of the slice starts in the middle of its numbering
                        self.assertGreater(self.same_everywhere(cut), 0)
                    else:
                        self.same_everywhere(cut)


GOLDEN_RUNTIME = os.path.join(os.path.dirname(os.path.abspath(__file__)), "dotnet", "golden", "runtime-file.nettrace")


class OneName(unittest.TestCase):
    def test_unnamed_runtime_event(self):
        """The runtime's events 200 and 201 have no name in TraceEvent's parsers: EventID(200) there, in the
        text output, and now in every key and column (it was "" in dump, query, stats --json and SQL)."""
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "runtime.nettrace")
            with open(GOLDEN_RUNTIME, "rb") as f, open(path, "wb") as g:
                g.write(f.read())
            dumped = [json.loads(l) for l in run("dump", path, "--format", "jsonl").stdout.splitlines()]
            unnamed = [e for e in dumped if e["provider"] == "Microsoft-Windows-DotNETRuntime" and e["event_id"] == 200]
            self.assertTrue(unnamed)
            self.assertEqual({e["event_name"] for e in unnamed}, {"EventID(200)"})
            self.assertNotIn("", {e["event_name"] for e in dumped})
            ts = unnamed[0]["ts"]
            q = [json.loads(l) for l in run("query", path, "--from", str(ts), "--to", str(ts + 1), "--format",
                                            "jsonl").stdout.splitlines()]
            self.assertIn("EventID(200)", {e["event_name"] for e in q})
            csv = run("query", path, "--event", "EventID(200)", "--format", "csv").stdout.splitlines()
            self.assertEqual(len(csv) - 1, len(unnamed))
            self.assertTrue(all(',"EventID(200)",' in line for line in csv[1:]), csv[:2])
            for args in ([], ["--no-index"]):
                types = json.loads(run("stats", path, "--json", *args).stdout)["types"]
                self.assertEqual([t["count"] for t in types if t["event_name"] == "EventID(200)"], [len(unnamed)])
                self.assertNotIn("", {t["event_name"] for t in types})
            self.assertIn("Microsoft-Windows-DotNETRuntime/EventID(200)", run("stats", path).stdout)
            out = run("sql", path, "SELECT DISTINCT event_name FROM events WHERE event_id = 200 AND "
                                   "provider = 'Microsoft-Windows-DotNETRuntime'", "--format", "csv").stdout
            self.assertEqual(out.split(), ["event_name", "EventID(200)"])
            out = run("sql", path, "SELECT count(*) FROM types WHERE event_name = ''", "--format", "csv").stdout
            self.assertEqual(out.split()[-1], "0")


class Counts(unittest.TestCase):
    def test_info_and_index_count_the_same_blocks(self):
        """info counted the trace block, index did not (717 and 716): both count it now."""
        with tempfile.TemporaryDirectory() as d:
            for v in ("5", "6"):
                path = os.path.join(d, f"b{v}.nettrace")
                run("gen", "-q", "-o", path, "--format-version", v, "--size", "1M")
                info = json.loads(run("info", path, "--json").stdout)
                idx = json.loads(run("index", path, "--json").stdout)
                self.assertEqual(idx["block_total"], info["block_total"])
                self.assertEqual(idx["blocks"], info["blocks"])
                self.assertEqual(info["block_total"], sum(info["blocks"].values()))
                self.assertIn("  %d blocks," % info["block_total"], run("index", path).stdout)
                # and info answered from the index (current, complete) says the same
                self.assertEqual(json.loads(run("info", path, "--json").stdout)["block_total"], info["block_total"])

    def test_stats_text_tables(self):
        """The text has the per-provider table it promises, and every type's event id (gen-v6's label lists
        rename events of ids 3 and 4 alike: "Activity1//Opcode(10) v1")."""
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "gen-v6.nettrace")
            with open(os.path.join(os.path.dirname(GOLDEN_RUNTIME), "gen-v6.nettrace"), "rb") as f, \
                    open(path, "wb") as g:
                g.write(f.read())
            s = json.loads(run("stats", path, "--json").stdout)
            text = run("stats", path).stdout
            providers = text.split("\n       count  provider\n", 1)[1].split("\n\n", 1)[0].splitlines()
            self.assertEqual({l.split()[1]: int(l.split()[0]) for l in providers}, s["providers"])
            counts = [int(l.split()[0]) for l in providers]
            self.assertEqual(counts, sorted(counts, reverse=True))
            types = text.split("\n       count    event id  event type\n", 1)[1].split("\n\n", 1)[0].splitlines()
            self.assertEqual(len(types), len(s["types"]))
            lines = {tuple(l.split(None, 2)) for l in types}
            for t in s["types"]:
                name = "%s/%s" % (t["provider"], t["event_name"]) + (" v%d" % t["version"] if t["version"] else "")
                self.assertIn((str(t["count"]), str(t["event_id"]), name), lines)
            alike = [t for t in s["types"] if t["event_name"] == "Activity1//Opcode(10)" and t["version"] == 1]
            self.assertEqual(sorted(t["event_id"] for t in alike), [3, 4])


class TruncatedTrace(unittest.TestCase):
    def test_info_warns(self):
        """info on a trace cut short warns on stderr, as the README promises and the other commands do."""
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "t.nettrace")
            run("gen", "-o", path, "--format-version", "6", "--size", "2M")
            with open(path, "r+b") as f:
                f.truncate(os.path.getsize(path) - 5000)
            for args in ([], ["--json"]):
                p = run("info", path, *args)
                self.assertIn("warning: trace is incomplete: offset ", p.stderr, args)
            self.assertIn("complete:         no (no end-of-stream marker)", run("info", path).stdout)
            q = run("query", path, "--from", "0", "--to", "1000s")
            self.assertIn("warning: trace is incomplete", q.stderr)
            whole = os.path.join(d, "w.nettrace")
            run("gen", "-o", whole, "--format-version", "6", "--size", "1M")
            self.assertNotIn("warning", run("info", whole).stderr)
            self.assertNotIn("warning", run("query", whole, "--from", "0", "--to", "1s").stderr)


if __name__ == "__main__":
    NTIDX = sys.argv[1]
    prog = unittest.main(argv=[sys.argv[0], "-v"], exit=False)
    sys.exit(0 if prog.result.wasSuccessful() and not prog.result.skipped else 1)
