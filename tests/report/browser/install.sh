#!/usr/bin/env bash
# Install playwright-core into tests/report/browser/node_modules, exactly as package-lock.json pins it (the
# browser is Debian's Chromium, which tools/setup-deps.sh installs: playwright-core downloads none).
# Run by tools/setup-deps.sh; does nothing when node_modules already matches the lock. Safe to run
# concurrently (flock).
#   install.sh --check: install nothing; exit 1, saying what is missing, unless it is all there (the report's
#   browser test runs this: a test does not reach for the network, and a missing browser is a failure).
# The version is the newest whose package still runs on Debian 12's Node.js (18.20): playwright-core 1.62 and
# later refuse to start on Node 18 ("Playwright requires Node.js 20 or higher").
set -eu
cd "$(dirname "$0")"
if [ "${1:-}" = --check ]; then
  missing=()
  command -v node >/dev/null || missing+=("node (Debian package nodejs)")
  [ -x /usr/bin/chromium ] || missing+=("/usr/bin/chromium (Debian package chromium)")
  # A copy of the lock marks a finished install of exactly what it pins.
  if ! { [ -f node_modules/.ntidx-installed ] && cmp -s package-lock.json node_modules/.ntidx-installed; }; then
    missing+=("playwright-core as package-lock.json pins it in $(pwd)/node_modules")
  fi
  [ ${#missing[@]} -eq 0 ] && exit 0
  printf 'install.sh: missing: %s\n' "${missing[@]}" >&2
  echo "install.sh: run tools/setup-deps.sh" >&2
  exit 1
fi
command -v npm >/dev/null || { echo "install.sh: npm is missing: run tools/setup-deps.sh" >&2; exit 1; }
exec 9<.
flock 9 # the directory itself: npm ci replaces node_modules
if [ -f node_modules/.ntidx-installed ] && cmp -s package-lock.json node_modules/.ntidx-installed; then
  exit 0
fi
npm ci --no-audit --no-fund --loglevel=error >&2
cp package-lock.json node_modules/.ntidx-installed
