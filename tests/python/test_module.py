"""The Python module against the command (tests/python, run by meson with /usr/bin/python3).

usage: test_module.py NTIDX TRACES_DIR   (the package on PYTHONPATH)

- Every sample trace and generated V5/V6 traces (drops, flushes, removed threads, a truncated one):
  Trace.info() and Trace.stats() equal `ntidx info/stats --json` (whole and random windows);
  Trace.query() and Trace.frame() equal `ntidx query --format jsonl` event for event, fields included,
  with random windows and filters; Trace.seek() equals `ntidx seek`.
- Times as ticks, "1.5s"-like strings, ISO-8601 Z, datetimes and timedeltas name the same tick.
- Bad input raises the documented exceptions with file, offset and what; a corrupt index is rebuilt
  (an IndexWarning) and the answers do not change.
- The GIL is released while the library works, and many threads over one Trace get the single-thread
  answers.
- The index directory: NTIDX_INDEX_DIR, the user's cache for a trace in a folder that cannot be written,
  the same name through a link, an index beside the trace used first; two processes building one index
  at once leave a valid file.
"""

import datetime
import json
import logging
import math
import os
import random
import shutil
import stat
import subprocess
import sys
import tempfile
import threading
import time
import unittest
import warnings

import numpy as np
import pandas as pd

import ntidx

#: The columns every frame starts with (a contract: added to, never renamed).
BASE_COLUMNS = ["ts", "time_s", "provider", "event_id", "event_name", "version", "thread", "capture_thread", "seq",
                "stack_id", "offset", "activity_id", "related_activity_id", "thread_name", "pid", "stack_key"]
NBASE = len(BASE_COLUMNS)

NTIDX = None
TRACES = []
SCRATCH = None
rng = random.Random(11)


def run(*args, env=None, check=True):
    p = subprocess.run([NTIDX] + [str(a) for a in args], capture_output=True, text=True,
                       env=None if env is None else {**os.environ, **env})
    if check and p.returncode != 0:
        raise AssertionError("ntidx %s exited %d: %s" % (" ".join(map(str, args)), p.returncode, p.stderr))
    return p


def cli_json(*args):
    return json.loads(run(*args).stdout)


def cli_jsonl(*args):
    return [json.loads(line) for line in run(*args).stdout.splitlines()]


def norm(v):
    """A payload value as the JSON writes it: NaN and the infinities are strings there."""
    if isinstance(v, float) and (math.isnan(v) or math.isinf(v)):
        return "NaN" if math.isnan(v) else "Infinity" if v > 0 else "-Infinity"
    if isinstance(v, dict):
        return {k: norm(x) for k, x in v.items()}
    if isinstance(v, list):
        return [norm(x) for x in v]
    return v


def without_names(stats):
    """Trace.stats() as `ntidx stats --json` gives it: without the name and pid its threads carry (V6)."""
    out = dict(stats)
    out["threads"] = [{k: v for k, v in th.items() if k not in ("name", "pid")} for th in stats["threads"]]
    return out


def event_dict(e):
    d = {"ts": e.ts, "provider": e.provider, "event_id": e.event_id, "event_name": e.event_name,
         "version": e.version, "thread": e.thread, "capture_thread": e.capture_thread, "seq": e.seq,
         "stack_id": e.stack_id, "offset": e.offset}
    if e.field_error is None:
        d["fields"] = norm(e.fields)
    else:
        d["field_error"] = e.field_error
    return d


def window_args(t, info):
    """A random window of the trace as (start, end) ticks and the command's flags."""
    if info["first_ts"] is None:
        return None, None, []
    lo, hi = info["first_ts"], info["last_ts"] + 1
    a, b = sorted(rng.randrange(lo, hi + 1) for _ in range(2))
    return a, b, ["--from", a, "--to", b]


def generated():
    """Generated traces (made once): V5, V6, V6 with drops, flushes and removed threads, V6 cut short."""
    out = []
    for name, args in [("v5.nettrace", ["--format-version", "5", "--events", "12000", "--seed", "5"]),
                       ("v6.nettrace", ["--events", "12000", "--seed", "6", "--uncompressed"]),
                       ("v6-drops.nettrace", ["--events", "12000", "--seed", "7", "--drop-rate", "0.02",
                                              "--metadata-flush-every", "3", "--thread-flush-every", "4",
                                              "--remove-threads"])]:
        path = os.path.join(SCRATCH, name)
        if not os.path.exists(path):
            run("gen", "-o", path, "-q", *args)
        out.append(path)
    cut = os.path.join(SCRATCH, "v6-cut.nettrace")
    if not os.path.exists(cut):
        with open(out[1], "rb") as f:
            data = f.read()
        with open(cut, "wb") as f:
            f.write(data[: len(data) * 2 // 3])
    out.append(cut)
    return out


def all_traces():
    return TRACES + generated()


class Answers(unittest.TestCase):
    """The module's answers are the command's."""

    def test_info_and_stats(self):
        for path in all_traces():
            with self.subTest(trace=os.path.basename(path)), ntidx.open(path) as t:
                info = t.info()
                self.assertEqual(info, cli_json("info", path, "--json"))
                self.assertEqual(t.complete, info["complete"])
                self.assertEqual(without_names(t.stats()), cli_json("stats", path, "--json"))
                for _ in range(3):
                    a, b, flags = window_args(t, info)
                    self.assertEqual(without_names(t.stats(a, b)), cli_json("stats", path, "--json", *flags))
                self.assertEqual(t.stats(threads=1), t.stats(threads=3))

    def test_query_and_frame(self):
        for path in all_traces():
            with self.subTest(trace=os.path.basename(path)), ntidx.open(path) as t:
                info = t.info()
                want = cli_jsonl("query", path, "--format", "jsonl")
                got = [event_dict(e) for e in t.query()]
                self.assertEqual(got, want)
                if len(want) <= 30000:
                    self.check_frame(t.frame(fields="all"), want, t)
                else:  # every field of a big trace: the first 20000 events
                    cut = want[20000]["ts"]
                    first = [e for e in want if e["ts"] < cut]
                    self.check_frame(t.frame(end=cut, fields="all"), first, t)
                types = sorted({(e["provider"], e["event_name"], e["event_id"]) for e in want})
                threads = sorted({e["thread"] for e in want})
                for k in range(4):
                    a, b, flags = window_args(t, info)
                    kw, more = {}, []
                    if types and k % 2:
                        p, n, i = rng.choice(types)
                        kw["provider"] = p
                        more += ["--provider", p]
                        if n and k == 1:
                            kw["event"] = n
                            more += ["--event", n]
                        else:
                            kw["event"] = i
                            more += ["--event", i]
                    if threads and k >= 2:
                        kw["thread"] = rng.choice(threads)
                        more += ["--thread", kw["thread"]]
                    order = "file" if k == 3 else "time"
                    want = cli_jsonl("query", path, "--format", "jsonl", "--order", order, *flags, *more)
                    got = [event_dict(e) for e in t.query(a, b, order=order, **kw)]
                    self.assertEqual(got, want, (a, b, kw, order))
                    df = t.frame(a, b, fields=["TypeName", "Count", "Text", "Outer", "Nope"], order=order, **kw)
                    self.check_frame(df, want, t)

    def check_frame(self, df, want, t):
        """A frame against the command's jsonl: every column, every field cell."""
        self.assertEqual(list(df.columns[:NBASE]), BASE_COLUMNS)
        self.assertEqual(len(df), len(want))
        for col in ("ts", "event_id", "version", "thread", "capture_thread", "seq", "stack_id", "offset"):
            self.assertEqual(df[col].tolist(), [e[col] for e in want], col)
        for col in ("provider", "event_name"):
            self.assertEqual(df[col].astype(object).tolist(), [e[col] for e in want], col)
        fmt = t.format
        ts = df["ts"].to_numpy().astype(np.uint64)
        secs = (ts - np.uint64(fmt["sync_ticks"] % 2 ** 64)).astype(np.int64) / float(fmt["tick_frequency"])
        self.assertTrue(np.array_equal(df["time_s"].to_numpy(), secs))
        fields = [c for c in df.columns[NBASE:] if c != "field_error"]
        if not fields:
            return
        column_of = {(c[:-6] if c.endswith("_field") and c[:-6] in df.columns[:NBASE] else c): c for c in fields}
        cols = {c: df[c].astype(object).tolist() for c in fields + ["field_error"]}
        # the cells that hold a value: as many per row as the event has non-null fields asked for
        filled = df[fields].notna().sum(axis=1).tolist()
        for i, e in enumerate(want):
            err = cols["field_error"][i]
            self.assertEqual(None if pd.isna(err) else err, e.get("field_error"))
            have = {k: v for k, v in e.get("fields", {}).items() if k in column_of and v is not None}
            self.assertEqual(filled[i], len(have), (i, e))
            for name, value in have.items():
                v = cols[column_of[name]][i]
                v = None if v is None or (not isinstance(v, (list, dict)) and pd.isna(v)) else norm(v)
                if isinstance(v, float) and math.isnan(v):
                    v = "NaN"
                self.assertEqual(v, value, (i, name, e))

    def test_seek(self):
        for path in all_traces():
            with self.subTest(trace=os.path.basename(path)), ntidx.open(path) as t:
                info = t.info()
                if info["first_ts"] is None:
                    continue
                for _ in range(5):
                    at = rng.randrange(info["first_ts"], info["last_ts"] + 2)
                    want = cli_jsonl("seek", path, "--at", at, "--format", "jsonl")
                    e = t.seek(at)
                    self.assertEqual([event_dict(e)] if e else [], want)
                self.assertIsNone(t.seek(info["last_ts"] + 1))

    def test_regions_partition(self):
        """The frames and statistics of a partition of the regions add up to the whole's."""
        path = generated()[2]
        with ntidx.open(path) as t:
            regions = t.regions()
            self.assertGreater(len(regions), 4)
            self.assertTrue(all(isinstance(r, ntidx.Region) and r.bytes > 0 for r in regions))
            whole = t.frame(fields=["Count"])
            parts = [[], [], []]
            for r in regions:
                parts[rng.randrange(3)].append(r.number)
            frames = [t.frame(fields=["Count"], regions=p) for p in parts]
            got = pd.concat(frames).sort_values("offset")["offset"].tolist()
            self.assertEqual(got, sorted(whole["offset"].tolist()))
            self.assertEqual(sum(t.stats(regions=p)["events"] for p in parts), t.stats()["events"])
            info = t.info()
            a, b, _ = window_args(t, info)
            win = t.regions(a, b)
            self.assertEqual(sum(len(t.frame(a, b, regions=[r.number])) for r in win), len(t.frame(a, b)))


class Times(unittest.TestCase):
    def test_time_forms(self):
        path = generated()[1]
        with ntidx.open(path) as t:
            fmt = t.format
            sync, freq = fmt["sync_ticks"], fmt["tick_frequency"]
            self.assertEqual(t.ticks(12345), 12345)
            self.assertEqual(t.ticks("12345"), 12345)
            self.assertEqual(t.ticks("1.5s"), sync + freq * 3 // 2)
            self.assertEqual(t.ticks("250ms"), sync + freq // 4)
            self.assertEqual(t.ticks(datetime.timedelta(milliseconds=250)), sync + freq // 4)
            when = t.datetime(sync + freq * 2)
            self.assertEqual(when.tzinfo, datetime.timezone.utc)
            iso = when.strftime("%Y-%m-%dT%H:%M:%S.%fZ")
            self.assertEqual(t.ticks(iso), sync + freq * 2)
            self.assertEqual(t.ticks(when), sync + freq * 2)
            self.assertEqual(t.ticks(when.replace(tzinfo=None)), sync + freq * 2)
            plus2 = datetime.timezone(datetime.timedelta(hours=2))
            self.assertEqual(t.ticks(when.astimezone(plus2)), sync + freq * 2)
            self.assertEqual(t.ticks(pd.Timestamp(when)), sync + freq * 2)
            self.assertEqual(t.ticks(np.uint64(77)), 77)
            a = [e.offset for e in t.query("10ms", "20ms")]
            b = [e.offset for e in t.query(t.datetime(sync + freq // 100), sync + freq // 50)]
            self.assertEqual(a, b)
            self.assertTrue(a)
            self.assertEqual(len(t.frame("10ms", "20ms")), len(a))
            self.assertEqual(t.stats("10ms", "20ms")["events"], len(a))
            e = t.seek("10ms")
            self.assertAlmostEqual(e.time_s, (e.ts - sync) / freq)


    def test_out_of_range_times(self):
        """A time no tick of the trace names is a TimeError (a ValueError) naming it, never the first or last
        tick: in a trace of nanosecond ticks from 2020 (they end in 2604)."""
        path = next(p for p in TRACES if os.path.basename(p) == "only_managed_samples.nettrace")
        with ntidx.open(path) as t:
            whole = t.stats()["events"]
            for v in ("1e400s", "infs", "99999999999s", "184467440737s", "9999-12-31T23:59:59Z",
                      "99999-01-01T00:00:00Z", "18446744073709551616", "-300000s",
                      datetime.timedelta(days=999999), datetime.datetime(9999, 12, 31, 23, 59, 59)):
                for call in (lambda: t.ticks(v), lambda: t.stats(start=v), lambda: t.query(end=v),
                             lambda: t.frame(start=v), lambda: t.seek(v), lambda: t.regions(v)):
                    with self.assertRaises(ntidx.TimeError) as cm:
                        call()
                    self.assertIsInstance(cm.exception, ValueError)
                    if isinstance(v, str):
                        self.assertIn(v, str(cm.exception))
            for v in (2 ** 64, -1):
                with self.assertRaises(ntidx.TimeError):
                    t.ticks(v)
            # 2600 is a tick here, after the trace: nothing from it, everything before it
            self.assertEqual(t.stats(start="2600-01-01T00:00:00Z")["events"], 0)
            self.assertEqual(t.stats(end="2600-01-01T00:00:00Z")["events"], whole)
            self.assertEqual(t.ticks(2 ** 64 - 1), 2 ** 64 - 1)

    def test_window_ending_before_it_starts(self):
        with ntidx.open(generated()[1]) as t:
            for call in (lambda: t.stats("2s", "1s"), lambda: t.query("2s", "1s"), lambda: t.frame("2s", "1s"),
                         lambda: t.regions("2s", "1s")):
                with self.assertRaises(ntidx.ArgumentError) as cm:
                    call()
                self.assertIsInstance(cm.exception, ValueError)
                self.assertIn("ends before it starts", str(cm.exception))
            self.assertEqual(t.stats("1s", "1s")["events"], 0)  # equal ends: an empty window, not a mistake
            self.assertEqual(list(t.query("1s", "1s")), [])


class Documents(unittest.TestCase):
    """Trace.info() and Trace.stats() give "blocks" one shape ("unknown" included), and the regions without a
    window are every region, so that a partition's block counts add up to the whole (issue 25, item 15)."""

    def test_blocks_agree_and_add_up(self):
        src = generated()[1]
        path = os.path.join(SCRATCH, "unknown-blocks.nettrace")
        with open(src, "rb") as f:
            data = f.read()
        pos, blocks = 20, []
        while pos + 4 <= len(data):  # V6 blocks: a u32 of size and kind, then the payload
            word = int.from_bytes(data[pos:pos + 4], "little")
            blocks.append((pos, word >> 24))
            if word >> 24 == 0:
                break
            pos += 4 + (word & 0xFFFFFF)
        mid = [b for b, k in blocks if k == 2][1]
        end = blocks[-1][0]

        def block(kind, payload):
            return (len(payload) | kind << 24).to_bytes(4, "little") + payload

        with open(path, "wb") as f:  # two blocks of kinds no version defines: one among events, one at the end
            f.write(data[:mid] + block(200, b"future!!") + data[mid:end] + block(201, b"") + data[end:])
        with ntidx.open(path) as t:
            info, whole = t.info(), t.stats()
            self.assertEqual(info["blocks"]["unknown"], 2)
            self.assertEqual(whole["blocks"], info["blocks"])
            self.assertEqual(whole["blocks"], cli_json("stats", path, "--json", "--no-index")["blocks"])
            regions = t.regions()
            self.assertEqual([r.number for r in regions], list(range(len(regions))))
            self.assertTrue(any(r.first_ts > r.last_ts for r in regions))  # the one after the last sequence point
            parts = [t.stats(regions=[r.number]) for r in regions]
            added = {k: sum(p["blocks"][k] for p in parts) for k in whole["blocks"]}
            added["trace"] = 1
            self.assertEqual(added, whole["blocks"])
            self.assertEqual(sum(p["events"] for p in parts), whole["events"])
            # with a window, the regions that hold its events
            self.assertTrue(all(r.first_ts <= r.last_ts for r in t.regions(whole["first_ts"], whole["last_ts"] + 1)))


class Names(unittest.TestCase):
    """Providers without regard to case; names that name nothing: an UnknownNameWarning with the closest names
    when the answer is empty, or with strict=True an UnknownNameError (issue 25, item 6)."""

    def test_provider_without_regard_to_case(self):
        with ntidx.open(generated()[1]) as t:
            want = [e.offset for e in t.query(provider="Contoso-TypeZoo")]
            self.assertTrue(want)
            with warnings.catch_warnings():
                warnings.simplefilter("error")  # no warning while the filters find events
                for spelling in ("contoso-typezoo", "CONTOSO-TYPEZOO"):
                    self.assertEqual([e.offset for e in t.query(provider=spelling)], want)
                    self.assertEqual(t.frame(provider=spelling)["offset"].tolist(), want)
                    self.assertEqual(t.seek(0, provider=spelling).offset, min(
                        (e for e in t.query(provider="Contoso-TypeZoo")), key=lambda e: (e.ts, e.offset)).offset)
                    self.assertEqual(t.types(provider=spelling), t.types(provider="Contoso-TypeZoo"))
                    self.assertIsNone(t.check_names(provider=spelling, event="heartbeat"))

    def test_unknown_names(self):
        with ntidx.open(generated()[1]) as t:
            said = "no provider 'Contoso-TypeZo' in the trace (closest: Contoso-TypeZoo)"
            self.assertEqual(t.check_names(provider="Contoso-TypeZo"), said)
            self.assertEqual(t.check_names(event="Haertbeat"), "no event 'Haertbeat' in the trace (closest: Heartbeat)")
            calls = {"query": lambda **kw: list(t.query(provider="Contoso-TypeZo", **kw)),
                     "seek": lambda **kw: t.seek(0, provider="Contoso-TypeZo", **kw),
                     "frame": lambda **kw: t.frame(provider="Contoso-TypeZo", **kw),
                     "types": lambda **kw: t.types(provider="Contoso-TypeZo", **kw)}
            for name, call in calls.items():
                with self.subTest(call=name):
                    with warnings.catch_warnings(record=True) as caught:
                        warnings.simplefilter("always")
                        r = call()
                    self.assertFalse(r is not None and len(r))
                    w = [x for x in caught if issubclass(x.category, ntidx.UnknownNameWarning)]
                    self.assertEqual(len(w), 1, [str(x.message) for x in caught])
                    self.assertEqual(str(w[0].message), "%s: %s" % (generated()[1], said))
                    self.assertEqual(w[0].filename, __file__)  # said where the caller is
                    with self.assertRaises(ntidx.UnknownNameError) as cm:
                        call(strict=True)
                    self.assertIsInstance(cm.exception, ntidx.ArgumentError)
                    self.assertIsInstance(cm.exception, ValueError)
                    self.assertIn(said, str(cm.exception))
            # names the trace defines: nothing said for an empty window, strict or not
            with warnings.catch_warnings():
                warnings.simplefilter("error")
                self.assertEqual(list(t.query("100s", provider="contoso-typezoo", strict=True)), [])
                self.assertEqual(list(t.query("100s", event="heartbeat")), [])
                self.assertIsNone(t.seek("100s", event=3))


class BadInput(unittest.TestCase):
    def test_missing_file_and_directory(self):
        missing = os.path.join(SCRATCH, "no-such.nettrace")
        with self.assertRaises(ntidx.FileError) as cm:
            ntidx.open(missing)
        e = cm.exception
        self.assertIsInstance(e, ntidx.Error)
        self.assertIsInstance(e, OSError)
        self.assertEqual(e.file, missing)
        self.assertIsNone(e.offset)
        self.assertEqual(e.name, "NTIDX_E_IO")
        self.assertIn("No such file", e.what)
        self.assertIn(missing, str(e))
        with self.assertRaises(ntidx.FileError):
            ntidx.open(SCRATCH)

    def test_not_a_trace_and_truncated(self):
        junk = os.path.join(SCRATCH, "junk.nettrace")
        with open(junk, "wb") as f:
            f.write(b"this is not a trace at all, just some bytes" * 10)
        with self.assertRaises(ntidx.NotATraceError) as cm:
            ntidx.open(junk)
        self.assertEqual(cm.exception.offset, 0)
        self.assertEqual(cm.exception.file, junk)
        self.assertIsInstance(cm.exception, ValueError)
        src = generated()[1]
        with open(src, "rb") as f:
            head = f.read(100)
        tiny = os.path.join(SCRATCH, "tiny.nettrace")
        with open(tiny, "wb") as f:
            f.write(head)
        with self.assertRaises(ntidx.TruncatedError) as cm:
            ntidx.open(tiny)
        self.assertEqual(cm.exception.file, tiny)
        self.assertIsNotNone(cm.exception.offset)
        self.assertIn("remain", cm.exception.what)
        # cut short after its trace block: readable, not complete, the command's answers
        cut = generated()[3]
        with ntidx.open(cut) as t:
            self.assertFalse(t.complete)
            s = t.stats()
            self.assertFalse(s["complete"])
            self.assertIn("incomplete_reason", s)
            self.assertEqual(without_names(s), cli_json("stats", cut, "--json"))
        with ntidx.open(cut, build_index=False) as t:
            self.assertFalse(t.complete)
            self.assertIsNone(t.index_path)

    def test_damaged_trace(self):
        """Zeros over the middle of a V6 trace read as an end-of-stream block: a CorruptError naming its offset,
        with the index or without it, never a trace that ends there."""
        path = os.path.join(SCRATCH, "damaged.nettrace")
        with open(generated()[1], "rb") as f:
            data = bytearray(f.read())
        pos = 20
        while pos < len(data) // 2:  # the first block boundary past the middle
            pos += 4 + (int.from_bytes(data[pos:pos + 4], "little") & 0xFFFFFF)
        data[pos:pos + 4096] = bytes(4096)
        with open(path, "wb") as f:
            f.write(data)
        for build in (True, False):
            with self.assertRaises(ntidx.CorruptError) as cm:
                with ntidx.open(path, build_index=build) as t:
                    t.stats()
            self.assertEqual(cm.exception.offset, pos)
            self.assertIn("end-of-stream block, but", cm.exception.what)

    def test_corrupt_index_is_rebuilt(self):
        path = os.path.join(SCRATCH, "corrupt.nettrace")
        shutil.copy(generated()[0], path)
        idx = os.path.join(SCRATCH, "corrupt.ntidx")
        want = cli_json("stats", path, "--json", "--index", idx)
        # the command's first statistics build a --full index, which answers its regions from their stored
        # counts; the module's rebuild is plain: the same numbers, regions_from_index aside
        del want["regions_from_index"]
        def stats(t):
            s = t.stats()
            del s["regions_from_index"]
            return s
        with open(idx, "r+b") as f:
            f.seek(os.path.getsize(idx) // 2)
            b = f.read(1)
            f.seek(-1, 1)
            f.write(bytes([b[0] ^ 0xff]))
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            with ntidx.open(path, index=idx) as t:
                self.assertEqual(t.index_action, "rebuilt")
                self.assertEqual(t.index_path, idx)
                self.assertEqual(stats(t), want)
        self.assertTrue(any(issubclass(w.category, ntidx.IndexWarning) and "rebuilding" in str(w.message)
                            for w in caught), [str(w.message) for w in caught])
        # a corrupt index named where it cannot be saved: answers all the same, with a warning
        where = os.path.join(SCRATCH, "no-such-dir", "x.ntidx")
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            with ntidx.open(path, index=where) as t:
                self.assertEqual(stats(t), want)
        self.assertTrue(any("could not be saved" in str(w.message) for w in caught))
        self.assertFalse(os.path.exists(where))

    @staticmethod
    def corrupt_block_entry(index_path, fraction):
        """Flip a bit in the BLOCKS entry `fraction` of the way through an index file (its earliest timestamp):
        the region holding it fails its checksum when a call first needs it (docs/index-format.md)."""
        with open(index_path, "r+b") as f:
            head = f.read(512)
            for i in range(int.from_bytes(head[20:24], "little")):
                d = head[128 + 32 * i:160 + 32 * i]
                if int.from_bytes(d[0:4], "little") == 1:  # BLOCKS
                    entry, off = int.from_bytes(d[4:8], "little"), int.from_bytes(d[8:16], "little")
                    count = int.from_bytes(d[16:24], "little")
            f.seek(off + int(count * fraction) * entry + 24)
            b = f.read(1)
            f.seek(-1, 1)
            f.write(bytes([b[0] ^ 0x04]))

    def test_corrupt_region_found_on_use_is_recovered(self):
        """A large index is checked region by region on first use (NTIDX_INDEX_VERIFY=on-use forces it here): the
        library returns the damage, the module rebuilds the index (an IndexWarning) and a query iterator or a
        frame goes on over the new one where it stopped, no event repeated or lost; statistics and an analysis compute again."""
        path = os.path.join(SCRATCH, "lazy-corrupt.nettrace")
        idx = path + ".ntidx"
        run("gen", "-o", path, "-q", "--events", "60000", "--seed", "12")
        run("index", path, "-o", idx)
        want = [e["offset"] for e in cli_jsonl("query", path, "--format", "jsonl", "--index", idx)]
        want_stats = cli_json("stats", path, "--json", "--index", idx)
        want_stats["file"] = path
        with ntidx.open(path, index=idx) as t:
            want_gc = t.analyze("gc", summary=True).to_json()
        old = os.environ.get("NTIDX_INDEX_VERIFY")
        os.environ["NTIDX_INDEX_VERIFY"] = "on-use"
        try:
            for what in ("query", "frame", "stats", "analysis"):
                self.corrupt_block_entry(idx, 0.6)
                with warnings.catch_warnings(record=True) as caught, ntidx.open(path, index=idx) as t:
                    warnings.simplefilter("always")
                    self.assertEqual(t.index_action, "loaded")  # the damage is not seen at load
                    if what == "query":
                        got = [e.offset for e in t.query()]
                    elif what == "frame":
                        got = [int(v) for v in t.frame()["offset"]]
                    elif what == "stats":
                        self.assertEqual(without_names(t.stats()), want_stats)
                        got = want
                    else:
                        self.assertEqual(t.analyze("gc", summary=True).to_json(), want_gc)
                        got = want
                self.assertEqual(got, want, what)
                self.assertTrue(any(issubclass(w.category, ntidx.IndexWarning) and "rebuilding" in str(w.message)
                                    and "checksum" in str(w.message) for w in caught),
                                (what, [str(w.message) for w in caught]))
        finally:
            if old is None:
                del os.environ["NTIDX_INDEX_VERIFY"]
            else:
                os.environ["NTIDX_INDEX_VERIFY"] = old

    def test_bad_arguments(self):
        with ntidx.open(generated()[0]) as t:
            with self.assertRaises(ntidx.TimeError) as cm:
                t.query(start="yesterday")
            self.assertIsInstance(cm.exception, ValueError)
            self.assertIn("yesterday", str(cm.exception))
            for bad in ("1.5 parsecs", "2021-13-01T00:00:00Z", "", "-5"):
                with self.assertRaises(ntidx.TimeError):
                    t.stats(bad)
            with self.assertRaises(TypeError):
                t.seek(1.5)
            with self.assertRaises(ntidx.TimeError):
                t.seek(-1)
            with self.assertRaises(ntidx.ArgumentError):
                t.query(order="sideways")
            n = len(t.regions())
            with self.assertRaises(ntidx.ArgumentError) as cm:
                t.frame(regions=[n + 5])
            self.assertIn("no region", str(cm.exception))
            with self.assertRaises(ValueError):
                t.frame(fields="everything")
        t.close()
        t.close()
        self.assertTrue(t.closed)
        with self.assertRaises(ValueError):
            t.stats()


class Events(unittest.TestCase):
    def test_event_outlives_its_query_and_trace(self):
        path = generated()[1]
        t = ntidx.open(path)
        q = t.query()
        first = next(q)
        events = [next(q) for _ in range(300)]
        q.close()
        t.close()  # the events keep what they need
        want = cli_jsonl("query", path, "--format", "jsonl", "--limit", "301")
        self.assertEqual([event_dict(e) for e in [first] + events], want)
        self.assertTrue(any(e.stack for e in events))
        self.assertTrue(repr(first).startswith("<ntidx.Event ts="))

    def test_dropped_events_of_a_slice(self):
        """A V6 slice's threads start in the middle of their numbering: Trace.stats() counts their dropped
        events as a read of the whole trace does (and TraceEvent), not 0."""
        src, cut = generated()[1], os.path.join(SCRATCH, "v6-slice.nettrace")
        info = cli_json("info", src, "--json")
        span = info["last_ts"] - info["first_ts"]
        run("slice", src, "--from", info["first_ts"] + span // 3, "--to", info["first_ts"] + 2 * span // 3, "-o", cut)
        whole = cli_json("stats", cut, "--json", "--no-index")["dropped_events"]
        self.assertGreater(whole, 0)
        with ntidx.open(cut) as t:
            self.assertEqual(t.stats()["dropped_events"], whole)

    def test_unnamed_event_is_eventid(self):
        """A runtime event TraceEvent does not name (200) is EventID(200) in events, frames and statistics."""
        path = os.path.join(SCRATCH, "runtime-file.nettrace")
        shutil.copy(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "dotnet", "golden",
                                 "runtime-file.nettrace"), path)
        with ntidx.open(path) as t:
            events = list(t.query(event="EventID(200)"))
            self.assertTrue(events)
            self.assertEqual({e.event_name for e in events}, {"EventID(200)"})
            self.assertEqual([x["count"] for x in t.stats()["types"] if x["event_name"] == "EventID(200)"],
                             [len(events)])
            df = t.frame(event="EventID(200)")
            self.assertEqual(set(df["event_name"]), {"EventID(200)"})

    def test_stack_methods(self):
        path = os.path.join(os.path.dirname(TRACES[0]), "only_managed_samples.nettrace")
        with ntidx.open(path) as t:
            named = 0
            for e in t.query(event="Thread/Sample", limit=200):
                methods = e.stack_methods
                self.assertEqual(len(methods), len(e.stack))
                named += sum(1 for m in methods if m)
            self.assertGreater(named, 0)
            e = next(iter(t.query(event="Thread/Sample")))
            s = t.symbol(e.stack[0])
            self.assertTrue(s is None or "method" in s)

    def test_types(self):
        with ntidx.open(generated()[1]) as t:
            types = t.types()
            names = {(x["provider"], x["event_name"]) for x in types}
            for ty in t.stats()["types"]:
                self.assertIn((ty["provider"], ty["event_name"]), names)
            gc = t.types(provider="Microsoft-Windows-DotNETRuntime")
            self.assertTrue(gc and all(x["provider"] == "Microsoft-Windows-DotNETRuntime" for x in gc))
            self.assertTrue(any(f["name"] == "TypeName" for x in gc for f in x["fields"]))


class Threads(unittest.TestCase):
    def test_gil_released(self):
        """With a switch interval of a second, the main thread runs while another thread is in a call only if
        the call released the GIL (a thread that holds it in C is never interrupted; one in Python only
        after a second): the main thread must take many steps inside every call."""
        path = os.path.join(SCRATCH, "gil.nettrace")
        if not os.path.exists(path):
            run("gen", "-o", path, "-q", "--size", "32M", "--seed", "3")
        t = ntidx.open(path)
        calls = []

        def work():
            for name, call in (("stats", lambda: t.stats(threads=1)), ("frame", lambda: t._frames().read())):
                a = time.perf_counter()
                call()
                calls.append((name, a, time.perf_counter()))

        old = sys.getswitchinterval()
        sys.setswitchinterval(1.0)
        steps = []
        try:
            th = threading.Thread(target=work)
            th.start()
            while th.is_alive():
                steps.append(time.perf_counter())
            th.join()
        finally:
            sys.setswitchinterval(old)
            t.close()
        for name, a, b in calls:
            inside = sum(1 for x in steps if a <= x <= b)
            self.assertGreater(inside, 1000, "%s: the main thread stood still for %.3f s: the GIL was held" %
                               (name, b - a))

    def test_many_threads_one_trace(self):
        path = generated()[2]
        with ntidx.open(path) as t:
            info = t.info()
            jobs = []
            for k in range(6):
                a, b, _ = window_args(t, info)
                jobs.append((a, b))
            single = [self.answer(t, a, b) for a, b in jobs]
            results, errors = {}, []

            def worker(i):
                try:
                    for r in range(3):
                        k = (i + r) % len(jobs)
                        results[(i, r)] = (k, self.answer(t, *jobs[k]))
                except Exception as e:  # noqa: BLE001  (reported below)
                    errors.append(e)

            threads = [threading.Thread(target=worker, args=(i,)) for i in range(8)]
            for th in threads:
                th.start()
            for th in threads:
                th.join()
            self.assertEqual(errors, [])
            self.assertEqual(len(results), 24)
            for k, got in results.values():
                self.assertEqual(got, single[k])

    @staticmethod
    def answer(t, a, b):
        evs = [(e.offset, e.ts, json.dumps(norm(e.fields), sort_keys=True) if e.field_error is None else e.field_error)
               for e in t.query(a, b)]
        df = t.frame(a, b, fields=["Count", "Text"])
        seek = t.seek(a)
        return (evs, df["offset"].tolist(), df["Count"].astype(object).tolist(), t.stats(a, b, threads=2),
                seek.offset if seek else None)


class IndexDirectory(unittest.TestCase):
    def setUp(self):
        self.d = tempfile.mkdtemp(dir=SCRATCH)
        self.saved = {k: os.environ.get(k) for k in ("NTIDX_INDEX_DIR", "XDG_CACHE_HOME")}

    def tearDown(self):
        for k, v in self.saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
        shutil.rmtree(self.d, ignore_errors=True)

    def trace_in(self, folder, name="t.nettrace"):
        os.makedirs(folder, exist_ok=True)
        path = os.path.join(folder, name)
        shutil.copy(generated()[0], path)
        return path

    def test_env_var(self):
        path = self.trace_in(os.path.join(self.d, "traces"))
        idir = os.path.join(self.d, "indexes", "deeper")
        os.environ["NTIDX_INDEX_DIR"] = idir
        where = ntidx.index_path(path)
        self.assertEqual(os.path.dirname(where), idir)
        self.assertRegex(os.path.basename(where), r"^t\.nettrace\.[0-9a-f]{16}\.ntidx$")
        records = []
        handler = logging.Handler()
        handler.emit = records.append
        log = logging.getLogger("ntidx")
        log.addHandler(handler)
        log.setLevel(logging.INFO)
        try:
            with ntidx.open(path) as t:
                self.assertEqual(t.index_action, "built")
                self.assertEqual(t.index_path, where)
        finally:
            log.removeHandler(handler)
        self.assertTrue(any("indexing" in r.getMessage() for r in records))
        self.assertTrue(os.path.exists(where))
        self.assertFalse(os.path.exists(path + ".ntidx"))
        with ntidx.open(path) as t:
            self.assertEqual(t.index_action, "loaded")
        # the command finds the same index, through a link too
        link = os.path.join(self.d, "link.nettrace")
        os.symlink(path, link)
        self.assertEqual(ntidx.index_path(link), where)
        p = run("index", link, "--json", env={"NTIDX_INDEX_DIR": idir})
        self.assertEqual(json.loads(p.stdout)["index"], where)
        self.assertEqual(json.loads(p.stdout)["action"], "up to date")
        p = run("stats", path, "--json", env={"NTIDX_INDEX_DIR": idir})
        self.assertNotIn("indexing", p.stderr)
        # an index beside the trace that matches it is used first
        run("index", path, "-o", path + ".ntidx")
        with ntidx.open(path) as t:
            self.assertEqual(t.index_path, path + ".ntidx")

    def test_read_only_folder(self):
        """A trace in a folder this user cannot write: its index goes to $XDG_CACHE_HOME/ntidx, once."""
        folder = os.path.join(self.d, "ro")
        path = self.trace_in(folder)
        cache = os.path.join(self.d, "cache")
        os.makedirs(cache)
        os.chmod(self.d, 0o755)
        os.chmod(cache, 0o777)
        os.chmod(folder, 0o555)
        env = {"XDG_CACHE_HOME": cache, "NTIDX_INDEX_DIR": ""}
        # root writes anywhere: run as nobody then, with a copy of the package it can read (the build
        # folder may be in one only its owner can enter: a clone in a private folder)
        user = {}
        if os.geteuid() == 0:
            user = {"user": 65534, "group": 65534}
            shutil.copytree(os.path.dirname(ntidx.__file__), os.path.join(self.d, "pkg", "ntidx"),
                            ignore=shutil.ignore_patterns("*.p", "__pycache__"))
            env["PYTHONPATH"] = os.path.join(self.d, "pkg")
        script = ("import ntidx, json, sys\n"
                  "with ntidx.open(sys.argv[1]) as t:\n"
                  "    print(json.dumps([t.index_action, t.index_path, t.stats()['events']]))\n")
        runs = []
        for _ in range(2):
            p = subprocess.run([sys.executable, "-c", script, path], capture_output=True, text=True,
                               env={**os.environ, **env}, **user)
            self.assertEqual(p.returncode, 0, p.stderr)
            runs.append(json.loads(p.stdout))
        self.assertEqual(runs[0][0], "built")
        self.assertEqual(runs[1][0], "loaded")
        self.assertTrue(runs[0][1].startswith(os.path.join(cache, "ntidx") + "/"), runs[0][1])
        self.assertEqual(runs[0][1], runs[1][1])
        self.assertFalse(os.path.exists(path + ".ntidx"))
        self.assertEqual(stat.S_IMODE(os.stat(os.path.join(cache, "ntidx")).st_mode), 0o700)
        self.assertEqual(runs[0][2], cli_json("stats", path, "--json", "--index", os.path.join(self.d, "x.ntidx"))["events"])
        os.chmod(folder, 0o755)

    def test_two_builders(self):
        """Two processes that build one index at once leave one valid index (atomic writes), every time."""
        path = self.trace_in(os.path.join(self.d, "pair"), "p.nettrace")
        env = {**os.environ, "NTIDX_INDEX_DIR": os.path.join(self.d, "shared-index")}
        script = ("import ntidx, sys, time\n"
                  "time.sleep(max(0.0, float(sys.argv[2]) - time.time()))\n"
                  "with ntidx.open(sys.argv[1]) as t:\n"
                  "    print(t.index_action, t.stats()['events'])\n")
        os.environ["NTIDX_INDEX_DIR"] = env["NTIDX_INDEX_DIR"]
        where = ntidx.index_path(path)
        for _ in range(4):
            if os.path.exists(where):
                os.unlink(where)
            start = str(time.time() + 1.0)  # both start building at the same moment
            ps = [subprocess.Popen([sys.executable, "-c", script, path, start], stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, text=True, env=env) for _ in range(2)]
            outs = [p.communicate() for p in ps]
            for p, (out, err) in zip(ps, outs):
                self.assertEqual(p.returncode, 0, err)
                self.assertIn(out.split()[0], ("built", "loaded"))
            p = run("index", path, "--json", env={"NTIDX_INDEX_DIR": env["NTIDX_INDEX_DIR"],
                                                  "NTIDX_INDEX_VERIFY": "all"})
            self.assertEqual(json.loads(p.stdout)["action"], "up to date", p.stderr)
        leftovers = [f for f in os.listdir(os.path.dirname(where)) if ".tmp." in f]
        self.assertEqual(leftovers, [])


def main():
    global NTIDX, TRACES, SCRATCH
    NTIDX = sys.argv[1]
    tdir = sys.argv[2]
    TRACES = sorted(os.path.join(tdir, f) for f in os.listdir(tdir) if not f.endswith(".ntidx"))
    with tempfile.TemporaryDirectory() as scratch:
        SCRATCH = scratch
        os.chmod(scratch, 0o755)
        # Indexes of the sample traces go here, never beside them (tools/test.sh checks their folder).
        os.environ["NTIDX_INDEX_DIR"] = os.path.join(scratch, "indexes")
        prog = unittest.main(argv=[sys.argv[0], "-v"], exit=False)
        ok = prog.result.wasSuccessful() and not prog.result.skipped
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
