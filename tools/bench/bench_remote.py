#!/usr/bin/env python3
"""Remote-trace benchmark (prints figures, asserts nothing): what a query of a trace behind HTTP costs in
requests, bytes and time, over loopback and with latency added to every round trip by a proxy.

A copy of TRACE is served by tests/remote/range_server.py (its request log gives the requests and bytes);
the index lives in a temporary NTIDX_INDEX_DIR. In one run:
  - `curl` downloading the whole trace (the base of the rate ratio);
  - `ntidx index URL` (a streaming pass; a remote trace's index is named after its URL, ETag and size, so the
    proxy's URL gets its own, built before its runs, untimed);
  - `ntidx query` of 10 ms windows at random times, `ntidx seek` at random times: requests, bytes and
    wall time of the whole process, median and worst;
  - `ntidx stats URL` of the whole trace: its rate against curl's, each timed REPEAT times in turn with curl (the
    medians); with --base OTHER_NTIDX, that build's stats too, in the same turns (before/after in one run);
    with --nginx, the same again with the trace served by nginx (Debian's, tools/setup-deps.sh): range_server.py
    is Python and takes a core's share from ntidx where curl takes almost none, nginx sends the file with
    sendfile() (no request log there: requests and bytes are range_server.py's);
  - the queries and seeks again through tests/remote/latency_proxy.py adding nothing (the proxy's own cost) and
    adding LATENCY ms per round trip, each window the three ways in turn; per window, the time beyond the same
    window's over loopback, against the target of at most 3 x LATENCY ms.

usage: bench_remote.py NTIDX TRACE [--windows N] [--latency MS] [--seed S] [--repeat N] [--base NTIDX] [--nginx]
"""
import argparse
import json
import os
import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "tests", "remote"))
import latency_proxy  # noqa: E402
import range_server  # noqa: E402


def log_reset(base):
    urllib.request.urlopen(urllib.request.Request(base + "/_ctl/reset", method="POST", data=b"")).read()


def log_get(base):
    with urllib.request.urlopen(base + "/_ctl/log") as r:
        return json.loads(r.read())


def timed(base, cmd, env):
    """Run cmd; (seconds, requests, bytes, stdout) from the server's log."""
    log_reset(base)
    t0 = time.monotonic()
    p = subprocess.run(cmd, capture_output=True, env=env)
    dt = time.monotonic() - t0
    if p.returncode != 0:
        sys.exit("%s failed: %s" % (" ".join(cmd), p.stderr.decode(errors="replace")))
    log = log_get(base)
    return dt, len(log), sum(r["bytes"] for r in log), p.stdout


NGINX_CONF = """daemon off;
master_process off;
worker_processes 1;
pid %(dir)s/nginx.pid;
error_log %(dir)s/error.log;
events { worker_connections 64; }
http {
  access_log off;
  sendfile on;
  tcp_nopush on;
  client_body_temp_path %(dir)s/body;
  proxy_temp_path %(dir)s/proxy;
  fastcgi_temp_path %(dir)s/fastcgi;
  uwsgi_temp_path %(dir)s/uwsgi;
  scgi_temp_path %(dir)s/scgi;
  server { listen 127.0.0.1:%(port)d; root %(root)s; }
}
"""


def start_nginx(root, tmp):
    """nginx serving `root` on a loopback port, one process (no master, nothing to drop privileges to): (process,
    port). Ranges, several in one request, ETag and If-Match are nginx's own."""
    exe = shutil.which("nginx") or ("/usr/sbin/nginx" if os.access("/usr/sbin/nginx", os.X_OK) else None)
    if not exe:
        sys.exit("--nginx: no nginx (tools/setup-deps.sh installs Debian's)")
    with socket.socket() as so:
        so.bind(("127.0.0.1", 0))
        port = so.getsockname()[1]
    d = os.path.join(tmp, "nginx")
    os.makedirs(d)
    with open(os.path.join(d, "nginx.conf"), "w") as f:
        f.write(NGINX_CONF % {"dir": d, "port": port, "root": root})
    p = subprocess.Popen([exe, "-p", d, "-c", os.path.join(d, "nginx.conf"), "-e", os.path.join(d, "error.log")],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(200):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return p, port
        except OSError:
            if p.poll() is not None:
                break
            time.sleep(0.02)
    p.kill()
    sys.exit("--nginx: nginx did not start (%s)" % os.path.join(d, "error.log"))


def wall(cmd, env):
    t0 = time.monotonic()
    p = subprocess.run(cmd, capture_output=True, env=env)
    dt = time.monotonic() - t0
    if p.returncode != 0:
        sys.exit("%s failed: %s" % (" ".join(cmd), p.stderr.decode(errors="replace")))
    return dt


def stats_vs_curl(label, url, size, builds, repeat, env, base=None):
    """A whole-trace `stats URL` of each build against `curl URL`, in turns (the machine's load, which varies from
    second to second, weighs on each alike), the index built first: each one's median time and its rate against
    curl's; with range_server.py (base: its URL), the requests and bytes of the last run of each."""
    for name, exe in builds:
        subprocess.run([exe, "index", url, "--quiet"], env=env, check=True, capture_output=True)
    times = {name: [] for name, _ in builds + [("curl", None)]}
    asked = {}
    for _ in range(repeat):
        times["curl"].append(wall(["curl", "-sf", "-o", "/dev/null", url], env))
        for name, exe in builds:
            if base:
                log_reset(base)
            times[name].append(wall([exe, "stats", url, "--quiet"], env))
            if base:
                log = log_get(base)
                asked[name] = (len(log), sum(r["bytes"] for r in log))
    curl = statistics.median(times["curl"])
    print("%-44s %.1f ms (median of %d), %.1f MB/s" % ("curl (whole trace) " + label, 1000 * curl, repeat,
                                                        size / curl / 1e6))
    for name, _ in builds:
        t = statistics.median(times[name])
        more = ", %d requests, %d bytes (%.1f%% of the object)" % (asked[name][0], asked[name][1],
                                                                   100.0 * asked[name][1] / size) if name in asked else ""
        print("%-44s %.1f ms (median; %.1f-%.1f)%s, %.0f%% of curl's rate" % (
            "ntidx stats URL %s%s" % (label, " [" + name + "]" if len(builds) > 1 else ""), 1000 * t,
            1000 * min(times[name]), 1000 * max(times[name]), more, 100 * curl / t))


def summary(name, runs):
    secs = sorted(r[0] for r in runs)
    reqs = sorted(r[1] for r in runs)
    byts = sorted(r[2] for r in runs)
    print("%-34s n=%-3d requests median %d max %d | bytes median %d max %d | ms median %.1f max %.1f" % (
        name, len(runs), statistics.median(reqs), reqs[-1], statistics.median(byts), byts[-1],
        1000 * statistics.median(secs), 1000 * secs[-1]))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("ntidx")
    ap.add_argument("trace")
    ap.add_argument("--windows", type=int, default=20)
    ap.add_argument("--latency", type=float, default=20.0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=5, help="runs of curl and of each stats (medians)")
    ap.add_argument("--base", help="another ntidx (the build before a change): its stats timed in the same turns")
    ap.add_argument("--nginx", action="store_true", help="the stats against curl also with the trace served by nginx")
    a = ap.parse_args()
    builds = [("this", a.ntidx)] + ([("base", a.base)] if a.base else [])
    tmp = tempfile.mkdtemp(prefix="ntidx-bench-remote-")
    try:
        shutil.copyfile(a.trace, os.path.join(tmp, "t.nettrace"))
        size = os.path.getsize(os.path.join(tmp, "t.nettrace"))
        srv = range_server.serve(tmp)
        base = "http://127.0.0.1:%d" % srv.server_port
        env = dict(os.environ, NTIDX_INDEX_DIR=os.path.join(tmp, "idx"))
        url = base + "/t.nettrace"
        print("trace %s: %d bytes, served at %s" % (a.trace, size, url))

        dt, n, b, out = timed(base, [a.ntidx, "index", url, "--json", "--quiet"], env)
        print("%-34s %.1f ms, %d requests, %d bytes, %.1f MB/s" % ("ntidx index URL", 1000 * dt, n, b, size / dt / 1e6))
        _, _, _, out = timed(base, [a.ntidx, "info", url, "--json"], env)
        info = json.loads(out)
        dur_ms = float(info.get("duration_s", 0) or 0) * 1000
        stats_vs_curl("(range_server.py)", url, size, builds, a.repeat, env, base)
        if a.nginx:
            ngx, nport = start_nginx(tmp, tmp)
            try:
                stats_vs_curl("(nginx)", "http://127.0.0.1:%d/t.nettrace" % nport, size, builds, a.repeat, env)
            finally:
                ngx.terminate()
                ngx.wait()

        rnd = random.Random(a.seed)
        starts = [rnd.uniform(0, max(dur_ms - 10, 0)) for _ in range(a.windows)]

        # the same windows and seeks over loopback, through the proxy adding nothing (its own cost: relaying in
        # Python) and through it adding LATENCY ms, one after the other for each window, so that the machine's
        # load, which varies from second to second, weighs on the three alike
        pport0 = latency_proxy.start(srv.server_port, 0)
        pport = latency_proxy.start(srv.server_port, a.latency)
        ways = [(url, "(loopback)"), ("http://127.0.0.1:%d/t.nettrace" % pport0, "(proxy, +0 ms)"),
                ("http://127.0.0.1:%d/t.nettrace" % pport, "(+%g ms)" % a.latency)]
        for u, _ in ways:  # a remote trace's index is named after its URL, ETag and size: each its own, untimed
            subprocess.run([a.ntidx, "index", u, "--quiet"], env=env, check=True, capture_output=True)
        for what in ("query", "seek"):
            got = {label: [] for _, label in ways}
            for s in starts:
                for u, label in ways:
                    args = (["--from", "%.3fms" % s, "--to", "%.3fms" % (s + 10)] if what == "query"
                            else ["--at", "%.3fms" % s])
                    got[label].append(timed(base, [a.ntidx, what, u] + args + ["--quiet"], env))
            name = "query 10 ms window " if what == "query" else "seek "
            for _, label in ways:
                summary(name + label, got[label])
            # the target (issue 27): with LATENCY ms per round trip, a window takes at most 3 x LATENCY ms plus its
            # local time (the same window over loopback); per window, what it took beyond its local time
            local, far = got[ways[0][1]], got[ways[2][1]]
            over = sorted(1000 * (f[0] - l[0]) for f, l in zip(far, local))
            print("%-34s median %.1f ms, max %.1f ms beyond the local time (target: at most 3 x %g = %g ms); "
                  "%d of %d within" % ("  " + what + " +%g ms" % a.latency, statistics.median(over), over[-1],
                                       a.latency, 3 * a.latency,
                                       sum(1 for o in over if o <= 3 * a.latency), len(over)))
        srv.shutdown()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
