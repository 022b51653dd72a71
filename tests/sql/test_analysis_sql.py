#!/usr/bin/python3
"""The analyses as SQL tables (docs/sql.md, "Analyses"): `gc`, `gc_summary` and the table-valued
functions ntidx_gc(), through `ntidx sql` and through Python's sqlite3 with the loadable extension, against
`ntidx gc --format jsonl`.

 - rows: SELECT * FROM gc equals `ntidx gc` row for row and key for key (the contract's columns, in the
   library's order), gc_summary `ntidx gc --summary`, on the real .NET Core 3.0 trace (478 GCs) and on
   traces of known GCs (tests/analysis/gen_gc_trace: a background GC, one cut off, a bad payload);
 - windows: window_start/window_end/window_thread (columns or the function's arguments) give the command's
   --from/--to/--thread exactly; WHERE ts, time_s and thread bounds become the analysis's window (the
   statistics say which), and the rows are the command's for that window, filtered as SQL says;
 - several traces: a trace column first, a `trace =` constraint runs one trace's analysis only;
 - bad input: a damaged trace is an SQL error naming the file and the offset (exit 1); a bad window, an
   unknown analysis table, a function without its trace: errors naming them.

usage: test_analysis_sql.py NTIDX EXTENSION TRACES_DIR GEN_GC_TRACE
"""
import json
import os
import random
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import unittest

NTIDX = EXT = TRACES = GEN = TMP = None
OBJVER4 = "eventpipe-dotnetcore3.0-win-x64-objver4.nettrace"


def child_env():
    env = dict(os.environ)
    if env.pop("NTIDX_TEST_UNPRELOAD", None):
        env.pop("LD_PRELOAD", None)
        env.pop("ASAN_OPTIONS", None)
    return env


def run(*args, check=True):
    p = subprocess.run([NTIDX, *map(str, args)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                       env=child_env())
    if check and p.returncode != 0:
        raise AssertionError(f"ntidx {' '.join(map(str, args))} exited {p.returncode}: {p.stderr}")
    return p


def sql(traces, statement, check=True):
    if isinstance(traces, str):
        traces = [traces]
    p = run("sql", *traces, statement, "--format", "jsonl", check=check)
    return [json.loads(l) for l in p.stdout.splitlines()] if check else p


def cli(path, *args):
    return [json.loads(l) for l in run("gc", path, "--format", "jsonl", *args).stdout.splitlines()]


def as_cli(rows, bools=("is_complete",)):
    """SQL rows in the command's shape: booleans are 0/1 in SQL."""
    return [{k: (bool(v) if k in bools and v is not None else v) for k, v in r.items()} for r in rows]


def gen(name, *args):
    path = os.path.join(TMP, name)
    if not os.path.exists(path):
        subprocess.run([GEN, path, *args], check=True)
    return path


def real(name):
    link = os.path.join(TMP, name)  # its index is written beside the link, not beside the shared trace
    if not os.path.exists(link):
        os.symlink(os.path.join(TRACES, name), link)
    return link


def traces():
    return [real(OBJVER4), gen("g6.nettrace", "--gcs", "25"), gen("g5.nettrace", "--gcs", "9", "--v5", "--pid", "7"),
            gen("g6cut.nettrace", "--gcs", "6", "--cut")]


def q(s):
    return "'" + s.replace("'", "''") + "'"


class Rows(unittest.TestCase):
    def test_tables_equal_the_command(self):
        for path in traces():
            want = cli(path)
            got = sql(path, "SELECT * FROM gc")
            self.assertEqual(as_cli(got), want, path)
            self.assertEqual([list(r) for r in got[:1]], [list(r) for r in want[:1]])  # the columns, in order
            self.assertEqual(sql(path, "SELECT * FROM gc_summary"), cli(path, "--summary"), path)
            # the function, with its hidden arguments
            self.assertEqual(as_cli(sql(path, f"SELECT * FROM ntidx_gc({q(path)})")), want)
            st = json.loads(sql(path, "SELECT * FROM gc LIMIT 1; SELECT ntidx_analysis_stats() AS s")[-1]["s"])
            doc = json.loads(run("gc", path, "--format", "json").stdout)["stats"]
            self.assertEqual(len(st), 1)
            self.assertEqual(st[0]["trace"], path)
            self.assertEqual(st[0]["analysis"], "gc")
            for k in ("events", "field_errors", "unmatched", "incomplete", "regions", "t0", "t1"):
                self.assertEqual(st[0][k], doc[k], (path, k))

    def test_known_gcs(self):
        path = gen("g6cut.nettrace", "--gcs", "6", "--cut")
        rows = sql(path, "SELECT number, generation, type, reason, pause_duration_ms, is_complete, gen0_size_after_mb, "
                         "thread, time_s FROM gc")
        self.assertEqual([r["number"] for r in rows], list(range(1, 14)))
        self.assertEqual(rows[2]["reason"], "Induced")
        self.assertAlmostEqual(rows[2]["pause_duration_ms"], 150.5, places=9)
        self.assertEqual(rows[-1]["is_complete"], 0)
        self.assertIsNone(rows[-1]["gen0_size_after_mb"])
        self.assertEqual(rows[0]["thread"], 1001)
        self.assertAlmostEqual(rows[0]["time_s"], 0.0102, places=9)  # GC/Start of GC 1, 10.2 ms
        st = json.loads(sql(path, "SELECT ntidx_analysis_stats() AS s")[0]["s"] or "[]")
        self.assertEqual(st, [])  # nothing scanned yet in this process
        st = json.loads(sql(path, "SELECT count(*) FROM gc; SELECT ntidx_analysis_stats() AS s")[-1]["s"])
        self.assertEqual((st[0]["field_errors"], st[0]["unmatched"], st[0]["incomplete"]), (1, 1, 1))
        # a fleet's question in SQL: long gen2 pauses
        self.assertEqual(sql(path, "SELECT number FROM gc WHERE generation = 2 AND pause_duration_ms > 100"),
                         [{"number": 3}])


class Windows(unittest.TestCase):
    def test_window_columns_are_the_commands_window(self):
        rnd = random.Random(31)
        nonempty = 0
        for path in traces():
            whole = cli(path)
            span = int(max((r["pause_start_relative_ms"] for r in whole), default=350)) + 50
            threads = sorted({r["thread"] for r in whole})
            for _ in range(5):
                a = rnd.randrange(0, span)
                b = a + rnd.randrange(1, max(2, span // 3))
                args = ["--from", f"{a}ms", "--to", f"{b}ms"]
                where = f"window_start = '{a}ms' AND window_end = '{b}ms'"
                fn = f"ntidx_gc({q(path)}, NULL, '{a}ms', '{b}ms'"
                if threads and rnd.random() < 0.5:
                    th = rnd.choice(threads)
                    args += ["--thread", str(th)]
                    where += f" AND window_thread = {th}"
                    fn += f", {th}"
                want = cli(path, *args)
                nonempty += bool(want)
                self.assertEqual(as_cli(sql(path, f"SELECT * FROM gc WHERE {where}")), want, (path, where))
                self.assertEqual(as_cli(sql(path, f"SELECT * FROM {fn})")), want, (path, fn))
                self.assertEqual(sql(path, f"SELECT * FROM gc_summary WHERE {where}"), cli(path, "--summary", *args))
        self.assertGreater(nonempty, 5)

    def test_ts_time_s_and_thread_bounds_are_pushed_down(self):
        for path in traces():
            whole = cli(path)
            if len(whole) < 6:
                continue
            a, b = whole[2]["ts"], whole[-3]["ts"]
            info = json.loads(run("info", path, "--json").stdout)
            freq, sync = info["tick_frequency"], info["sync_ticks"]
            for where, args in ((f"ts >= {a} AND ts < {b}", ["--from", a, "--to", b]),
                                (f"ts BETWEEN {a} AND {b}", ["--from", a, "--to", b + 1])):
                got = sql(path, f"SELECT * FROM gc WHERE {where}; SELECT ntidx_analysis_stats() AS s")
                st = json.loads(got.pop()["s"])
                self.assertEqual((st[0]["t0"], st[0]["t1"]), (int(args[1]), int(args[3])), where)
                want = [r for r in cli(path, *args) if a <= r["ts"] <= b and (r["ts"] < b or "BETWEEN" in where)]
                self.assertEqual(as_cli(got), want, (path, where))
                self.assertTrue(want)
            # time_s: seconds, with a margin of a few ticks around them; the rows as SQL compares
            s0, s1 = (a - sync) / freq, (b - sync) / freq
            got = sql(path, f"SELECT number, time_s FROM gc WHERE time_s >= {s0!r} AND time_s < {s1!r}; "
                            "SELECT ntidx_analysis_stats() AS s")
            st = json.loads(got.pop()["s"])
            self.assertTrue(a - 10 <= st[0]["t0"] <= a and b <= st[0]["t1"] <= b + 10, st)
            self.assertEqual([r["number"] for r in got],
                             [r["number"] for r in cli(path, "--from", st[0]["t0"], "--to", st[0]["t1"])
                              if s0 <= (r["ts"] - sync) / freq < s1])
            # thread = N: the analysis's thread filter
            th = whole[0]["thread"]
            got = sql(path, f"SELECT * FROM gc WHERE thread = {th}")
            self.assertEqual(as_cli(got), cli(path, "--thread", th))
            plan = sql(path, f"EXPLAIN QUERY PLAN SELECT * FROM gc WHERE ts >= 5 AND ts < {b} AND thread = {th}")
            self.assertIn("ts>= ts< thread=", plan[0]["detail"])
        # a narrow window reads a part of the trace
        path = real(OBJVER4)
        whole = json.loads(sql(path, "SELECT count(*) FROM gc; SELECT ntidx_analysis_stats() AS s")[-1]["s"])[0]
        part = json.loads(sql(path, "SELECT count(*) FROM gc WHERE time_s BETWEEN 10 AND 11; "
                                    "SELECT ntidx_analysis_stats() AS s")[-1]["s"])[0]
        self.assertLess(part["bytes_read"] * 5, whole["bytes_read"])
        self.assertEqual(sql(path, "SELECT count(*) FROM gc WHERE time_s BETWEEN 10 AND 11; "
                                   "SELECT ntidx_bytes_read() AS b")[-1]["b"], part["bytes_read"])
        # an empty window: no rows, no analysis
        self.assertEqual(sql(path, "SELECT * FROM gc WHERE ts > 5 AND ts < 3"), [])

    def test_joins_and_repeated_scans(self):
        path = gen("g6.nettrace", "--gcs", "25")
        # the inner table scanned once per outer row, from the analysis kept
        rows = sql(path, "SELECT a.number, (SELECT count(*) FROM gc b WHERE b.generation = a.generation) AS same "
                         "FROM gc a ORDER BY a.number")
        gens = [r["generation"] for r in cli(path)]
        self.assertEqual([r["same"] for r in rows], [gens.count(g) for g in gens])
        # GCs joined with the events from their GC/Start to their GC/Stop (10 MHz ticks: 10,000 a ms)
        rows = sql(path, "SELECT g.number, count(e.ts) AS events, "
                         "sum(e.event_name = 'GC/Start' AND json_extract(e.fields, '$.Count') = g.number) AS start, "
                         "sum(e.event_name = 'GC/Stop' AND json_extract(e.fields, '$.Count') = g.number) AS stop "
                         "FROM gc g JOIN events e ON e.ts BETWEEN g.ts AND g.ts + round(g.duration_ms * 10000) "
                         "GROUP BY g.number ORDER BY g.number")
        self.assertEqual(len(rows), len(gens))
        self.assertTrue(all(r["start"] == 1 and r["stop"] == 1 for r in rows), rows)


class Traces(unittest.TestCase):
    def test_several_traces(self):
        paths = traces()
        got = sql(paths, "SELECT * FROM gc")
        want = [{"trace": p, **r} for p in paths for r in cli(p)]
        self.assertEqual(as_cli(got), want)
        one = sql(paths, f"SELECT trace, number FROM gc WHERE trace = {q(paths[1])}; "
                         "SELECT ntidx_analysis_stats() AS s")
        st = json.loads(one.pop()["s"])
        self.assertEqual([s["trace"] for s in st], [paths[1]])
        self.assertEqual(one, [{"trace": paths[1], "number": r["number"]} for r in cli(paths[1])])
        summary = sql(paths, "SELECT trace, generation, count FROM gc_summary WHERE generation = -1")
        self.assertEqual(len(summary), sum(1 for p in paths for r in cli(p, "--summary") if r["generation"] == -1))


class BadInput(unittest.TestCase):
    def test_damaged_trace(self):
        path = os.path.join(TMP, "damaged.nettrace")
        shutil.copyfile(gen("g6big.nettrace", "--gcs", "40"), path)
        size = os.path.getsize(path)
        with open(path, "r+b") as f:
            f.seek(size // 2)
            f.write(b"\xff" * 64)
        p = sql(path, "SELECT count(*) FROM gc", check=False)
        self.assertEqual(p.returncode, 1, p.stdout + p.stderr)
        self.assertIn(path, p.stderr)
        self.assertRegex(p.stderr, r"offset \d+")

    def test_mistakes(self):
        path = gen("g6.nettrace", "--gcs", "25")
        p = sql(path, "SELECT * FROM gc WHERE window_start = 'soon'", check=False)
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertIn("window_start", p.stderr)
        p = sql(path, "SELECT * FROM gc WHERE window_thread = 'main'", check=False)
        self.assertEqual(p.returncode, 2, p.stderr)
        p = sql(path, "SELECT * FROM ntidx_gc()", check=False)
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertIn("which trace?", p.stderr)
        p = sql(path, f"CREATE VIRTUAL TABLE temp.x USING ntidx_analysis(gcc, {q(path)})", check=False)
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertIn("no analysis table 'gcc'", p.stderr)
        self.assertIn("gc_summary", p.stderr)


class Extension(unittest.TestCase):
    """The same through Python's sqlite3 and the loadable extension."""

    def connect(self):
        con = sqlite3.connect(":memory:")
        con.enable_load_extension(True)
        con.load_extension(EXT)
        return con

    def test_function_and_created_table(self):
        con = self.connect()
        for path in traces():
            cur = con.execute("SELECT * FROM ntidx_gc(?)", (path,))
            cols = [d[0] for d in cur.description]
            got = [dict(zip(cols, r)) for r in cur.fetchall()]
            self.assertEqual(as_cli(got), cli(path), path)
        paths = traces()[:2]
        con.execute("CREATE VIRTUAL TABLE g USING ntidx_analysis(gc, %s)" % ", ".join(q(p) for p in paths))
        n = con.execute("SELECT trace, count(*) FROM g GROUP BY trace ORDER BY trace").fetchall()
        self.assertEqual(sorted(n), sorted((p, len(cli(p))) for p in paths))
        # a created table's path and index_path are its traces': constraints on them are compared
        self.assertEqual(con.execute("SELECT count(*) FROM g WHERE path = ?", (paths[0],)).fetchone()[0],
                         len(cli(paths[0])))
        self.assertEqual(con.execute("SELECT count(*) FROM g WHERE index_path = 'x'").fetchone()[0], 0)
        s = json.loads(con.execute("SELECT ntidx_analysis_stats()").fetchone()[0])
        self.assertEqual(sorted(x["trace"] for x in s), sorted(paths))
        with self.assertRaises(sqlite3.OperationalError) as cm:
            con.execute("CREATE VIRTUAL TABLE h USING ntidx_analysis(gc, '/nonexistent/x.nettrace')")
        self.assertIn("/nonexistent/x.nettrace", str(cm.exception))
        con.close()


def main():
    global NTIDX, EXT, TRACES, GEN, TMP
    NTIDX, EXT, TRACES, GEN = sys.argv[1:5]
    TMP = tempfile.mkdtemp(prefix="ntidx-sql-analysis-")
    try:
        unittest.main(argv=[sys.argv[0]] + sys.argv[5:], verbosity=2)
    finally:
        shutil.rmtree(TMP, ignore_errors=True)


if __name__ == "__main__":
    main()
