#!/usr/bin/env python3
"""The sample traces the tests read are the ones the repository carries: check_traces.py DIR SUMS.

DIR (the build's tests/data/traces) must hold exactly the files SUMS (tests/data/traces/SHA256SUMS)
names, each with its SHA-256: a trace decompressed wrongly, changed by a test, or a file left beside
them (an index) fails here, naming the file. Exit 0 when all agree.
"""
import hashlib
import os
import sys


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: check_traces.py DIR SUMS")
    folder, sums = sys.argv[1:3]
    want = {}
    with open(sums, encoding="ascii") as f:
        for line in f:
            digest, name = line.rstrip("\n").split("  ", 1)
            want[name] = digest
    have = sorted(os.listdir(folder))
    bad = 0
    for name in have:
        if name not in want:
            print(f"{folder}: {name}: not a sample trace (nothing but the traces belongs here)")
            bad += 1
    for name, digest in sorted(want.items()):
        path = os.path.join(folder, name)
        if name not in have:
            print(f"{path}: missing")
            bad += 1
        elif sha256(path) != digest:
            print(f"{path}: SHA-256 {sha256(path)}, expected {digest}")
            bad += 1
    print(f"{len(want)} sample traces, {bad} problems")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
