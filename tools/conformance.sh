#!/usr/bin/env bash
# The live cross-check against the real .NET runtime and TraceEvent (docs/conformance.md).
#
#   tools/conformance.sh [--ntidx PATH] [--work DIR] [--mb N] [--keep] [--no-analyses]
#   tools/conformance.sh --write-golden [--golden NAME,...] [--no-analyses]
#                        re-record tests/dotnet/golden, all of it or the named traces (runtime-file,
#                        dotnet-trace, killed, analyses, gen-v6, gen-one-collect, names); review the diff
#
# Needs the .NET SDK (dotnet 10) and a NuGet feed that serves Microsoft.Diagnostics.Tracing.
# TraceEvent 4.0.0 and dotnet-trace 10.0.x (a plain restore). It builds tests/dotnet/workload and
# tests/dotnet/dumper, records fresh traces with the runtime's file output (whole, streamed, killed
# mid-run, cut, under server GC) and with dotnet-trace, writes traces with ntidx itself (gen V5 and
# V6, the one-collect shape, slices of real and generated traces), has TraceEvent read each one, and
# holds ntidx against it with tools/conformance_compare.py. Ends with "N passed, N failed"; exit
# status 0 when nothing failed. ntidx must be built first (tools/test.sh, or meson/ninja in build/).
#
# It also holds ntidx's analyses (ntidx gc and gc --summary, jit, cpu, exceptions, alloc,
# contention, activities) against TraceEvent's computers on the real traces, one line per analysis
# and trace (tools/conformance_compare_analyses.py); with --write-golden it also checks the
# committed golden analyses. --no-analyses (or NTIDX_CONFORMANCE_ANALYSES=0) leaves them out;
# --analyses is the default, still taken.
set -u
cd "$(dirname "$0")/.."
root=$(pwd)

ntidx=$root/build/tools/ntidx
work=$root/build-dotnet/conformance
mb=16
keep=0
write_golden=0
golden_only=
analyses=${NTIDX_CONFORMANCE_ANALYSES:-1}
while [ $# -gt 0 ]; do
  case $1 in
    --ntidx) ntidx=$(realpath "$2"); shift 2 ;;
    --work) work=$2; shift 2 ;;
    --mb) mb=$2; shift 2 ;;
    --keep) keep=1; shift ;;
    --write-golden) write_golden=1; shift ;;
    --golden) golden_only=$2; shift 2 ;;
    --analyses) analyses=1; shift ;;
    --no-analyses) analyses=0; shift ;;
    -h|--help) sed -n '2,21p' "$0"; exit 0 ;;
    *) echo "conformance.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done

passed=0
failed=0
ok() { passed=$((passed + 1)); echo "conformance: $1: ok"; }
bad() { failed=$((failed + 1)); echo "conformance: $1: FAILED${2:+ ($2)}"; }
finish() {
  [ "$keep" = 1 ] || rm -rf "$work"
  echo "$passed passed, $failed failed"
  [ "$failed" -eq 0 ]
  exit
}

if ! command -v dotnet >/dev/null 2>&1; then
  bad "dotnet" "the .NET SDK is not installed: tools/conformance.sh needs it (README)"
  finish
fi
if [ ! -x "$ntidx" ]; then
  bad "ntidx" "$ntidx is not built (run tools/test.sh or ninja -C build)"
  finish
fi
python=/usr/bin/python3
[ -x $python ] || python=python3

rm -rf "$work"
mkdir -p "$work"
export DOTNET_CLI_TELEMETRY_OPTOUT=1 DOTNET_NOLOGO=1

# ---- build the C# programs and the dotnet-trace tool -------------------------------------------
log=$work/build.log
if (cd tests/dotnet && dotnet tool restore) >"$log" 2>&1 &&
   dotnet build -c Release tests/dotnet/workload/Workload.csproj >>"$log" 2>&1 &&
   dotnet build -c Release tests/dotnet/dumper/Dumper.csproj >>"$log" 2>&1; then
  ok "build"
else
  tail -30 "$log"
  bad "build" "see the log above"
  finish
fi
workload=$root/build-dotnet/bin/Workload/release/Workload.dll
dumper=(dotnet "$root/build-dotnet/bin/Dumper/release/Dumper.dll")
# dotnet-trace, run from tests/dotnet (its tool manifest); the workload it starts inherits gen0 below
trace_tool() { (cd "$root/tests/dotnet" && DOTNET_GCgen0size=$gen0 dotnet dotnet-trace "$@"); }

providers='Microsoft-Windows-DotNETRuntime:0x80400BE01D:5,Microsoft-DotNETCore-SampleProfiler:0:5'
providers+=',Ntidx-Workload:0xFFFFFFFF:5,Ntidx-TraceLogging:0xFFFFFFFF:5,System.Threading.Tasks.TplEventSource:0x80:5'
# A 4 MB gen0 budget for every run of the workload: the runtime sizes it from the L3 cache (260 MB
# on the project's machines, where a short run saw no allocation-triggered GC at all); with it every
# trace has gen0 and gen1 GCs and foreground GCs inside background ones (tests/dotnet/README.md).
gen0=0x400000

# The runtime's own file output: runtime_file OUT [streaming 0|1] -- workload arguments
runtime_file() {
  local out=$1 streaming=$2
  shift 3
  rm -f "$out"
  DOTNET_EnableEventPipe=1 DOTNET_EventPipeOutputPath=$out DOTNET_EventPipeOutputStreaming=$streaming \
    DOTNET_EventPipeConfig=$providers DOTNET_GCgen0size=$gen0 dotnet "$workload" "$@" >>"$work/record.log" 2>&1
}

# The same under server GC
server_gc_file() { DOTNET_gcServer=1 runtime_file "$@"; }

# A streamed run killed (SIGKILL) once its trace passes BYTES: a real truncated trace.
killed_run() {
  local out=$1 bytes=$2
  rm -f "$out"
  DOTNET_EnableEventPipe=1 DOTNET_EventPipeOutputPath=$out DOTNET_EventPipeOutputStreaming=1 \
    DOTNET_EventPipeConfig=$providers DOTNET_GCgen0size=$gen0 dotnet "$workload" --forever --seconds 120 >>"$work/record.log" 2>&1 &
  local pid=$! waited=0
  while [ "$waited" -lt 1200 ]; do
    if [ -f "$out" ] && [ "$(stat -c %s "$out")" -ge "$bytes" ]; then break; fi
    sleep 0.1
    waited=$((waited + 1))
  done
  kill -9 "$pid" 2>/dev/null
  wait "$pid" 2>/dev/null
  [ -s "$out" ]
}

# analyses NAME TRACE: unless --no-analyses, TraceEvent's computers' answers for TRACE
# ($work/NAME.ANALYSIS.traceevent.jsonl), and ntidx's held against them, one line per analysis.
analysis_names=(gc gc-summary jit cpu exceptions alloc contention activities cpu-by-thread)
analyses() {
  [ "$analyses" = 1 ] || return 0
  local name=$1 trace=$2 a
  for a in "${analysis_names[@]}"; do
    if ! "${dumper[@]}" "$a" "$trace" >"$work/$name.$a.traceevent.jsonl" 2>"$work/$name.$a.dumper.err"; then
      head -5 "$work/$name.$a.dumper.err"
      bad "analysis $a $name" "TraceEvent's side failed"
    elif $python tools/conformance_compare_analyses.py "$ntidx" "$trace" "$work/$name" --analysis "$a" \
         >"$work/$name.$a.compare" 2>&1; then
      ok "analysis $a $name ($(head -1 "$work/$name.$a.compare" | sed 's/^[a-z-]*: //'))"
    else
      sed -n '1,22p' "$work/$name.$a.compare"
      bad "analysis $a $name"
    fi
  done
}

# compare NAME TRACE: TraceEvent reads TRACE, the comparer holds ntidx against it.
compare() {
  local name=$1 trace=$2 dump=$work/$1.traceevent.jsonl
  "${dumper[@]}" dump "$trace" >"$dump" 2>"$work/$name.dumper.err"
  if $python tools/conformance_compare.py "$ntidx" "$trace" "$dump" --summary >"$work/$name.compare" 2>&1; then
    ok "$name ($(tail -1 "$work/$name.compare" | sed 's/.*: \([0-9]* traceevent events\).*/\1/'))"
  else
    sed -n '1,25p' "$work/$name.compare"
    bad "$name"
  fi
}

# A writer run: record NAME COMMAND... (the trace is $work/NAME.nettrace)
record() {
  local name=$1
  shift
  if "$@" && [ -s "$work/$name.nettrace" ]; then
    return 0
  fi
  tail -20 "$work/record.log"
  bad "$name" "the writer did not produce a trace"
  return 1
}

if [ "$write_golden" = 1 ]; then
  # The committed real traces (tests/dotnet/golden, a few MB in all): small, one per writer.
  # --golden NAME,... re-records only those (default: all of them).
  golden=$root/tests/dotnet/golden
  wanted() { [ -z "$golden_only" ] || [[ ",$golden_only," == *",$1,"* ]]; }
  wanted runtime-file &&
    record runtime-file runtime_file "$work/runtime-file.nettrace" 0 -- --iterations 12 --threads 3 &&
    cp "$work/runtime-file.nettrace" "$golden/runtime-file.nettrace"
  wanted dotnet-trace &&
    record dotnet-trace trace_tool collect -o "$work/dotnet-trace.nettrace" --providers "$providers" \
      -- dotnet "$workload" --iterations 12 --threads 3 >>"$work/record.log" 2>&1 &&
    cp "$work/dotnet-trace.nettrace" "$golden/dotnet-trace.nettrace"
  wanted killed &&
    record killed killed_run "$work/killed.nettrace" 700000 &&
    cp "$work/killed.nettrace" "$golden/killed.nettrace"
  # every kind of record of the analyses (the workload's scenarios), and TraceEvent's answers
  if wanted analyses &&
     record analyses runtime_file "$work/analyses.nettrace" 0 -- --iterations 6 --threads 2; then
    cp "$work/analyses.nettrace" "$golden/analyses.nettrace"
    for a in "${analysis_names[@]}"; do
      "${dumper[@]}" "$a" "$golden/analyses.nettrace" | xz -9e >"$golden/analyses.$a.traceevent.jsonl.xz"
    done
    if [ "$analyses" = 1 ]; then
      if $python tools/conformance_compare_analyses.py "$ntidx" "$golden/analyses.nettrace" "$golden/analyses"; then
        ok "golden analyses"
      else
        bad "golden analyses"
      fi
    fi
  fi
  # a trace ntidx writes: V6 with label overrides, flushes, thread removal and drops
  wanted gen-v6 &&
    "$ntidx" gen -q -o "$golden/gen-v6.nettrace" --format-version 6 --events 6000 --seed 13 --threads 4 \
      --drop-rate 0.02 --metadata-flush-every 2 --thread-flush-every 3 --remove-threads
  wanted gen-one-collect &&
    "$ntidx" gen -q -o "$golden/gen-one-collect.nettrace" --shape one-collect --events 20000 --seed 23 --unknown-end
  for t in runtime-file dotnet-trace killed analyses gen-v6 gen-one-collect; do
    wanted "$t" || continue
    "${dumper[@]}" dump "$golden/$t.nettrace" | xz -9e >"$golden/$t.traceevent.jsonl.xz"
    if $python tools/conformance_compare.py "$ntidx" "$golden/$t.nettrace" "$golden/$t.traceevent.jsonl.xz" --summary; then
      ok "golden $t"
    else
      bad "golden $t"
    fi
  done
  wanted names && "${dumper[@]}" names | grep -v $'\t65535\t' >"$golden/traceevent-names.tsv"
  ls -l "$golden"
  finish
fi

# ---- TraceEvent's names: still the list the SDK-free test holds ntidx against -------------------
if "${dumper[@]}" names | grep -v $'\t65535\t' | diff - tests/dotnet/golden/traceevent-names.tsv >"$work/names.diff"; then
  ok "traceevent-names current"
else
  head -20 "$work/names.diff"
  bad "traceevent-names current" "TraceEvent names runtime events otherwise than tests/dotnet/golden/traceevent-names.tsv"
fi

# ---- real traces from the .NET 10 runtime ------------------------------------------------------
record runtime-file runtime_file "$work/runtime-file.nettrace" 0 -- --iterations 40 --threads 4 &&
  compare runtime-file "$work/runtime-file.nettrace" &&
  analyses runtime-file "$work/runtime-file.nettrace"
record runtime-stream runtime_file "$work/runtime-stream.nettrace" 1 -- --mb "$mb" \
  --watch "$work/runtime-stream.nettrace" --threads 6 &&
  compare runtime-stream "$work/runtime-stream.nettrace" &&
  analyses runtime-stream "$work/runtime-stream.nettrace"
# server GC: a heap per core, its joins, background GCs on GC threads, DATAS events
record server-gc server_gc_file "$work/server-gc.nettrace" 0 -- --iterations 40 --threads 4 &&
  compare server-gc "$work/server-gc.nettrace" &&
  analyses server-gc "$work/server-gc.nettrace"
record dotnet-trace trace_tool collect -o "$work/dotnet-trace.nettrace" --providers "$providers" \
  -- dotnet "$workload" --iterations 40 --threads 4 >>"$work/record.log" 2>&1 &&
  compare dotnet-trace "$work/dotnet-trace.nettrace" &&
  analyses dotnet-trace "$work/dotnet-trace.nettrace"
# dotnet-trace's default session (its CPU sampling profile)
record dotnet-trace-default trace_tool collect -o "$work/dotnet-trace-default.nettrace" \
  -- dotnet "$workload" --iterations 40 --threads 4 >>"$work/record.log" 2>&1 &&
  compare dotnet-trace-default "$work/dotnet-trace-default.nettrace" &&
  analyses dotnet-trace-default "$work/dotnet-trace-default.nettrace"
# #13's speedscope target, on that CPU profile: ntidx's export has TraceEvent's samples per frame (the
# counts dotnet-trace's speedscope export is built from: the dumper's `samples`, through an ETLX)
if [ -s "$work/dotnet-trace-default.nettrace" ]; then
  if "$ntidx" export "$work/dotnet-trace-default.nettrace" --format speedscope -o "$work/cpu.speedscope.json" \
       2>>"$work/record.log" &&
     "${dumper[@]}" samples "$work/dotnet-trace-default.nettrace" "$work/cpu.etlx" >"$work/cpu.samples.json" \
       2>>"$work/record.log" &&
     $python tools/bench/speedscope_compare.py "$work/cpu.samples.json" "$work/cpu.speedscope.json" \
       >"$work/speedscope.compare" 2>&1; then
    ok "speedscope samples per frame ($(head -1 "$work/speedscope.compare" | sed 's/^speedscope: //'))"
  else
    head -22 "$work/speedscope.compare" 2>/dev/null
    bad "speedscope samples per frame"
  fi
  rm -f "$work/cpu.etlx"
fi
record killed killed_run "$work/killed.nettrace" 3000000 &&
  compare killed "$work/killed.nettrace"
# copies cut inside a block, a third and two thirds in
if [ -s "$work/runtime-stream.nettrace" ]; then
  size=$(stat -c %s "$work/runtime-stream.nettrace")
  for part in 1 2; do
    head -c $((size * part / 3 + 12345)) "$work/runtime-stream.nettrace" >"$work/cut-$part.nettrace"
    compare "cut-$part" "$work/cut-$part.nettrace"
  done
fi

# ---- traces ntidx writes: TraceEvent must read them without an error, with the same events ------
gen() { # NAME ARGS...
  local name=$1
  shift
  if "$ntidx" gen -q -o "$work/$name.nettrace" "$@" 2>>"$work/record.log"; then
    compare "$name" "$work/$name.nettrace"
  else
    bad "$name" "ntidx gen failed"
  fi
}
gen gen-v5 --format-version 5 --events 40000 --seed 5
gen gen-v5-drops --format-version 5 --events 40000 --seed 6 --threads 3 --drop-rate 0.03
gen gen-v6 --format-version 6 --events 40000 --seed 7
gen gen-v6-flushes --format-version 6 --events 40000 --seed 8 --threads 5 --drop-rate 0.02 \
  --metadata-flush-every 3 --thread-flush-every 2 --remove-threads
gen gen-v6-uncompressed --format-version 6 --events 20000 --seed 9 --uncompressed
# V6 as one-collect (dotnet-trace collect-linux) writes it, its end of capture known and not
gen gen-one-collect --shape one-collect --size 8M --seed 21
gen gen-one-collect-unknown-end --shape one-collect --size 8M --seed 22 --unknown-end
# (V5 --uncompressed is left out: TraceEvent cannot read the spec's uncompressed V4/V5 events,
#  docs/conformance.md)

# slices of a real trace and of generated ones, blocks copied and re-encoded, with a filter
slice() { # NAME SOURCE ARGS...
  local name=$1 src=$2
  shift 2
  if [ ! -s "$src" ]; then
    bad "$name" "no source trace"
  elif "$ntidx" slice "$src" -o "$work/$name.nettrace" "$@" 2>>"$work/record.log"; then
    compare "$name" "$work/$name.nettrace"
  else
    bad "$name" "ntidx slice failed"
  fi
}
slice slice-runtime "$work/runtime-stream.nettrace" --from 200ms --to 1s
slice slice-runtime-recoded "$work/runtime-stream.nettrace" --from 200ms --to 1s --no-copy
slice slice-runtime-provider "$work/runtime-stream.nettrace" --from 100ms --provider Microsoft-Windows-DotNETRuntime
slice slice-gen-v5 "$work/gen-v5.nettrace" --from 20ms --to 300ms
slice slice-gen-v6 "$work/gen-v6-flushes.nettrace" --from 20ms --to 300ms
slice slice-gen-v6-recoded "$work/gen-v6-flushes.nettrace" --from 20ms --to 300ms --no-copy
slice slice-gen-v6-event "$work/gen-v6.nettrace" --event Heartbeat
slice slice-one-collect "$work/gen-one-collect-unknown-end.nettrace" --from 10s --to 30s --no-copy

# ---- the committed golden traces, with a fresh TraceEvent dump ----------------------------------
for t in tests/dotnet/golden/*.nettrace; do
  compare "golden-$(basename "$t" .nettrace)" "$t"
done
analyses golden-analyses tests/dotnet/golden/analyses.nettrace

finish
