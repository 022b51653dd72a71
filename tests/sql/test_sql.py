#!/usr/bin/python3
"""SQL over traces (issue 12): the SQLite virtual tables, through `ntidx sql` and through Python's sqlite3
with the loadable extension.

 - rows: for random windows and filters over the real traces and generated ones, SELECT ... WHERE ts >= a
   AND ts < b [AND a filter] ORDER BY ts, offset equals `ntidx query` of the same window and filter,
   field for field; time_s windows, IN lists and exact name comparisons as SQL defines them;
 - counts: GROUP BY (the grouped scan and SQLite's own sort) equals `ntidx stats`, and so do the
   companion tables types and threads; regions and stacks agree with the index and the events;
 - pushdown: a narrow window of a 32 MB trace reads what `ntidx query` reads (a small fraction of the
   trace; ntidx_bytes_read()), EXPLAIN QUERY PLAN shows the window given to the table, ORDER BY ts
   consumed, the join from samples to stacks a lookup;
 - bad input: a missing file, a file that is not a trace, a truncated trace, a corrupt or stale
   index, a damaged trace: an SQL error naming the file (and the offset), exit status 1, or the right
   answer; a statement SQLite refuses: exit status 2;
 - the same through Python's sqlite3 (Debian's /usr/bin/python3, whose sqlite3 loads extensions).

usage: test_sql.py NTIDX EXTENSION TRACES_DIR
"""
import csv
import io
import json
import os
import random
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import unittest

NTIDX = EXT = TRACES = None
TMP = None
REAL = ["eventpipe-dotnetcore2.1-linux-x64-objver3.netperf", "eventpipe-dotnetcore3.0-win-x64-objver4.nettrace",
        "eventpipe-dotnetcore5.0-win-x64-arraytypes.nettrace",
        "eventpipe-dotnetcore6.0-win-x64-executioncheckpoints.nettrace", "only_managed_samples.nettrace"]
ROW = "ts, provider, event_id, event_name, version, thread, capture_thread, seq, stack_id, offset, fields, field_error"


def child_env():
    """The environment of the ntidx processes: without the ASan runtime preloaded for Python (ASan builds)."""
    env = dict(os.environ)
    if env.pop("NTIDX_TEST_UNPRELOAD", None):
        env.pop("LD_PRELOAD", None)
        env.pop("ASAN_OPTIONS", None)
    return env


def run(*args, check=True):
    p = subprocess.run([NTIDX, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=child_env())
    if check and p.returncode != 0:
        raise AssertionError(f"ntidx {' '.join(args)} exited {p.returncode}: {p.stderr}")
    return p


def sql(traces, statement, fmt="jsonl", check=True):
    if isinstance(traces, str):
        traces = [traces]
    p = run("sql", *traces, statement, "--format", fmt, check=check)
    if not check:
        return p
    if fmt == "jsonl":
        return [json.loads(l) for l in p.stdout.splitlines()]
    return p.stdout


def query(path, *args):
    return [json.loads(l) for l in run("query", path, "--format", "jsonl", *args).stdout.splitlines()]


def stats(path):
    return json.loads(run("stats", path, "--json").stdout)


def q(s):
    return "'" + s.replace("'", "''") + "'"


def as_query_row(r):
    """An SQL row in the shape of `ntidx query --format jsonl`."""
    out = {k: r[k] for k in ("ts", "provider", "event_id", "event_name", "version", "thread", "capture_thread",
                             "seq", "stack_id", "offset")}
    if r["fields"] is not None:
        # `ntidx sql` writes the JSON column as JSON; Python's sqlite3 gives its text
        out["fields"] = json.loads(r["fields"]) if isinstance(r["fields"], str) else r["fields"]
    else:
        out["field_error"] = r["field_error"]
    return out


def gen(name, *args):
    path = os.path.join(TMP, name)
    if not os.path.exists(path):
        run("gen", "-o", path, "-q", *args)
    return path


def real(name):
    """A real trace seen through a link in the test's folder, so that its index is written there."""
    link = os.path.join(TMP, name)
    if not os.path.exists(link):
        os.symlink(os.path.join(TRACES, name), link)
    return link


def all_traces():
    return [real(n) for n in REAL] + [gen("g5.nettrace", "--format-version", "5", "--events", "20000", "--seed", "3"),
                                      gen("g6.nettrace", "--events", "20000", "--seed", "4"),
                                      gen("g6drops.nettrace", "--events", "20000", "--seed", "5", "--drop-rate",
                                          "0.01")]


class Rows(unittest.TestCase):
    """The table's rows are `ntidx query`'s events."""

    def test_windows_and_filters_equal_query(self):
        rnd = random.Random(12)
        for path in all_traces():
            s = stats(path)
            if not s["events"]:
                continue
            first, last = s["first_ts"], s["last_ts"]
            providers = sorted(s["providers"])
            for k in range(6):
                a = rnd.randint(first - 10, last)
                b = a + rnd.randint(1, max(1, (last - first) // 3))
                if k == 0:
                    a, b = first, last + 1  # the whole trace
                where, args = f"ts >= {a} AND ts < {b}", ["--from", str(a), "--to", str(b)]
                kind = k % 5
                if kind == 1:
                    p = rnd.choice(providers)
                    where += f" AND provider = {q(p)}"
                    args += ["--provider", p]
                elif kind == 2:
                    t = rnd.choice(s["types"])
                    where += f" AND event_id = {t['event_id']}"
                    args += ["--event", str(t["event_id"])]
                elif kind == 3:
                    t = rnd.choice(s["types"])
                    if t["event_name"]:
                        where += f" AND event_name = {q(t['event_name'])}"
                        args += ["--event", t["event_name"]]
                elif kind == 4:
                    th = rnd.choice(s["threads"])["thread"]
                    where += f" AND thread = {th}"
                    args += ["--thread", str(th)]
                rows = sql(path, f"SELECT {ROW} FROM events WHERE {where} ORDER BY ts, offset")
                want = query(path, *args)
                self.assertEqual([as_query_row(r) for r in rows], want, (path, where))
                if k == 0:
                    self.assertEqual(len(rows), s["events"])

    def test_time_s_windows(self):
        for path in [real(REAL[1]), gen("g6.nettrace", "--events", "20000", "--seed", "4")]:
            s = stats(path)
            sync, freq = s["sync_ticks"], s["tick_frequency"]
            secs = lambda ts: (ts - sync) / freq
            everything = query(path)
            lo = secs(s["first_ts"]) + 0.3 * (secs(s["last_ts"]) - secs(s["first_ts"]))
            hi = lo + 0.1 * (secs(s["last_ts"]) - secs(s["first_ts"]))
            # a bound exactly on an event's time, to see >= and < keep and drop it
            lo = secs(everything[len(everything) // 3]["ts"])
            rows = sql(path, f"SELECT ts, time_s FROM events WHERE time_s >= {lo!r} AND time_s < {hi!r} ORDER BY ts")
            want = [e["ts"] for e in everything if lo <= secs(e["ts"]) < hi]
            self.assertEqual([r["ts"] for r in rows], want)
            self.assertTrue(all(r["time_s"] == secs(r["ts"]) for r in rows))
            between = sql(path, f"SELECT count(*) AS n FROM events WHERE time_s BETWEEN {lo!r} AND {hi!r}")[0]["n"]
            self.assertEqual(between, sum(1 for e in everything if lo <= secs(e["ts"]) <= hi))

    def test_in_lists_and_exact_names(self):
        path = real(REAL[1])
        s = stats(path)
        count = lambda where: sql(path, f"SELECT count(*) AS n FROM events WHERE {where}")[0]["n"]
        by_provider = s["providers"]
        ps = sorted(by_provider)[:2]
        self.assertEqual(count(f"provider IN ({q(ps[0])}, {q(ps[1])}, 'nobody')"), by_provider[ps[0]] + by_provider[ps[1]])
        ids = {t["event_id"] for t in s["types"]}
        some = sorted(ids)[:3]
        self.assertEqual(count("event_id IN (%s)" % ", ".join(map(str, some))),
                         sum(t["count"] for t in s["types"] if t["event_id"] in some))
        ths = [t["thread"] for t in s["threads"][:3]]
        self.assertEqual(count("thread IN (%s)" % ", ".join(map(str, ths))),
                         sum(t["count"] for t in s["threads"] if t["thread"] in ths))
        # SQL compares names exactly; COLLATE NOCASE as SQLite does (the library's match is looser)
        self.assertEqual(count("event_name = 'GC/AllocationTick'"), 35458)
        self.assertEqual(count("event_name = 'gc/allocationtick'"), 0)
        self.assertEqual(len(query(path, "--event", "gc/allocationtick")), 35458)
        self.assertEqual(count("event_name = 'gc/allocationtick' COLLATE NOCASE"), 35458)
        # values of other types, as SQL compares them
        self.assertEqual(count("event_id = '10'"), count("event_id = 10"))
        self.assertEqual(count("event_id = 10.0"), count("event_id = 10"))
        self.assertEqual(count("event_id = 10.5"), 0)
        self.assertEqual(count("provider = NULL"), 0)
        self.assertEqual(count(f"ts >= {s['last_ts']}.5"), 0)
        self.assertEqual(count(f"ts > {s['last_ts'] - 1}.5"), 1)
        self.assertEqual(count("ts < 'text'"), s["events"])  # every integer sorts before text
        self.assertEqual(count("ts > 'text'"), 0)

    def test_activity_ids(self):
        guid = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")
        for path in [gen("g5.nettrace", "--format-version", "5", "--events", "20000", "--seed", "3"),
                     gen("g6.nettrace", "--events", "20000", "--seed", "4")]:
            r = sql(path, "SELECT count(activity_id) AS a, count(related_activity_id) AS r, count(*) AS n, "
                          "min(activity_id) AS lo, max(related_activity_id) AS hi FROM events")[0]
            self.assertTrue(0 < r["a"] < r["n"], r)
            self.assertTrue(0 < r["r"] < r["a"], r)
            self.assertRegex(r["lo"], guid)
            self.assertRegex(r["hi"], guid)
        # the real V4 traces carry the empty GUID: NULL
        self.assertEqual(sql(real(REAL[4]), "SELECT count(activity_id) AS a FROM events")[0]["a"], 0)


class Counts(unittest.TestCase):
    """GROUP BY and the companion tables equal `ntidx stats`."""

    def test_group_by_equals_stats(self):
        for path in all_traces():
            s = stats(path)
            want = sorted((t["provider"], t["event_id"], t["version"], t["event_name"], t["count"])
                          for t in s["types"])
            grouped = "SELECT provider, event_id, version, event_name, count(*) AS n FROM events GROUP BY 1, 2, 3, 4"
            got = sorted(tuple(r.values()) for r in sql(path, grouped))
            self.assertEqual(got, want, path)
            # the same through SQLite's own sort (max(ts) is read: no grouped scan)
            sorted_plan = grouped.replace("count(*) AS n", "count(*) AS n, max(ts) AS m")
            got2 = sorted(tuple(list(r.values())[:5]) for r in sql(path, sorted_plan))
            self.assertEqual(got2, want, path)
            threads = sql(path, "SELECT thread, count(*) AS count FROM events GROUP BY thread")
            self.assertEqual(sorted(threads, key=lambda t: t["thread"]), s["threads"], path)
            # companions
            types = sql(path, "SELECT provider, event_id, version, event_name, count, first_ts FROM types")
            self.assertEqual(sorted(tuple(t.values()) for t in types),
                             sorted((t["provider"], t["event_id"], t["version"], t["event_name"], t["count"],
                                     t["first_ts"]) for t in s["types"]), path)
            th = sql(path, "SELECT thread, events, dropped FROM threads ORDER BY thread")
            self.assertEqual([{"thread": t["thread"], "count": t["events"]} for t in th if t["events"]], s["threads"])
            drops = {}
            for d in s["dropped_by_thread"]:
                drops[d["thread"]] = drops.get(d["thread"], 0) + d["dropped"]
            self.assertEqual({t["thread"]: t["dropped"] for t in th if t["dropped"]}, drops, path)
            self.assertEqual(sum(t["dropped"] for t in th), s["dropped_events"])
        self.assertGreater(stats(all_traces()[-1])["dropped_events"], 0)  # the drops were exercised

    def test_grouped_plan(self):
        path = real(REAL[1])
        plan = sql(path, "EXPLAIN QUERY PLAN SELECT event_name, count(*) FROM events GROUP BY 1", fmt="text")
        self.assertNotIn("TEMP B-TREE", plan)
        self.assertIn("GROUP(event_name)", plan)
        plan = sql(path, "EXPLAIN QUERY PLAN SELECT event_name, count(*), max(ts) FROM events GROUP BY 1", fmt="text")
        self.assertIn("USE TEMP B-TREE FOR GROUP BY", plan)
        # grouped by thread and provider, filtered: the same as sorted
        a = sql(path, "SELECT thread, provider, count(*) AS n FROM events WHERE provider <> 'x' GROUP BY 1, 2")
        b = sql(path, "SELECT thread, provider, count(*) AS n, min(seq) FROM events WHERE provider <> 'x' GROUP BY 1, 2")
        self.assertEqual(sorted((r["thread"], r["provider"], r["n"]) for r in a),
                         sorted((r["thread"], r["provider"], r["n"]) for r in b))

    def test_grouped_filters(self):
        """Counts by type over whole traces come from the library's statistics, counts split or filtered by
        thread event by event: with the type filters pushed down, both equal SQLite's own sort of the rows."""
        for path in [real(REAL[1]), gen("g6.nettrace", "--events", "20000", "--seed", "4")]:
            s = stats(path)
            top = sorted(s["types"], key=lambda t: (-t["count"], t["provider"], t["event_name"]))[:3]
            providers = ", ".join(q(p) for p in sorted({t["provider"] for t in top}))
            thread = max(s["threads"], key=lambda t: t["count"])["thread"]
            for where in [f"provider IN ({providers})", f"event_name = {q(top[0]['event_name'])}",
                          f"event_id IN ({top[1]['event_id']}, {top[2]['event_id']})", f"thread = {thread}",
                          f"provider IN ({providers}) AND thread = {thread}", "provider = 'nobody'"]:
                grouped = f"SELECT provider, event_name, count(*) AS n FROM events WHERE {where} GROUP BY 1, 2"
                plan = sql(path, "EXPLAIN QUERY PLAN " + grouped, fmt="text")
                self.assertIn("GROUP(provider,event_name)", plan, where)
                own_sort = grouped.replace("count(*) AS n", "count(*) AS n, max(ts) AS m")
                a = sorted((r["provider"], r["event_name"], r["n"]) for r in sql(path, grouped))
                b = sorted((r["provider"], r["event_name"], r["n"]) for r in sql(path, own_sort))
                self.assertEqual(a, b, (path, where))
                self.assertEqual(bool(a), where != "provider = 'nobody'", (path, where))

    def test_types_fields_regions_stacks(self):
        path = real(REAL[1])
        tick = sql(path, "SELECT fields FROM types WHERE event_name = 'GC/AllocationTick'")[0]["fields"]
        names = [f["name"] for f in tick]
        self.assertIn("TypeName", names)
        self.assertEqual(tick[names.index("TypeName")]["type"], "String")
        ix = json.loads(run("index", path, "--json").stdout)
        regions = sql(path, "SELECT * FROM regions ORDER BY region")
        self.assertEqual(len(regions), ix["regions"])
        self.assertEqual([r["region"] for r in regions], list(range(len(regions))))
        ev = sql(path, "SELECT min(ts) AS a, max(ts) AS b, count(*) AS n FROM events")[0]
        self.assertEqual(min(r["first_ts"] for r in regions if r["first_ts"] is not None), ev["a"])
        self.assertEqual(max(r["last_ts"] for r in regions if r["last_ts"] is not None), ev["b"])
        # every sample's stack is in `stacks` once (by its key: stack ids are numbered again after sequence
        # points), each frame named (the symbolizer's own test: all of them in only_managed_samples)
        for name in (REAL[1], REAL[4]):
            p = real(name)
            samples = sum(t["count"] for t in stats(p)["types"] if t["event_name"] == "Thread/Sample")
            r = sql(p, "SELECT count(*) AS rows, count(s.stack_key) AS with_leaf, count(s.method) AS named "
                       "FROM events e LEFT JOIN stacks s ON s.stack_key = e.stack_key AND s.depth = 0 "
                       "WHERE e.event_name = 'Thread/Sample'")[0]
            self.assertGreater(samples, 7000)
            self.assertEqual(r["rows"], samples)
            self.assertEqual(r["with_leaf"], samples)
            st = sql(p, "SELECT count(*) AS frames, count(method) AS named, count(DISTINCT stack_key) AS stacks, "
                        "count(DISTINCT stack_id) AS ids FROM stacks")[0]
            self.assertGreater(st["stacks"], 50)
            if name == REAL[4]:
                self.assertEqual(st["named"], st["frames"])
                self.assertGreater(st["stacks"], st["ids"])  # the runtime gives one id to several stacks
        # the stacks of one id, each with its frames from the leaf
        one = sql(real(REAL[4]), "SELECT * FROM stacks WHERE stack_id = 3 ORDER BY stack_key, depth")
        self.assertTrue(one and all(r["stack_id"] == 3 for r in one))
        keys = sorted({r["stack_key"] for r in one})
        self.assertGreater(len(keys), 1)
        for k in keys:
            depths = [r["depth"] for r in one if r["stack_key"] == k]
            self.assertEqual(depths, list(range(len(depths))))
            by_key = sql(real(REAL[4]), f"SELECT depth, ip FROM stacks WHERE stack_key = {k} ORDER BY depth")
            self.assertEqual(by_key, [{"depth": r["depth"], "ip": r["ip"]} for r in one if r["stack_key"] == k])
        # V3 events carry their stacks inline: their keys are there too
        v3 = real(REAL[0])
        r = sql(v3, "SELECT count(e.stack_key) AS with_stack, count(s.stack_key) AS joined FROM events e "
                    "LEFT JOIN stacks s ON s.stack_key = e.stack_key AND s.depth = 0")[0]
        self.assertGreater(r["with_stack"], 0)
        self.assertEqual(r["joined"], r["with_stack"])


class Pushdown(unittest.TestCase):
    """A narrow window reads only its part of a large trace."""

    def big(self):
        return gen("g32.nettrace", "--size", "32M", "--seed", "7")

    def test_narrow_windows_read_little(self):
        path = self.big()
        size = os.path.getsize(path)
        s = stats(path)
        rnd = random.Random(5)
        freq = s["tick_frequency"]
        for _ in range(5):
            a = rnd.randint(s["first_ts"], s["last_ts"] - freq // 100)
            b = a + freq // 100  # 10 ms
            out = sql(path, f"SELECT count(*) AS n FROM events WHERE ts BETWEEN {a} AND {b - 1}; "
                            "SELECT ntidx_bytes_read() AS bytes")
            n, read = out[0]["n"], out[1]["bytes"]
            p = run("query", path, "--from", str(a), "--to", str(b), "--order", "file", "--stats")
            self.assertEqual(n, len(p.stdout.splitlines()))
            want = int(re.search(r"(\d+) bytes of the trace read", p.stderr).group(1))
            self.assertEqual(read, want)
            self.assertLess(read, size // 50, (a, b))
        whole = sql(path, "SELECT count(*) AS n FROM events; SELECT ntidx_bytes_read() AS bytes")
        self.assertEqual(whole[0]["n"], s["events"])
        self.assertGreater(whole[1]["bytes"], size * 0.95)

    def test_explain_query_plan(self):
        path = self.big()
        plan = lambda st: sql(path, "EXPLAIN QUERY PLAN " + st, fmt="text")
        # the window and the filters are the table's constraints
        p = plan("SELECT count(*) FROM events WHERE ts BETWEEN 1 AND 2 AND provider = 'x'")
        m = re.search(r"SCAN events VIRTUAL TABLE INDEX (\d+):(.*)$", p, re.M)
        self.assertTrue(m, p)
        self.assertEqual(sorted(m.group(2).split()), ["provider=", "ts<=", "ts>="])
        p = plan("SELECT count(*) FROM events WHERE time_s < 3 AND event_name IN ('a', 'b') AND thread = 4")
        self.assertEqual(sorted(re.search(r"INDEX \d+:(.*)$", p, re.M).group(1).split()),
                         ["event_name=ANY", "thread=", "time_s<"])
        self.assertNotIn("TEMP B-TREE", plan("SELECT * FROM events WHERE ts > 5 ORDER BY ts"))
        self.assertNotIn("TEMP B-TREE", plan("SELECT * FROM events ORDER BY time_s, offset"))
        self.assertIn("TEMP B-TREE FOR ORDER BY", plan("SELECT * FROM events ORDER BY ts DESC"))
        self.assertIn("TEMP B-TREE FOR ORDER BY", plan("SELECT * FROM events ORDER BY thread"))
        # samples joined to their stacks: the events outside, each stack looked up by id inside
        j = plan("SELECT s.method, count(*) FROM events e JOIN stacks s ON s.stack_key = e.stack_key "
                 "WHERE e.event_name = 'Thread/Sample' AND s.depth = 0 GROUP BY 1")
        scans = re.findall(r"SCAN (\w+) VIRTUAL TABLE INDEX (\d+)", j)
        self.assertEqual([s[0] for s in scans][:2], ["e", "ntidx_stacks"], j)
        self.assertTrue(int(scans[1][1]) & 8, j)  # the stack looked up by its key

    def test_order_by_ts_is_time_order(self):
        path = gen("g6.nettrace", "--events", "20000", "--seed", "4")
        rows = sql(path, "SELECT ts, offset FROM events ORDER BY ts")
        self.assertEqual([r["ts"] for r in rows], [e["ts"] for e in query(path)])
        self.assertEqual(rows, sorted(rows, key=lambda r: (r["ts"], r["offset"])))


class PythonSqlite(unittest.TestCase):
    """The loadable extension in Python's sqlite3 (Debian's /usr/bin/python3)."""

    def connect(self):
        con = sqlite3.connect(":memory:")
        con.enable_load_extension(True)
        con.load_extension(EXT)
        return con

    def test_tables_and_pushdown(self):
        path = Pushdown().big()
        s = stats(path)
        con = self.connect()
        con.execute(f"CREATE VIRTUAL TABLE ev USING ntidx({q(path)})")
        self.assertEqual(con.execute("SELECT count(*) FROM ev").fetchone()[0], s["events"])
        a = s["first_ts"] + (s["last_ts"] - s["first_ts"]) // 2
        b = a + s["tick_frequency"] // 100
        n = con.execute("SELECT count(*) FROM ev WHERE ts >= ? AND ts < ?", (a, b)).fetchone()[0]
        read = con.execute("SELECT ntidx_bytes_read()").fetchone()[0]
        self.assertEqual(n, len(run("query", path, "--from", str(a), "--to", str(b)).stdout.splitlines()))
        self.assertLess(read, os.path.getsize(path) // 50)
        rows = con.execute(f"SELECT {ROW} FROM ev WHERE ts >= ? AND ts < ? ORDER BY ts, offset", (a, b)).fetchall()
        cols = [c.strip() for c in ROW.split(",")]
        self.assertEqual([as_query_row(dict(zip(cols, r))) for r in rows],
                         query(path, "--from", str(a), "--to", str(b)))
        # the table-valued function, with an index path of its own
        idx = os.path.join(TMP, "py-own.ntidx")
        n2 = con.execute("SELECT count(*) FROM ntidx_events(?, ?) WHERE ts >= ? AND ts < ?", (path, idx, a, b)).fetchone()[0]
        self.assertEqual(n2, n)
        self.assertTrue(os.path.exists(idx))
        con.execute(f"CREATE VIRTUAL TABLE ev2 USING ntidx({q(path)}, index={q(idx)})")
        self.assertEqual(con.execute("SELECT count(*) FROM ev2").fetchone()[0], s["events"])
        types = con.execute("SELECT event_name, count FROM ntidx_types(?)", (path,)).fetchall()
        self.assertEqual(sum(c for _, c in types), s["events"])
        self.assertEqual(con.execute("SELECT ntidx_version()").fetchone()[0],
                         run("--version").stdout.split()[1])
        con.close()

    def test_sqlite3_shell(self):
        """`.load build/tools/sqlite/ntidx` in the sqlite3 shell (the entry point's name comes from the file's)."""
        path = real(REAL[4])
        base = EXT[:-3] if EXT.endswith(".so") else EXT
        p = subprocess.run(["sqlite3", ":memory:", f".load {base}",
                            f"CREATE VIRTUAL TABLE ev USING ntidx({q(path)})",
                            "SELECT count(*) FROM ev WHERE event_name = 'Thread/Sample'"],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.assertEqual((p.returncode, p.stdout.strip()), (0, "7423"), p.stderr)

    def test_bad_input_is_an_sql_error(self):
        con = self.connect()
        with self.assertRaises(sqlite3.OperationalError) as e:
            con.execute("SELECT count(*) FROM ntidx_events('/nonexistent/x.nettrace')").fetchall()
        self.assertIn("/nonexistent/x.nettrace", str(e.exception))
        junk = os.path.join(TMP, "py-junk.nettrace")
        with open(junk, "wb") as f:
            f.write(b"this is not a trace at all, only some text" * 10)
        with self.assertRaises(sqlite3.OperationalError) as e:
            con.execute(f"CREATE VIRTUAL TABLE j USING ntidx({q(junk)})")
        self.assertIn(junk, str(e.exception))
        self.assertIn("offset 0", str(e.exception))
        with self.assertRaises(sqlite3.OperationalError) as e:
            con.execute("SELECT * FROM ntidx_events").fetchall()
        self.assertIn("which trace", str(e.exception))
        # a corrupt index: rebuilt, the answer right
        path = BadInput().copy_of(gen("g6.nettrace", "--events", "20000", "--seed", "4"), "py-corrupt.nettrace")
        run("index", path)
        with open(path + ".ntidx", "r+b") as f:
            f.seek(64)
            f.write(b"\xff" * 32)
        self.assertEqual(con.execute("SELECT count(*) FROM ntidx_events(?)", (path,)).fetchone()[0], 20000)
        con.close()


class Times(unittest.TestCase):
    """Times out of a trace's ticks (issue 25, item 5): ntidx_ticks() refuses them with an error naming the value,
    as the command and the Python module do; bounds on ts and time_s far outside the ticks are SQL's
    comparisons (they hold for every row or for none), never wrapped or clamped into a wrong window."""

    def test_ntidx_ticks(self):
        path = real("only_managed_samples.nettrace")  # nanosecond ticks from 2020: they end in 2604
        s = stats(path)
        sync, freq = s["sync_ticks"], s["tick_frequency"]
        row = sql(path, f"SELECT ntidx_ticks({q(path)}, '1.5s') AS a, ntidx_ticks({q(path)}, 12345) AS b, "
                        f"ntidx_ticks({q(path)}, '2020-11-25T00:16:23.949Z') AS c, ntidx_ticks({q(path)}, NULL) AS d")
        self.assertEqual(row, [{"a": sync + freq * 3 // 2, "b": 12345, "c": sync, "d": None}])
        n = sql(path, f"SELECT count(*) AS n FROM events WHERE ts >= ntidx_ticks({q(path)}, '5s')")[0]["n"]
        self.assertEqual(n, len(query(path, "--from", "5s")))
        for v in ("1e400s", "infs", "99999999999s", "184467440737s", "9999-12-31T23:59:59Z", "99999-01-01T00:00:00Z",
                  "18446744073709551616", "-300000s", "-1"):
            with self.subTest(value=v):
                p = sql(path, f"SELECT count(*) FROM events WHERE ts >= ntidx_ticks({q(path)}, {q(v)})", check=False)
                self.assertEqual(p.returncode, 2, p.stderr)
                self.assertIn(v, p.stderr)
                self.assertEqual(p.stdout, "")
        # the same error in Python's sqlite3
        con = PythonSqlite().connect()
        with self.assertRaises(sqlite3.OperationalError) as e:
            con.execute("SELECT ntidx_ticks(?, '1e400s')", (path,)).fetchall()
        self.assertIn("1e400s", str(e.exception))
        self.assertEqual(con.execute("SELECT ntidx_ticks(?, '2200-01-01T00:00:00Z') > ?", (path, s["last_ts"]))
                         .fetchone()[0], 1)
        # 2600 is a tick of this trace, but past SQLite's integers (which ts holds too): said, not wrapped
        with self.assertRaises(sqlite3.OperationalError) as e:
            con.execute("SELECT ntidx_ticks(?, '2600-01-01T00:00:00Z')", (path,)).fetchall()
        self.assertIn("beyond SQLite's integers", str(e.exception))
        con.close()

    def test_far_bounds_are_sql_comparisons(self):
        path = real("only_managed_samples.nettrace")
        n = stats(path)["events"]

        def count(where):
            return sql(path, f"SELECT count(*) AS n FROM events WHERE {where}")[0]["n"]

        self.assertEqual(count("time_s >= 99999999999"), 0)
        self.assertEqual(count("time_s < 99999999999"), n)
        self.assertEqual(count("time_s < 1e400"), n)
        self.assertEqual(count("time_s >= 1e400"), 0)
        self.assertEqual(count("time_s > -1e400"), n)
        self.assertEqual(count("ts < 99999999999999999999"), n)
        self.assertEqual(count("ts >= 99999999999999999999"), 0)
        self.assertEqual(count("ts >= -99999999999999999999"), n)
        self.assertEqual(count("ts >= 2 AND ts < 1"), 0)  # an empty range is SQL's answer, not an error


class Names(unittest.TestCase):
    """`provider` compares without regard to case (COLLATE NOCASE, as EventPipe compares providers), pushed down
    all the same; a scan that finds nothing under a name that names nothing says so with the closest names:
    on stderr in `ntidx sql`, through ntidx_warning() everywhere (issue 25, item 6)."""

    def test_provider_nocase(self):
        path = real(REAL[1])
        s = stats(path)
        rt = "Microsoft-Windows-DotNETRuntime"
        n = s["providers"][rt]

        def count(where, table="events"):
            return sql(path, f"SELECT count(*) AS n FROM {table} WHERE {where}")[0]["n"]

        for spelling in (rt, rt.lower(), rt.upper()):
            self.assertEqual(count(f"provider = {q(spelling)}"), n)
            self.assertEqual(count(f"provider IN ({q(spelling)}, 'nobody')"), n)
            self.assertEqual(count(f"provider = {q(spelling)} AND event_id = 10"), 35458)
        self.assertEqual(count(f"provider = {q(rt.lower())} COLLATE BINARY"), 0)
        self.assertEqual(count(f"provider = {q(rt)} COLLATE BINARY"), n)
        self.assertEqual(count(f"provider = {q(rt.lower())}", f"ntidx_types({q(path)})"),
                         len([t for t in s["types"] if t["provider"] == rt]))
        # pushed down: a narrow window of one provider reads as `ntidx query --provider` reads
        plan = sql(path, f"EXPLAIN QUERY PLAN SELECT count(*) FROM events WHERE provider = {q(rt.lower())}", "text")
        self.assertIn("provider=", plan)
        grouped = sql(path, "SELECT provider, count(*) AS n FROM events GROUP BY provider")
        self.assertEqual({r["provider"]: r["n"] for r in grouped}, s["providers"])

    def test_unknown_names_said(self):
        path = real(REAL[1])
        said = "no provider 'Microsoft-Windows-DotNetRuntme' in the trace (closest: Microsoft-Windows-DotNETRuntime"
        p = sql(path, "SELECT count(*) AS n FROM events WHERE provider = 'Microsoft-Windows-DotNetRuntme'", check=False)
        self.assertEqual(p.returncode, 0)
        self.assertEqual(json.loads(p.stdout), {"n": 0})
        self.assertIn("ntidx: %s: warning: %s" % (path, said), p.stderr)
        p = sql(path, "SELECT count(*) AS n FROM events WHERE event_name = 'GC/AllocTick'", check=False)
        self.assertIn("warning: no event 'GC/AllocTick' in the trace (closest: GC/AllocationTick)", p.stderr)
        p = sql(path, "SELECT provider, count(*) FROM events WHERE provider = 'Nobody' GROUP BY 1", check=False)
        self.assertIn("warning: no provider 'Nobody' in the trace (its providers: ", p.stderr)
        # names the trace defines: nothing said, also for an empty window
        p = sql(path, "SELECT count(*) AS n FROM events WHERE provider = 'microsoft-windows-dotnetruntime' "
                      "AND ts < 0", check=False)
        self.assertEqual(p.stderr, "")
        # Python's sqlite3 has no log hook: ntidx_warning() tells what the last scan said
        con = PythonSqlite().connect()
        self.assertEqual(con.execute("SELECT count(*) FROM ntidx_events(?) WHERE provider = "
                                     "'Microsoft-Windows-DotNetRuntme'", (path,)).fetchone()[0], 0)
        self.assertTrue(con.execute("SELECT ntidx_warning()").fetchone()[0].startswith(path + ": " + said))
        self.assertEqual(con.execute("SELECT count(*) FROM ntidx_events(?) WHERE provider = "
                                     "'microsoft-windows-dotnetruntime'", (path,)).fetchone()[0], 70333)
        self.assertIsNone(con.execute("SELECT ntidx_warning()").fetchone()[0])
        con.close()


class BadInput(unittest.TestCase):
    def copy_of(self, src, name):
        dst = os.path.join(TMP, name)
        shutil.copyfile(src, dst)
        for f in (dst + ".ntidx",):
            if os.path.exists(f):
                os.remove(f)
        return dst

    def test_missing_and_not_a_trace(self):
        p = sql("/nonexistent/x.nettrace", "SELECT 1", check=False)
        self.assertEqual(p.returncode, 1)
        self.assertIn("/nonexistent/x.nettrace", p.stderr)
        junk = os.path.join(TMP, "junk.nettrace")
        with open(junk, "wb") as f:
            f.write(b"\0" * 1000)
        p = sql(junk, "SELECT count(*) FROM events", check=False)
        self.assertEqual(p.returncode, 1)
        self.assertIn(junk, p.stderr)
        self.assertIn("offset", p.stderr)

    def test_truncated_trace_read_to_its_last_block(self):
        src = gen("g6.nettrace", "--events", "20000", "--seed", "4")
        path = self.copy_of(src, "truncated.nettrace")
        with open(path, "r+b") as f:
            f.truncate(os.path.getsize(src) * 2 // 3 + 7)
        s = json.loads(run("stats", path, "--json", "--no-index").stdout)
        self.assertFalse(s["complete"])
        p = sql(path, "SELECT count(*) AS n FROM events", fmt="csv", check=False)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(int(p.stdout.splitlines()[1]), s["events"])
        self.assertGreater(s["events"], 10000)
        self.assertIn("incomplete", p.stderr)

    def test_corrupt_and_stale_index_rebuilt(self):
        path = self.copy_of(gen("g6.nettrace", "--events", "20000", "--seed", "4"), "corrupt-index.nettrace")
        # counted event by event, and by the statistics of a grouped scan
        for st in ("SELECT count(*) AS n FROM events",
                   "SELECT sum(n) AS n FROM (SELECT event_name, count(*) AS n FROM events GROUP BY 1)"):
            run("index", path)
            with open(path + ".ntidx", "r+b") as f:
                f.seek(100)
                f.write(b"\x5a" * 64)
            p = sql(path, st, fmt="csv", check=False)
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertEqual(p.stdout.splitlines()[1], "20000")
            self.assertIn("rebuilding the index", p.stderr)
        # the trace rewritten in place (another trace in the same file): the index no longer matches it
        other = gen("g6b.nettrace", "--events", "15000", "--seed", "9")
        with open(other, "rb") as f, open(path, "r+b") as g:
            g.write(f.read())
            g.truncate()
        p = sql(path, "SELECT count(*) AS n FROM events", fmt="csv", check=False)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(p.stdout.splitlines()[1], "15000")
        self.assertIn("rebuilding the index", p.stderr)

    def test_damaged_trace(self):
        path = self.copy_of(gen("g6.nettrace", "--events", "20000", "--seed", "4"), "damaged.nettrace")
        size = os.path.getsize(path)
        with open(path, "r+b") as f:
            f.seek(size // 2)
            f.write(b"\xff" * 4096)
        for st in ("SELECT count(*), sum(length(fields)) FROM events",
                   "SELECT event_name, count(*) FROM events GROUP BY 1"):  # a grouped scan's statistics
            p = sql(path, st, check=False)
            self.assertEqual(p.returncode, 1, p.stdout + p.stderr)
            self.assertIn(path, p.stderr)
            self.assertRegex(p.stderr, r"offset \d+")

    def test_bad_statements_exit_2(self):
        path = real(REAL[3])
        for st in ("SELEKT 1", "SELECT nosuch FROM events", "SELECT * FROM nosuch", "SELECT json_extract('{', '$')"):
            p = sql(path, st, check=False)
            self.assertEqual(p.returncode, 2, (st, p.stderr))
            self.assertIn("ntidx: sql:", p.stderr)
        self.assertEqual(run("sql", path, check=False).returncode, 2)
        self.assertEqual(run("sql", check=False).returncode, 2)
        self.assertEqual(run("sql", path, path, "SELECT 1", "--index", "x", check=False).returncode, 2)
        self.assertEqual(run("sql", path, "SELECT 1", "--format", "xml", check=False).returncode, 2)


class Command(unittest.TestCase):
    def test_formats(self):
        path = real(REAL[4])
        st = "SELECT ts, time_s, event_name, fields FROM events ORDER BY ts LIMIT 50"
        rows = sql(path, st)
        self.assertEqual(len(rows), 50)
        self.assertEqual(json.loads(sql(path, st, fmt="json")), rows)
        c = list(csv.reader(io.StringIO(sql(path, st, fmt="csv"))))
        self.assertEqual(c[0], ["ts", "time_s", "event_name", "fields"])
        self.assertEqual([[int(r[0]), float(r[1]), r[2], json.loads(r[3])] for r in c[1:]],
                         [[r["ts"], r["time_s"], r["event_name"], r["fields"]] for r in rows])
        self.assertTrue(all(isinstance(r["fields"], dict) for r in rows))  # a JSON column is written as JSON
        self.assertEqual(sql(path, "SELECT '{\"a\":1}' AS t")[0]["t"], '{"a":1}')  # a string stays a string
        text = sql(path, st, fmt="text").splitlines()
        self.assertEqual(text[0].split(), ["ts", "time_s", "event_name", "fields"])
        self.assertTrue(set(text[1]) <= {"-", " "})
        self.assertEqual(len(text), 52)
        # several statements, each printed
        two = sql(path, "SELECT 1 AS a; SELECT 2 AS b")
        self.assertEqual(two, [{"a": 1}, {"b": 2}])

    def test_several_traces(self):
        paths = [real(REAL[1]), real(REAL[4])]
        rows = sql(paths, "SELECT trace, count(*) AS n FROM events GROUP BY trace")
        self.assertEqual({r["trace"]: r["n"] for r in rows}, {p: stats(p)["events"] for p in paths})
        first = sql(paths, "SELECT * FROM events LIMIT 1")[0]
        self.assertEqual(list(first)[0], "trace")
        types = sql(paths, "SELECT trace, sum(count) AS n FROM types GROUP BY trace")
        self.assertEqual({r["trace"]: r["n"] for r in types}, {p: stats(p)["events"] for p in paths})
        one = sql(paths, f"SELECT count(*) AS n FROM events WHERE trace = {q(paths[1])}")[0]["n"]
        self.assertEqual(one, stats(paths[1])["events"])
        self.assertEqual(sorted(r["trace"] for r in sql(paths, "SELECT DISTINCT trace FROM threads")), sorted(paths))
        # one trace: no trace column unless asked for
        self.assertNotIn("trace", sql(paths[0], "SELECT * FROM events LIMIT 1")[0])
        self.assertEqual(sql(paths[0], "SELECT trace FROM events LIMIT 1")[0]["trace"], paths[0])


def main():
    global NTIDX, EXT, TRACES, TMP
    NTIDX, EXT, TRACES = sys.argv[1:4]
    TMP = tempfile.mkdtemp(prefix="ntidx-sql-")
    try:
        unittest.main(argv=[sys.argv[0]] + sys.argv[4:], verbosity=2)
    finally:
        shutil.rmtree(TMP, ignore_errors=True)


if __name__ == "__main__":
    main()
