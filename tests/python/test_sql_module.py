"""SQL from Python in one call (issue 28, point 4): Trace.sql() and ntidx.sql() against `ntidx sql`.

usage: test_sql_module.py NTIDX TRACES_DIR   (the package on PYTHONPATH)

- The rows of a statement equal the command's (same tables, same values), as a DataFrame with int64, float64
  and object columns; several traces get the `trace` column.
- It runs inside the module: with the interpreter's sqlite3 made unimportable the call still works, and the
  interpreter's sqlite3 does not see the ntidx tables afterwards.
- A statement SQLite refuses raises ArgumentError; a missing trace FileError; a filter naming nothing warns.
- The threads table has name and pid from V6 thread blocks (the frame's thread_name, stats()).
"""

import json
import os
import sqlite3
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


def cli(paths, statement):
    p = subprocess.run([NTIDX, "sql", "-q", *paths, statement, "--format", "jsonl"], capture_output=True, text=True,
                       check=True)
    return [json.loads(x) for x in p.stdout.splitlines()]


def rows_of(df):
    out = []
    for rec in df.to_dict("records"):
        out.append({k: (None if v is None or (isinstance(v, float) and np.isnan(v)) else
                        v.item() if hasattr(v, "item") else v) for k, v in rec.items()})
    return out


class Sql(unittest.TestCase):
    def test_same_rows_as_the_command(self):
        real = os.path.join(TRACES, "eventpipe-dotnetcore3.0-win-x64-objver4.nettrace")
        for path in (v6(), real):
            for stmt in ("SELECT provider, event_name, count(*) AS n, min(ts) AS first, avg(time_s) AS mean "
                         "FROM events GROUP BY 1, 2 ORDER BY 1, 2",
                         "SELECT ts, thread, event_name, activity_id FROM events WHERE time_s < 0.05 ORDER BY ts, "
                         "\"offset\"",
                         "SELECT * FROM threads ORDER BY thread",
                         "SELECT * FROM gc_summary"):
                with self.subTest(trace=os.path.basename(path), stmt=stmt), ntidx.open(path) as t:
                    df = t.sql(stmt)
                    self.assertIsInstance(df, pd.DataFrame)
                    self.assertEqual(rows_of(df), cli([path], stmt))
        with ntidx.open(v6()) as t:
            df = t.sql("SELECT count(*) AS n, sum(time_s) AS s, min(provider) AS p FROM events")
            self.assertEqual([str(x) for x in df.dtypes], ["int64", "float64", "object"])
            self.assertEqual(df.n[0], len(t.frame()))
        two = [v6(), gen("v5.nettrace", "--events", 3000, "--format-version", 5, "--seed", 2)]
        stmt = "SELECT trace, count(*) AS n FROM events GROUP BY trace ORDER BY trace"
        self.assertEqual(rows_of(ntidx.sql(two, stmt)), cli(two, stmt))
        # statements in turn: the last with columns gives the frame
        df = ntidx.sql(v6(), "CREATE TEMP TABLE x AS SELECT thread FROM threads; SELECT count(*) AS n FROM x")
        self.assertEqual(df.n[0], len(cli([v6()], "SELECT thread FROM threads")))

    def test_without_the_interpreters_sqlite3(self):
        # an interpreter whose sqlite3 cannot load extensions (pyenv's), or has none at all: the call needs neither
        code = ("import sys; sys.modules['sqlite3'] = None; sys.modules['_sqlite3'] = None\n"
                "import ntidx; print(ntidx.sql(sys.argv[1], 'SELECT count(*) AS n FROM events').n[0])")
        p = subprocess.run([sys.executable, "-c", code, v6()], capture_output=True, text=True, env=os.environ)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(p.stdout.strip(), "20000")
        # the module's SQLite is its own: the interpreter's connections do not get the tables
        ntidx.sql(v6(), "SELECT 1")
        con = sqlite3.connect(":memory:")
        with self.assertRaises(sqlite3.OperationalError):
            con.execute("SELECT * FROM ntidx_threads(?)", (v6(),))
        con.close()

    def test_errors_and_warnings(self):
        with ntidx.open(v6()) as t:
            with self.assertRaises(ntidx.ArgumentError) as cm:
                t.sql("SELECT nope FROM events")
            self.assertIn("no such column", str(cm.exception))
            with self.assertRaises(ntidx.ArgumentError):
                t.sql("   ")
            with warnings.catch_warnings(record=True) as w:
                warnings.simplefilter("always")
                df = t.sql("SELECT count(*) AS n FROM events WHERE provider = 'Nope'")
            self.assertEqual(df.n[0], 0)
            self.assertTrue(any(issubclass(x.category, ntidx.UnknownNameWarning) for x in w))
        with self.assertRaises(ntidx.FileError):
            ntidx.sql(os.path.join(SCRATCH, "missing.nettrace"), "SELECT 1")
        with self.assertRaises(TypeError):
            ntidx.sql(v6(), b"SELECT 1")

    def test_threads_have_names(self):
        with ntidx.open(v6()) as t:
            th = t.sql("SELECT thread, name, pid FROM threads ORDER BY thread")
            df = t.frame()
            names = df.groupby("thread", observed=True).thread_name.first().astype(str)
            pids = df.groupby("thread").pid.first()
            self.assertTrue(len(th) > 0 and th.name.notna().all())
            for r in th.itertuples():
                self.assertEqual(r.name, names[r.thread])
                self.assertEqual(r.pid, pids[r.thread])
        # a trace before V6 defines no threads: NULL names
        with ntidx.open(os.path.join(TRACES, "eventpipe-dotnetcore3.0-win-x64-objver4.nettrace")) as t:
            th = t.sql("SELECT name, pid FROM threads")
            self.assertTrue(len(th) > 0 and th.name.isna().all() and th.pid.isna().all())


if __name__ == "__main__":
    NTIDX, TRACES = sys.argv[1], sys.argv[2]
    del sys.argv[1:3]
    with tempfile.TemporaryDirectory(prefix="ntidx-sqlmod-") as SCRATCH:
        os.environ["NTIDX_INDEX_DIR"] = SCRATCH
        unittest.main()
