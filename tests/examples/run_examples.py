#!/usr/bin/env python3
"""Run every example of the documentation (doc_examples, gen_examples.py) on traces, and check them.

usage: run_examples.py DOC_EXAMPLES NTIDX TRACES_DIR

Each example runs on every sample trace of TRACES_DIR and on a V6 trace `ntidx gen` writes (label
lists, stacks), each run its own process, indexes kept in a scratch NTIDX_INDEX_DIR (never beside
the traces). A run passes when it exits 0 with nothing on stderr (no report(), no error printed by
the example, no sanitizer report). An example that calls use() must get events on some trace. The
README's program must print, for every GC/AllocationTick event, "TypeName AllocationAmount64", as
`ntidx query --event GC/AllocationTick --format jsonl` gives them (its loop once stopped after the
first event). Exit 0 when everything passes.
"""
import json
import os
import subprocess
import sys
import tempfile

MARK = "\n@@ use() "


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: run_examples.py DOC_EXAMPLES NTIDX TRACES_DIR")
    exe, ntidx, traces_dir = sys.argv[1:4]
    listing = subprocess.run([exe, "list"], check=True, capture_output=True, text=True).stdout.split("\n")
    examples = [line.split(" ") for line in listing if line]
    if not examples:
        sys.exit("run_examples: doc_examples lists no examples")
    failures = 0
    with tempfile.TemporaryDirectory(prefix="ntidx-examples-") as scratch:
        env = {**os.environ, "NTIDX_INDEX_DIR": os.path.join(scratch, "indexes")}
        gen = os.path.join(scratch, "gen-v6.nettrace")
        subprocess.run([ntidx, "gen", "-o", gen, "--events", "20000", "--quiet"], check=True, env=env)
        traces = sorted(os.path.join(traces_dir, n) for n in os.listdir(traces_dir)) + [gen]
        used = {ex[0]: 0 for ex in examples}
        for ex in examples:
            where = ex[0]
            for trace in traces:
                # in the scratch folder: an example that writes a file (output.h's) writes it there
                p = subprocess.run([exe, "run", where, trace], capture_output=True, text=True, env=env,
                                   errors="replace", cwd=scratch)
                out, sep, count = p.stdout.rpartition(MARK)
                problems = []
                if p.returncode != 0:
                    problems.append("exit status %d" % p.returncode)
                if p.stderr:
                    problems.append("stderr:\n" + p.stderr.rstrip())
                if not sep:
                    problems.append("no closing line (it did not end)")
                else:
                    used[where] += int(count)
                if not problems and where.startswith("README.md:"):
                    problems += readme_problems(out, ntidx, trace, env)
                if problems:
                    failures += 1
                    print("FAIL %s on %s: %s" % (where, os.path.basename(trace), "; ".join(problems)))
                else:
                    print("ok   %s on %s" % (where, os.path.basename(trace)))
        for ex in examples:
            if "use" in ex[1:] and not used[ex[0]]:
                failures += 1
                print("FAIL %s: use() was never called, on any trace" % ex[0])
    print("%d examples on %d traces, %d failures" % (len(examples), len(traces), failures))
    return 1 if failures else 0


def readme_problems(out, ntidx, trace, env):
    """The README's program prints "TypeName AllocationAmount64" for every GC/AllocationTick event."""
    q = subprocess.run([ntidx, "query", trace, "--event", "GC/AllocationTick", "--format", "jsonl"],
                       capture_output=True, text=True, env=env)
    if q.returncode != 0:
        return ["ntidx query: exit status %d: %s" % (q.returncode, q.stderr.strip())]
    want = []
    for line in q.stdout.splitlines():
        f = json.loads(line).get("fields", {})
        if isinstance(f.get("TypeName"), str) and isinstance(f.get("AllocationAmount64"), int):
            want.append("%s %d" % (f["TypeName"], f["AllocationAmount64"]))
    got = out.splitlines()
    if got != want:
        first = next((i for i, (a, b) in enumerate(zip(got, want)) if a != b), min(len(got), len(want)))
        return ["%d lines where ntidx query gives %d GC/AllocationTick events; first difference at line %d"
                % (len(got), len(want), first + 1)]
    return []


if __name__ == "__main__":
    sys.exit(main())
