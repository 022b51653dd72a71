"""ntidx.dask on a distributed.LocalCluster of two worker processes (loopback), against one process.

usage: test_dask.py NTIDX TRACES_DIR GEN_GC_TRACE   (the package on PYTHONPATH)

- stats() over several traces (the sample ones and generated V5/V6 ones, each split into many region
  groups) equals `ntidx stats --json` per trace, with a client given as a tcp:// address and with none
  (dask's default scheduler in this process), whole and in a window; the total is their combination;
- merge_stats() of any partition of a trace's regions equals the trace's statistics;
- frame() is the concatenation of each trace's Trace.frame() with a trace column, fields included;
- a worker killed in the middle of a job (its tasks run again elsewhere) changes nothing;
- gc() of many traces (one task each) equals each trace's `ntidx gc` with a trace column, whole, in a
  window and as summaries, and answers the fleet question (which traces had a gen2 pause over 100 ms); a
  damaged trace raises its CorruptError through the client, or with errors="skip" is left out and named.
"""

import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
import unittest
import warnings

import dask
import pandas as pd
from distributed import Client, LocalCluster

import ntidx
import ntidx.dask

NTIDX = None
GEN_GC = None  # tests/analysis/gen_gc_trace
PATHS = []
SCRATCH = None
CLUSTER = None
rng = random.Random(5)


def cli_stats(path, *args):
    p = subprocess.run([NTIDX, "stats", path, "--json"] + [str(a) for a in args], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout)


def without_names(stats):
    """Trace.stats() (and ntidx.dask's) as `ntidx stats --json` gives it: without the name and pid of threads."""
    out = dict(stats)
    out["threads"] = [{k: v for k, v in th.items() if k not in ("name", "pid")} for th in stats["threads"]]
    return out


class Dask(unittest.TestCase):
    def test_stats_equal_the_command(self):
        with Client(CLUSTER.scheduler_address) as client:  # a cluster as a script reaches one: its address
            self.assertTrue(CLUSTER.scheduler_address.startswith("tcp://127.0.0.1:"))
            got = ntidx.dask.stats(PATHS, client=client, partition_bytes=256 << 10)
            with dask.config.set(scheduler="threads"):  # one process: this one, with threads
                local = ntidx.dask.stats(PATHS, partition_bytes=1 << 20)
            want = {p: cli_stats(p) for p in PATHS}
            self.assertEqual({p: without_names(s) for p, s in got["traces"].items()}, want)
            self.assertEqual(local["traces"], got["traces"])
            for p in PATHS:  # the names are Trace.stats()'s
                with ntidx.open(p) as t:
                    self.assertEqual(got["traces"][p]["threads"], t.stats()["threads"])
            self.assertEqual(got["total"], ntidx.dask.combine_stats(want[p] for p in PATHS))
            self.assertEqual(got["total"]["events"], sum(s["events"] for s in want.values()))
            self.assertEqual(got["total"], local["total"])
            # a window, as times relative to each trace's sync time
            got = ntidx.dask.stats(PATHS, start="5ms", end="30ms", client=client, partition_bytes=128 << 10)
            self.assertEqual({p: without_names(s) for p, s in got["traces"].items()},
                             {p: cli_stats(p, "--from", "5ms", "--to", "30ms") for p in PATHS})

    def test_stats_with_a_client_that_is_not_the_default(self):
        """A program that keeps several clients (set_as_default=False) names one: no default is looked for."""
        with Client(CLUSTER, set_as_default=False) as client:
            got = ntidx.dask.stats(PATHS, client=client, partition_bytes=256 << 10)
        self.assertEqual({p: without_names(s) for p, s in got["traces"].items()}, {p: cli_stats(p) for p in PATHS})

    def test_region_groups(self):
        """Every region in exactly one group, in order; no more groups than the partition size asks for (and no
        more than regions), as many when regions are even; groups of about equal bytes (no small remainder)."""
        for path in PATHS:
            with self.subTest(trace=os.path.basename(path)), ntidx.open(path) as t:
                regions = t.regions()
                total = sum(r.bytes for r in regions)
                for pb in (max(1, total // 3), max(1, total // 7), 64 << 10, total + 1):
                    groups = ntidx.dask._groups(regions, pb)
                    self.assertEqual([n for g in groups for n in g], [r.number for r in regions])
                    if not regions:
                        self.assertEqual(groups, [[]])
                        continue
                    want = max(1, min(len(regions), -(-total // pb)))
                    self.assertLessEqual(len(groups), want)
                    if len({r.bytes for r in regions}) == 1:  # even regions: exactly as many
                        self.assertEqual(len(groups), want)
                    self.assertTrue(all(groups))
                    size = {r.number: r.bytes for r in regions}
                    largest = max(r.bytes for r in regions)
                    for g in groups:  # each within a region's size of the even share
                        self.assertLessEqual(abs(sum(size[n] for n in g) - total / want), largest + total / want)

    def test_merge_of_any_partition(self):
        for path in PATHS:
            with self.subTest(trace=os.path.basename(path)), ntidx.open(path) as t:
                whole = t.stats()
                numbers = [r.number for r in t.regions()]
                for k in (1, 2, 5):
                    parts = [[] for _ in range(k)]
                    for n in numbers:
                        parts[rng.randrange(k)].append(n)
                    self.assertEqual(ntidx.dask.merge_stats(t.stats(regions=p) for p in parts), whole)

    def test_frame(self):
        with Client(CLUSTER) as client:
            fields = ["TypeName", "AllocationAmount64", "Count", "Text"]
            df = ntidx.dask.frame(PATHS, fields=fields, client=client, partition_bytes=256 << 10)
            self.assertGreater(df.npartitions, len(PATHS))
            got = df.compute()
            parts = []
            for p in PATHS:
                with ntidx.open(p) as t:
                    f = t.frame(fields=fields)
                f.insert(0, "trace", p)
                parts.append(f)
            want = pd.concat(parts, ignore_index=True)
            got = got.reset_index(drop=True)
            self.assertEqual(list(got.columns), list(want.columns))
            for c in want.columns:
                self.assertEqual(got[c].astype(object).where(got[c].notna(), None).tolist(),
                                 want[c].astype(object).where(want[c].notna(), None).tolist(), c)
            # a window and a filter, every field
            df = ntidx.dask.frame(PATHS[-2:], start="2ms", end="40ms", provider="Microsoft-Windows-DotNETRuntime",
                                  fields="all", client=client, partition_bytes=128 << 10)
            got = df.compute()
            n = 0
            for p in PATHS[-2:]:
                with ntidx.open(p) as t:
                    n += len(t.frame("2ms", "40ms", provider="Microsoft-Windows-DotNETRuntime"))
            self.assertEqual(len(got), n)
            self.assertIn("TypeName", got.columns)
            # a provider in another case is the provider; one that names nothing is said here, once per trace
            # (the workers' warnings are not seen), or with strict=True raised
            df = ntidx.dask.frame(PATHS[-1:], provider="microsoft-windows-dotnetruntime", client=client)
            with ntidx.open(PATHS[-1]) as t:
                self.assertEqual(len(df.compute()), len(t.frame(provider="Microsoft-Windows-DotNETRuntime")))
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                df = ntidx.dask.frame(PATHS[-2:], provider="Microsoft-Windows-DotNetRuntme", client=client)
            said = [str(w.message) for w in caught if issubclass(w.category, ntidx.UnknownNameWarning)]
            self.assertEqual(len(said), 2, said)
            self.assertIn("closest: Microsoft-Windows-DotNETRuntime", said[0])
            self.assertEqual(len(df.compute()), 0)
            with self.assertRaises(ntidx.UnknownNameError):
                ntidx.dask.frame(PATHS[-1:], provider="Microsoft-Windows-DotNetRuntme", client=client, strict=True)

    def test_frame_indexed_by_ts_prunes(self):
        """index="ts": known divisions, one partition per window; df.loc[a:b] keeps only the partitions that
        overlap it, and its rows are frame(a, b)'s; merge=True merges several traces in time order."""
        path = PATHS[-1]
        with ntidx.open(path) as t:
            full = t.frame()
        with Client(CLUSTER) as client:
            df = ntidx.dask.frame([path], index="ts", client=client, partition_bytes=64 << 10)
            self.assertTrue(df.known_divisions)
            self.assertGreater(df.npartitions, 4)
            got = df.compute()
            self.assertEqual(got.index.name, "ts")
            self.assertEqual(got.index.tolist(), full.ts.tolist())
            self.assertEqual(got.offset.tolist(), full.offset.tolist())
            a, b = int(full.ts.iloc[len(full) // 3]), int(full.ts.iloc[len(full) // 3 + 300])
            sel = df.loc[a:b - 1]
            self.assertLessEqual(sel.npartitions, 2)  # the window's partitions only, not all of them
            want = full[(full.ts >= a) & (full.ts < b)]
            self.assertEqual(sel.compute().offset.tolist(), want.offset.tolist())
            # a window and a filter
            with ntidx.open(path) as t:
                want = t.frame("5ms", "30ms", provider="Contoso-TypeZoo")
            got = ntidx.dask.frame([path], "5ms", "30ms", provider="Contoso-TypeZoo", index="ts", client=client,
                                   partition_bytes=64 << 10).compute()
            self.assertEqual(got.offset.tolist(), want.offset.tolist())
            # several traces: merged in time order when asked, else refused
            with self.assertRaises(ValueError):
                ntidx.dask.frame(PATHS[-2:], index="ts", client=client)
            m = ntidx.dask.frame(PATHS[-2:], index="ts", merge=True, client=client, partition_bytes=64 << 10)
            got = m.compute()
            self.assertTrue(got.index.is_monotonic_increasing)
            n = 0
            for p in PATHS[-2:]:
                with ntidx.open(p) as t:
                    n += len(t.frame())
            self.assertEqual(len(got), n)

    def test_worker_killed_mid_job(self):
        """The scheduler runs a dead worker's tasks again elsewhere: the answer does not change."""
        big = []
        for k in range(4):
            path = os.path.join(SCRATCH, "big%d.nettrace" % k)
            if not os.path.exists(path):
                subprocess.run([NTIDX, "gen", "-o", path, "-q", "--size", "12M", "--seed", str(40 + k)], check=True)
            big.append(path)
        want = {p: cli_stats(p) for p in big}
        with Client(CLUSTER) as client:
            ntidx.dask.stats(big, client=client)  # indexes built: the job below is the work itself
            pids = client.run(os.getpid)
            plans = client.gather(client.compute([dask.delayed(ntidx.dask._plan, pure=False)(p, None, None, 64 << 10)
                                                  for p in big]))
            tasks = [dask.delayed(ntidx.dask._stats_part, pure=False)(p, None, None, g)
                     for p, plan in zip(big, plans) for g in plan["groups"]]
            futures = client.compute(tasks)
            killed = False
            deadline = time.time() + 60
            while time.time() < deadline and not killed:
                done = sum(f.done() for f in futures)
                busy = [w for w, ts in client.processing().items() if ts]
                if done < len(futures) - 20 and busy:
                    os.kill(pids[busy[0]], signal.SIGKILL)
                    killed = True
                    killed_at = done
                time.sleep(0.01)
            self.assertTrue(killed, "the job ended before a worker could be killed")
            results = client.gather(futures)
            self.assertLess(killed_at, len(futures))
            per = {p: [] for p in big}
            owners = [p for p, plan in zip(big, plans) for _ in plan["groups"]]
            for p, r in zip(owners, results):
                per[p].append(r)
            self.assertEqual({p: without_names(ntidx.dask.merge_stats(per[p])) for p in big}, want)
            # and through the public call, with the cluster back to two workers
            client.wait_for_workers(2, timeout=300)  # a killed worker restarts slowly on a loaded machine
            got = ntidx.dask.stats(big, client=client, partition_bytes=1 << 20)["traces"]
            self.assertEqual({p: without_names(s) for p, s in got.items()}, want)


def cli_gc(path, *args):
    p = subprocess.run([NTIDX, "gc", path, "--format", "jsonl"] + [str(a) for a in args], capture_output=True,
                       text=True)
    assert p.returncode == 0, p.stderr
    return [json.loads(line) for line in p.stdout.splitlines()]


def frame_rows(df):
    """A frame's rows as the command's JSON gives them (NaN as None, numpy scalars as Python's)."""
    cols = {c: (df[c].astype(object) if isinstance(df[c].dtype, pd.CategoricalDtype) else df[c]).tolist()
            for c in df.columns}
    return [{c: (None if isinstance(v[i], float) and v[i] != v[i] else v[i]) for c, v in cols.items()}
            for i in range(len(df))]


class Analyses(unittest.TestCase):
    """ntidx.dask.gc() and its kin: one task per trace, one frame with a trace column."""

    @classmethod
    def setUpClass(cls):
        cls.gen = []
        for name, args in (("a.nettrace", ["--gcs", "20", "--pid", "11"]), ("b.nettrace", ["--gcs", "3", "--v5"]),
                           ("c.nettrace", ["--gcs", "9", "--cut", "--pid", "13"])):
            path = os.path.join(SCRATCH, "gc-" + name)
            subprocess.run([GEN_GC, path] + args, check=True)
            cls.gen.append(path)
        cls.paths = PATHS + cls.gen

    def want(self, paths, *args):
        out = []
        for p in paths:
            out += [{"trace": p, **r} for r in cli_gc(p, *args)]
        return out

    def test_gc_of_a_fleet(self):
        with Client(CLUSTER.scheduler_address) as client:
            df = ntidx.dask.gc(self.paths, client)  # the call: paths, client
            self.assertEqual(list(df.columns[:2]), ["trace", "number"])
            self.assertIsInstance(df.trace.dtype, pd.CategoricalDtype)
            self.assertEqual(frame_rows(df), self.want(self.paths))
            self.assertEqual(set(df.attrs["stats"]), set(self.paths))
            self.assertEqual(df.attrs["errors"], {})
            # the fleet question: which traces had a gen2 pause over 100 ms
            slow = set(df[(df.generation == 2) & (df.pause_duration_ms > 100)].trace.astype(str))
            want = {p for p in self.paths if any(r["generation"] == 2 and r["pause_duration_ms"] > 100
                                                 for r in cli_gc(p))}
            self.assertEqual(slow, set(self.gen))
            self.assertEqual(slow, want)
            # a window and a summary, each trace's own
            self.assertEqual(frame_rows(ntidx.dask.gc(self.paths, client, start="5ms", end="250ms")),
                             self.want(self.paths, "--from", "5ms", "--to", "250ms"))
            self.assertEqual(frame_rows(ntidx.dask.gc(self.paths, client, summary=True)),
                             self.want(self.paths, "--summary"))
        # dask's default scheduler, in this process
        with dask.config.set(scheduler="threads"):
            self.assertEqual(frame_rows(ntidx.dask.analyze("gc", self.gen)), self.want(self.gen))

    def test_no_traces_and_missing_analyses(self):
        df = ntidx.dask.gc([])
        self.assertEqual(len(df), 0)
        with ntidx.open(self.gen[0]) as t:
            one = t.gc()
        self.assertEqual(list(df.columns), ["trace"] + list(one.columns))
        self.assertEqual(df.number.dtype, one.number.dtype)
        names = [a["name"] for a in ntidx.analyses()]
        for method, name in (("jit", "jit"), ("cpu", "cpu"), ("exceptions", "exceptions"), ("allocations", "alloc"),
                             ("contention", "contention"), ("activities", "activities")):
            self.assertTrue(callable(getattr(ntidx.dask, method)))
            if name not in names:
                with self.assertRaises(NotImplementedError):
                    getattr(ntidx.dask, method)(self.gen)

    def test_a_damaged_trace(self):
        bad = os.path.join(SCRATCH, "gc-damaged.nettrace")
        with open(self.gen[0], "rb") as f:
            data = bytearray(f.read())
        data[len(data) // 2:len(data) // 2 + 64] = b"\xff" * 64
        with open(bad, "wb") as f:
            f.write(data)
        with Client(CLUSTER.scheduler_address) as client:
            with self.assertRaises(ntidx.CorruptError) as cm:
                ntidx.dask.gc(self.gen + [bad], client)
            self.assertEqual(cm.exception.file, bad)
            df = ntidx.dask.gc(self.gen + [bad], client, errors="skip")
        self.assertEqual(frame_rows(df), self.want(self.gen))
        self.assertEqual(list(df.attrs["errors"]), [bad])
        self.assertTrue(df.attrs["errors"][bad].startswith("CorruptError: " + bad))


def main():
    global NTIDX, GEN_GC, PATHS, SCRATCH, CLUSTER
    NTIDX, GEN_GC = sys.argv[1], sys.argv[3]
    tdir = sys.argv[2]
    with tempfile.TemporaryDirectory() as scratch:
        SCRATCH = scratch
        os.environ["NTIDX_INDEX_DIR"] = os.path.join(scratch, "indexes")  # never beside the sample traces
        shared = sorted(os.path.join(tdir, f) for f in os.listdir(tdir) if not f.endswith(".ntidx"))
        gen = []
        for name, args in [("d5.nettrace", ["--format-version", "5", "--events", "15000", "--seed", "8"]),
                           ("d6.nettrace", ["--events", "15000", "--seed", "9", "--drop-rate", "0.02",
                                            "--metadata-flush-every", "3", "--remove-threads"])]:
            path = os.path.join(scratch, name)
            subprocess.run([NTIDX, "gen", "-o", path, "-q"] + args, check=True)
            gen.append(path)
        PATHS = shared + gen
        with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                          dashboard_address=None, silence_logs=40) as cluster:
            CLUSTER = cluster
            prog = unittest.main(argv=[sys.argv[0], "-v"], exit=False)
        ok = prog.result.wasSuccessful() and not prog.result.skipped
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
