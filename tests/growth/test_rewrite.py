#!/usr/bin/env python3
"""A trace rewritten in place after it was indexed is never answered from the stale index.

  test_rewrite.py NTIDX GROW_WRITER INDEX_PROBE

What tests/test_query.c and tests/cli_test.py already cover: a byte changed in
the first MiB (with the modification time it gets). Added here, each time with
the trace's modification time put back to what it was (os.utime, as `touch -d`
or `cp --preserve=timestamps` over it would), so that size and mtime match the
index:

  middle  the same trace, same size and layout, with the timestamps of one
          batch of events in the middle (after the first MiB, before the last
          block) one tick later: a stale index would skip a block the window
          needs;
  head    the same with a batch in the first MiB;
  tail    the same with the last batch (the last indexed block, the final
          sequence point, changes with it);
  same    the same bytes written again (nothing changed: rebuilding is
          allowed, the answers must not change);
plus, with its new modification time: shrunk, and grown after its end-of-stream
marker (a damaged trace since what follows the marker would go unread: every
command must say so, naming the marker's offset, and exit 1).

For each, INDEX_PROBE (ntidx_index_load()) must report NTIDX_E_INDEX_STALE
(except `same`), `ntidx query` must rebuild the index ("rebuilding the index"),
and its answers for one-tick windows at the latest timestamps of the changed
batch (where the block ranges of a stale index end one tick early) and for a
window over the whole batch must be exactly what `ntidx dump` of the rewritten
trace holds there.

Before index format 1.1 (which records the trace's status change time, st_ctim,
that any write moves and nothing can set back) `middle` was not detected and
answered wrongly from the stale index (`same` was not noticed either, which is
harmless).
"""
import json
import os
import subprocess
import sys
import tempfile

E_INDEX_STALE = -13
BATCHES, EVENTS = 120, 500
SHIFT = {"middle": 60, "head": 2, "tail": BATCHES - 1, "same": 60, "shrunk": 60, "grown": 60}


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def main():
    ntidx, writer, probe = sys.argv[1:4]
    failures = []
    with tempfile.TemporaryDirectory(prefix="ntidx-rewrite-") as d:
        orig = os.path.join(d, "orig.nettrace")
        run([writer, orig, str(BATCHES), str(EVENTS), "0", "-1"], check=True)
        a = read(orig)
        for case in ("middle", "head", "tail", "same", "shrunk", "grown"):
            shifted = os.path.join(d, "shifted.nettrace")
            run([writer, shifted, str(BATCHES), str(EVENTS), "0", str(SHIFT[case])], check=True)
            b = read(shifted)
            assert len(a) == len(b)
            diff = [i for i in range(len(a)) if a[i] != b[i]]
            where = {"middle": (1 << 20) < diff[0] and diff[-1] < len(a) - 5000, "head": diff[-1] < (1 << 20),
                     "tail": diff[-1] >= len(a) - 64}
            assert where.get(case, True), "%s: the shifted batch lies at [%d, %d]" % (case, diff[0], diff[-1])
            trace = os.path.join(d, case + ".nettrace")
            write(trace, a)
            st = os.stat(trace)
            p = run([ntidx, "index", trace])
            assert p.returncode == 0, p.stderr
            info = json.loads(run([probe, trace, trace + ".ntidx"]).stdout)
            assert info["rc"] == 0 and info["state"] == 0, info
            keep_mtime = case in ("middle", "head", "tail", "same")
            with open(trace, "r+b") as f:
                if case in ("middle", "head", "tail"):
                    f.seek(diff[0])
                    f.write(b[diff[0]: diff[-1] + 1])
                elif case == "same":
                    f.write(a)
                elif case == "shrunk":
                    f.truncate(len(a) - 1000)
                elif case == "grown":
                    f.seek(0, 2)
                    f.write(a[-4096:])
            if keep_mtime:
                os.utime(trace, ns=(st.st_atime_ns, st.st_mtime_ns))
                now = os.stat(trace)
                assert (now.st_size, now.st_mtime_ns) == (st.st_size, st.st_mtime_ns)
            info = json.loads(run([probe, trace, trace + ".ntidx"]).stdout)
            detected = info["rc"] == E_INDEX_STALE
            # windows over the changed events: each one-tick window at the shifted batch's latest timestamps
            # (a stale index's block ranges end a tick early there), and one over the whole batch
            dp = run([ntidx, "dump", trace, "--format", "jsonl"])
            if case == "grown":  # damaged: no answer, but an error naming the end-of-stream marker's offset
                eos = "offset %d " % (len(a) - 4)  # GROW_WRITER writes V6: the end-of-stream block is 4 bytes
                q = run([ntidx, "query", trace, "--from", "0", "--to", "1s"])
                correct = all(p.returncode == 1 and eos in p.stderr and "end-of-stream" in p.stderr for p in (dp, q))
                rebuilt = "rebuilding the index" in q.stderr
                print("%-6s: index load %s; ntidx query %s, %s" %
                      (case, "STALE: " + info["error"].split(": ", 1)[-1] if detected else "rc %d state %d" %
                       (info["rc"], info["state"]), "rebuilt the index" if rebuilt else "used the old index",
                       "damage reported" if correct else "DAMAGE NOT REPORTED: " + dp.stderr + q.stderr), flush=True)
                if not correct:
                    failures.append("%s: the damaged trace was not reported" % case)
                if not (detected and rebuilt):
                    failures.append("%s: the rewrite was not detected" % case)
                continue
            events = [json.loads(l) for l in dp.stdout.splitlines()]
            batch = events[SHIFT[case] * EVENTS: (SHIFT[case] + 1) * EVENTS] or events
            tops = sorted({e["ts"] for e in batch})[-8:]
            windows = [(t, t + 1) for t in tops] + [(min(tops) - 1000, max(tops) + 2)]
            correct, rebuilt, total = True, False, 0
            for lo, hi in windows:
                want = sorted((e for e in events if lo <= e["ts"] < hi), key=lambda e: (e["ts"], e["offset"]))
                q = run([ntidx, "query", trace, "--from", str(lo), "--to", str(hi), "--format", "jsonl"])
                got = [json.loads(l) for l in q.stdout.splitlines()]
                correct = correct and q.returncode == 0 and got == want
                rebuilt = rebuilt or "rebuilding the index" in q.stderr
                total += len(want)
            print("%-6s: index load %s; ntidx query %s, %s" %
                  (case, "STALE: " + info["error"].split(": ", 1)[-1] if detected else "rc %d state %d" %
                   (info["rc"], info["state"]), "rebuilt the index" if rebuilt else "used the old index",
                   "answers correct" if correct else "WRONG ANSWERS"), flush=True)
            if not correct:
                failures.append("%s: the query's answer differs from the trace's events" % case)
            if case != "same" and not (detected and rebuilt):
                failures.append("%s: the rewrite was not detected" % case)
    for f in failures:
        print("FAIL: " + f, file=sys.stderr)
    return 1 if failures else 0


def read(p):
    with open(p, "rb") as f:
        return f.read()


def write(p, data):
    with open(p, "wb") as f:
        f.write(data)


if __name__ == "__main__":
    sys.exit(main())
