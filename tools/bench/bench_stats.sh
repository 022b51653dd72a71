#!/usr/bin/env bash
# Parallel statistics benchmark (prints figures, asserts nothing): `ntidx stats`
# of a whole trace through its index with 1 thread and with every core, against
# `cat TRACE > /dev/null` of the same page-cached file, all in one run, each
# figure with the peak resident memory of its processes beside it.
#
# With a 4th argument `full`, also `ntidx index --full` (timed, against the
# plain-index `stats` on every core of the same run, as medians of each and as
# the median ratio of back-to-back pairs) and `stats` through the
# --full index it built (TRACE.full.ntidx), which takes every region from the
# index's stored statistics.
#
# With a 4th argument `cold` (root: it empties the page cache with /proc/sys/vm/drop_caches), the
# whole-trace passes with the trace not in the page cache instead: `stats` through a plain index,
# the first `stats` that builds its index, `dump --format jsonl`, `export --format jsonl` and
# `index --full`, each cold and with the trace cached, against `stats --no-index` cold, in one run.
# Target (issue 29): each cold time at most 1.15x the larger of its cached time and the cold
# `stats --no-index` (a cold pass bound by the disk or by the CPU, never by page faults one by one).
#
# usage: tools/bench/bench_stats.sh NTIDX TRACE [REPS] [full|cold]
set -eu
ntidx=$1; trace=$2; reps=${3:-3}
if [ "${4:-}" = cold ]; then
  exec "$(dirname "$0")/bench_cold.sh" "$ntidx" "$trace" "$reps"
fi
cores=$(nproc)
plain="$trace.plain.ntidx" # a plain index: every region decoded, whatever TRACE.ntidx is
"$ntidx" index "$trace" -o "$plain" >/dev/null
cat "$trace" >/dev/null
# t CMD...: the wall time of one run in seconds; its peak RSS (KB) goes to $rss_file
rss_file=$(mktemp)
trap 'rm -f "$rss_file"' EXIT
t() {
  local s e
  s=$EPOCHREALTIME
  /usr/bin/time -a -o "$rss_file" -f '%M' "$@" >/dev/null 2>/dev/null
  e=$EPOCHREALTIME
  echo "$e - $s" | bc -l
}
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
rss() { sort -g "$rss_file" | tail -1 | awk '{printf "%.1f", $1/1024}'; : >"$rss_file"; }
tc=$(for i in $(seq "$reps"); do t cat "$trace"; done | median); : >"$rss_file"
t1=$(for i in $(seq "$reps"); do t "$ntidx" stats "$trace" --index "$plain" --json --threads 1; done | median); r1=$(rss)
tn=$(for i in $(seq "$reps"); do t "$ntidx" stats "$trace" --index "$plain" --json --threads "$cores"; done | median); rn=$(rss)
same=no
[ "$("$ntidx" stats "$trace" --index "$plain" --json --threads 1 | md5sum)" = "$("$ntidx" stats "$trace" --index "$plain" --json --threads "$cores" | md5sum)" ] && same=yes
gb=$(stat -L -c %s "$trace" | awk '{printf "%.9f", $1/1e9}') # never 6.6e-05: bc cannot read it
printf 'trace %s: %.2f GB, %d cores, median of %d runs, load average %s\n' "$trace" "$gb" "$cores" "$reps" "$(cut -d' ' -f1 /proc/loadavg)"
printf 'cat > /dev/null:       %7.3f s  %6.2f GB/s\n' "$tc" "$(echo "$gb / $tc" | bc -l)"
printf 'stats --threads 1:     %7.3f s  %6.2f GB/s  (%.2fx cat time, %.2f of its rate); peak RSS %s MB\n' "$t1" "$(echo "$gb / $t1" | bc -l)" "$(echo "$t1 / $tc" | bc -l)" "$(echo "$tc / $t1" | bc -l)" "$r1"
printf 'stats --threads %d:     %7.3f s  %6.2f GB/s  (%.2fx cat time, %.2f of its rate, target >= 0.5); peak RSS %s MB\n' "$cores" "$tn" "$(echo "$gb / $tn" | bc -l)" "$(echo "$tn / $tc" | bc -l)" "$(echo "$tc / $tn" | bc -l)" "$rn"
printf 'speed-up:              %.2fx (target >= 1.8x on 2 cores); same JSON byte for byte: %s\n' "$(echo "$t1 / $tn" | bc -l)" "$same"
if [ "${4:-}" = full ]; then
  tx=$(for i in $(seq "$reps"); do rm -f "$trace.full.ntidx"; t "$ntidx" index --full "$trace" -o "$trace.full.ntidx"; done | median); rx=$(rss)
  printf 'index --full:          %7.3f s  (%.2fx cat time, %.2fx stats --threads %d, target <= 1.2x); peak RSS %s MB\n' "$tx" \
    "$(echo "$tx / $tc" | bc -l)" "$(echo "$tx / $tn" | bc -l)" "$cores" "$rx"
  # The same ratio from back-to-back pairs (stats on every core, then index --full): on a shared, noisy
  # machine the speed drifts between the two series above; a pair sees the same machine.
  pairs=$(for i in $(seq "$reps"); do
    a=$(t "$ntidx" stats "$trace" --index "$plain" --json --threads "$cores")
    rm -f "$trace.full.ntidx"; b=$(t "$ntidx" index --full "$trace" -o "$trace.full.ntidx")
    echo "$b / $a" | bc -l
  done | sort -g); : >"$rss_file"
  printf 'index --full, paired:  %.2fx stats --threads %d, median of %d back-to-back pairs (quartiles %.2fx-%.2fx), target <= 1.2x\n' \
    "$(echo "$pairs" | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')" "$cores" "$reps" \
    "$(echo "$pairs" | awk '{a[NR]=$1} END {print a[int(NR/4)+1]}')" "$(echo "$pairs" | awk '{a[NR]=$1} END {print a[NR - int(NR/4)]}')"
  tf=$(for i in $(seq "$reps"); do t "$ntidx" stats "$trace" --json --index "$trace.full.ntidx"; done | median); rf=$(rss)
  samef=no
  [ "$("$ntidx" stats "$trace" --index "$plain" --json --threads 1 | sed 's/,"regions_from_index":[0-9]*//' | md5sum)" = \
    "$("$ntidx" stats "$trace" --json --index "$trace.full.ntidx" | sed 's/,"regions_from_index":[0-9]*//' | md5sum)" ] && samef=yes
  printf 'stats, --full index:   %7.3f s  (%.4fx cat time, %.0fx faster than --threads %d); same JSON: %s; peak RSS %s MB\n' "$tf" \
    "$(echo "$tf / $tc" | bc -l)" "$(echo "$tn / $tf" | bc -l)" "$cores" "$samef" "$rf"
fi
