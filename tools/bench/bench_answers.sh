#!/usr/bin/env bash
# Issue 30's speed figures in one run (item 4), on one real trace: prints figures and ratios, asserts
# nothing. The machine may be shared: compare the figures of one run only.
#
#   tools/bench/bench_answers.sh TRACE [--reps N] [--threads N] [--analyses gc,jit,...] [--no-windows]
#
#   1. TraceEvent: `dumper runtime-pass TRACE`, the TraceLoadedDotNetRuntime pass over the whole trace
#      (source.NeedLoadedDotNetRuntimes(), Process(), GC.Stats()), what a program written against
#      TraceEvent pays before its first GC or JIT answer; its seconds, as the dumper's stopwatch says.
#   2. ntidx: tools/bench/bench_analysis -T SECONDS -w: each analysis of the whole trace through a
#      plain and a --full index on 1 thread and on N ("threads ... SPEEDUP", target 1.8x on 2 cores),
#      against TraceEvent's seconds ("vs-traceevent ... RATIO", target 20x), windows of 1/1000 to 1/2
#      of the trace ("window ANALYSIS FRACTION SECONDS MB_READ COST_PER_WHOLE"), and the bytes
#      `ntidx gc` reads with a --full index beside those without ("gc-bytes"), and the floor under every
#      whole-trace analysis: the statistics through the plain index on N threads, every event header read
#      and no payload decoded ("floor stats plain N SECONDS vs-traceevent RATIO").
#
# Needs the .NET SDK and the dumper built (tools/conformance.sh, or dotnet build -c Release
# tests/dotnet/dumper/Dumper.csproj), bench_analysis in build/tools/bench (a release build).
set -u
cd "$(dirname "$0")/../.."
root=$(pwd)
trace=${1:?usage: bench_answers.sh TRACE [--reps N] [--threads N]}
shift
reps=1 threads=0 only=() windows=(-w)
while [ $# -gt 0 ]; do
  case $1 in
    --reps) reps=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    --analyses) only=(-a "$2"); shift 2 ;;
    --no-windows) windows=(); shift ;;
    *) echo "bench_answers.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
bench=${NTIDX_BENCH_ANALYSIS:-$root/build/tools/bench/bench_analysis}
dumper=(dotnet "$root/build-dotnet/bin/Dumper/release/Dumper.dll")
export DOTNET_CLI_TELEMETRY_OPTOUT=1 DOTNET_NOLOGO=1

echo "trace $trace $(stat -c %s "$trace") bytes, $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
# Both sides on a cached trace: TraceEvent's pass runs first, and a cold one would time the disk. How the
# cache came to hold it matters to ntidx's side: a trace read from disk is cached in 2 MB folios, mapped
# whole; one just written by the runtime on this machine, or read back a page at a time, in 4 KB folios,
# mapped page by page (on the real 1 GB trace the floor below was 22x TraceEvent the one way and 15x the
# other). So that runs compare, the trace's cached pages are dropped (dd's nocache: POSIX_FADV_DONTNEED) and
# read again in one pass, the state of a trace copied or downloaded to the machine that reads it.
dd if="$trace" iflag=nocache count=0 status=none 2>/dev/null || true
cat "$trace" >/dev/null
echo "page cache: the trace's pages dropped and read again whole (large folios)"
line=$("${dumper[@]}" runtime-pass "$trace") || { echo "bench_answers.sh: the dumper failed" >&2; exit 1; }
echo "$line"
te=$(sed -n 's/.* \([0-9.]*\) s$/\1/p' <<<"$line")
[ -n "$te" ] || { echo "bench_answers.sh: no seconds in: $line" >&2; exit 1; }
"$bench" -r "$reps" -t "$threads" -T "$te" "${windows[@]}" "${only[@]}" "$trace"
