#!/usr/bin/env python3
"""check_symbols.py refuses what it must: each case changes one thing of a copy of the version script
or of the headers and expects the matching complaint (and the untouched copy to pass).

check_symbols_test.py CHECKER NM LIBRARY MAP VERSION HEADER...
"""
import os
import re
import subprocess
import sys
import tempfile

checker, nm, lib, map_path, version, headers = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5], \
    sys.argv[6:]
original = open(map_path, encoding="utf-8").read()
failures = []


def run(map_text, extra_headers=(), project=version):
    with tempfile.TemporaryDirectory() as d:
        m = os.path.join(d, "libntidx.map")
        with open(m, "w", encoding="utf-8") as f:
            f.write(map_text)
        hs = list(headers)
        for i, text in enumerate(extra_headers):
            h = os.path.join(d, f"extra{i}.h")
            with open(h, "w", encoding="utf-8") as f:
                f.write(text)
            hs.append(h)
        r = subprocess.run([sys.executable, checker, nm, lib, m, project] + hs, capture_output=True, text=True)
        return r.returncode, r.stdout + r.stderr


def expect(name, rc_out, pattern):
    rc, out = rc_out
    if pattern is None:
        if rc != 0:
            failures.append(f"{name}: expected success, got {rc}:\n{out}")
    elif rc == 0 or not re.search(pattern, out):
        failures.append(f"{name}: expected a failure matching {pattern!r}, got {rc}:\n{out}")


expect("untouched", run(original), None)
# A name the library exports, left out of the script (a leak).
expect("unlisted export", run(original.replace("    ntidx_version;\n", "", 1)),
       r"exports ntidx_version, which .* does not list")
# A name listed that the library does not export (removed, or misspelt).
expect("listed, not exported", run(original.replace("    ntidx_version;\n", "    ntidx_version;\n    ntidx_gone;\n", 1)),
       r"lists ntidx_gone \(NTIDX_\d+\.\d+\), which .* does not export")
# An exported name moved to another node than the one the library gives it.
moved = original.replace("    ntidx_version;\n", "", 1).rstrip() + "\n\nNTIDX_99.0 {\nglobal:\n    ntidx_version;\n} NTIDX_0.1;\n"
expect("wrong version", run(moved, project="99.0.0"), r"ntidx_version has version NTIDX_0\.1, .* lists it in NTIDX_99\.0")
# A node newer than the project's version.
expect("node from the future", run(moved), r"node NTIDX_99\.0 is newer than the project's version")
# A later node that does not inherit the one before.
expect("node without parent", run(moved.replace("} NTIDX_0.1;", "};"), project="99.0.0"), r"must inherit NTIDX_0\.1")
# A function a header declares but no node lists.
expect("declared, not listed", run(original, ["NTIDX_API int ntidx_declared_only(void);\n"]),
       r"declares NTIDX_API ntidx_declared_only, which .* does not list")
for f in failures:
    print(f)
print(f"{7 - len(failures)} of 7 cases as expected")
sys.exit(1 if failures else 0)
