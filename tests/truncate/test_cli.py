#!/usr/bin/env python3
"""The command on a trace truncated while it reads it (issue 25, item 1): exit status 1 and a message naming
the file, the offset and that the file shrank while it was read; never SIGBUS (exit status 135 before).

Each command writes to a pipe this test reads: once its first line is read, the command is at most its
output buffer (1 MiB) and the pipe's (64 KiB) ahead of it, a small part of a 16 MiB trace, when the trace
is truncated to half. `dump`, `query` (through the index) and `sql` (a statement over the events table).
Also: the error that stops an index build names its offset.

usage: test_cli.py NTIDX
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

NTIDX = TMP = SOURCE = None


class Truncated(unittest.TestCase):
    def run_truncated(self, name, *args):
        path = os.path.join(TMP, name)
        shutil.copyfile(SOURCE, path)
        size = os.path.getsize(path)
        argv = [NTIDX, *[path if a == "TRACE" else a for a in args]]
        with subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE) as p:
            first = p.stdout.readline()
            self.assertTrue(first, f"{argv}: no output")
            os.truncate(path, size // 2)
            p.stdout.read()
            err = p.stderr.read().decode()
            self.assertEqual(p.wait(), 1, err)
        # `sql` says which command's SQL error it is
        want = (rf"^ntidx: (sql: )?{re.escape(path)}: offset (?P<offset>\d+) \(0x[0-9a-f]+\): "
                rf"the file shrank to {size // 2} bytes while it was read \(it had {size} bytes when opened\)$")
        lines = [line for line in err.splitlines() if "shrank" in line]
        self.assertEqual(len(lines), 1, err)
        m = re.match(want, lines[0])
        self.assertTrue(m, err)
        self.assertGreaterEqual(int(m.group("offset")), size // 2 // 4096 * 4096)

    def test_dump(self):
        self.run_truncated("dump.nettrace", "dump", "TRACE")

    def test_dump_time_order_jsonl(self):
        self.run_truncated("dump-time.nettrace", "dump", "TRACE", "--order", "time", "--format", "jsonl")

    def test_query(self):
        self.run_truncated("query.nettrace", "query", "TRACE")

    def test_sql(self):
        self.run_truncated("sql.nettrace", "sql", "TRACE", "SELECT ts, event_name, fields FROM events", "--format",
                           "jsonl")

    def test_index_error_names_the_offset(self):
        """`ntidx index` (and every command that builds an index) names the offset of what stopped the build, as
        every message does: the shrink's offset when the trace shrinks under it (not reproducible from here: the
        build has no output to hold it back), here a damaged sequence point's."""
        path = os.path.join(TMP, "damaged.nettrace")
        shutil.copyfile(SOURCE, path)
        with open(path, "r+b") as f:
            data = f.read()
            pos, seen = 20, 0  # V6: the stream header, then blocks of (24-bit size, 8-bit kind) and their bytes
            while True:
                word = int.from_bytes(data[pos:pos + 4], "little")
                size, kind = word & 0xFFFFFF, word >> 24
                if kind == 4:  # a sequence point: timestamp, flags, thread count, threads
                    seen += 1
                    if seen == 2:
                        break
                pos += 4 + size
            f.seek(pos + 4 + 12)
            f.write(b"\xff\xff\xff\x7f")  # more threads than its bytes could hold
        for cmd in (["index", path], ["stats", path]):
            p = subprocess.run([NTIDX, *cmd], capture_output=True, text=True)
            self.assertEqual(p.returncode, 1, p.stderr)
            self.assertIn(f"ntidx: {path}: cannot index: offset {pos + 4} (0x{pos + 4:x}): sequence point "
                          "declares", p.stderr)


def main():
    global NTIDX, TMP, SOURCE
    NTIDX = sys.argv[1]
    with tempfile.TemporaryDirectory() as tmp:
        TMP = tmp
        os.environ["NTIDX_INDEX_DIR"] = os.path.join(tmp, "indexes")
        SOURCE = os.path.join(tmp, "source.nettrace")
        subprocess.run([NTIDX, "gen", "-o", SOURCE, "-q", "--size", "16M", "--seed", "25"], check=True)
        prog = unittest.main(argv=[sys.argv[0], "-v"], exit=False)
        ok = prog.result.wasSuccessful() and not prog.result.skipped
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
