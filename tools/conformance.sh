#!/usr/bin/env bash
# The live cross-check against the real .NET runtime and TraceEvent (docs/conformance.md).
#
#   tools/conformance.sh [--ntidx PATH] [--work DIR] [--mb N] [--keep]
#   tools/conformance.sh --write-golden      re-record tests/dotnet/golden (then review the diff)
#
# Needs the .NET SDK (dotnet 10) and a NuGet feed that serves Microsoft.Diagnostics.Tracing.
# TraceEvent 4.0.0 and dotnet-trace 10.0.x (a plain restore). It builds tests/dotnet/workload and
# tests/dotnet/dumper, records fresh traces with the runtime's file output (whole, streamed, killed
# mid-run, cut) and with dotnet-trace, writes traces with ntidx itself (gen V5 and V6, the
# one-collect shape, slices of real and generated traces), has TraceEvent read each one, and holds
# ntidx against it with tools/conformance_compare.py. Ends with "N passed, N failed"; exit status 0
# when nothing failed. ntidx must be built first (tools/test.sh, or meson/ninja in build/).
set -u
cd "$(dirname "$0")/.."
root=$(pwd)

ntidx=$root/build/tools/ntidx
work=$root/build-dotnet/conformance
mb=16
keep=0
write_golden=0
while [ $# -gt 0 ]; do
  case $1 in
    --ntidx) ntidx=$(realpath "$2"); shift 2 ;;
    --work) work=$2; shift 2 ;;
    --mb) mb=$2; shift 2 ;;
    --keep) keep=1; shift ;;
    --write-golden) write_golden=1; shift ;;
    -h|--help) sed -n '2,15p' "$0"; exit 0 ;;
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
trace_tool() { (cd "$root/tests/dotnet" && dotnet dotnet-trace "$@"); }

providers='Microsoft-Windows-DotNETRuntime:0x80400BE01D:5,Microsoft-DotNETCore-SampleProfiler:0:5'
providers+=',Ntidx-Workload:0xFFFFFFFF:5,Ntidx-TraceLogging:0xFFFFFFFF:5,System.Threading.Tasks.TplEventSource:0x80:5'

# The runtime's own file output: runtime_file OUT [streaming 0|1] -- workload arguments
runtime_file() {
  local out=$1 streaming=$2
  shift 3
  rm -f "$out"
  DOTNET_EnableEventPipe=1 DOTNET_EventPipeOutputPath=$out DOTNET_EventPipeOutputStreaming=$streaming \
    DOTNET_EventPipeConfig=$providers dotnet "$workload" "$@" >>"$work/record.log" 2>&1
}

# A streamed run killed (SIGKILL) once its trace passes BYTES: a real truncated trace.
killed_run() {
  local out=$1 bytes=$2
  rm -f "$out"
  DOTNET_EnableEventPipe=1 DOTNET_EventPipeOutputPath=$out DOTNET_EventPipeOutputStreaming=1 \
    DOTNET_EventPipeConfig=$providers dotnet "$workload" --forever --seconds 120 >>"$work/record.log" 2>&1 &
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
  golden=$root/tests/dotnet/golden
  record runtime-file runtime_file "$work/runtime-file.nettrace" 0 -- --iterations 12 --threads 3 &&
    cp "$work/runtime-file.nettrace" "$golden/runtime-file.nettrace"
  record dotnet-trace trace_tool collect -o "$work/dotnet-trace.nettrace" --providers "$providers" \
    -- dotnet "$workload" --iterations 12 --threads 3 >>"$work/record.log" 2>&1 &&
    cp "$work/dotnet-trace.nettrace" "$golden/dotnet-trace.nettrace"
  record killed killed_run "$work/killed.nettrace" 700000 &&
    cp "$work/killed.nettrace" "$golden/killed.nettrace"
  # a trace ntidx writes: V6 with label overrides, flushes, thread removal and drops
  "$ntidx" gen -q -o "$golden/gen-v6.nettrace" --format-version 6 --events 6000 --seed 13 --threads 4 \
    --drop-rate 0.02 --metadata-flush-every 2 --thread-flush-every 3 --remove-threads
  "$ntidx" gen -q -o "$golden/gen-one-collect.nettrace" --shape one-collect --events 20000 --seed 23 --unknown-end
  for t in runtime-file dotnet-trace killed gen-v6 gen-one-collect; do
    "${dumper[@]}" dump "$golden/$t.nettrace" | xz -9e >"$golden/$t.traceevent.jsonl.xz"
    if $python tools/conformance_compare.py "$ntidx" "$golden/$t.nettrace" "$golden/$t.traceevent.jsonl.xz" --summary; then
      ok "golden $t"
    else
      bad "golden $t"
    fi
  done
  "${dumper[@]}" names | grep -v $'\t65535\t' >"$golden/traceevent-names.tsv"
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
  compare runtime-file "$work/runtime-file.nettrace"
record runtime-stream runtime_file "$work/runtime-stream.nettrace" 1 -- --mb "$mb" \
  --watch "$work/runtime-stream.nettrace" --threads 6 &&
  compare runtime-stream "$work/runtime-stream.nettrace"
record dotnet-trace trace_tool collect -o "$work/dotnet-trace.nettrace" --providers "$providers" \
  -- dotnet "$workload" --iterations 40 --threads 4 >>"$work/record.log" 2>&1 &&
  compare dotnet-trace "$work/dotnet-trace.nettrace"
# dotnet-trace's default session (its CPU sampling profile)
record dotnet-trace-default trace_tool collect -o "$work/dotnet-trace-default.nettrace" \
  -- dotnet "$workload" --iterations 40 --threads 4 >>"$work/record.log" 2>&1 &&
  compare dotnet-trace-default "$work/dotnet-trace-default.nettrace"
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

finish
