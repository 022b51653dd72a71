#!/usr/bin/env python3
"""Traces behind HTTP and in Azurite through every door: the command's info, stats, query, seek, top, slice,
export and sql, and ntidx.open() in Python, give byte for byte what the same trace on disk gives (a real
trace and a generated one); the requests a query costs once the index is cached; the index uploaded beside
the trace (ntidx index URL --upload) and found there by a machine without it; faults as the command says
them.

Usage: cli_remote_test.py NTIDX TRACES_DIR SOURCE_ROOT [azure]
  (azure: the same against Azurite instead of range_server.py; Python's ntidx when PYTHONPATH finds it)
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
from remote_common import HEAD, HEAD_RANGE, Azurite, HttpServer  # noqa: E402

NTIDX = TRACES = ROOT = None
AZURE = False
REAL = "eventpipe-dotnetcore3.0-win-x64-objver4.nettrace"


def run(args, env, check=True):
    p = subprocess.run([NTIDX] + args, capture_output=True, env=env, timeout=300)
    if check and p.returncode != 0:
        raise AssertionError("ntidx %s failed (%d): %s" % (" ".join(args), p.returncode, p.stderr.decode()))
    return p


class Remote(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.mkdtemp(prefix="ntidx-cli-remote-")
        cls.az = cls.srv = None
        try:
            cls.srvdir = os.path.join(cls.dir, "srv")
            os.mkdir(cls.srvdir)
            shutil.copyfile(os.path.join(TRACES, REAL), os.path.join(cls.srvdir, "real.nettrace"))
            subprocess.run([NTIDX, "gen", "-o", os.path.join(cls.srvdir, "gen.nettrace"), "--size", "6M", "--seed",
                            "27", "--quiet"], check=True)
            cls.local = {n: os.path.join(cls.srvdir, n) for n in ("real.nettrace", "gen.nettrace")}
            cls.env = dict(os.environ, NTIDX_HTTP_RETRY_MS="5", NTIDX_INDEX_DIR=os.path.join(cls.dir, "idx"))
            if AZURE:
                cls.az = Azurite(ROOT)
                cls.az.create_container("traces")
                for n, p in cls.local.items():
                    with open(p, "rb") as f:
                        cls.az.put_blob("traces", n, f.read())
                cls.env["AZURE_STORAGE_CONNECTION_STRING"] = cls.az.conn
                cls.url = {n: "az://traces/" + n for n in cls.local}
            else:
                cls.srv = HttpServer(cls.srvdir)
                cls.url = {n: cls.srv.base + "/" + n for n in cls.local}
            # local indexes in their own folder: the local runs must not be the remote runs' index; both --full,
            # so that what the answers take from the index (stats' regions_from_index) is the same
            cls.lenv = dict(cls.env, NTIDX_INDEX_DIR=os.path.join(cls.dir, "lidx"))
            for n in cls.local:
                run(["index", cls.url[n], "--full", "--quiet"], cls.env)
                run(["index", cls.local[n], "--full", "--quiet"], cls.lenv)
        except BaseException:  # tearDownClass does not run when this fails: stop the servers here
            cls.tearDownClass()
            raise

    @classmethod
    def tearDownClass(cls):
        if cls.srv:
            cls.srv.close()
        if cls.az:
            cls.az.close()
        shutil.rmtree(cls.dir, ignore_errors=True)

    def same(self, args, name, drop_first_line=False, out_file=None):
        """`ntidx ARGS` on the URL and on the file: the same output."""
        outs = []
        for trace, env in ((self.url[name], self.env), (self.local[name], self.lenv)):
            a = [x.replace("TRACE", trace) for x in args]
            if out_file:
                out = os.path.join(self.dir, "out-%d" % len(outs))
                a += ["-o", out]
            p = run(a, env)
            if out_file:
                with open(out, "rb") as f:
                    outs.append(f.read().replace(trace.encode(), b"TRACE"))  # export names its trace
            else:
                text = p.stdout
                if drop_first_line:  # "file: NAME" names what was opened
                    text = text.split(b"\n", 1)[1]
                outs.append(text.replace(trace.encode(), b"TRACE"))
        self.assertEqual(outs[0], outs[1], "ntidx %s differs on %s" % (" ".join(args), name))
        self.assertTrue(outs[0])
        return outs[0]

    def test_every_command_answers_as_on_disk(self):
        for name in self.local:
            with self.subTest(trace=name):
                self.same(["info", "TRACE"], name, drop_first_line=True)
                self.same(["stats", "TRACE"], name, drop_first_line=True)
                self.same(["stats", "TRACE", "--json"], name)
                self.same(["query", "TRACE", "--from", "40ms", "--to", "50ms", "--format", "jsonl"], name)
                self.same(["query", "TRACE", "--format", "csv", "--limit", "3000"], name)
                self.same(["seek", "TRACE", "--at", "45ms", "--format", "jsonl"], name)
                self.same(["top", "TRACE"], name)
                self.same(["slice", "TRACE", "--from", "10ms", "--to", "200ms"], name, out_file=True)
                self.same(["export", "TRACE", "--from", "10ms", "--to", "300ms", "--format", "chrome"], name,
                          out_file=True)
                self.same(["sql", "TRACE", "select event_name, count(*), sum(length(fields)), sum(offset) from events group by 1 order by 1"], name)

    def test_python_open(self):
        try:
            import ntidx  # noqa: F401
        except ImportError as e:  # the meson test sets PYTHONPATH: a missing module is a broken set-up, not a skip
            self.fail("the Python module does not import (%s): build it for /usr/bin/python3 (tools/setup-deps.sh "
                      "installs python3-dev)" % e)
        code = ("import ntidx, os, sys, json\n"
                "t = ntidx.open(sys.argv[1])\n"
                "print(json.dumps(t.stats(), sort_keys=True, default=str))\n"
                "print(sum(1 for _ in t.query(start='40ms', end='50ms')))\n"
                "print(t.seek('45ms'))\n")
        outs = []
        for trace, env in ((self.url["real.nettrace"], self.env), (self.local["real.nettrace"], self.lenv)):
            p = subprocess.run([sys.executable, "-c", code, trace], capture_output=True, env=env, timeout=300)
            self.assertEqual(p.returncode, 0, p.stderr.decode())
            outs.append(p.stdout.replace(trace.encode(), b"TRACE"))
        self.assertEqual(outs[0], outs[1])


class RemoteAzureOnly(Remote):
    """ntidx.dask over traces in Azurite: the workers have no shared filesystem, only URLs."""

    def test_dask_stats_of_four_traces_on_two_workers(self):
        try:
            import ntidx  # noqa: F401
            import distributed  # noqa: F401
        except ImportError as e:  # a missing piece fails the test, naming it: tools/setup-deps.sh installs both
            self.fail("the Python module or distributed does not import (%s): run tools/setup-deps.sh" % e)
        # four traces: the two, and two more generated ones
        names = list(self.local)
        for seed in (1, 2):
            n = "gen%d.nettrace" % seed
            p = os.path.join(self.srvdir, n)
            subprocess.run([NTIDX, "gen", "-o", p, "--size", "2M", "--seed", str(seed), "--quiet"], check=True)
            with open(p, "rb") as f:
                self.az.put_blob("traces", n, f.read())
            names.append(n)
        code = ("import json, sys, ntidx, ntidx.dask\n"
                "from distributed import Client, LocalCluster\n"
                "if __name__ == '__main__':\n"
                "    urls = sys.argv[1:5]; paths = sys.argv[5:9]\n"
                "    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as c,"
                " Client(c) as client:\n"
                "        got = ntidx.dask.stats(urls, client=client, partition_bytes=256 << 10)\n"
                "    want = ntidx.dask.stats(paths, partition_bytes=1 << 20)\n"
                "    def norm(d, name):  # how an answer was computed (regions from a --full index) is not the answer\n"
                "        d = {k: v for k, v in d.items() if k != 'regions_from_index'}\n"
                "        return json.dumps(d, sort_keys=True, default=str).replace(name, 'T')\n"
                "    assert norm(got['total'], '') == norm(want['total'], ''), (got['total'], want['total'])\n"
                "    for u, p in zip(urls, paths):\n"
                "        a, b = norm(got['traces'][u], u), norm(want['traces'][p], p)\n"
                "        assert a == b, (u, [k for k in got['traces'][u] if got['traces'][u][k] != want['traces'][p].get(k)])\n"
                "    print('equal', len(urls))\n")
        script = os.path.join(self.dir, "dask_remote.py")
        with open(script, "w") as f:
            f.write(code)
        p = subprocess.run([sys.executable, script] + ["az://traces/" + n for n in names] +
                           [os.path.join(self.srvdir, n) for n in names], capture_output=True, env=self.env,
                           timeout=600)
        self.assertEqual(p.returncode, 0, p.stderr.decode()[-3000:])
        self.assertIn(b"equal 4", p.stdout)


class RemoteHttpOnly(Remote):
    """What needs the range server's request log and fault injector."""

    def test_libcurl_is_loaded_with_the_first_url_only(self):
        # a command on a local trace starts without libcurl's thirty shared objects (src/format/curl_load.c);
        # the dynamic loader's own log (LD_DEBUG=libs) says which objects a process initialises
        env = dict(self.env, LD_DEBUG="libs")
        local = run(["info", self.local["gen.nettrace"]], env).stderr.decode(errors="replace")
        remote = run(["info", self.url["gen.nettrace"]], env).stderr.decode(errors="replace")
        self.assertIn("calling init", local)  # the log is there: the loader writes it on this system
        self.assertNotIn("libcurl", local)
        self.assertRegex(remote, r"calling init: \S*libcurl")

    def test_a_cached_index_makes_a_window_few_requests(self):
        for name in self.local:
            url = self.url[name]
            run(["index", url], self.env)
            self.srv.reset()
            run(["query", url, "--from", "40ms", "--to", "50ms"], self.env)
            log = self.srv.log()
            size = os.path.getsize(self.local[name])
            with self.subTest(trace=name):
                # the header, what the window's region needs (its definitions and blocks): never the trace
                self.assertLessEqual(len(log), 3, log)
                self.assertLess(sum(r["bytes"] for r in log), size / 2)

    def test_a_window_and_a_seek_are_three_requests_at_most(self):
        # windows and seeks at times spread over traces of many regions, the index cached: the trace's head,
        # then what the plan needs (the region's definitions, its stacks, the window's blocks, the sequence point
        # after them: apart in the file) asked for together; a V4 trace's open also walks its first metadata
        # blocks (format_version: V4 or V5), one request more
        many, srv = self.srvdir, self.srv  # (range_server.py serves one folder per process: this one)
        try:
            subprocess.run([NTIDX, "gen", "-o", os.path.join(many, "many.nettrace"), "--size", "32M", "--seed", "5",
                            "--quiet"], check=True)
            for name in ("many.nettrace", "real.nettrace"):
                url = srv.base + "/" + name
                built = json.loads(run(["index", url, "--json", "--quiet"], self.env).stdout)
                self.assertGreaterEqual(built["regions"], 10)
                dur_ms = 1000 * float(json.loads(run(["info", url, "--json"], self.env).stdout)["duration_s"])
                size = os.path.getsize(os.path.join(many, name))
                for i in range(8):
                    t = (i + 0.5) * (dur_ms - 10) / 8
                    for args in (["query", url, "--from", "%.3fms" % t, "--to", "%.3fms" % (t + 10)],
                                 ["seek", url, "--at", "%.3fms" % t]):
                        srv.reset()
                        run(args, self.env)
                        log = srv.log()
                        with self.subTest(trace=name, cmd=args[0], at=t):
                            self.assertLessEqual(len(log), 3, log)
                            # the head (64 KiB), a V4 open's walk (512 KiB), the plan's first MiB, units of 64 KiB
                            self.assertLessEqual(sum(r["bytes"] for r in log), min(2 << 20, size / 2))
        finally:
            if os.path.exists(os.path.join(many, "many.nettrace")):
                os.unlink(os.path.join(many, "many.nettrace"))

    def test_a_cpu_window_reads_the_saved_symbol_table_not_the_trace(self):
        # naming a window's frames needs the method events of the whole trace: the first symbolizer of the
        # trace reads them (over HTTP: most of the trace) and saves its table beside the index in the index
        # directory (docs/symbol-cache.md); the next window maps the table and reads only what it needs
        url, name = self.url["real.nettrace"], "real.nettrace"
        args = ["cpu", "TRACE", "--from", "2s", "--to", "2500ms", "--format", "jsonl"]
        for f in os.listdir(os.path.join(self.dir, "idx")):
            if f.endswith(".sym"):
                os.unlink(os.path.join(self.dir, "idx", f))
        reads = []
        for _ in range(2):
            self.srv.reset()
            out = self.same(args, name)
            reads.append(sum(r["bytes"] for r in self.srv.log()))
        self.assertTrue(any(f.endswith(".ntidx.sym") for f in os.listdir(os.path.join(self.dir, "idx"))))
        print("cpu window over HTTP: %d bytes read, then %d" % tuple(reads), file=sys.stderr)
        self.assertLess(reads[1], reads[0] / 2, "the second reads its window, its frames named from the saved table")
        self.assertIn(b'"method"', out)
        # and the table named the frames as the trace does (NTIDX_SYMBOL_CACHE=0: made from the events)
        p = run([a.replace("TRACE", url) for a in args], dict(self.env, NTIDX_SYMBOL_CACHE="0"))
        self.assertEqual(p.stdout.replace(url.encode(), b"TRACE"), out)

    def test_parallel_stats_read_each_byte_once(self):
        # a whole-trace stats of a trace of many regions, indexed (not --full: the regions are read), on two
        # threads: each work unit primes its first region with definitions that another unit's region holds;
        # those are kept rather than released, and a unit's release never reaches back over the regions between
        # (another thread's, still to be read): every byte of the object is asked for once. Rarely a run asks for
        # a few ranges again (a fault served after its reader, woken by the hint's request, released the unit;
        # without userfaultfd on a loaded machine, up to 9%): the median of three runs is held to 1% more at
        # most, each run to the answer. Without the kept definitions: 5-20% more in five runs of six.
        many, srv = self.srvdir, self.srv
        path = os.path.join(many, "stream.nettrace")
        try:
            subprocess.run([NTIDX, "gen", "-o", path, "--size", "32M", "--seed", "5", "--quiet"], check=True)
            url, size = srv.base + "/stream.nettrace", os.path.getsize(path)
            self.assertGreaterEqual(json.loads(run(["index", url, "--json", "--quiet"], self.env).stdout)["regions"], 8)
            want = run(["stats", path, "--no-index"], self.lenv).stdout.split(b"\n", 1)[1]
            asked = []
            for attempt in range(3):
                srv.reset()
                got = run(["stats", url, "--threads", "2"], self.env).stdout.split(b"\n", 1)[1]
                log = srv.log()
                self.assertEqual(got, want)
                asked.append((sum(r["bytes"] for r in log), [r["range"] for r in log]))
                self.assertGreaterEqual(asked[-1][0], size)
            asked.sort()
            self.assertLessEqual(asked[1][0], size * 1.01, asked[1][1])
        finally:
            if os.path.exists(path):
                os.unlink(path)

    def test_sql_opens_a_url_once_per_connection(self):
        # the statements of one connection, and the subquery of one, read the trace opened once (its head asked
        # for once), not once per statement and table: a URL has no stat() to say it is unchanged; its source
        # pinned its version when it was opened
        url = self.url["real.nettrace"]
        q = "select count(*) from events where ts < (select min(ts) from events) + 100000"
        self.srv.reset()
        p = run(["sql", url, "%s; %s; select count(*) from regions" % (q, q)], self.env)
        heads = [r for r in self.srv.log() if r["range"] == HEAD_RANGE]
        self.assertEqual(len(heads), 1, self.srv.log())
        local = run(["sql", self.local["real.nettrace"], "%s; %s; select count(*) from regions" % (q, q)], self.lenv)
        self.assertEqual(p.stdout, local.stdout)

    def test_a_server_that_takes_one_range_a_request(self):
        # a server that answers a request of several ranges with the first only: the ranges asked for one by one
        # from then on, the same answers
        url = self.url["gen.nettrace"]
        run(["index", url], self.env)
        self.srv.reset()
        self.srv.fault(kind="nomulti", count=-1)
        # (a window whose blocks lie apart, past the open's request: several ranges for one request)
        self.same(["query", "TRACE", "--from", "600ms", "--to", "610ms", "--format", "jsonl"], "gen.nettrace")
        log = self.srv.log()
        self.srv.reset()
        self.assertTrue(any("," in (r["range"] or "") for r in log), log)  # asked once together, then alone
        self.assertGreater(len(log), 3, log)

    def test_a_multipart_answer_that_lies_is_not_trusted(self):
        # a part that claims more bytes than the body holds: the ranges asked for again one by one, never a part
        # read past the body, the same answers
        url = self.url["gen.nettrace"]
        run(["index", url], self.env)
        self.srv.reset()
        self.srv.fault(kind="badmulti", count=-1)
        self.same(["query", "TRACE", "--from", "600ms", "--to", "610ms", "--format", "jsonl"], "gen.nettrace")
        log = self.srv.log()
        self.srv.reset()
        multi = [r for r in log if "," in (r["range"] or "")]
        self.assertEqual(len(multi), 1, log)  # once: then the server is asked one range a request
        self.assertGreater(len(log), 3, log)

    def test_upload_then_a_machine_without_the_index_finds_it(self):
        url = self.url["gen.nettrace"]
        run(["index", url, "--upload"], self.env)
        beside = os.path.join(self.srvdir, "gen.nettrace.ntidx")
        self.assertTrue(os.path.exists(beside))
        fresh = dict(self.env, NTIDX_INDEX_DIR=os.path.join(self.dir, "fresh-idx"))
        self.srv.reset()
        p = run(["query", url, "--from", "40ms", "--to", "50ms", "--format", "jsonl"], fresh)
        log = self.srv.log()
        self.assertIn("/gen.nettrace.ntidx", [r["path"] for r in log])
        self.assertLess(sum(r["bytes"] for r in log if r["path"] == "/gen.nettrace"),
                        os.path.getsize(self.local["gen.nettrace"]) / 2)  # not built again: not read whole
        self.assertNotIn(b"indexing", p.stderr)
        os.unlink(beside)

    def test_upload_refuses_a_local_trace(self):
        p = run(["index", self.local["gen.nettrace"], "--upload"], self.env, check=False)
        self.assertEqual(p.returncode, 2)
        self.assertIn(b"is not a URL", p.stderr)

    def test_faults_from_the_command(self):
        url = self.url["real.nettrace"]
        run(["index", url], self.env)
        self.srv.reset()
        self.srv.fault(kind="status", status=503, count=2)
        self.same(["query", "TRACE", "--from", "40ms", "--to", "50ms"], "real.nettrace")
        self.srv.reset()
        p = run(["info", self.srv.base + "/missing.nettrace?sv=1&sig=SECRET"], self.env, check=False)
        self.assertEqual(p.returncode, 1)
        err = p.stderr.decode()
        self.assertIn(self.srv.base + "/missing.nettrace: bytes 0-%d: HTTP 404: no such object" % (HEAD - 1), err)
        self.assertNotIn("SECRET", err)
        self.srv.fault(kind="delay", ms=0, count=1)
        self.srv.fault(kind="status", status=500, count=-1)
        # (a pass over the whole trace: with its index, a stats of this trace reads nothing past the open's request)
        p = run(["stats", url, "--no-index"], self.env, check=False)
        self.assertEqual(p.returncode, 1, (p.stdout, p.stderr, self.srv.log()))
        self.assertRegex(p.stderr.decode(), re.escape(url) + r": .*HTTP 500")
        self.srv.reset()


if __name__ == "__main__":
    NTIDX, TRACES, ROOT = sys.argv[1:4]
    AZURE = len(sys.argv) > 4 and sys.argv[4] == "azure"
    del sys.argv[1:5 if AZURE else 4]
    if AZURE:  # the generic doors only (the fault injector is range_server.py's)
        unittest.main(defaultTest="RemoteAzureOnly", verbosity=2)
    else:
        unittest.main(defaultTest="RemoteHttpOnly", verbosity=2)
