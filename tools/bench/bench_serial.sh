#!/usr/bin/env bash
# The serial part of the parallel commands (issue 29, target 4), and what Amdahl's law makes of it.
# Prints figures, asserts nothing.
#
# Each command runs on one thread with NTIDX_PHASES=1, which makes the library write the seconds of its
# parallel sections (what more threads divide: the index scan, the statistics' and the analyses'
# workers, the --full build's workers; an analysis command's output formatted on threads, a line of its own,
# added) to stderr at exit. The rest of the process's wall time is its
# serial part: starting, opening and loading, planning, the scan before the workers start (the --full
# build's scan), merging, writing. For each command, the median of REPS runs of: the one-thread time, the
# serial seconds, the serial fraction s (target: at most 1%), and the speed-up Amdahl's law gives with 16
# and 64 cores, 1 / (s + (1 - s) / n) (target: at least 13x on 16). A two-core machine cannot show
# 16-core scaling itself; this is what it can show. The indexes go to a scratch folder.
#
# usage: tools/bench/bench_serial.sh NTIDX TRACE [REPS]
set -eu
ntidx=$1; trace=$2; reps=${3:-3}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
export NTIDX_INDEX_DIR=$scratch/dir # nothing beside the trace
plain=$scratch/plain.ntidx
"$ntidx" index "$trace" -o "$plain" >/dev/null
cat "$trace" >/dev/null # page-cached: the CPU's part, not the disk's
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
# one NAME CMD...: REPS runs on one thread; prints the line
one() {
  local name=$1; shift
  : >"$scratch/wall"; : >"$scratch/serial"
  for i in $(seq "$reps"); do
    rm -f "$scratch/out.ntidx"
    local s e par
    s=$EPOCHREALTIME
    NTIDX_PHASES=1 "$@" >/dev/null 2>"$scratch/err" || { echo "$name: failed: $(tail -1 "$scratch/err")"; return; }
    e=$EPOCHREALTIME
    # the library's line, and the command's own when it formats its output on threads (tools/analysis_print.c)
    par=$(sed -n 's/^ntidx phases: parallel \([0-9.]*\) s.*/\1/p' "$scratch/err" | awk '{s += $1} END {printf "%.6f", s}')
    echo "$e - $s" | bc -l >>"$scratch/wall"
    echo "$e - $s - ${par:-0}" | bc -l >>"$scratch/serial"
  done
  local w sr f
  w=$(median <"$scratch/wall"); sr=$(median <"$scratch/serial")
  f=$(echo "$sr / $w" | bc -l)
  printf '%-22s %8.3f s on 1 thread, serial %7.4f s = %6.2f%% (target <= 1%%); Amdahl: %5.1fx on 16 cores (target >= 13x), %5.1fx on 64\n' \
    "$name" "$w" "$sr" "$(echo "$f * 100" | bc -l)" "$(echo "1 / ($f + (1 - $f) / 16)" | bc -l)" \
    "$(echo "1 / ($f + (1 - $f) / 64)" | bc -l)"
}
gb=$(stat -L -c %s "$trace" | awk '{printf "%.9f", $1/1e9}')
printf 'trace %s: %.2f GB, page-cached, %d cores, median of %d runs, load average %s\n' "$trace" "$gb" "$(nproc)" "$reps" \
  "$(cut -d' ' -f1 /proc/loadavg)"
one "stats" "$ntidx" stats "$trace" --index "$plain" --json --threads 1
one "index" "$ntidx" index "$trace" -o "$scratch/out.ntidx" --threads 1
one "index --full" "$ntidx" index --full "$trace" -o "$scratch/out.ntidx" --threads 1
for a in gc jit alloc exceptions contention activities; do
  one "$a" "$ntidx" "$a" "$trace" --index "$plain" --threads 1
done
