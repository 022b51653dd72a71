#!/usr/bin/env bash
# Memory benchmark (prints figures, asserts nothing): the peak resident memory
# (/usr/bin/time's maximum RSS, which counts the mapped trace pages a process
# has touched and not given back) of every ntidx command on one trace, with
# its wall time beside it, in one run. A batch worker whose memory is watched
# (Dask's judges workers by RSS) sees exactly this figure.
#
# usage: tools/bench/bench_memory.sh NTIDX TRACE [--quick]
#   --quick  leave out the commands that format or copy every event of the
#            trace (dump, dump --order time, query and slice of the whole
#            trace): on a 10 GB trace each takes minutes (and the slice needs
#            the trace's size again on disk)
#
# The trace's own index (TRACE.ntidx) is built first if needed (not timed);
# `info` runs with it and, through a link in a scratch directory, without
# one; the other indexes and outputs go to the scratch directory.
set -eu
ntidx=$1; trace=$2; quick=${3:-}
limit_mb=256
scratch=$(mktemp -d "${TMPDIR:-/tmp}/bench_memory.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
ln -s "$(readlink -f "$trace")" "$scratch/noindex.nettrace"
"$ntidx" index "$trace" >/dev/null
"$ntidx" index --full "$trace" -o "$scratch/full.ntidx" >/dev/null
span=$("$ntidx" info "$trace" --json | python3 -c 'import json,sys; i=json.load(sys.stdin); print(i["first_ts"], i["last_ts"], i["tick_frequency"])')
read -r first last freq <<<"$span"
mid=$(( first + (last - first) / 2 ))
w10=$(( mid + freq / 100 ))    # a 10 ms window
w60=$(( mid + 60 * freq ))     # a 60 s window
cat "$trace" >/dev/null
gb=$(stat -c %s "$trace" | awk '{printf "%.9f", $1/1e9}') # never 6.6e-05: bc cannot read it
printf 'trace %s: %.2f GB; load average %s; limit %d MB\n' "$trace" "$gb" "$(cut -d' ' -f1 /proc/loadavg)" "$limit_mb"
printf '%-58s %9s %11s\n' "command" "wall s" "peak RSS MB"
worst=0
run() { # label, then the command's arguments after ntidx
    local label=$1; shift
    /usr/bin/time -o "$scratch/time" -f '%e %M' "$ntidx" "$@" >/dev/null 2>/dev/null || true
    local out
    out=$(tail -1 "$scratch/time")
    local secs=${out% *} kb=${out#* }
    local mb=$(( kb / 1024 ))
    [ "$mb" -gt "$worst" ] && worst=$mb
    printf '%-58s %9s %11d%s\n' "$label" "$secs" "$mb" "$([ "$mb" -gt "$limit_mb" ] && echo '  over')"
}
run "info (no index)" info "$scratch/noindex.nettrace"
run "info (index present)" info "$trace"
run "index (plain)" index "$trace" -o "$scratch/plain.ntidx"
run "index --full" index --full "$trace" -o "$scratch/full2.ntidx"
run "stats (plain index, every core)" stats "$trace" --json
run "stats --threads 1 (plain index)" stats "$trace" --json --threads 1
run "stats (--full index)" stats "$trace" --json --index "$scratch/full.ntidx"
run "stats --no-index" stats "$trace" --json --no-index
run "stats --buckets 100" stats "$trace" --json --buckets 100
run "top" top "$trace"
run "query 10 ms window (jsonl)" query "$trace" --from "$mid" --to "$w10" --format jsonl
run "query 60 s window (jsonl)" query "$trace" --from "$mid" --to "$w60" --format jsonl
run "seek" seek "$trace" --at "$mid"
run "export chrome, 60 s window" export "$trace" --from "$mid" --to "$w60" --format chrome -o "$scratch/x.json"
run "export speedscope, 60 s window" export "$trace" --from "$mid" --to "$w60" --format speedscope -o "$scratch/x.ss"
run "slice, 60 s window" slice "$trace" --from "$mid" --to "$w60" -o "$scratch/s.nettrace"
rm -f "$scratch"/x.* "$scratch/s.nettrace"
run "slice --no-copy, 60 s window" slice "$trace" --from "$mid" --to "$w60" --no-copy -o "$scratch/s.nettrace"
rm -f "$scratch/s.nettrace"
for a in gc jit cpu exceptions alloc contention activities; do # issue 30's analyses of the whole trace
    run "$a (whole trace, text)" "$a" "$trace"
done
run "activities --format jsonl (whole trace)" activities "$trace" --format jsonl
run "report (whole trace)" report "$trace" -o "$scratch/r.html"
rm -f "$scratch/r.html"
run "gen --size 1G" gen -o "$scratch/g.nettrace" --size 1G
rm -f "$scratch/g.nettrace"
if [ "$quick" != --quick ]; then
    run "dump (file order, jsonl)" dump "$trace" --format jsonl
    run "dump --order time (jsonl)" dump "$trace" --order time --format jsonl
    run "query, whole trace (time order, jsonl)" query "$trace" --format jsonl
    run "slice, whole trace" slice "$trace" -o "$scratch/s.nettrace"
    rm -f "$scratch/s.nettrace"
fi
printf 'largest peak RSS: %d MB (target <= %d MB)\n' "$worst" "$limit_mb"
