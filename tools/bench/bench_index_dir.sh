#!/usr/bin/env bash
# Index writes in a big folder (issue 29, target 5): prints figures, asserts nothing.
#
# The same small index written (`ntidx index TRACE -o FOLDER/x.ntidx`, a whole process) into an empty
# folder and into one that holds COUNT other indexes, interleaved, REPS times each: the medians and their
# ratio (target: at most 1.1), for the wall time and for the CPU time (user + system) of the process: the
# wall time of a write is mostly its fsync()s, which a loaded or shared disk makes noisy; listing a folder
# is CPU time. A write that lists its folder (to remove what killed writers left) costs in proportion to
# the folder; one through an unnamed temporary (O_TMPFILE) lists nothing.
#
# usage: tools/bench/bench_index_dir.sh NTIDX [REPS] [COUNT] [SCRATCH_PARENT]
set -eu
ntidx=$1; reps=${2:-30}; count=${3:-10000}; parent=${4:-${TMPDIR:-/tmp}}
scratch=$(mktemp -d "$parent/bench_index_dir.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
mkdir "$scratch/empty" "$scratch/big"
trace=$scratch/small.nettrace
"$ntidx" gen -q -o "$trace" --events 20000
"$ntidx" index "$trace" -o "$scratch/one.ntidx" >/dev/null
# COUNT other indexes, named as NTIDX_INDEX_DIR names them (hard links: the folder's entries are what counts)
/usr/bin/python3 -c 'import os, sys
for i in range(int(sys.argv[2])): os.link(sys.argv[1] + "/one.ntidx", "%s/big/trace%d.nettrace-%d.ntidx" % (sys.argv[1], i, i))' \
  "$scratch" "$count"
# the writes, interleaved: wall and CPU (rusage of the child, microseconds) of each; medians and ratios
read -r me mb ce cb < <(/usr/bin/python3 - "$ntidx" "$trace" "$scratch" "$reps" <<'PY'
import os, resource, statistics, subprocess, sys, time
ntidx, trace, scratch, reps = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
res = {"empty": ([], []), "big": ([], [])}
for _ in range(reps):
    for folder in ("empty", "big"):
        out = os.path.join(scratch, folder, "x.ntidx")
        if os.path.exists(out):
            os.unlink(out)
        r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        subprocess.run([ntidx, "index", trace, "-o", out], check=True, stdout=subprocess.DEVNULL)
        t1 = time.perf_counter()
        r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        res[folder][0].append((t1 - t0) * 1e3)
        res[folder][1].append((r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime) * 1e3)
m = statistics.median
print(m(res["empty"][0]), m(res["big"][0]), m(res["empty"][1]), m(res["big"][1]))
PY
)
fs=$(df --output=fstype "$scratch" | tail -1)
printf 'index write, %d runs each, folder on %s, load average %s\n' "$reps" "$fs" "$(cut -d' ' -f1 /proc/loadavg)"
printf 'empty folder:            wall %8.2f ms, CPU %6.2f ms (medians)\n' "$me" "$ce"
printf 'folder of %5d indexes: wall %8.2f ms, CPU %6.2f ms (medians); ratio: wall %.2fx, CPU %.2fx (target <= 1.1x)\n' \
  "$count" "$mb" "$cb" "$(echo "$mb / $me" | bc -l)" "$(echo "$cb / $ce" | bc -l)"
