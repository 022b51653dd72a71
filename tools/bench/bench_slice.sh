#!/bin/sh
# Benchmark of `ntidx slice`: a 1-second window cut out of a large generated
# trace, against a full scan of the same trace (`ntidx stats --no-index`) in
# the same run. Prints figures; asserts nothing about time.
#
# usage: bench_slice.sh [--size N[K|M|G]] [--format-version 5|6] [--dir DIR] [--ntidx PATH] [--reps N] [--keep]
#   --size            trace size to generate (default 2G; the issue's case is --size 10G)
#   --format-version  of the generated trace (default 6)
#   --dir             scratch directory (default: a new one under $TMPDIR or /tmp)
#   --ntidx           the ntidx command (default: ../ntidx next to this script, i.e. build/tools/ntidx)
#   --reps            slices timed, the median is reported (default 5)
#   --keep            keep the trace, its index and the slice
#
# The trace is generated once per size (DIR/bench-SIZE-vV.nettrace is reused
# when --dir is given and it exists) and indexed once; both are reported but
# are not part of the slice's time. Every timing runs on a warm page cache.
set -eu

size=2G
fv=6
dir=
ntidx=
reps=5
keep=0
here=$(cd "$(dirname "$0")" && pwd)
while [ $# -gt 0 ]; do
    case "$1" in
    --size) size=$2; shift 2 ;;
    --format-version) fv=$2; shift 2 ;;
    --dir) dir=$2; shift 2 ;;
    --ntidx) ntidx=$2; shift 2 ;;
    --reps) reps=$2; shift 2 ;;
    --keep) keep=1; shift ;;
    -h|--help) sed -n '2,17p' "$0"; exit 0 ;;
    *) echo "bench_slice.sh: unknown argument $1" >&2; exit 2 ;;
    esac
done
[ -n "$ntidx" ] || ntidx=$here/../ntidx
[ -x "$ntidx" ] || { echo "bench_slice.sh: no ntidx at $ntidx (use --ntidx)" >&2; exit 2; }
own_dir=0
if [ -z "$dir" ]; then
    dir=$(mktemp -d "${TMPDIR:-/tmp}/bench-slice-XXXXXX")
    own_dir=1
fi
mkdir -p "$dir"
trace=$dir/bench-$size-v$fv.nettrace
out=$dir/slice.nettrace
cleanup() {
    [ "$keep" = 1 ] && return 0
    rm -f "$out" "$out.ntidx"
    if [ "$own_dir" = 1 ]; then rm -f "$trace" "$trace.ntidx"; rmdir "$dir" 2>/dev/null || true; fi
}
trap cleanup EXIT

now() { date +%s.%N; }
elapsed() { echo "$2 - $1" | bc -l; }
# seconds, 3 decimals
fmt() { printf '%.3f' "$1"; }

if [ ! -f "$trace" ]; then
    t0=$(now)
    "$ntidx" gen -o "$trace" --size "$size" --format-version "$fv" -q
    echo "generated:   $trace ($(stat -c %s "$trace") bytes) in $(fmt "$(elapsed "$t0" "$(now)")") s"
fi
bytes=$(stat -c %s "$trace")
t0=$(now)
"$ntidx" index "$trace" >/dev/null 2>&1
echo "index:       built or checked in $(fmt "$(elapsed "$t0" "$(now)")") s (once per trace; not part of the slice)"

# A 1-second window in the middle of the trace.
info=$("$ntidx" info "$trace" --json)
field() { echo "$info" | sed -n "s/.*\"$1\":\([0-9]*\).*/\1/p"; }
first=$(field first_ts)
last=$(field last_ts)
freq=$(field tick_frequency)
from=$(echo "$first + ($last - $first) / 2" | bc)
to=$(echo "$from + $freq" | bc)

# Warm the page cache for both sides alike: the full scan reads every byte.
cat "$trace" >/dev/null

times=
stats=
i=0
while [ "$i" -lt "$reps" ]; do
    t0=$(now)
    stats=$("$ntidx" slice "$trace" --from "$from" --to "$to" -o "$out" --stats 2>&1 >/dev/null)
    times="$times $(elapsed "$t0" "$(now)")"
    i=$((i + 1))
done
median=$(for t in $times; do echo "$t"; done | sort -n | sed -n "$(( (reps + 1) / 2 ))p")
best=$(for t in $times; do echo "$t"; done | sort -n | head -1)
read_bytes=$(echo "$stats" | sed -n 's/.*; \([0-9]*\) bytes of the trace read.*/\1/p')
events=$(echo "$stats" | sed -n 's/^slice: \([0-9]*\) events.*/\1/p')
out_bytes=$(stat -c %s "$out")
# the same window with every event re-encoded (no block copied whole)
ntimes=
i=0
while [ "$i" -lt "$reps" ]; do
    t0=$(now)
    "$ntidx" slice "$trace" --from "$from" --to "$to" -o "$out" --no-copy
    ntimes="$ntimes $(elapsed "$t0" "$(now)")"
    i=$((i + 1))
done
nmedian=$(for t in $ntimes; do echo "$t"; done | sort -n | sed -n "$(( (reps + 1) / 2 ))p")

t0=$(now)
"$ntidx" stats "$trace" --no-index >/dev/null
scan=$(elapsed "$t0" "$(now)")

echo "trace:       $bytes bytes, V$fv, ticks $first..$last at $freq Hz"
echo "window:      [$from, $to) (1 s in the middle)"
echo "slice:       median $(fmt "$median") s, best $(fmt "$best") s over $reps runs (whole process, warm cache)"
echo "             $events events, $out_bytes bytes written"
echo "             $read_bytes bytes of the trace read ($(echo "scale=4; 100 * $read_bytes / $bytes" | bc)% of it)"
echo "             $stats"
echo "re-encoded:  median $(fmt "$nmedian") s with --no-copy (every event through the writer)"
echo "full scan:   $(fmt "$scan") s (ntidx stats --no-index: every event header decoded)"
echo "ratio:       the slice takes $(echo "scale=2; 100 * $median / $scan" | bc)% of a full scan's time"
