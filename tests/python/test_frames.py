"""Frames as analysts use them (issue 28, point 2 and on_error): tests/python, run by meson with /usr/bin/python3.

usage: test_frames.py NTIDX TRACES_DIR   (the package on PYTHONPATH)

- ts is int64 (differences do not wrap); time=True adds datetime64[ns, UTC]; Trace.to_datetime() is vectorised
  and agrees with Trace.datetime().
- provider, event_name and thread_name categories are the whole trace's in every frame, so pd.concat() of two
  windows keeps them categorical.
- provider=, event= and thread= take lists (SQL's IN), an empty list matches nothing.
- Unknown names warn (strict=True raises); a reversed window raises.
- activity_id, related_activity_id, thread_name, pid and stack_key columns, against the events of the query.
- iter_frames(rows=N) parts concatenate to frame(), none longer than N.
- A Trace pickles and unpickles to one that gives the same frame.
- on_error="skip" leaves a damaged region out, warns, and lists it in attrs (stats(): "skipped_regions");
  the default still raises; `ntidx stats --skip-damaged` gives the same count; Trace.sql() and ntidx.sql() take
  on_error="skip" too.
- The C helpers build() uses (_take, _take2, _kind_counts, _kind_mask, _text_codes) agree with the numpy they replace
  and refuse rows out of range; a frame big enough for columns grown by mapping equals its parts read small.
"""

import json
import os
import pickle
import shutil
import subprocess
import sys
import tempfile
import unittest
import warnings

import numpy as np
import pandas as pd

import ntidx

NTIDX = None
TRACES = None
SCRATCH = None


def gen(name, *args):
    path = os.path.join(SCRATCH, name)
    if not os.path.exists(path):
        subprocess.run([NTIDX, "gen", "-q", "-o", path, *map(str, args)], check=True)
    return path


def v6():
    return gen("v6.nettrace", "--events", 20000, "--seed", 5, "--thread-flush-every", 3)


class Frames(unittest.TestCase):
    def test_ts_is_int64_and_time(self):
        with ntidx.open(v6()) as t:
            df = t.frame(time=True)
            self.assertEqual(df.ts.dtype, np.int64)
            self.assertLess(df.ts.iloc[0] - df.ts.iloc[-1], 0)  # uint64 would wrap to ~1.8e19
            self.assertEqual(str(df.time.dtype), "datetime64[ns, UTC]")
            for i in (0, len(df) // 2, len(df) - 1):
                want = t.datetime(int(df.ts.iloc[i]))
                got = df.time.iloc[i]
                self.assertLess(abs((got.to_pydatetime() - want).total_seconds()), 1e-6, i)
            conv = t.to_datetime(df.ts)
            self.assertTrue(isinstance(conv, pd.Series) and conv.index.equals(df.index))
            self.assertTrue((conv == df.time).all())
            self.assertEqual(t.to_datetime(int(df.ts.iloc[3])), df.time.iloc[3])
            self.assertTrue(t.to_datetime([int(x) for x in df.ts.iloc[:5]]).equals(pd.DatetimeIndex(df.time.iloc[:5])))
            self.assertNotIn("time", t.frame(end="1ms").columns)

    def test_categories_are_the_trace_types(self):
        with ntidx.open(v6()) as t:
            types = t.types()
            a, b = t.frame(end="5ms"), t.frame(start="50ms", provider="Contoso-V6Types")
            for col in ("provider", "event_name", "thread_name"):
                self.assertEqual(list(a[col].cat.categories), list(b[col].cat.categories), col)
            self.assertEqual(set(a.provider.cat.categories), {x["provider"] for x in types})
            both = pd.concat([a, b], ignore_index=True)
            for col in ("provider", "event_name", "thread_name"):
                self.assertIsInstance(both[col].dtype, pd.CategoricalDtype, col)

    def test_list_filters(self):
        with ntidx.open(v6()) as t:
            df = t.frame()
            threads = sorted(df.thread.unique())[:3]
            got = t.frame(thread=threads)
            want = df[df.thread.isin(threads)]
            self.assertEqual(got.offset.tolist(), want.offset.tolist())
            provs = ["Contoso-V6Types", "System.Runtime"]
            got = t.frame(provider=provs, order="file")
            self.assertEqual(sorted(got.offset), sorted(df[df.provider.isin(provs)].offset))
            names = ["GC/Start", "VarInts"]
            got = t.frame(event=names, thread=np.array(threads))
            want = df[df.event_name.isin(names) & df.thread.isin(threads)]
            self.assertTrue(len(want) > 0)
            self.assertEqual(got.offset.tolist(), want.offset.tolist())
            self.assertEqual(len(t.frame(provider=[])), 0)
            # one item in a list is the single filter
            self.assertEqual(t.frame(thread=[threads[0]]).offset.tolist(), t.frame(thread=threads[0]).offset.tolist())

    def test_unknown_names_and_reversed_window(self):
        with ntidx.open(v6()) as t:
            with warnings.catch_warnings(record=True) as w:
                warnings.simplefilter("always")
                self.assertEqual(len(t.frame(provider="Nope")), 0)
            self.assertTrue(any(issubclass(x.category, ntidx.UnknownNameWarning) for x in w))
            with self.assertRaises(ntidx.UnknownNameError):
                t.frame(event=["GC/Start", "NoSuchEvent"], strict=True)
            with self.assertRaises(ntidx.ArgumentError):
                t.frame(start="20ms", end="10ms")
            with warnings.catch_warnings(record=True) as w:
                warnings.simplefilter("always")
                df = t.frame(fields=["Count", "NoSuchField"])
            self.assertTrue(any(issubclass(x.category, ntidx.UnknownNameWarning) and "NoSuchField" in str(x.message)
                                and "'Count'" not in str(x.message) for x in w))
            self.assertTrue(df["NoSuchField"].isna().all())
            with self.assertRaises(ntidx.UnknownNameError):
                t.frame(fields=["NoSuchField"], strict=True)

    def test_known_columns(self):
        with ntidx.open(v6()) as t:
            df = t.frame()
            for col in ("activity_id", "related_activity_id", "thread_name", "pid", "stack_key"):
                self.assertIn(col, df.columns)
            self.assertTrue(df.activity_id.notna().any())
            self.assertTrue(df.thread_name.notna().all())  # every thread of the generated V6 trace is named
            self.assertEqual(str(df.pid.dtype), "Int64")
            # the thread's name is the one its thread block gives: one name per thread
            self.assertEqual(df.groupby("thread", observed=True).thread_name.nunique().max(), 1)
            # same stack id, same stack key (keys name stacks across the trace's flushes)
            sub = df[df.stack_id > 0]
            self.assertTrue(sub.stack_key.notna().all())
            # Event.activity_id is the frame's column, event for event
            evs = list(t.query(limit=2000))
            head = df.head(2000)
            self.assertEqual([e.offset for e in evs], head.offset.tolist())
            want = [None if pd.isna(x) else x for x in head.activity_id.astype(object)]
            self.assertEqual([e.activity_id for e in evs], want)
            want = [None if pd.isna(x) else x for x in head.related_activity_id.astype(object)]
            self.assertEqual([e.related_activity_id for e in evs], want)
            self.assertTrue(any(x is not None for x in want) or head.related_activity_id.isna().all())
            # the names of stats() and of the frame agree
            names = dict(df.groupby("thread", observed=True).thread_name.first().astype(str))
            threads = t.stats()["threads"]
            self.assertTrue(threads and all(x["name"] == names[x["thread"]] for x in threads))
            pids = dict(df.groupby("thread").pid.first())
            self.assertTrue(all(x["pid"] == pids[x["thread"]] for x in threads))
            # without V6 thread blocks there are no names
            with ntidx.open(os.path.join(TRACES, "eventpipe-dotnetcore3.0-win-x64-objver4.nettrace"),
                            index=os.path.join(SCRATCH, "v4.ntidx")) as t4:
                d4 = t4.frame()
                self.assertTrue(d4.thread_name.isna().all())
                self.assertEqual(d4.pid.dropna().unique().tolist(), [t4.info()["process_id"]])

    def test_activity_codes_widen_as_the_guids_come(self):
        """The C part writes activity id codes in the narrowest type for the GUIDs met so far and widens the rows
        written when the table outgrows it (here past 127 GUIDs, int8 to int16, in the middle of one read)."""
        path = gen("v5-guids.nettrace", "--format-version", 5, "--events", 40000, "--seed", 3)
        with ntidx.open(path) as t:
            df = t.frame()
            first = t.frame(end=int(df.ts.iloc[2000]))  # its first rows only: fewer GUIDs, int8 codes
            self.assertEqual(first.activity_id.cat.codes.dtype, np.int8)
            self.assertGreater(len(df.activity_id.cat.categories), 127)
            for col in ("activity_id", "related_activity_id"):
                self.assertEqual(df[col].cat.codes.dtype, np.int16)
            evs = list(t.query())
            self.assertEqual(len(evs), len(df))
            for col, attr in (("activity_id", "activity_id"), ("related_activity_id", "related_activity_id")):
                want = [getattr(e, attr) for e in evs]
                got = [None if pd.isna(x) else x for x in df[col].astype(object)]
                self.assertEqual(got, want, col)
                self.assertTrue(any(x is not None for x in want[:2000]) and any(x is not None for x in want[-2000:]))
            self.assertTrue(first.activity_id.astype(object).equals(df.activity_id.head(len(first)).astype(object)))

    def test_iter_frames(self):
        with ntidx.open(v6()) as t:
            df = t.frame(fields=["Count"])
            parts = list(t.iter_frames(rows=3000, fields=["Count"]))
            self.assertGreater(len(parts), 3)
            self.assertTrue(all(len(p) <= 3000 for p in parts))
            self.assertTrue(pd.concat(parts).equals(df))
            with self.assertRaises(ValueError):
                next(t.iter_frames(rows=0))

    def test_pickle(self):
        with ntidx.open(v6()) as t:
            u = pickle.loads(pickle.dumps(t))
            self.assertEqual(u.path, os.path.abspath(t.path))
            self.assertTrue(u.frame(end="20ms").equals(t.frame(end="20ms")))
            u.close()

    def test_on_error_skip(self):
        path = v6()
        with ntidx.open(path) as t:
            full = t.frame()
            r = t.regions()[2]
        inr = full[(full.offset >= r.offset) & (full.offset < r.offset + r.bytes)]
        bad = os.path.join(SCRATCH, "damaged.nettrace")
        shutil.copy(path, bad)
        with open(bad, "r+b") as f:  # an event header in the middle of region 2
            f.seek(int(inr.offset.sort_values().iloc[len(inr) // 2]))
            f.write(b"\xff" * 16)
        with ntidx.open(bad, index=os.path.join(SCRATCH, "damaged.ntidx")) as b:
            with self.assertRaises(ntidx.CorruptError):
                b.frame()
            with warnings.catch_warnings(record=True) as w:
                warnings.simplefilter("always")
                df = b.frame(on_error="skip")
            self.assertTrue(any(issubclass(x.category, ntidx.DamagedRegionWarning) for x in w))
            self.assertEqual(len(df), len(full) - len(inr))
            self.assertEqual([s["region"] for s in df.attrs["skipped_regions"]], [2])
            self.assertEqual(df.offset.tolist(), full[~full.index.isin(inr.index)].offset.tolist())
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                parts = list(b.iter_frames(rows=1000, on_error="skip"))
            self.assertEqual(pd.concat(parts).offset.tolist(), df.offset.tolist())
            with self.assertRaises(ntidx.ArgumentError):
                b.frame(on_error="ignore")
            # stats(): the same region left out, counted and said; the command's --skip-damaged agrees
            with self.assertRaises(ntidx.CorruptError):
                b.stats()
            with warnings.catch_warnings(record=True) as w:
                warnings.simplefilter("always")
                s = b.stats(on_error="skip")
            self.assertTrue(any(issubclass(x.category, ntidx.DamagedRegionWarning) for x in w))
            self.assertEqual(s["events"], len(df))
            self.assertEqual([x["region"] for x in s["skipped_regions"]], [2])
            # sql(): the events table leaves the same region out, said with a DamagedRegionWarning
            with self.assertRaises(ntidx.CorruptError):
                b.sql("SELECT count(*) AS n FROM events")
            with warnings.catch_warnings(record=True) as w:
                warnings.simplefilter("always")
                got = b.sql("SELECT offset FROM events ORDER BY ts", on_error="skip")
                n = ntidx.sql(bad, "SELECT count(*) AS n FROM events", index=b.index_path, on_error="skip")
            said = [str(x.message) for x in w if issubclass(x.category, ntidx.DamagedRegionWarning)]
            self.assertEqual(len(said), 2, [str(x.message) for x in w])
            self.assertIn("1 damaged region left out of the scan; region 2 (offset %d, %d bytes) skipped"
                          % (r.offset, r.bytes), said[0])
            self.assertEqual(got.offset.tolist(), df.offset.tolist())
            self.assertEqual(int(n.n[0]), len(df))
            with self.assertRaises(ntidx.ArgumentError):
                b.sql("SELECT 1", on_error="ignore")
        idx = os.path.join(SCRATCH, "damaged-cli.ntidx")  # none yet: the command builds it
        p = subprocess.run([NTIDX, "stats", bad, "--index", idx, "--json"], capture_output=True, text=True)
        self.assertEqual(p.returncode, 1)
        p = subprocess.run([NTIDX, "stats", bad, "--index", idx, "--json", "--skip-damaged"], capture_output=True,
                           text=True)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(json.loads(p.stdout)["events"], len(df))
        self.assertIn("region 2 (offset %d, %d bytes) skipped" % (r.offset, r.bytes), p.stderr)
        self.assertIn("1 damaged region left out", p.stderr)


class ColumnHelpers(unittest.TestCase):
    """The passes of _frame.build() done in C, against numpy doing the same."""

    def test_take(self):
        rng = np.random.default_rng(1)
        rows = rng.integers(0, 40, 10000, dtype=np.uint32)
        for dtype in (np.int8, np.int16, np.int32, np.int64):
            table = rng.integers(-100, 100, 40).astype(dtype)
            got = np.frombuffer(ntidx._ntidx._take(table, table.itemsize, rows), dtype=dtype)
            np.testing.assert_array_equal(got, table[rows])
        with self.assertRaises(IndexError):
            ntidx._ntidx._take(np.zeros(3, np.int8), 1, np.array([0, 3], np.uint32))
        with self.assertRaises(ValueError):
            ntidx._ntidx._take(np.zeros(3, np.int8), 3, rows)
        # _take2: two tables by the same rows in one pass (a frame's provider and event name codes)
        for da, db in ((np.int8, np.int16), (np.int16, np.int8), (np.int32, np.int64)):
            ta, tb = rng.integers(-100, 100, 40).astype(da), rng.integers(-100, 100, 40).astype(db)
            a, b = ntidx._ntidx._take2(ta, ta.itemsize, tb, tb.itemsize, rows)
            np.testing.assert_array_equal(np.frombuffer(a, dtype=da), ta[rows])
            np.testing.assert_array_equal(np.frombuffer(b, dtype=db), tb[rows])
        a, b = ntidx._ntidx._take2(np.zeros(3, np.int8), 1, np.zeros(3, np.int8), 1, np.zeros(0, np.uint32))
        self.assertEqual((len(memoryview(a)), len(memoryview(b))), (0, 0))
        with self.assertRaises(IndexError):
            ntidx._ntidx._take2(np.zeros(3, np.int8), 1, np.zeros(3, np.int8), 1, np.array([0, 3], np.uint32))
        with self.assertRaises(ValueError):  # tables of different lengths
            ntidx._ntidx._take2(np.zeros(3, np.int8), 1, np.zeros(4, np.int8), 1, rows)
        with self.assertRaises(ValueError):
            ntidx._ntidx._take2(np.zeros(3, np.int8), 1, np.zeros(3, np.int8), 3, rows)

    def test_kinds(self):
        rng = np.random.default_rng(2)
        kinds = rng.choice(np.array([0, 3, 4, 9, 255], np.uint8), 10001)
        np.testing.assert_array_equal(ntidx._ntidx._kind_counts(kinds), np.bincount(kinds, minlength=256))
        present = np.array([3, 9], np.uint8)
        got = np.frombuffer(ntidx._ntidx._kind_mask(kinds, present.tobytes()), dtype=np.bool_)
        np.testing.assert_array_equal(got, ~np.isin(kinds, present))

    def test_text_codes(self):
        rng = np.random.default_rng(3)
        for distinct in (5, 300, 40000):
            ids = rng.integers(1, distinct + 1, 100000).astype(np.uint64)
            mask = rng.random(100000) < 0.3
            codes, used = ntidx._ntidx._text_codes(ids, mask.view(np.uint8), distinct)
            codes = np.frombuffer(codes, dtype={1: np.int8, 2: np.int16, 4: np.int32}[memoryview(codes).itemsize])
            want_used = np.unique(ids[~mask])
            want = np.searchsorted(want_used, ids).astype(np.int64)
            want[mask] = -1
            self.assertEqual(used, want_used.tolist())
            np.testing.assert_array_equal(codes.astype(np.int64), want)
            self.assertEqual(codes.dtype, np.int8 if len(used) < 127 else np.int16 if len(used) < 32767 else np.int32)
        with self.assertRaises(IndexError):
            ntidx._ntidx._text_codes(np.array([1, 7], np.uint64), np.zeros(2, np.uint8), 6)
        with self.assertRaises(ValueError):
            ntidx._ntidx._text_codes(np.array([1, 2], np.uint64), np.zeros(3, np.uint8), 6)

    def test_big_frame_equals_its_parts(self):
        """Columns over 1 MiB are mappings grown by mremap(), small ones malloc()'s: both give the same rows."""
        path = gen("big.nettrace", "--events", 150000, "--seed", 11)
        fields = ["Count", "TypeName", "Ratio"]
        with ntidx.open(path) as t:
            whole = t.frame(fields=fields, time=True)
            parts = pd.concat(list(t.iter_frames(rows=20000, fields=fields, time=True)))
            self.assertEqual(len(whole), 150000)
            self.assertEqual(list(whole.columns), list(parts.columns))
            for c in whole.columns:  # Series.equals: same type, values and nulls (assert_frame_equal takes seconds)
                self.assertEqual(whole[c].dtype, parts[c].dtype, c)
                self.assertTrue(whole[c].equals(parts[c]), c)
            events = list(t.query(limit=5))
            for i, e in enumerate(events):
                self.assertEqual(whole.ts.iloc[i], e.ts)
                self.assertEqual(whole.offset.iloc[i], e.offset)
                self.assertEqual(whole.thread.iloc[i], e.thread)
            self.assertTrue((np.diff(whole.ts.to_numpy()) >= 0).all())  # time order, as the query gives


if __name__ == "__main__":
    NTIDX, TRACES = sys.argv[1], sys.argv[2]
    del sys.argv[1:3]
    with tempfile.TemporaryDirectory(prefix="ntidx-frames-") as SCRATCH:
        os.environ["NTIDX_INDEX_DIR"] = SCRATCH
        unittest.main()
