#!/usr/bin/env bash
# Cold whole-trace passes (bench_stats.sh NTIDX TRACE [REPS] cold): prints figures, asserts nothing.
#
# For each pass, the median of REPS runs with the page cache emptied before each (cold) and of REPS
# runs with the trace cached (warm), and the ratio cold / max(warm, cold `stats --no-index`): a cold
# pass should be bound by the disk (what `stats --no-index` reads it at) or by the CPU (its cached
# time), never by page faults one at a time. Target: every ratio at most 1.15. Needs root (it
# writes /proc/sys/vm/drop_caches). The indexes are written to a scratch folder, never beside TRACE.
#
# usage: tools/bench/bench_cold.sh NTIDX TRACE [REPS]
set -eu
ntidx=$1; trace=$2; reps=${3:-3}
if [ "$(id -u)" != 0 ] || ! [ -w /proc/sys/vm/drop_caches ]; then
  echo "bench_cold.sh: needs root to empty the page cache (/proc/sys/vm/drop_caches)" >&2
  exit 2
fi
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
export NTIDX_INDEX_DIR=$scratch/dir # nothing beside the trace, whatever the commands build
plain=$scratch/plain.ntidx
"$ntidx" index "$trace" -o "$plain" >/dev/null

drop() { sync; echo 1 >/proc/sys/vm/drop_caches; }
# t CMD...: wall seconds of one run
t() {
  local s e
  s=$EPOCHREALTIME
  "$@" >/dev/null 2>&1
  e=$EPOCHREALTIME
  echo "$e - $s" | bc -l
}
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
# Each pass as a shell function, so that what it removes first (an index it must build, its output)
# is not timed.
p_stats_index() { "$ntidx" stats "$trace" --index "$plain" --json; }
p_stats_first() { "$ntidx" stats "$trace" --json; }
p_dump_jsonl() { "$ntidx" dump "$trace" --format jsonl; }
# export and dump write their output to /dev/null (t() sends stdout there; export's "-o -" is stdout): what is
# timed is the trace's pass. Written to a file, the real 1 GB trace's export is 5.9 GB, whose writeback
# throttles the writer by the state the last run left the disk's queue in (cold 15.3 s, cached 10.3 s; to
# /dev/null both 4.2 s): a figure of the output's disk, not of how the trace is read.
p_export() { "$ntidx" export "$trace" --format jsonl -o - --index "$plain"; }
p_index_full() { "$ntidx" index --full "$trace" -o "$scratch/full.ntidx"; }
p_no_index() { "$ntidx" stats "$trace" --no-index --json; }
prepare() { rm -rf "$scratch/dir" "$scratch/full.ntidx"; }
# run PASS MODE: one timed run, cold (page cache emptied first) or warm (the trace read first)
run() {
  prepare
  if [ "$2" = cold ]; then drop; else cat "$trace" >/dev/null; fi
  t "$1"
}
passes="p_stats_index p_stats_first p_dump_jsonl p_export p_index_full"
declare -A cold warm
# Interleaved: every pass's cold and warm run in each round, so drift on a shared machine falls on all.
for i in $(seq "$reps"); do
  echo "$(run p_no_index cold)" >>"$scratch/p_no_index.cold"
  for p in $passes; do
    echo "$(run "$p" cold)" >>"$scratch/$p.cold"
    echo "$(run "$p" warm)" >>"$scratch/$p.warm"
  done
done
nocold=$(median <"$scratch/p_no_index.cold")
gb=$(stat -L -c %s "$trace" | awk '{printf "%.9f", $1/1e9}')
# the read-ahead of the disk that holds the trace (the partition's disk when it is a partition)
read_ahead() {
  local dev
  dev=$(basename "$(df --output=source "$trace" | tail -1)")
  [ -e "/sys/block/$dev" ] || dev=$(lsblk -no pkname "/dev/$dev" 2>/dev/null | head -1)
  cat "/sys/block/$dev/queue/read_ahead_kb" 2>/dev/null || echo '?'
}
printf 'trace %s: %.2f GB, %d cores, median of %d runs, read-ahead %s KB, load average %s\n' "$trace" "$gb" "$(nproc)" "$reps" \
  "$(read_ahead)" "$(cut -d' ' -f1 /proc/loadavg)"
printf '%-28s %8.3f s  (%.2f GB/s: what the disk gives a pass)\n' "stats --no-index, cold" "$nocold" "$(echo "$gb / $nocold" | bc -l)"
for p in $passes; do
  c=$(median <"$scratch/$p.cold")
  w=$(median <"$scratch/$p.warm")
  floor=$(echo "if ($w > $nocold) $w else $nocold" | bc -l)
  case $p in
    p_stats_index) name="stats (plain index)" ;;
    p_stats_first) name="stats (builds its index)" ;;
    p_dump_jsonl) name="dump --format jsonl" ;;
    p_export) name="export --format jsonl" ;;
    p_index_full) name="index --full" ;;
  esac
  printf '%-28s cold %8.3f s  cached %8.3f s  cold / max(cached, cold --no-index) %5.2fx (target <= 1.15x)\n' \
    "$name" "$c" "$w" "$(echo "$c / $floor" | bc -l)"
done
