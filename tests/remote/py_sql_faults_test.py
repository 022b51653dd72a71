#!/usr/bin/env python3
"""The faults of issue 27 (item 6) through the Python module and SQL, as cli_remote_test.py holds them for the
command: range_server.py's fault injector in front of a generated trace, and ntidx.open(URL) (stats, query,
frame, Trace.sql()), `ntidx sql URL` and the SQLite extension's tables must
  - retry a 503 twice, then answer as the same trace on disk;
  - report a persistent 500 (Python: ntidx.FileError; SQL: exit 1) naming the URL without its query string,
    the range and the status;
  - name the URL, never its SAS token, for a 404 and a 403;
  - refuse an object that changed between two requests (its ETag) with "the trace changed while it was read",
    never a mix of two versions;
  - retry a connection cut mid-body and a short body once, then answer right.

Python runs in a child process (tests/remote's server is a thread of this one): it opens the URL, says so, waits
for "go" (the fault is set in between, so that it falls on the reads after the open), then prints its answers
or its exception as JSON.

Usage: py_sql_faults_test.py NTIDX SQLITE_EXTENSION
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from remote_common import HEAD, HttpServer  # noqa: E402

NTIDX = EXT = None
SQL = "select event_name, count(*), sum(length(fields)), sum(offset) from events group by 1 order by 1"

# The child: open argv[1]; "opened" on stdout; wait for a line on stdin; then the answers, or the error, as JSON.
CHILD = r"""
import hashlib, json, sys
import ntidx

def fail(e):
    print(json.dumps({"error": type(e).__name__, "file_error": isinstance(e, ntidx.FileError), "msg": str(e)}))
    sys.exit(3)

try:
    t = ntidx.open(sys.argv[1])
except ntidx.Error as e:
    fail(e)
print("opened", flush=True)
sys.stdin.readline()
try:
    out = {"stats": json.dumps(t.stats(), sort_keys=True, default=str),
           "query": sum(1 for _ in t.query()),
           "frame": hashlib.sha256(t.frame().to_csv().encode()).hexdigest(),
           "sql": t.sql(sys.argv[2]).to_csv()}
except ntidx.Error as e:
    fail(e)
print(json.dumps(out))
"""


class PySqlFaults(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.mkdtemp(prefix="ntidx-py-sql-faults-")
        cls.srv = None
        try:
            srvdir = os.path.join(cls.dir, "srv")
            os.mkdir(srvdir)
            cls.local = os.path.join(srvdir, "gen.nettrace")
            subprocess.run([NTIDX, "gen", "-o", cls.local, "--size", "2M", "--seed", "27", "--quiet"], check=True)
            cls.env = dict(os.environ, NTIDX_HTTP_RETRY_MS="5", NTIDX_INDEX_DIR=os.path.join(cls.dir, "idx"))
            cls.lenv = dict(cls.env, NTIDX_INDEX_DIR=os.path.join(cls.dir, "lidx"))
            cls.srv = HttpServer(srvdir)
            cls.url = cls.srv.base + "/gen.nettrace"
            cls.run_cmd(["index", cls.url, "--quiet"], cls.env)
            cls.run_cmd(["index", cls.local, "--quiet"], cls.lenv)
            cls.want_py = cls.python(cls.local, cls.lenv)
            cls.want_sql = cls.run_cmd(["sql", cls.local, SQL], cls.lenv).stdout
            if not cls.want_sql.strip() or cls.want_py["query"] == 0:
                raise AssertionError("the generated trace has no events")
        except BaseException:  # tearDownClass does not run when this fails: stop the server here
            cls.tearDownClass()
            raise

    @classmethod
    def tearDownClass(cls):
        if cls.srv:
            cls.srv.close()
        shutil.rmtree(cls.dir, ignore_errors=True)

    @staticmethod
    def run_cmd(args, env, check=True):
        p = subprocess.run([NTIDX] + args, capture_output=True, env=env, timeout=120)
        if check and p.returncode != 0:
            raise AssertionError("ntidx %s failed (%d): %s" % (" ".join(args), p.returncode, p.stderr.decode()))
        return p

    @classmethod
    def python(cls, trace, env, after_open=None, fails=False):
        """The child's answers (a dict), or its error when `fails`; after_open() runs once the trace is open."""
        p = subprocess.Popen([sys.executable, "-c", CHILD, trace, SQL], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, env=env, text=True)
        try:
            first = p.stdout.readline()
            if first == "opened\n" and after_open:
                after_open()
            out, err = p.communicate("go\n" if first == "opened\n" else "", timeout=120)
        finally:
            if p.poll() is None:
                p.kill()
                p.wait()
        last = (out or first).strip().splitlines()[-1] if (out or first).strip() else ""
        if fails:
            if p.returncode != 3:
                raise AssertionError("the Python module did not fail (%d): %s %s" % (p.returncode, out, err))
            return json.loads(last)
        if p.returncode != 0:
            raise AssertionError("the Python module failed (%d): %s %s" % (p.returncode, first + out, err))
        ans = json.loads(last)
        ans["stats"] = ans["stats"].replace(trace, "TRACE")
        ans["sql"] = ans["sql"].replace(trace, "TRACE")
        return ans

    def sql(self, url=None, check=True):
        return self.run_cmd(["sql", url or self.url, SQL], self.env, check=check)

    def setUp(self):
        self.srv.reset()

    def tearDown(self):
        self.srv.reset()

    def statuses(self):
        return [r["status"] for r in self.srv.log()]

    # 503 twice, then the answer
    def test_503_twice_is_retried(self):
        self.srv.fault(kind="status", status=503, count=2)
        self.assertEqual(self.sql().stdout, self.want_sql)
        self.assertEqual(self.statuses()[:2], [503, 503])
        self.srv.reset()
        # on the reads after the open: the query's, the frame's, Trace.sql()'s own open
        self.assertEqual(self.python(self.url, self.env, lambda: self.srv.fault(kind="status", status=503, count=2)),
                         self.want_py)
        self.assertEqual(self.statuses().count(503), 2)

    # a persistent 500: an error naming the URL (no query string), the range and the status
    def test_persistent_500_is_reported(self):
        url = self.url + "?sv=1&sig=SECRET"
        self.srv.fault(kind="status", status=500, count=-1)
        p = self.sql(url, check=False)
        self.assertEqual(p.returncode, 1, p.stderr)
        err = p.stderr.decode()
        self.assertIn(self.url + ": bytes 0-%d: HTTP 500" % (HEAD - 1), err)
        self.assertNotIn("SECRET", err)
        self.assertGreater(self.statuses().count(500), 1, "a 500 is retried before it is reported")
        self.srv.reset()
        e = self.python(url, self.env, lambda: self.srv.fault(kind="status", status=500, count=-1), fails=True)
        self.assertTrue(e["file_error"], e)
        self.assertRegex(e["msg"], "^" + self.url.replace(".", r"\.") + r": bytes \d+-\d+: HTTP 500")
        self.assertNotIn("SECRET", e["msg"])

    # 404 and 403 name the URL, never its token
    def test_404_and_403_name_the_url_without_its_token(self):
        missing = self.srv.base + "/missing.nettrace"
        p = self.sql(missing + "?sv=1&sig=SECRET", check=False)
        self.assertEqual(p.returncode, 1)
        err = p.stderr.decode()
        self.assertIn(missing + ": bytes 0-%d: HTTP 404: no such object" % (HEAD - 1), err)
        self.assertNotIn("SECRET", err)
        e = self.python(missing + "?sv=1&sig=SECRET", self.env, fails=True)
        self.assertTrue(e["file_error"], e)
        self.assertIn(missing + ": bytes 0-%d: HTTP 404: no such object" % (HEAD - 1), e["msg"])
        self.assertNotIn("SECRET", e["msg"])
        for where in ("sql", "python"):
            with self.subTest(door=where):
                self.srv.reset()
                self.srv.fault(kind="status", status=403, count=-1)
                if where == "sql":
                    p = self.sql(self.url + "?sig=SECRET", check=False)
                    self.assertEqual(p.returncode, 1)
                    msg = p.stderr.decode()
                else:
                    msg = self.python(self.url + "?sig=SECRET", self.env, fails=True)["msg"]
                self.assertIn(self.url + ": bytes 0-%d: HTTP 403: access denied" % (HEAD - 1), msg)
                self.assertNotIn("SECRET", msg)
                self.assertNotIn("sig=", msg)

    # the object changed between two requests: an error, never a mix
    def test_a_changed_object_is_an_error(self):
        # the open's request as it is, every later one of another version
        self.srv.fault(kind="delay", ms=0, count=1)
        self.srv.fault(kind="etag", count=-1)
        p = self.sql(check=False)
        self.assertEqual(p.returncode, 1, p.stdout)
        self.assertIn("the trace changed while it was read", p.stderr.decode())
        self.assertIn(self.url + ": ", p.stderr.decode())
        # the header may be out (SQLite knows the columns before the first row), never a row of two versions
        # (the text format's header and its rule; the widths are the rows', so not the local answer's)
        lines = p.stdout.splitlines()
        self.assertEqual(len(lines), 2, p.stdout)
        self.assertEqual(lines[0].split(), self.want_sql.splitlines()[0].split())
        self.assertEqual(set(lines[1]) - {ord(" ")}, {ord("-")})
        self.srv.reset()

        def change():
            self.srv.fault(kind="etag", count=-1)
        e = self.python(self.url, self.env, change, fails=True)
        self.assertTrue(e["file_error"], e)
        self.assertIn("the trace changed while it was read", e["msg"])
        self.assertIn(self.url + ": ", e["msg"])

    # a cut connection and a short body, once: asked again, the answer right
    def test_a_cut_or_short_body_once_is_retried(self):
        for kind in ("cut", "short"):
            with self.subTest(kind=kind):
                self.srv.reset()
                self.srv.fault(kind=kind, count=1)
                self.assertEqual(self.sql().stdout, self.want_sql)
                self.srv.reset()
                # on the first read after the open
                def fault():  # the log from here: the requests after the open, one of them faulty
                    self.srv.reset()
                    self.srv.fault(kind=kind, count=1)
                self.assertEqual(self.python(self.url, self.env, fault), self.want_py)
                # the log is in the order answers ended, and reads run in parallel: the faulty one is the
                # one answer shorter than its range, whichever place it has
                def short(r):
                    a, b = (int(x) for x in r["range"][len("bytes="):].split(",")[0].split("-"))
                    return r["bytes"] < b - a + 1
                log = self.srv.log()
                self.assertEqual(len([r for r in log if r["range"] and short(r)]), 1, log)

    # a cut or short body every time: asked once more, then an error naming the URL and the range
    def test_a_cut_or_short_body_for_good_is_reported(self):
        said = {"cut": re.escape("(also when asked again)"),
                "short": r"the answer had \d+ bytes of \d+ \(also when asked again\)"}
        for kind in ("cut", "short"):
            with self.subTest(kind=kind, door="sql"):
                self.srv.reset()
                self.srv.fault(kind="delay", ms=0, count=1)  # the open's request whole, every read after it not
                self.srv.fault(kind=kind, count=-1)
                p = self.sql(self.url + "?sig=SECRET", check=False)
                self.assertEqual(p.returncode, 1, p.stderr)
                err = p.stderr.decode()
                self.assertRegex(err, re.escape(self.url) + r": bytes \d+-\d+: .*" + said[kind])
                self.assertNotIn("SECRET", err)
            with self.subTest(kind=kind, door="python"):
                self.srv.reset()
                e = self.python(self.url + "?sig=SECRET", self.env, lambda: self.srv.fault(kind=kind, count=-1),
                                fails=True)
                self.assertTrue(e["file_error"], e)
                self.assertRegex(e["msg"], "^" + re.escape(self.url) + r": bytes \d+-\d+: .*" + said[kind])
                self.assertNotIn("SECRET", e["msg"])

    # the same through the SQLite extension's tables, in this process (sqlite3 lets go of the GIL while it steps,
    # so the server's thread answers): the table opens the trace, then the fault falls on the reads
    def test_the_sqlite_extension(self):
        import sqlite3
        os.environ.update(NTIDX_HTTP_RETRY_MS="5", NTIDX_INDEX_DIR=self.env["NTIDX_INDEX_DIR"])
        con = sqlite3.connect(":memory:")
        con.enable_load_extension(True)
        con.load_extension(EXT)
        tables = iter(range(1000))

        def table(trace):
            name = "t%d" % next(tables)
            con.execute("CREATE VIRTUAL TABLE %s USING ntidx('%s')" % (name, trace.replace("'", "''")))
            return SQL.replace("from events", "from " + name)
        want = con.execute(table(self.local)).fetchall()
        self.assertTrue(want)
        for fault in ({"kind": "status", "status": 503, "count": 2}, {"kind": "cut"}, {"kind": "short"}):
            with self.subTest(fault=fault["kind"]):
                q = table(self.url + "?n=" + fault["kind"])  # its own URL: its own trace (below)
                self.srv.reset()
                self.srv.fault(**fault)
                self.assertEqual(con.execute(q).fetchall(), want)
                first = self.srv.log()[0]
                if fault["kind"] == "status":
                    self.assertEqual([r["status"] for r in self.srv.log()[:2]], [503, 503])
                else:
                    a, b = (int(x) for x in first["range"][len("bytes="):].split(",")[0].split("-"))
                    self.assertLess(first["bytes"], b - a + 1, "the fault fell on %s" % first)
        for fault, said in (({"kind": "status", "status": 500, "count": -1}, r": bytes \d+-\d+: HTTP 500"),
                            ({"kind": "etag", "count": -1}, r": bytes \d+-\d+: the trace changed while it was read")):
            with self.subTest(fault=fault["kind"]):
                self.srv.reset()
                # a URL of its own: a connection opens a URL once and shares the trace among its tables, and a read
                # that failed stays recorded in it: a later table on the same URL may say the earlier failure (a
                # 500 where the fault is now an ETag) instead of its own (docs/remote.md)
                q = table(self.url + "?sv=1&sig=SECRET&n=" + fault["kind"])
                self.srv.fault(**fault)
                with self.assertRaises(sqlite3.Error) as e:
                    con.execute(q).fetchall()
                self.assertRegex(str(e.exception), "^" + self.url.replace(".", r"\.") + said)
                self.assertNotIn("SECRET", str(e.exception))
        for status, said in ((404, "no such object"), (403, "access denied")):
            with self.subTest(fault=status):
                self.srv.reset()
                self.srv.fault(kind="status", status=status, count=-1)
                with self.assertRaises(sqlite3.Error) as e:
                    table(self.url + "?sv=1&sig=SECRET&n=%d" % status)
                self.assertIn(self.url + ": bytes 0-%d: HTTP %d: %s" % (HEAD - 1, status, said), str(e.exception))
                self.assertNotIn("SECRET", str(e.exception))
        con.close()


if __name__ == "__main__":
    NTIDX, EXT = sys.argv[1:3]
    del sys.argv[1:3]
    unittest.main(verbosity=2)
