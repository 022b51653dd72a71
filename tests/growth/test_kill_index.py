#!/usr/bin/env python3
"""SIGKILL `ntidx index --full` at random moments; the index must never be broken.

  test_kill_index.py NTIDX INDEX_PROBE [--size 200M] [--kills 50] [--seed S] [--dir DIR]

A trace of --size bytes is generated (--full indexing of 200 MB takes about half
a second in a release build, several in a sanitizer build). Before each run the
index is put in one of three states: none, a plain index (so that --full
rebuilds it), or a valid --full index of another trace (stale: rebuilt too).
The run is killed with SIGKILL: for half of the kills after a random delay in
[0, 1.1 T], T the time of an uninterrupted build; for the other half while it
writes the index (as soon as its temporary file appears, plus a random delay of
up to 3 ms), the moment the atomic replace is about. After each kill, the index file (probed with
ntidx_index_load() through INDEX_PROBE) is either absent, byte for byte the
one that was there before, or byte for byte the index an uninterrupted build
writes; it never loads as NTIDX_E_INDEX_CORRUPT. The only other files are
TRACE.ntidx.tmp.XXXXXX temporaries of killed runs, at most one each.

Where the folder takes unnamed files (O_TMPFILE), the index is written into one,
named only between its fsync and its rename: a run killed while writing (seen by
its open unnamed file) leaves no temporary but for a kill in that instant, and a
write lists no folder, so it leaves the temporaries it did not create alone.
Elsewhere writers use named temporaries, and the next successful write removes
those killed runs left.
"""
import argparse
import glob
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time

E_INDEX_CORRUPT = -12
E_INDEX_STALE = -13


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("ntidx")
    ap.add_argument("probe")
    ap.add_argument("--size", default="200M", help="passed to ntidx gen --size")
    ap.add_argument("--kills", type=int, default=50)
    ap.add_argument("--seed", type=int, default=int(time.time()))
    ap.add_argument("--dir", help="work directory (default: a temporary one)")
    a = ap.parse_args()
    rng = random.Random(a.seed)
    print("seed %d" % a.seed, flush=True)
    work = a.dir or tempfile.mkdtemp(prefix="ntidx-kill-")
    os.makedirs(work, exist_ok=True)
    try:
        return run(a, rng, work)
    finally:
        if not a.dir:
            shutil.rmtree(work, ignore_errors=True)


def probe(a, trace, index):
    p = subprocess.run([a.probe, trace, index], capture_output=True, text=True, check=True)
    return json.loads(p.stdout)


def unnamed_supported(folder):
    """Whether `folder` takes O_TMPFILE files (the writer's first choice)."""
    try:
        fd = os.open(folder, os.O_TMPFILE | os.O_WRONLY, 0o600)
    except (OSError, AttributeError):
        return False
    os.close(fd)
    return True


def writing_unnamed(pid, folder):
    """Whether process `pid` has an unnamed file of `folder` open (an index being written)."""
    try:
        fds = os.listdir("/proc/%d/fd" % pid)
    except OSError:
        return False
    for fd in fds:
        try:
            target = os.readlink("/proc/%d/fd/%s" % (pid, fd))
        except OSError:
            continue
        if target.startswith(os.path.join(folder, "#")) and target.endswith("(deleted)"):
            return True
    return False


def read(path):
    with open(path, "rb") as f:
        return f.read()


def write(path, data):
    with open(path, "wb") as f:
        f.write(data)


def run(a, rng, work):
    trace = os.path.join(work, "big.nettrace")
    index = trace + ".ntidx"
    subprocess.run([a.ntidx, "gen", "-q", "-o", trace, "--size", a.size, "--seed", "5"], check=True)
    plain_path = os.path.join(work, "plain.ntidx")
    subprocess.run([a.ntidx, "index", trace, "-o", plain_path], check=True, stdout=subprocess.DEVNULL)
    plain = read(plain_path)
    t0 = time.monotonic()
    subprocess.run([a.ntidx, "index", "--full", trace], check=True, stdout=subprocess.DEVNULL)
    full_time = time.monotonic() - t0
    full = read(index)
    assert probe(a, trace, index)["rc"] == 0
    # a valid index of another trace: refused as stale, rebuilt
    other = os.path.join(work, "other.nettrace")
    stale_path = os.path.join(work, "other.ntidx")
    subprocess.run([a.ntidx, "gen", "-q", "-o", other, "--size", "1M", "--seed", "6"], check=True)
    subprocess.run([a.ntidx, "index", "--full", other, "-o", stale_path], check=True, stdout=subprocess.DEVNULL)
    stale = read(stale_path)
    assert probe(a, trace, stale_path)["rc"] == E_INDEX_STALE
    print("trace %d bytes; uninterrupted --full build %.3f s; index %d bytes" %
          (os.path.getsize(trace), full_time, len(full)), flush=True)

    unnamed = unnamed_supported(work)
    print("unnamed temporaries (O_TMPFILE): %s" % ("yes" if unnamed else "no"), flush=True)
    outcomes = {"absent": 0, "previous": 0, "new": 0}
    temporaries_seen = 0
    killed_writing = 0
    for k in range(a.kills):
        pre_temps = set(glob.glob(glob.escape(index) + ".tmp.*"))
        before_kind = rng.choice(("none", "plain", "stale"))
        if os.path.exists(index):
            os.unlink(index)
        before = {"none": None, "plain": plain, "stale": stale}[before_kind]
        if before is not None:
            write(index, before)
        p = subprocess.Popen([a.ntidx, "index", "--full", trace], stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL)
        start = time.monotonic()
        if k % 2 == 0:
            delay = rng.uniform(0, 1.1 * full_time)
            time.sleep(delay)
        else:  # while it writes: poll for its temporary file
            pre = set(glob.glob(glob.escape(index) + ".tmp.*"))
            while (p.poll() is None and not set(glob.glob(glob.escape(index) + ".tmp.*")) - pre
                   and not (unnamed and writing_unnamed(p.pid, work))):
                pass
            time.sleep(rng.uniform(0, 0.003))
            delay = time.monotonic() - start
        mid_write = unnamed and writing_unnamed(p.pid, work)
        p.send_signal(signal.SIGKILL)
        p.wait()
        killed = p.returncode == -signal.SIGKILL
        if not os.path.exists(index):
            assert before is None, "kill %d: the previous index vanished" % k
            outcome = "absent"
        else:
            now = read(index)
            pr = probe(a, trace, index)
            assert pr["rc"] != E_INDEX_CORRUPT, "kill %d: the index is corrupt: %s" % (k, pr["error"])
            if before is not None and now == before:
                outcome = "previous"
            else:
                assert now == full, "kill %d: the index is neither the previous one nor a complete new one" % k
                assert pr["rc"] == 0 and pr["full"] == 1, pr
                outcome = "new"
        outcomes[outcome] += 1
        temps = glob.glob(glob.escape(index) + ".tmp.*")
        temporaries_seen += len(temps)
        if killed and set(temps) - pre_temps:
            killed_writing += 1
            assert len(set(temps) - pre_temps) == 1, "kill %d: one run left several temporaries" % k
        others = [f for f in os.listdir(work) if f not in ("big.nettrace", "big.nettrace.ntidx", "plain.ntidx",
                                                            "other.nettrace", "other.ntidx")
                  and not f.startswith("big.nettrace.ntidx.tmp.")]
        assert not others, "kill %d: unexpected files %s" % (k, others)
        print("kill %2d: before %-5s delay %.3f s %s%s -> %s%s" %
              (k, before_kind, delay, "killed" if killed else "finished",
               " while writing an unnamed temporary" if killed and mid_write else "", outcome,
               ", %d temporaries" % len(temps) if temps else ""), flush=True)
        if not killed:
            # With unnamed temporaries no write lists the folder: what earlier kills left (one killed between
            # naming its temporary and renaming it) stays, and only a temporary of this run would be wrong.
            mine = set(temps) - pre_temps if unnamed else set(temps)
            assert not mine, "kill %d: a successful run left temporaries %s" % (k, sorted(mine))
    write(index, plain)
    leftover = glob.glob(glob.escape(index) + ".tmp.*")
    if not leftover:  # make one, as a killed writer leaves it
        write(index + ".tmp.Zk3xQ1", full[: len(full) // 2])
        leftover = [index + ".tmp.Zk3xQ1"]
    subprocess.run([a.ntidx, "index", "--full", trace], check=True, stdout=subprocess.DEVNULL)
    assert read(index) == full
    left = glob.glob(glob.escape(index) + ".tmp.*")
    if unnamed:
        # No folder listed: what was there stays, and the write added nothing.
        assert sorted(left) == sorted(leftover), "a write with unnamed temporaries changed %s into %s" % (
            leftover, left)
        print("outcomes: %s; %d of %d kills left a temporary; a successful write listed no folder" %
              (outcomes, killed_writing, a.kills))
    else:
        # A successful write removes every temporary killed runs left.
        assert not left, "temporaries left after a successful write: %s" % left
        print("outcomes: %s; %d kills landed while the index was being written (each left one temporary); "
              "every temporary was removed by the next successful write" % (outcomes, killed_writing))
    return 0


if __name__ == "__main__":
    sys.exit(main())
