#!/usr/bin/env python3
"""The command line's inputs and outputs, on traces the test generates (no ../shared):

- output files (-o OUT) are never destroyed: a regular OUT is replaced only by a
  complete file, a failed or interrupted command leaves it as it was and no
  temporary beside it; a device node (made here, never the real /dev/full) or a
  FIFO is written in place and survives; `-o -` is standard output;
- a failed write to standard output is an error, for every command;
- the command line as people use it (see the classes below).

usage: cli_io_test.py NTIDX [SOURCE_ROOT]
"""
import os
import resource
import signal
import stat
import subprocess
import sys
import tempfile
import threading
import time
import unittest

NTIDX = None
SOURCE_ROOT = None


def run(*args, check=True, stdout=subprocess.PIPE, stdin=None, input=None, env=None, preexec_fn=None):
    p = subprocess.run([NTIDX, *args], stdout=stdout, stderr=subprocess.PIPE, stdin=stdin, input=input,
                       env=None if env is None else {**os.environ, **env}, preexec_fn=preexec_fn)
    if check and p.returncode != 0:
        raise AssertionError(f"ntidx {' '.join(args)} exited {p.returncode}: {p.stderr.decode(errors='replace')}")
    return p


class Work:
    """A scratch folder with the traces the tests share: small (fast commands) and large (commands that take
    long enough to be interrupted)."""

    def __init__(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = self.tmp.name
        self.small = self.path("small.nettrace")
        run("gen", "-o", self.small, "--events", "20000", "--seed", "5", "-q")
        run("index", self.small)
        self._large = None

    def path(self, name):
        return os.path.join(self.dir, name)

    def large(self):
        if not self._large:
            self._large = self.path("large.nettrace")
            run("gen", "-o", self._large, "--size", "48M", "--seed", "9", "-q")
            run("index", self._large)
        return self._large

    def temporaries(self, folder=None):
        return [f for f in os.listdir(folder or self.dir) if ".tmp." in f]


WORK = None
OLD = b"the old contents, which a failed command must leave as they are\n"


def write_old(path):
    with open(path, "wb") as f:
        f.write(OLD)


def read(path):
    with open(path, "rb") as f:
        return f.read()


def limit_file_size(limit):
    """preexec_fn: writes past `limit` bytes fail with EFBIG (as a full disk would fail them)."""
    def apply():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, resource.getrlimit(resource.RLIMIT_FSIZE)[1]))
    return apply


def full_device(folder):
    """A device node that fails every write, as /dev/full (char 1, 7), made in `folder`: the real /dev/full is
    never at risk. None when this process may not make device nodes (not root)."""
    path = os.path.join(folder, "full")
    try:
        os.mknod(path, 0o600 | stat.S_IFCHR, os.makedev(1, 7))
    except PermissionError:
        return None
    return path


def assert_device(test, path):
    st = os.lstat(path)
    test.assertTrue(stat.S_ISCHR(st.st_mode), f"{path} is no longer a device node")
    test.assertEqual(st.st_rdev, os.makedev(1, 7))


class FifoReader(threading.Thread):
    """Reads a FIFO whole (what a command wrote into it)."""

    def __init__(self, path):
        super().__init__(daemon=True)
        self.path, self.data = path, b""
        self.start()

    def run(self):
        with open(self.path, "rb") as f:
            self.data = f.read()


# The commands that write a file with -o, each as (name, arguments before -o); run in Work's folder.
def writers(trace):
    return [
        ("slice", ["slice", trace, "--index", trace + ".ntidx"]),
        ("gen", ["gen", "--events", "20000", "-q"]),
        ("export", ["export", trace, "--format", "jsonl", "--index", trace + ".ntidx"]),
        ("index", ["index", trace]),
    ]


class OutputFiles(unittest.TestCase):
    def test_failed_write_keeps_the_old_file(self):
        """A regular OUT whose writing fails half way (the file-size limit) keeps its old bytes, and no temporary
        is left beside it; the message names OUT. Before: slice truncated OUT, then removed it."""
        big = WORK.large()
        for name, args in writers(big):
            if name == "gen":
                args = ["gen", "--size", "8M", "-q"]
            with self.subTest(command=name):
                out = WORK.path(name + ".out")
                write_old(out)
                p = run(*args, "-o", out, check=False, preexec_fn=limit_file_size(4096))
                self.assertEqual(p.returncode, 1, p.stderr)
                self.assertIn(out, p.stderr.decode())
                self.assertEqual(read(out), OLD)
                self.assertEqual(WORK.temporaries(), [])
                os.unlink(out)

    def test_success_replaces_the_file(self):
        for name, args in writers(WORK.small):
            with self.subTest(command=name):
                out = WORK.path(name + ".out")
                write_old(out)
                os.chmod(out, 0o640)
                run(*args, "-o", out)
                self.assertNotEqual(read(out), OLD)
                self.assertEqual(stat.S_IMODE(os.stat(out).st_mode), 0o640, "the file replaced keeps its mode")
                self.assertEqual(WORK.temporaries(), [])
                os.unlink(out)

    def test_device_node_survives(self):
        """-o DEVICE: written in place, a failed write an error naming it, the node still there. Before: slice
        deleted the node, index replaced it with a regular file. Without the right to make a device node, the
        same path is taken by a FIFO whose reader goes away (EPIPE)."""
        folder = tempfile.mkdtemp(dir=WORK.dir)
        dev = full_device(folder)
        for name, args in writers(WORK.small):
            with self.subTest(command=name):
                if dev:
                    p = run(*args, "-o", dev, check=False)
                    self.assertEqual(p.returncode, 1)
                    self.assertIn("No space left on device", p.stderr.decode())
                    self.assertIn(dev, p.stderr.decode())
                    assert_device(self, dev)
                fifo = os.path.join(folder, "fifo")
                os.mkfifo(fifo)
                closer = threading.Thread(target=lambda: open(fifo, "rb").close(), daemon=True)
                closer.start()
                p = run(*args, "-o", fifo, check=False)
                closer.join()
                self.assertNotEqual(p.returncode, 0)
                self.assertTrue(stat.S_ISFIFO(os.lstat(fifo).st_mode), "the FIFO is still a FIFO")
                os.unlink(fifo)
                self.assertEqual(WORK.temporaries(folder), [])

    def test_fifo_and_stdout_get_the_bytes_of_a_file(self):
        """A FIFO and `-o -` are written in place with the same bytes a regular OUT gets."""
        for name, args in writers(WORK.small):
            with self.subTest(command=name):
                ref = WORK.path(name + ".ref")
                run(*args, "-o", ref)
                fifo = WORK.path(name + ".fifo")
                os.mkfifo(fifo)
                reader = FifoReader(fifo)
                run(*args, "-o", fifo)
                reader.join()
                self.assertEqual(reader.data, read(ref))
                self.assertTrue(stat.S_ISFIFO(os.lstat(fifo).st_mode))
                p = run(*args, "-o", "-")
                self.assertEqual(p.stdout, read(ref))
                os.unlink(fifo)
                os.unlink(ref)

    def test_interrupted_leaves_nothing(self):
        """SIGINT or SIGTERM while OUT is written: OUT as it was, no temporary beside it, the process dead of the
        signal. Before: slice and gen left a partial trace under OUT, export a .tmp. file."""
        big = WORK.large()
        for sig in (signal.SIGINT, signal.SIGTERM):
            for name, args in writers(big):
                if name == "index":
                    continue  # its temporaries are the library's, removed by the next write (ntidx-index(1))
                if name == "gen":
                    args = ["gen", "--size", "400M", "-q"]
                with self.subTest(command=name, signal=sig):
                    out = WORK.path(name + ".out")
                    write_old(out)
                    p = subprocess.Popen([NTIDX, *args, "-o", out], stdout=subprocess.DEVNULL,
                                         stderr=subprocess.PIPE)
                    deadline = time.monotonic() + 60
                    while not WORK.temporaries() and p.poll() is None and time.monotonic() < deadline:
                        time.sleep(0.001)
                    self.assertIsNone(p.poll(), "the command ended before it could be interrupted")
                    self.assertTrue(WORK.temporaries())
                    p.send_signal(sig)
                    p.communicate(timeout=60)
                    self.assertEqual(p.returncode, -sig)
                    self.assertEqual(read(out), OLD)
                    self.assertEqual(WORK.temporaries(), [])
                    os.unlink(out)


class StandardOutput(unittest.TestCase):
    def test_write_errors_fail_every_command(self):
        """With standard output on /dev/full (opened for writing, which is safe), every command that prints exits 1
        and says so. Before: exit 0 for all of them."""
        t, idx = WORK.small, WORK.small + ".ntidx"
        commands = [
            ["info", t], ["info", t, "--json"], ["stats", t], ["stats", t, "--json"], ["stats", t, "--no-index"],
            ["dump", t], ["dump", t, "--format", "jsonl"], ["top", t], ["top", t, "--json"],
            ["seek", t, "--at", "0"], ["query", t], ["query", t, "--format", "csv"], ["index", t],
            ["index", t, "--json"], ["sql", t, "SELECT count(*) FROM events"], ["sql", t, "SELECT * FROM events"],
            ["sql", t, "SELECT * FROM events", "--format", "json"], ["--help"], ["--version"], ["help"],
            ["help", "query"], ["query", "--help"], ["gen", "-o", WORK.path("g.nettrace"), "--events", "100"],
            ["gen", "-o", "-", "--events", "100"], ["slice", t, "--index", idx, "-o", "-"],
            ["export", t, "--format", "chrome", "--index", idx, "-o", "-"], ["index", t, "-o", "-"],
        ]
        self.assertEqual({c[0] for c in commands if not c[0].startswith("-") and c[0] != "help"},
                         {"info", "stats", "dump", "top", "seek", "query", "index", "sql", "gen", "slice", "export"})
        with open("/dev/full", "wb") as full:
            for args in commands:
                with self.subTest(args=args):
                    p = run(*args, check=False, stdout=full)
                    self.assertEqual(p.returncode, 1, p.stderr)
                    err = p.stderr.decode()
                    self.assertIn("cannot write", err)
                    self.assertIn("No space left on device", err)
                    self.assertTrue("standard output" in err, err)


if __name__ == "__main__":
    NTIDX = sys.argv[1]
    SOURCE_ROOT = sys.argv[2] if len(sys.argv) > 2 else None
    WORK = Work()
    unittest.main(argv=[sys.argv[0], "-v", *sys.argv[3:]])
