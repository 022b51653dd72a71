#!/usr/bin/env python3
"""Write the seed corpora of the fuzz targets (tests/fuzz/*.c), and optionally replay one.

No seed is committed: the seeds are written at run time from the project's
generator (`ntidx gen`, V5 and V6, with drops, flushes, thread removal,
uncompressed headers, unfinished traces), from the first 4 KiB of each sample
trace (tests/data/traces, decompressed by the build into
BUILD/tests/data/traces), and from indexes `ntidx index` builds of the fixed
traces fuzz_index_load uses.

  make_corpus.py --ntidx build/tools/ntidx --out CORPUS [--traces build/tests/data/traces]
                 [--target NAME ...] [--replay EXE --regressions DIR]

writes CORPUS/fuzz_reader/, CORPUS/fuzz_index_load/, CORPUS/fuzz_oracle/, CORPUS/fuzz_analysis/
(the reader's seeds: generated traces hold GC, JIT, allocation and exception events) (or the
targets named). With --replay (one target), runs EXE over its corpus and the
regression inputs in DIR and exits with its status: that is the meson test.
Standard library only.
"""
import argparse
import os
import random
import shutil
import subprocess
import sys
import tempfile

TARGETS = ("fuzz_reader", "fuzz_index_load", "fuzz_oracle", "fuzz_analysis")

# Traces for fuzz_reader: (name, gen flags).
READER_TRACES = [
    ("v6-small", ["--format-version", "6", "--events", "200", "--seed", "1", "--threads", "3"]),
    ("v6-drops-flushes", ["--format-version", "6", "--events", "400", "--seed", "2", "--threads", "4",
                          "--drop-rate", "0.05", "--metadata-flush-every", "2", "--thread-flush-every", "2",
                          "--remove-threads"]),
    ("v6-uncompressed-unfinished", ["--format-version", "6", "--events", "150", "--seed", "3", "--threads", "2",
                                    "--uncompressed", "--no-finish"]),
    ("v5-small", ["--format-version", "5", "--events", "200", "--seed", "4", "--threads", "3"]),
    ("v5-drops-uncompressed", ["--format-version", "5", "--events", "300", "--seed", "5", "--threads", "4",
                               "--drop-rate", "0.05", "--uncompressed"]),
    ("v5-unfinished", ["--format-version", "5", "--events", "150", "--seed", "6", "--threads", "1",
                       "--no-finish"]),
]

# The fixed traces of fuzz_index_load: keep in step with fixed_options() in fuzz_index_load.c.
# (mode bit 1 selects the V5 one.)
FIXED_TRACES = {
    0: ["--format-version", "6", "--events", "3000", "--seed", "1", "--threads", "4", "--drop-rate", "0.05",
        "--metadata-flush-every", "2", "--thread-flush-every", "3", "--remove-threads"],
    2: ["--format-version", "5", "--events", "3000", "--seed", "2", "--threads", "3", "--drop-rate", "0.05"],
}

PREFIX = 4096


def run(cmd):
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)


def gen(ntidx, path, flags):
    run([ntidx, "gen", "-q", "-o", path] + flags)


def write(d, name, data):
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


def read(path, limit=None):
    with open(path, "rb") as f:
        return f.read() if limit is None else f.read(limit)


def sample_traces(traces):
    if not traces or not os.path.isdir(traces):
        return []
    return sorted(os.path.join(traces, n) for n in os.listdir(traces)
                  if n.endswith((".nettrace", ".netperf")))


def corpus_reader(ntidx, out, work, traces):
    for name, flags in READER_TRACES:
        p = os.path.join(work, name + ".nettrace")
        gen(ntidx, p, flags)
        data = read(p)
        write(out, "gen-" + name, data)
        write(out, "gen-" + name + "-head", data[:PREFIX])
    for p in sample_traces(traces):
        write(out, "sample-" + os.path.basename(p) + "-head", read(p, PREFIX))


# A .NET 10 trace with every kind of event the analyses read (tests/dotnet/golden: the conformance run's
# workload), and windows of it cut by `ntidx slice` to a few dozen KB: activities nested and not, contended
# locks, GCs, JIT, exceptions. Generated traces hold no contention and no activity paths.
ANALYSES_TRACE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "dotnet", "golden",
                              "analyses.nettrace")
ANALYSES_WINDOWS = [("180ms", "230ms"), ("840ms", "880ms"), ("1330ms", "1390ms")]


def corpus_analysis(ntidx, out, work, traces):
    corpus_reader(ntidx, out, work, traces)
    if not os.path.exists(ANALYSES_TRACE):
        return
    for t0, t1 in ANALYSES_WINDOWS:
        p = os.path.join(work, "analyses-%s-%s.nettrace" % (t0, t1))
        run([ntidx, "slice", ANALYSES_TRACE, "--from", t0, "--to", t1, "--output", p, "--quiet",
             "--index", os.path.join(work, "analyses.ntidx")])
        write(out, "dotnet10-analyses-%s-%s" % (t0, t1), read(p))


def corpus_index_load(ntidx, out, work):
    for mode, flags in FIXED_TRACES.items():
        tag = "v5" if mode & 2 else "v6"
        trace = os.path.join(work, "fixed-%s.nettrace" % tag)
        gen(ntidx, trace, flags)
        data = read(trace)
        prefix = os.path.join(work, "fixed-%s-prefix.nettrace" % tag)
        with open(prefix, "wb") as f:  # a writer still running: indexes of it load as GROWN
            f.write(data[: len(data) * 6 // 10])
        for src, kind in ((trace, "whole"), (prefix, "prefix")):
            for full in (False, True):
                idx = os.path.join(work, "%s-%s%s.ntidx" % (tag, kind, "-full" if full else ""))
                run([ntidx, "index", src, "-o", idx] + (["--full"] if full else []))
                body = read(idx)
                base = "%s-%s%s" % (tag, kind, "-full" if full else "")
                write(out, base, bytes([mode]) + body)               # as written
                write(out, base + "-repair", bytes([mode | 1]) + body)  # mutations get their checksums repaired
                write(out, base + "-wider", bytes([mode | 4 | (3 << 3)]) + body)  # + a copy with 7 more bytes/entry
    write(out, "tiny", b"\x00NTIDX\x00\r\n")
    write(out, "tiny-repair", b"\x01" + b"NTIDX\x00\r\n" + bytes(512) + b"NTIDXEND")


def corpus_oracle(out):
    rng = random.Random(20240605)
    for i in range(32):
        size = rng.choice((16, 40, 120, 400, 1200, 3000))
        data = bytearray(rng.getrandbits(8) for _ in range(size))
        data[0] = i & 3  # generator or writer program, cut or not
        if not i & 1 and size > 3:  # generator: at most 256 events
            data[3] = 0
        write(out, "seed-%02d" % i, bytes(data))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ntidx", required=True, help="the ntidx command (build/tools/ntidx)")
    ap.add_argument("--out", required=True, help="corpus directory (one subdirectory per target)")
    ap.add_argument("--traces", help="directory of sample traces (their first 4 KiB become seeds)")
    ap.add_argument("--target", action="append", choices=TARGETS, help="only these targets")
    ap.add_argument("--replay", help="replay driver to run over the corpus (needs exactly one --target)")
    ap.add_argument("--regressions", help="directory of regression inputs, replayed too")
    a = ap.parse_args()
    targets = a.target or list(TARGETS)
    if a.replay and len(targets) != 1:
        ap.error("--replay needs exactly one --target")
    with tempfile.TemporaryDirectory(prefix="ntidx-corpus-") as work:
        for t in targets:
            out = os.path.join(a.out, t)
            shutil.rmtree(out, ignore_errors=True)
            os.makedirs(out)
            if t == "fuzz_reader":  # generated traces hold the runtime's events too
                corpus_reader(a.ntidx, out, work, a.traces)
            elif t == "fuzz_analysis":
                corpus_analysis(a.ntidx, out, work, a.traces)
            elif t == "fuzz_index_load":
                corpus_index_load(a.ntidx, out, work)
            else:
                corpus_oracle(out)
            print("%s: %d seeds in %s" % (t, len(os.listdir(out)), out))
    if not a.replay:
        return 0
    paths = [os.path.join(a.out, targets[0])]
    if a.regressions and os.path.isdir(a.regressions):
        paths.append(a.regressions)
    env = dict(os.environ, NTIDX_FUZZ_REQUIRE_LOAD="1")
    # In a sanitizer build an UndefinedBehaviorSanitizer report fails the replay (by default it is only printed).
    env.setdefault("UBSAN_OPTIONS", "halt_on_error=1:print_stacktrace=1")
    sys.stdout.flush()
    return subprocess.run([a.replay] + paths, env=env).returncode


if __name__ == "__main__":
    sys.exit(main())
