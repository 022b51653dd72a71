#!/usr/bin/env python3
"""A trace that grows while it is indexed and queried.

  test_growth.py NTIDX GROW_WRITER INDEX_PROBE [--batches N] [--events N] [--sleep-ms N]

GROW_WRITER appends a V6 trace block by block (flushing each batch, sleeping
briefly, no end-of-stream marker until the end; it crosses the 1 MiB the index
identity hashes). Meanwhile two loops run side by side until it has finished:

  - the index loop: `ntidx index TRACE` again and again. Once an index exists,
    the trace either has not moved ("up to date") or grew ("grew: indexing the
    new blocks"); it is never rebuilt. The index it leaves loads
    (ntidx_index_load() through INDEX_PROBE) as CURRENT or GROWN, never
    corrupt or stale.
  - the query loop: snapshot copy A of the trace, `ntidx query TRACE --from 0
    --to MAX --order file --format jsonl`, snapshot copy B. `ntidx dump` of A
    (which reads A's complete blocks) must be a prefix of the query's output,
    and the query's output a prefix of the dump of B: a query sees every event
    that was complete when it ran, and nothing else. The query extends the
    index too, so two processes extend and replace the same index file
    concurrently.

At the end the index, extended step by step, equals byte for byte one built
from scratch (`ntidx index TRACE -o fresh`), and no temporary file is left.
"""
import argparse
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time

MAX = str(2**64 - 1)


class Failure(Exception):
    pass


def check(cond, msg):
    if not cond:
        raise Failure(msg)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("ntidx")
    ap.add_argument("writer")
    ap.add_argument("probe")
    ap.add_argument("--batches", type=int, default=120)
    ap.add_argument("--events", type=int, default=500)
    ap.add_argument("--sleep-ms", type=int, default=25)
    a = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="ntidx-growth-") as d:
        return run(a, d)


def run(a, d):
    trace = os.path.join(d, "live.nettrace")
    index = trace + ".ntidx"
    w = subprocess.Popen([a.writer, trace, str(a.batches), str(a.events), str(a.sleep_ms)],
                         stdout=subprocess.PIPE, text=True)
    first = w.stdout.readline()  # the first batch is on disk
    check(first.strip(), "the writer wrote nothing")
    done = threading.Event()
    errors = []
    stats = {"index_runs": 0, "grew": 0, "up_to_date": 0, "built": 0, "queries": 0, "query_events": 0,
             "probe_grown": 0, "probe_current": 0, "max_query_events": 0}
    lock = threading.Lock()

    def note(k, n=1):
        with lock:
            stats[k] += n

    def index_loop():
        try:
            last = False
            while not last:
                last = done.is_set()  # one more run after the writer has finished
                p = subprocess.run([a.ntidx, "index", trace], capture_output=True, text=True)
                check(p.returncode == 0, "ntidx index failed: %s" % p.stderr)
                check("rebuilding" not in p.stderr, "a growing trace's index was rebuilt: %s" % p.stderr)
                check("could not be saved" not in p.stderr and "cannot write" not in p.stderr,
                      "the index could not be saved: %s" % p.stderr)
                note("index_runs")
                if "grew: indexing the new blocks" in p.stderr:
                    note("grew")
                    check(": extended in" in p.stdout, p.stdout)
                elif ": built in" in p.stdout:
                    note("built")
                else:
                    check(": up to date in" in p.stdout, "unexpected ntidx index output: %s %s" % (p.stdout, p.stderr))
                    note("up_to_date")
                pr = json.loads(subprocess.run([a.probe, trace, index], capture_output=True, text=True,
                                               check=True).stdout)
                check(pr["rc"] == 0, "the index does not load: %s" % pr)
                note("probe_grown" if pr["state"] == 1 else "probe_current")
                time.sleep(0.01)
        except Exception as e:  # noqa: BLE001 - reported by the main thread
            errors.append(e)

    def dump(path):
        p = subprocess.run([a.ntidx, "dump", path, "--order", "file", "--format", "jsonl"], capture_output=True,
                           text=True)
        check(p.returncode == 0, "dump failed: %s" % p.stderr)
        return p.stdout.splitlines()

    def query_loop():
        try:
            k = 0
            last = False
            while not last:
                last = done.is_set()
                snap_a = os.path.join(d, "snap-a-%d.nettrace" % k)
                snap_b = os.path.join(d, "snap-b-%d.nettrace" % k)
                shutil.copyfile(trace, snap_a)
                p = subprocess.run([a.ntidx, "query", trace, "--from", "0", "--to", MAX, "--order", "file",
                                    "--format", "jsonl"], capture_output=True, text=True)
                shutil.copyfile(trace, snap_b)
                check(p.returncode == 0, "query failed: %s" % p.stderr)
                check("rebuilding" not in p.stderr, "a growing trace's index was rebuilt: %s" % p.stderr)
                got = p.stdout.splitlines()
                before, after = dump(snap_a), dump(snap_b)
                check(got[: len(before)] == before,
                      "query %d missed events that were complete when it started (%d events, %d before)" %
                      (k, len(got), len(before)))
                check(after[: len(got)] == got, "query %d returned events that are not in the trace (%d, %d after)" %
                      (k, len(got), len(after)))
                note("queries")
                note("query_events", len(got))
                with lock:
                    stats["max_query_events"] = max(stats["max_query_events"], len(got))
                os.unlink(snap_a)
                os.unlink(snap_b)
                k += 1
        except Exception as e:  # noqa: BLE001
            errors.append(e)

    threads = [threading.Thread(target=index_loop), threading.Thread(target=query_loop)]
    for t in threads:
        t.start()
    for line in w.stdout:
        if errors:
            break
    w.wait()
    done.set()
    for t in threads:
        t.join()
    if errors:
        w.kill()
        raise errors[0]
    check(w.returncode == 0, "the writer failed")
    # the end: complete trace, extended index == fresh index, byte for byte
    p = subprocess.run([a.ntidx, "index", trace], capture_output=True, text=True, check=True)
    fresh = os.path.join(d, "fresh.ntidx")
    subprocess.run([a.ntidx, "index", trace, "-o", fresh], capture_output=True, check=True)
    with open(index, "rb") as f1, open(fresh, "rb") as f2:
        check(f1.read() == f2.read(), "the extended index differs from one built from scratch")
    final = subprocess.run([a.ntidx, "query", trace, "--from", "0", "--to", MAX, "--order", "file", "--format",
                            "jsonl"], capture_output=True, text=True, check=True).stdout.splitlines()
    full = dump(trace)
    check(final == full and len(full) == a.batches * a.events, "the final query differs from the dump")
    left = glob.glob(glob.escape(index) + ".tmp.*")
    check(not left, "temporaries left: %s" % left)
    print("trace %d bytes, %d events; %s" % (os.path.getsize(trace), len(full), stats))
    check(stats["grew"] >= 3, "the index was extended only %d times" % stats["grew"])
    check(stats["queries"] >= 3, "only %d queries ran while the trace grew" % stats["queries"])
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except Failure as e:
        print("FAIL: %s" % e, file=sys.stderr)
        sys.exit(1)
