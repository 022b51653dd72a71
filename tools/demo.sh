#!/usr/bin/env bash
# The main job, end to end: set up, build, then on a trace (an embedded
# default when no argument is given: a generated sample) print what it is and
# its statistics, index it, and query a time window through the index.
#
# usage: tools/demo.sh [TRACE]
set -eu
cd "$(dirname "$0")/.."
./tools/setup-deps.sh
[ -f build/build.ninja ] || meson setup build -Dbuildtype=release >/dev/null
ninja -C build >/dev/null
ntidx=build/tools/ntidx

trace=${1:-}
if [ -z "$trace" ]; then
  mkdir -p build/demo
  trace=build/demo/sample.nettrace
  echo "== generating a sample V6 trace: $trace"
  "$ntidx" gen -o "$trace" --format-version 6 --size 64M --seed 1 --threads 8
fi

echo "== ntidx info $trace"
"$ntidx" info "$trace"
echo
echo "== ntidx stats $trace"
"$ntidx" stats "$trace" | head -30
echo
echo "== ntidx index $trace"
"$ntidx" index "$trace"
echo
# A time window: the 10 ms after the trace's midpoint, in time order, through the index.
read -r first last freq < <("$ntidx" info "$trace" --json | python3 -c '
import json, sys; s = json.load(sys.stdin); print(s["first_ts"], s["last_ts"], s["tick_frequency"])')
from=$(( first + (last - first) / 2 )); to=$(( from + freq / 100 ))
echo "== ntidx query $trace --from $from --to $to (10 ms from the middle; first 20 events)"
"$ntidx" query "$trace" --from "$from" --to "$to" --stats | head -20
echo
echo "== ntidx stats $trace --from $from --to $to"
"$ntidx" stats "$trace" --from "$from" --to "$to" | head -20
