#!/usr/bin/env bash
# Set up, build, and run every test: the normal build and a sanitizer
# (ASan+UBSan) build run the same suite. Ends with "N passed, N failed".
set -u
cd "$(dirname "$0")/.."
./tools/setup-deps.sh || { echo "0 passed, 1 failed"; exit 1; }

# An UndefinedBehaviorSanitizer report fails the test that triggers it (by default it is only printed).
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}

passed=0
failed=0

# The sample traces (tests/data, decompressed into BUILD/tests/data/traces) are read by every test and
# written by none: a test that leaves a file beside them (an index built beside a trace) or changes one
# changes what the others read, so it fails the run. The same holds for ../shared/traces when it is there
# (no test needs it).
snapshot() { # folder: its names and its files' checksums
  (cd "$1" 2>/dev/null && ls -A && sha256sum -- *)
}
unchanged() { # folder, snapshot before the tests
  local now
  now=$(snapshot "$1")
  [ "$now" = "$2" ] && return 0
  echo "test.sh: the tests changed $1 (files added, removed or rewritten):"
  diff <(echo "$2") <(echo "$now") | sed 's/^/  /'
  failed=$((failed + 1))
  return 1
}

run_suite() { # build-dir, extra meson args...
  local dir=$1; shift
  if [ ! -f "$dir/build.ninja" ]; then
    meson setup "$dir" "$@" >"$dir.setup.log" 2>&1 || { cat "$dir.setup.log"; failed=$((failed + 1)); return; }
  fi
  if ! ninja -C "$dir" >"$dir.build.log" 2>&1; then
    cat "$dir.build.log"
    failed=$((failed + 1))
    return
  fi
  local log="$dir/meson-logs/testlog.json"
  local data="$dir/tests/data/traces" data_before
  if ! data_before=$(snapshot "$data") || [ -z "$data_before" ]; then
    echo "test.sh: the build wrote no sample traces in $data"
    failed=$((failed + 1))
    return
  fi
  # The sanitizer build runs 3-5x slower: its timeouts stretch with it, so that a loaded machine
  # fails no test on time alone.
  local mult=1
  case $dir in *asan*) mult=3 ;; esac
  meson test -C "$dir" --print-errorlogs --num-processes 2 --timeout-multiplier "$mult" || true
  unchanged "$data" "$data_before"
  if [ -f "$log" ]; then
    local p f s
    # One read of the log; a log that cannot be read counts as a failure, never as nothing.
    if ! read -r p f s < <(python3 -c '
import json, sys
r = [json.loads(l)["result"] for l in open(sys.argv[1]) if l.strip()]
print(sum(x in ("OK", "EXPECTEDFAIL") for x in r), sum(x not in ("OK", "EXPECTEDFAIL", "SKIP") for x in r),
      sum(x == "SKIP" for x in r))' "$log") || [ -z "$p" ]; then
      echo "test.sh: cannot read $log: counted as a failure"
      failed=$((failed + 1))
      return
    fi
    if [ "$s" != 0 ]; then echo "test.sh: $s tests were skipped in $dir: a skip is a failure here"; f=$((f + s)); fi
    echo "test.sh: $dir: $p passed, $f failed"
    passed=$((passed + p))
    failed=$((failed + f))
  else
    failed=$((failed + 1))
  fi
}

shared_traces=../shared/traces
shared_before=$(snapshot "$shared_traces")

run_suite build -Dbuildtype=release -Ddocs=enabled
run_suite build-asan -Dbuildtype=debug -Db_sanitize=address,undefined -Db_lundef=false -Ddocs=enabled

unchanged "$shared_traces" "$shared_before"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
