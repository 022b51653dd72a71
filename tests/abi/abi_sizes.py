#!/usr/bin/env python3
"""The public structs' sizes are those docs/abi.md states (its table between the `abi-sizes` markers).

abi_sizes.py TEST_ABI_STRUCTS DOCS_ABI_MD

A struct that changed size, one the program prints that the table lacks, or one the table lists that
the program does not print, fails: the size of a struct a client allocates is ABI, and a change to it
must be seen (and the table updated in the same commit, with a version-script node if the change is
one a client would notice).
"""
import re
import subprocess
import sys

prog, doc = sys.argv[1], sys.argv[2]
out = subprocess.run([prog, "--sizes"], check=True, capture_output=True, text=True).stdout
actual = {}
for line in out.splitlines():
    name, size = line.split()
    actual[name] = int(size)

text = open(doc, encoding="utf-8").read()
m = re.search(r"<!-- abi-sizes begin -->(.*?)<!-- abi-sizes end -->", text, re.S)
if not m:
    sys.exit(f"{doc}: no table between <!-- abi-sizes begin --> and <!-- abi-sizes end -->")
documented = {}
for row in m.group(1).splitlines():
    cells = [c.strip() for c in row.strip().strip("|").split("|")]
    if len(cells) >= 2 and re.fullmatch(r"`ntidx_\w+`", cells[0]) and cells[1].isdigit():
        documented[cells[0].strip("`")] = int(cells[1])

problems = []
for name in sorted(set(actual) | set(documented)):
    if name not in documented:
        problems.append(f"{name}: {actual[name]} bytes, not in the table of {doc}")
    elif name not in actual:
        problems.append(f"{name}: in the table of {doc}, not printed by {prog}")
    elif actual[name] != documented[name]:
        problems.append(f"{name}: {actual[name]} bytes, {doc} says {documented[name]}")
for p in problems:
    print(p)
if problems:
    sys.exit(1)
print(f"{len(actual)} structs, each of the size {doc} states")
