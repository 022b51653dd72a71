#!/usr/bin/env python3
"""The command line's inputs and outputs, on traces the test generates (no ../shared):

- output files (-o OUT) are never destroyed: a regular OUT is replaced only by a
  complete file, a failed or interrupted command leaves it as it was and no
  temporary beside it; a device node (made here, never the real /dev/full) or a
  FIFO is written in place and survives; `-o -` is standard output;
- a failed write to standard output is an error, for every command;
- the command line as people use it (see the classes below).

usage: cli_io_test.py NTIDX SOURCE_ROOT BUILD_ROOT
"""
import json
import os
import pty
import re
import select
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
BUILD_ROOT = None


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
        self._large = self._medium = None

    def path(self, name):
        return os.path.join(self.dir, name)

    def medium(self):
        """Enough events for several progress reports (one per 4096 events), few enough to be read quickly."""
        if not self._medium:
            self._medium = self.path("medium.nettrace")
            run("gen", "-o", self._medium, "--size", "8M", "--seed", "7", "-q")
            run("index", self._medium)
        return self._medium

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
        ("report", ["report", trace, "--index", trace + ".ntidx"]),
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
                if name != "index":  # an index fits in the pipe's buffer: written before the reader goes
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
                if name == "report":
                    continue  # it opens OUT after its analyses and writes the page at once: no moment to catch
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
        table = [
            ["info", t], ["info", t, "--json"], ["stats", t], ["stats", t, "--json"], ["stats", t, "--no-index"],
            ["dump", t], ["dump", t, "--format", "jsonl"], ["top", t], ["top", t, "--json"],
            ["seek", t, "--at", "0"], ["query", t], ["query", t, "--format", "csv"], ["index", t],
            ["index", t, "--json"], ["sql", t, "SELECT count(*) FROM events"], ["sql", t, "SELECT * FROM events"],
            ["sql", t, "SELECT * FROM events", "--format", "json"], ["--help"], ["--version"], ["help"],
            ["help", "query"], ["query", "--help"], ["gen", "-o", WORK.path("g.nettrace"), "--events", "100"],
            ["gen", "-o", "-", "--events", "100"], ["slice", t, "--index", idx, "-o", "-"],
            ["export", t, "--format", "chrome", "--index", idx, "-o", "-"], ["index", t, "-o", "-"],
            ["gc", t], ["gc", t, "--format", "json"], ["contention", t], ["activities", t], ["cpu", t],
            ["jit", t], ["jit", t, "--format", "jsonl"], ["alloc", t], ["exceptions", t],
            ["report", t, "-o", "-"],
        ]
        # every command the program lists is in the table: a new one must be added here
        self.assertEqual({c[0] for c in table if not c[0].startswith("-") and c[0] != "help"}, set(commands()))
        with open("/dev/full", "wb") as full:
            for args in table:
                with self.subTest(args=args):
                    p = run(*args, check=False, stdout=full)
                    self.assertEqual(p.returncode, 1, p.stderr)
                    err = p.stderr.decode()
                    self.assertIn("cannot write", err)
                    self.assertIn("No space left on device", err)
                    self.assertTrue("standard output" in err, err)


def commands():
    """The commands `ntidx --help` lists."""
    out = run("--help").stdout.decode()
    return re.findall(r"^  ([a-z]+) ", out.split("commands:", 1)[1], re.M)


def long_options(command):
    """The long options a command's usage lists."""
    out = run(command, "--help").stdout.decode().split("options:", 1)[1].split("\n\n", 1)[0]
    return re.findall(r"^  (?:-[a-zA-Z], |    )--([a-z0-9-]+)", out, re.M)


def run_on_terminal(args, env=None):
    """Run with stderr on a terminal (a pty), stdout discarded: (exit status, what the terminal got)."""
    master, slave = pty.openpty()
    p = subprocess.Popen([NTIDX, *args], stdout=subprocess.DEVNULL, stderr=slave, stdin=subprocess.DEVNULL,
                         env={**os.environ, **(env or {})})
    os.close(slave)
    got = b""
    while True:
        ready, _, _ = select.select([master], [], [], 120)
        if not ready:
            break
        try:
            chunk = os.read(master, 65536)
        except OSError:  # EIO: the other end closed
            break
        if not chunk:
            break
        got += chunk
    os.close(master)
    return p.wait(), got.decode(errors="replace")


class CommandLine(unittest.TestCase):
    def test_trace_from_standard_input(self):
        """TRACE '-': the trace on standard input, through a pipe or a file, answers as the file does; nothing is
        left in $TMPDIR; index refuses it. Before: "-: cannot open"."""
        data = read(WORK.small)
        tmpdir = tempfile.mkdtemp(dir=WORK.dir)
        env = {"TMPDIR": tmpdir}
        same = [["dump", "--format", "jsonl"], ["query", "--format", "jsonl", "--from", "1ms", "--to", "3ms"],
                ["top", "--json"], ["seek", "--at", "2ms", "--format", "jsonl"]]
        for args in same:
            with self.subTest(args=args):
                want = run(args[0], WORK.small, *args[1:]).stdout
                self.assertTrue(want)
                self.assertEqual(run(args[0], "-", *args[1:], input=data, env=env).stdout, want)
                with open(WORK.small, "rb") as f:
                    self.assertEqual(run(args[0], "-", *args[1:], stdin=f, env=env).stdout, want)
        for args in (["info", "--json"], ["stats", "--json"], ["stats", "--json", "--no-index"]):
            with self.subTest(args=args):
                want = json.loads(run(args[0], WORK.small, *args[1:]).stdout)
                got = json.loads(run(args[0], "-", *args[1:], input=data, env=env).stdout)
                self.assertEqual(got.pop("file"), "(standard input)")
                want.pop("file")
                self.assertEqual(got, want)
        self.assertIn(b"(standard input)", run("info", "-", input=data).stdout)
        out = WORK.path("from-stdin.nettrace")
        run("slice", "-", "--to", "2ms", "-o", out, input=data, env=env)
        self.assertEqual(read(out), run("slice", WORK.small, "--to", "2ms", "-o", "-").stdout)
        self.assertEqual(os.listdir(tmpdir), [], "the copy of standard input is not left behind")
        p = run("info", "-", input=b"not a trace", check=False)
        self.assertEqual(p.returncode, 1)
        self.assertIn("(standard input)", p.stderr.decode())
        for args in (["index", "-"], ["query", "-", "--index", WORK.path("x.ntidx")]):
            p = run(*args, input=data, check=False)
            self.assertEqual(p.returncode, 2, args)
            self.assertIn("standard input", p.stderr.decode())

    def test_help_command(self):
        """`ntidx help COMMAND` is `ntidx COMMAND --help`. Before: it printed the list of commands."""
        for c in commands():
            with self.subTest(command=c):
                self.assertEqual(run("help", c).stdout, run(c, "--help").stdout)
        p = run("help", "nosuch", check=False)
        self.assertEqual(p.returncode, 2)
        self.assertIn("nosuch", p.stderr.decode())
        self.assertIn(b"ntidx help COMMAND", run("--help").stdout)

    def test_abbreviated_options_refused(self):
        """Every long option of every command must be spelled whole: a prefix is a usage error naming the option
        and suggesting the full name. Before: getopt_long took `--fro 1s` for --from."""
        p = run("query", WORK.small, "--fro", "1s", check=False)
        self.assertEqual(p.returncode, 2)
        self.assertIn("'--fro'", p.stderr.decode())
        self.assertIn("--from", p.stderr.decode())
        self.assertIn("--from", run("query", WORK.small, "--form", "1s", check=False).stderr.decode())  # a typo
        self.assertEqual(run("query", WORK.small, "--from=1ms", "--limit", "1").returncode, 0)
        # an option's argument may look like an option: it is not one
        self.assertEqual(run("query", WORK.small, "--provider", "--fro", "--limit", "1").returncode, 0)
        for c in commands():
            names = long_options(c)
            self.assertIn("quiet", names, f"{c} takes --quiet")
            for name in names:
                short = name[:-1]
                if short in names or len(short) < 2:
                    continue
                with self.subTest(command=c, option=name):
                    p = run(c, "--" + short, check=False)
                    self.assertEqual(p.returncode, 2)
                    err = p.stderr.decode()
                    self.assertIn(f"'--{short}'", err)
                    self.assertIn("--" + name, err)

    def test_quiet(self):
        """--quiet: no notes, warnings or progress on stderr; errors still said."""
        idx = WORK.path("quiet.ntidx")
        p = run("query", WORK.small, "--index", idx, "--limit", "1")
        self.assertIn("indexing", p.stderr.decode())  # a note, without --quiet
        os.unlink(idx)
        p = run("query", WORK.small, "--index", idx, "--limit", "1", "--quiet")
        self.assertEqual(p.stderr, b"")
        self.assertTrue(p.stdout)
        cut = WORK.path("cut.nettrace")
        with open(cut, "wb") as f:
            f.write(read(WORK.small)[:len(read(WORK.small)) // 2])
        self.assertIn("incomplete", run("stats", cut).stderr.decode())  # a warning, without --quiet
        for flag in ("-q", "--quiet"):
            self.assertEqual(run("stats", cut, flag).stderr, b"")
            p = run("info", WORK.path("missing"), flag, check=False)
            self.assertEqual(p.returncode, 1)
            self.assertIn("missing", p.stderr.decode())  # an error is still said

    def test_progress_on_a_terminal(self):
        """Every long run draws a progress line when stderr is a terminal (NTIDX_PROGRESS_AFTER=0: from its start),
        and clears it at the end; none with --quiet or when stderr is not a terminal. Before: only indexing."""
        big = WORK.medium()
        idx = big + ".ntidx"
        runs = [
            ("counting", ["stats", big]),
            ("counting", ["stats", big, "--no-index"]),
            ("dumping", ["dump", big]),
            ("slicing", ["slice", big, "--index", idx, "-o", WORK.path("p.nettrace")]),
            ("exporting", ["export", big, "--format", "jsonl", "--index", idx, "-o", WORK.path("p.jsonl")]),
            ("exporting", ["export", big, "--format", "chrome", "--index", idx, "-o", WORK.path("p.json")]),
            ("generating", ["gen", "--events", "100000", "-o", WORK.path("p-gen.nettrace")]),
            ("generating", ["gen", "--size", "16M", "-o", WORK.path("p-gen.nettrace")]),
            ("scanning", ["sql", big, "SELECT count(*) FROM events"]),
        ]
        env = {"NTIDX_PROGRESS_AFTER": "0"}
        for label, args in runs:
            with self.subTest(args=args):
                rc, tty = run_on_terminal(args, env)
                self.assertEqual(rc, 0, tty)
                self.assertRegex(tty, r"\rntidx: %s: +\d+%% \(" % label)
                self.assertIn("\r\x1b[K", tty, "the line is cleared at the end")
        for label, args in runs[:3]:
            with self.subTest(args=args, quiet=True):
                rc, tty = run_on_terminal([*args, "--quiet"], env)
                self.assertEqual((rc, tty), (0, ""))
                p = run(*args, env=env, stdout=subprocess.DEVNULL)  # stderr not a terminal
                self.assertNotIn("%", p.stderr.decode())

    def test_bash_completion(self):
        """tools/completion/ntidx.bash completes commands, options and --format values from the program itself,
        and `meson install` installs it."""
        script = os.path.join(SOURCE_ROOT, "tools", "completion", "ntidx.bash")

        def complete(*words):
            code = ('. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _ntidx; '
                    'printf "%s\\n" "${COMPREPLY[@]}"')
            out = subprocess.run(["bash", "-c", code, "bash", script, NTIDX, *words], capture_output=True,
                                 text=True, check=True).stdout
            return sorted(out.split())

        self.assertEqual(complete("qu"), ["query"])
        self.assertEqual(complete("s"), ["seek", "slice", "sql", "stats"])
        self.assertEqual(complete("help", "ex"), ["exceptions", "export"])
        self.assertEqual(complete("query", "--fr"), ["--from"])
        self.assertIn("--quiet", complete("top", "--"))
        self.assertIn("-o", complete("slice", "-"))
        self.assertEqual(complete("dump", "t.nettrace", "--format", ""), ["csv", "jsonl", "text"])
        self.assertEqual(complete("export", "t", "--format", "s"), ["speedscope"])
        self.assertEqual(complete("query", "--order", ""), ["file", "time"])
        out = subprocess.run(["meson", "introspect", "--installed", BUILD_ROOT], capture_output=True, text=True,
                             check=True).stdout
        self.assertTrue(any(dest.endswith("/bash-completion/completions/ntidx") and src.endswith("ntidx.bash")
                            for src, dest in json.loads(out).items()), out)


if __name__ == "__main__":
    NTIDX, SOURCE_ROOT, BUILD_ROOT = sys.argv[1:4]
    WORK = Work()
    unittest.main(argv=[sys.argv[0], "-v", *sys.argv[4:]])
