#!/usr/bin/env bash
# ntidx side by side with TraceEvent (PerfView's reader) on one real trace: prints figures, asserts
# nothing (docs/conformance.md, "Side by side"). One run of each; the machine may be shared, so the
# figures that matter are the ratios of one run.
#
#   tools/bench/conformance_bench.sh TRACE [--cold] [--speedscope CPU_TRACE] [--skip-etlx] [--window-only | --pass-only]
#
#   full pass      TraceEvent: EventPipeEventSource.Process() with a handler reading every payload
#                  value (dumper pass); ntidx: stats --no-index (one pass, headers), index, stats
#                  through the index on 1 thread and on every core, every payload's values decoded
#                  (bench_decode -p, the like of TraceEvent's pass; on one thread, then -t on every
#                  core), dump (text and jsonl: every payload decoded and printed) to /dev/null.
#   10 ms window   TraceEvent's random-access route: TraceLog conversion to ETLX (time, size), then
#                  the window through the ETLX (dumper etlx; its open and window times), and its
#                  streaming route (Process() from the start, stopped past the window: dumper
#                  window); ntidx: query of the same window through the index (whole process), and
#                  seek. The window is 10 ms in the middle of the trace.
#   speedscope     with --speedscope CPU_TRACE (a CPU-sampling trace, dotnet-trace's default
#                  session): dotnet-trace convert --format speedscope against ntidx export --format
#                  speedscope, then samples per frame compared (tools/bench/speedscope_compare.py).
#   --window-only  the 10 ms window alone (the index built first), no full passes
#   --pass-only    the full passes alone, no window (what the dump and decode ratios need)
#   --cold         also the full passes and the window with the page cache emptied first (root).
#
# Needs the .NET SDK and tools/conformance.sh's build (build-dotnet/); ntidx in build/. The scratch
# folder (the index, the outputs) is made beside the trace, or in $NTIDX_BENCH_DIR when set (a trace in
# a read-only folder).
set -u
cd "$(dirname "$0")/../.."
root=$(pwd)
trace=$1
shift
cold=0 cpu_trace= skip_etlx=0 window_only=0 pass_only=0
while [ $# -gt 0 ]; do
  case $1 in
    --cold) cold=1; shift ;;
    --speedscope) cpu_trace=$2; shift 2 ;;
    --skip-etlx) skip_etlx=1; shift ;;
    --window-only) window_only=1; shift ;;
    --pass-only) pass_only=1; shift ;;
    *) echo "conformance_bench.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
ntidx=$root/build/tools/ntidx
dumper=(dotnet "$root/build-dotnet/bin/Dumper/release/Dumper.dll")
work=${NTIDX_BENCH_DIR:-$(dirname "$trace")}/bench.$$
mkdir -p "$work"
trap 'rm -rf "$work"' EXIT
cores=$(nproc)

# run NAME COMMAND...: wall seconds and peak RSS of one run (output to $work/NAME.out)
declare -A secs rss cpu
run() {
  local name=$1
  shift
  local t0 t1
  t0=$(date +%s%N)
  local out="$work/$name.out"
  case $name in dump_*) out=/dev/null ;; esac # the whole trace as text: measured, not kept
  /usr/bin/time -f '%e %M %U %S' -o "$work/$name.time" "$@" >"$out" 2>"$work/$name.err"
  local rc=$?
  t1=$(date +%s%N)
  local u k
  read -r s m u k < <(tail -1 "$work/$name.time") || true # a failed command adds a line before
  cpu[$name]=$(echo "${u:-0} ${k:-0}" | awk '{printf "%.2f", $1 + $2}')
  secs[$name]=$(echo "$t0 $t1" | awk '{printf "%.4f", ($2 - $1) / 1e9}')
  rss[$name]=$(( ${m:-0} / 1024 ))
  [ $rc -eq 0 ] || echo "  ($name exited $rc: $(tail -1 "$work/$name.err"))"
}
drop() { sync; echo 1 >/proc/sys/vm/drop_caches; }
ratio() { echo "$1 $2" | awk '{ if ($2 > 0) printf "%.1f", $1 / $2; else print "inf" }'; }

size=$(stat -c %s "$trace")
gb=$(echo "$size" | awk '{printf "%.2f", $1 / 1e9}')
info=$("$ntidx" info --json "$trace")
first=$(echo "$info" | python3 -c 'import json,sys; print(json.load(sys.stdin)["first_ts"])')
last=$(echo "$info" | python3 -c 'import json,sys; print(json.load(sys.stdin)["last_ts"])')
sync_ticks=$(echo "$info" | python3 -c 'import json,sys; print(json.load(sys.stdin)["sync_ticks"])')
freq=$(echo "$info" | python3 -c 'import json,sys; print(json.load(sys.stdin)["tick_frequency"])')
from=$(( first + (last - first) / 2 ))
to=$(( from + freq / 100 ))
from_ms=$(echo "$from $sync_ticks $freq" | awk '{printf "%.6f", ($1 - $2) * 1000 / $3}')
to_ms=$(echo "$to $sync_ticks $freq" | awk '{printf "%.6f", ($1 - $2) * 1000 / $3}')
printf 'trace %s: %s GB, %d cores, load average %s\n' "$trace" "$gb" "$cores" "$(cut -d' ' -f1-3 /proc/loadavg)"

if [ "$window_only" = 1 ]; then
  cat "$trace" >/dev/null
  "$ntidx" index "$trace" -o "$work/t.ntidx" >/dev/null 2>&1
else
# ---- full pass, page-cached ----
cat "$trace" >/dev/null
run cat cat "$trace"
run te_pass "${dumper[@]}" pass "$trace"
run stats_noindex "$ntidx" stats --no-index --json "$trace"
rm -f "$work/t.ntidx"
run index "$ntidx" index "$trace" -o "$work/t.ntidx"
run stats1 "$ntidx" stats --index "$work/t.ntidx" --threads 1 --json "$trace"
run statsn "$ntidx" stats --index "$work/t.ntidx" --threads "$cores" --json "$trace"
run decode_payloads "$root/build/tools/bench/bench_decode" -n -r 1 -p "$trace"
run decode_payloadsn "$root/build/tools/bench/bench_decode" -n -r 1 -p -t "$cores" "$trace"
run dump_text "$ntidx" dump "$trace"
run dump_jsonl "$ntidx" dump --format jsonl "$trace"
events=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["events"])' "$work/stats1.out")
te_events=$(sed -n 's/traceevent pass: \([0-9]*\) events.*/\1/p' "$work/te_pass.out")
echo "full pass (page-cached), $events events (TraceEvent dispatched $te_events):"
printf '  cat > /dev/null                   %8.2f s\n' "${secs[cat]}"
echo "  (wall seconds, CPU seconds (user+sys), peak RSS (mapped trace pages count); ratios: TraceEvent's / ntidx's, wall and CPU)"
printf '  TraceEvent Process(), payloads    %8.2f s  %7.2f s CPU  %6d MB RSS\n' "${secs[te_pass]}" "${cpu[te_pass]}" "${rss[te_pass]}"
for k in stats_noindex index stats1 statsn decode_payloads decode_payloadsn dump_text dump_jsonl; do
  case $k in
    stats_noindex) what='ntidx stats --no-index' ;;
    index) what="ntidx index ($(stat -c %s "$work/t.ntidx") bytes)" ;;
    stats1) what='ntidx stats --threads 1' ;;
    statsn) what="ntidx stats --threads $cores" ;;
    decode_payloads) what='ntidx every payload decoded' ;;
    decode_payloadsn) what="  the same on $cores threads" ;;
    dump_text) what='ntidx dump > /dev/null' ;;
    dump_jsonl) what='ntidx dump --format jsonl' ;;
  esac
  printf '  %-33s %8.2f s  %7.2f s CPU  %6d MB RSS   %sx / %sx TraceEvent\n' "$what" "${secs[$k]}" "${cpu[$k]}" \
    "${rss[$k]}" "$(ratio "${secs[te_pass]}" "${secs[$k]}")" "$(ratio "${cpu[te_pass]}" "${cpu[$k]}")"
done

fi
[ "$pass_only" = 1 ] && exit 0

# ---- a 10 ms window in the middle ----
run te_window "${dumper[@]}" window "$trace" "$from" "$to"
# ntidx's runs take milliseconds, where one sample is mostly noise, and where /usr/bin/time's own fork and
# exec would count: the median of 31 runs of each, timed around posix_spawn of ntidx itself (output kept from one more)
spawn_median() { # OUT ARGV...: the median wall seconds of 31 runs, output to /dev/null; then one run to OUT
  # The timed runs write to /dev/null: TraceEvent's window writes nothing, and a file rewritten at each run
  # would time ext4's truncate and page-cache writes of the output beside the query.
  python3 - "$@" <<'PY'
import os, sys, time
out, argv = sys.argv[1], sys.argv[2:]
ts = []
null = os.open(os.devnull, os.O_WRONLY)
for _ in range(31):
    t0 = time.perf_counter()
    pid = os.posix_spawn(argv[0], argv, os.environ, file_actions=[(os.POSIX_SPAWN_DUP2, null, 1)])
    os.waitpid(pid, 0)
    ts.append(time.perf_counter() - t0)
fd = os.open(out, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
pid = os.posix_spawn(argv[0], argv, os.environ, file_actions=[(os.POSIX_SPAWN_DUP2, fd, 1)])
os.waitpid(pid, 0)
os.close(fd)
print("%.5f" % sorted(ts)[len(ts) // 2])
PY
}
secs[query]=$(spawn_median "$work/query.out" "$ntidx" query "$trace" --index "$work/t.ntidx" --from "$from" --to "$to" --format jsonl)
secs[seek]=$(spawn_median "$work/seek.out" "$ntidx" seek "$trace" --index "$work/t.ntidx" --at "$from")
qn=$(wc -l <"$work/query.out")
echo "10 ms window [$from, $to) ($qn events in ntidx's query):"
printf '  TraceEvent streaming to it        %8.3f s   (%s)\n' "${secs[te_window]}" "$(cat "$work/te_window.out")"
if [ "$skip_etlx" = 0 ]; then
  run te_etlx "${dumper[@]}" etlx "$trace" "$work/t.etlx" "$from_ms" "$to_ms"
  printf '  TraceEvent TraceLog/ETLX          %8.2f s   %6d MB RSS  (%s)\n' "${secs[te_etlx]}" "${rss[te_etlx]}" \
    "$(cat "$work/te_etlx.out")"
  rm -f "$work/t.etlx"
fi
printf '  ntidx query (whole process, p50 of 31) %8.4f s   %sx faster than TraceEvent streaming\n' "${secs[query]}" \
  "$(ratio "${secs[te_window]}" "${secs[query]}")"
printf '  ntidx seek (whole process, p50 of 31) %8.4f s\n' "${secs[seek]}"

if [ "$cold" = 1 ]; then
  echo "cold (page cache emptied before each):"
  for k in te_pass stats_noindex statsn query te_window; do
    drop
    case $k in
      te_pass) run c_$k "${dumper[@]}" pass "$trace" ;;
      stats_noindex) run c_$k "$ntidx" stats --no-index --json "$trace" ;;
      statsn) run c_$k "$ntidx" stats --index "$work/t.ntidx" --threads "$cores" --json "$trace" ;;
      query) run c_$k "$ntidx" query "$trace" --index "$work/t.ntidx" --from "$from" --to "$to" --format jsonl ;;
      te_window) run c_$k "${dumper[@]}" window "$trace" "$from" "$to" ;;
    esac
    printf '  %-33s %8.3f s\n' "$k" "${secs[c_$k]}"
  done
  printf '  ntidx stats --threads %d: %sx TraceEvent pass; query: %sx TraceEvent streaming\n' "$cores" \
    "$(ratio "${secs[c_te_pass]}" "${secs[c_statsn]}")" "$(ratio "${secs[c_te_window]}" "${secs[c_query]}")"
fi

if [ -n "$cpu_trace" ]; then
  echo "speedscope of $cpu_trace ($(stat -c %s "$cpu_trace" | awk '{printf "%.2f GB", $1 / 1e9}')):"
  run dt_convert bash -c "cd '$root/tests/dotnet' && dotnet dotnet-trace convert --format speedscope '$cpu_trace' -o '$work/te'"
  run nt_export "$ntidx" export "$cpu_trace" --format speedscope -o "$work/nt.speedscope.json"
  run te_samples "${dumper[@]}" samples "$cpu_trace" "$work/s.etlx"
  printf '  dotnet-trace convert --format speedscope %8.2f s   %6d MB RSS\n' "${secs[dt_convert]}" "${rss[dt_convert]}"
  printf '  ntidx export --format speedscope        %8.2f s   %6d MB RSS   %sx faster\n' "${secs[nt_export]}" \
    "${rss[nt_export]}" "$(ratio "${secs[dt_convert]}" "${secs[nt_export]}")"
  python3 tools/bench/speedscope_compare.py "$work/te_samples.out" "$work/nt.speedscope.json" | sed 's/^/  /'
fi
