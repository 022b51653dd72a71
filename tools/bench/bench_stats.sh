#!/usr/bin/env bash
# Parallel statistics benchmark (prints figures, asserts nothing): `ntidx stats`
# of a whole trace through its index with 1 thread and with every core, against
# `cat TRACE > /dev/null` of the same page-cached file, all in one run.
#
# With a 4th argument `full`, also `stats` through a --full index (built once
# into TRACE.full.ntidx, not timed), which takes every region from the
# index's stored statistics.
#
# usage: tools/bench/bench_stats.sh NTIDX TRACE [REPS] [full]
set -eu
ntidx=$1; trace=$2; reps=${3:-3}
cores=$(nproc)
plain="$trace.plain.ntidx" # a plain index: every region decoded, whatever TRACE.ntidx is
"$ntidx" index "$trace" -o "$plain" >/dev/null
cat "$trace" >/dev/null
t() { local s e; s=$(date +%s.%N); "$@" >/dev/null; e=$(date +%s.%N); echo "$e - $s" | bc -l; }
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
tc=$(for i in $(seq "$reps"); do t cat "$trace"; done | median)
t1=$(for i in $(seq "$reps"); do t "$ntidx" stats "$trace" --index "$plain" --json --threads 1; done | median)
tn=$(for i in $(seq "$reps"); do t "$ntidx" stats "$trace" --index "$plain" --json --threads "$cores"; done | median)
same=no
[ "$("$ntidx" stats "$trace" --index "$plain" --json --threads 1 | md5sum)" = "$("$ntidx" stats "$trace" --index "$plain" --json --threads "$cores" | md5sum)" ] && same=yes
gb=$(stat -c %s "$trace" | awk '{print $1/1e9}')
printf 'trace %s: %.2f GB, %d cores, median of %d runs, load average %s\n' "$trace" "$gb" "$cores" "$reps" "$(cut -d' ' -f1 /proc/loadavg)"
printf 'cat > /dev/null:       %7.3f s  %6.2f GB/s\n' "$tc" "$(echo "$gb / $tc" | bc -l)"
printf 'stats --threads 1:     %7.3f s  %6.2f GB/s  (%.2fx cat time)\n' "$t1" "$(echo "$gb / $t1" | bc -l)" "$(echo "$t1 / $tc" | bc -l)"
printf 'stats --threads %d:     %7.3f s  %6.2f GB/s  (%.2fx cat time)\n' "$cores" "$tn" "$(echo "$gb / $tn" | bc -l)" "$(echo "$tn / $tc" | bc -l)"
printf 'speed-up:              %.2fx (target >= 1.8x on 2 cores); same JSON byte for byte: %s\n' "$(echo "$t1 / $tn" | bc -l)" "$same"
if [ "${4:-}" = full ]; then
  [ -f "$trace.full.ntidx" ] || "$ntidx" index --full "$trace" -o "$trace.full.ntidx" >/dev/null
  tf=$(for i in $(seq "$reps"); do t "$ntidx" stats "$trace" --json --index "$trace.full.ntidx"; done | median)
  samef=no
  [ "$("$ntidx" stats "$trace" --index "$plain" --json --threads 1 | sed 's/,"regions_from_index":[0-9]*//' | md5sum)" = \
    "$("$ntidx" stats "$trace" --json --index "$trace.full.ntidx" | sed 's/,"regions_from_index":[0-9]*//' | md5sum)" ] && samef=yes
  printf 'stats, --full index:   %7.3f s  (%.4fx cat time, %.0fx faster than --threads %d); same JSON: %s\n' "$tf" \
    "$(echo "$tf / $tc" | bc -l)" "$(echo "$tn / $tf" | bc -l)" "$cores" "$samef"
fi
