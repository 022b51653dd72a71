#!/usr/bin/python3
"""A trace truncated while an SQL statement reads it (issue 25, item 1): SQLITE_IOERR, never SIGBUS.

Through Python's sqlite3 with the loadable extension (Debian's /usr/bin/python3): a statement over the
events table whose own SQL function truncates the trace to half at its 100th row fails with
sqlite3.OperationalError, SQLITE_IOERR, the message naming the file, the offset and that the file shrank
while it was read; so does the `fields` column of a row read before the shrink; the connection and the
interpreter go on (the next statement over an intact trace answers). Before the library's SIGBUS guard
the interpreter died (exit status 135).

usage: test_truncate.py NTIDX EXTENSION
"""
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import unittest

NTIDX = EXT = TMP = SOURCE = None


def child_env():
    """The environment of the ntidx processes: without the ASan runtime preloaded for Python (ASan builds)."""
    env = dict(os.environ)
    if env.pop("NTIDX_TEST_UNPRELOAD", None):
        env.pop("LD_PRELOAD", None)
        env.pop("ASAN_OPTIONS", None)
    return env


def fresh(name):
    path = os.path.join(TMP, name)
    shutil.copyfile(SOURCE, path)
    return path


class Truncated(unittest.TestCase):
    def connect(self):
        con = sqlite3.connect(":memory:")
        con.enable_load_extension(True)
        con.load_extension(EXT)
        return con

    def check_error(self, err, path, size):
        self.assertEqual(err.sqlite_errorname, "SQLITE_IOERR")
        msg = str(err)
        self.assertTrue(msg.startswith(f"{path}: offset "), msg)
        self.assertIn(f"the file shrank to {size // 2} bytes while it was read (it had {size} bytes when opened)",
                      msg)

    def test_statement_truncated_midway(self):
        path = fresh("rows.nettrace")
        size = os.path.getsize(path)
        rows = []

        def shrink_at_100(offset):
            rows.append(offset)
            if len(rows) == 100:
                os.truncate(path, size // 2)
            return 1

        con = self.connect()
        con.create_function("shrink_at_100", 1, shrink_at_100)
        for table in ("ntidx_events(?)", "ev"):
            with self.subTest(table=table):
                rows.clear()
                shutil.copyfile(SOURCE, path)
                args = (path,) if "?" in table else ()
                if not args:
                    con.execute(f"CREATE VIRTUAL TABLE ev USING ntidx('{path}')")
                with self.assertRaises(sqlite3.OperationalError) as cm:
                    con.execute(f"SELECT count(*) FROM {table} WHERE shrink_at_100(offset)", args).fetchall()
                self.check_error(cm.exception, path, size)
                self.assertGreater(len(rows), 100)
        # the connection lives on: the next statement over an intact trace answers
        intact = fresh("intact.nettrace")
        want = subprocess.run([NTIDX, "stats", intact, "--json"], capture_output=True, text=True, check=True,
                              env=child_env())
        n = con.execute("SELECT count(*) FROM ntidx_events(?)", (intact,)).fetchone()[0]
        self.assertEqual(n, json.loads(want.stdout)["events"])
        con.close()

    def test_fields_of_a_row_read_before_the_shrink(self):
        path = fresh("fields.nettrace")
        size = os.path.getsize(path)
        con = self.connect()
        cur = con.execute("SELECT offset FROM ntidx_events(?) WHERE offset > ?", (path, size * 3 // 4))
        self.assertIsNotNone(cur.fetchone())
        os.truncate(path, size // 2)
        # the cursor's next row is read from the lost half: the scan's error
        with self.assertRaises(sqlite3.OperationalError) as cm:
            cur.fetchall()
        self.check_error(cm.exception, path, size)
        # a row read before the shrink whose fields are decoded after it (an event type with fields): the column's
        # error
        shutil.copyfile(SOURCE, path)

        def shrink_once(offset, done=[]):
            if not done and offset > size * 3 // 4:
                os.truncate(path, size // 2)
                done.append(1)
            return 1

        con.create_function("shrink_once", 1, shrink_once)
        with self.assertRaises(sqlite3.OperationalError) as cm:
            con.execute("SELECT fields FROM ntidx_events(?) WHERE event_name = 'AllPrimitives' AND shrink_once(offset)",
                        (path,)).fetchall()
        self.check_error(cm.exception, path, size)
        con.close()


def main():
    global NTIDX, EXT, TMP, SOURCE
    NTIDX, EXT = sys.argv[1], sys.argv[2]
    with tempfile.TemporaryDirectory() as tmp:
        TMP = tmp
        os.environ["NTIDX_INDEX_DIR"] = os.path.join(tmp, "indexes")
        SOURCE = os.path.join(tmp, "source.nettrace")
        subprocess.run([NTIDX, "gen", "-o", SOURCE, "-q", "--size", "4M", "--seed", "25"], check=True, env=child_env())
        prog = unittest.main(argv=[sys.argv[0], "-v"], exit=False)
        ok = prog.result.wasSuccessful() and not prog.result.skipped
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
