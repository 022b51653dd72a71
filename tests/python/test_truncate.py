"""A trace truncated while the module reads it (issue 25, item 1): ntidx.TruncatedError, never SIGBUS.

usage: test_truncate.py NTIDX [dask|dask-thread]   (the package on PYTHONPATH; `dask`: the Dask workers' cases
       only; `dask-thread`: only the worker in this process, for the sanitized builds)

- a loop over t.query() truncated to half midway raises ntidx.TruncatedError (code NTIDX_E_SHRUNK, the
  file, the offset, "the file shrank to N bytes while it was read"), and the interpreter goes on: the
  same Trace's stats(), frame() and a fresh query raise it too, and a trace opened afresh reads;
- a Dask worker in this process (LocalCluster(processes=False): a worker thread) and a worker process,
  each running a task that reads a trace truncated under it: the task's exception reaches the client,
  and the same worker then computes ntidx.dask.stats() of an intact trace (the process has not died).

Before the library's SIGBUS guard, each of these killed its process (exit status 135, or a Dask worker
lost with KilledWorker).
"""

import os
import shutil
import subprocess
import sys
import tempfile
import unittest

import ntidx

NTIDX = None
SCRATCH = None
SOURCE = None  # a generated trace, copied afresh for each case


def fresh(name):
    path = os.path.join(SCRATCH, name)
    shutil.copy(SOURCE, path)
    return path


def read_truncated(path):
    """Read `path` with a query, truncate it to half once an eighth is read, read on: the exception, or None."""
    size = os.path.getsize(path)
    with ntidx.open(path) as t:
        events = 0
        try:
            for e in t.query(order="file"):
                events += 1
                if events == 100:
                    os.truncate(path, size // 2)
        except ntidx.Error as err:
            return err
    return None


def raise_if_truncated(path):
    err = read_truncated(path)
    if err is not None:
        raise err
    return "read to its end"


class Module(unittest.TestCase):
    def check_error(self, err, path, size):
        self.assertIsInstance(err, ntidx.TruncatedError)
        self.assertEqual(err.name, "NTIDX_E_SHRUNK")
        self.assertEqual(err.code, -16)
        self.assertEqual(err.file, path)
        self.assertIsNotNone(err.offset)
        self.assertGreaterEqual(err.offset, size // 2 // 4096 * 4096)
        self.assertEqual(err.what, f"the file shrank to {size // 2} bytes while it was read (it had {size} bytes "
                                   "when opened)")
        self.assertIn(f"{path}: offset {err.offset} (0x{err.offset:x}): the file shrank", str(err))

    def test_query_loop(self):
        path = fresh("loop.nettrace")
        size = os.path.getsize(path)
        with ntidx.open(path) as t:
            seen = []
            with self.assertRaises(ntidx.TruncatedError) as cm:
                for e in t.query(order="file"):
                    seen.append(e.offset)
                    if len(seen) == 100:
                        os.truncate(path, size // 2)
            self.check_error(cm.exception, path, size)
            self.assertGreater(len(seen), 100)
            # the bytes past the new end (but the rest of its page, which reads as zeros) are never handed out
            self.assertLess(max(seen), (size // 2 + 4095) // 4096 * 4096)
            # the same trace is still the shrunk file: every read of it says so, none kills the interpreter
            for call in (lambda: t.stats(), lambda: t.frame(), lambda: list(t.query())):
                with self.assertRaises(ntidx.TruncatedError) as cm:
                    call()
                self.check_error(cm.exception, path, size)
        # opened afresh, the shorter file is a trace cut short: its index rebuilt, readable, not complete
        with self.assertWarns(ntidx.IndexWarning), ntidx.open(path) as t:
            self.assertFalse(t.complete)
            self.assertGreater(t.stats()["events"], 0)

    def test_fields_decoded_after_the_shrink(self):
        """An Event's fields are decoded from the trace when first asked for: after the shrink, an error."""
        path = fresh("fields.nettrace")
        size = os.path.getsize(path)
        with ntidx.open(path) as t:
            q = t.query(order="file")
            e = next(e for e in q if e.offset > size * 3 // 4 and e.payload_size)
            os.truncate(path, size // 2)
            for field in ("fields", "field_error"):
                with self.assertRaises(ntidx.TruncatedError) as cm:
                    getattr(e, field)
                self.check_error(cm.exception, path, size)
            with self.assertRaises(ntidx.TruncatedError) as cm:
                next(q)
            self.check_error(cm.exception, path, size)


class DaskWorkers(unittest.TestCase):
    """The worker that ran the task lives on: the next task on it computes, in the same process."""

    def run_on(self, cluster, tag):
        import ntidx.dask
        from distributed import Client
        with Client(cluster) as client:
            worker = list(client.scheduler_info()["workers"])[0]
            pid = client.run(os.getpid, workers=[worker])[worker]
            path = fresh(f"{tag}.nettrace")
            err = client.submit(read_truncated, path, workers=[worker], pure=False).result()
            self.assertIsInstance(err, ntidx.TruncatedError)
            self.assertEqual((err.name, err.file), ("NTIDX_E_SHRUNK", path))
            self.assertIn("the file shrank to", str(err))
            with self.assertRaises(ntidx.TruncatedError) as cm:  # raised in the task, raised again here
                client.submit(raise_if_truncated, fresh(f"{tag}-2.nettrace"), workers=[worker], pure=False).result()
            self.assertIn("the file shrank to", str(cm.exception))
            intact = fresh(f"{tag}-intact.nettrace")
            want = ntidx.open(intact).stats()
            got = ntidx.dask.stats([intact], client=client, partition_bytes=256 << 10)["traces"][intact]
            self.assertEqual(got, want)
            self.assertEqual(client.run(os.getpid, workers=[worker])[worker], pid)

    def test_worker_thread(self):
        from distributed import LocalCluster
        with LocalCluster(n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None) as cluster:
            self.run_on(cluster, "thread")

    def test_worker_process(self):
        from distributed import LocalCluster
        with LocalCluster(n_workers=1, threads_per_worker=2, processes=True, dashboard_address=None) as cluster:
            self.run_on(cluster, "process")


def main():
    global NTIDX, SCRATCH, SOURCE
    NTIDX = sys.argv[1]
    mode = sys.argv[2] if len(sys.argv) > 2 else ""
    with tempfile.TemporaryDirectory() as scratch:
        SCRATCH = scratch
        os.environ["NTIDX_INDEX_DIR"] = os.path.join(scratch, "indexes")
        SOURCE = os.path.join(scratch, "source.nettrace")
        subprocess.run([NTIDX, "gen", "-o", SOURCE, "-q", "--size", "4M", "--seed", "25"], check=True)
        loader = unittest.TestLoader()
        if mode == "dask-thread":
            tests = unittest.TestSuite([DaskWorkers("test_worker_thread")])
        else:
            tests = loader.loadTestsFromTestCase(DaskWorkers if mode == "dask" else Module)
        result = unittest.TextTestRunner(verbosity=2).run(tests)
        ok = result.wasSuccessful() and not result.skipped
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
