#!/usr/bin/env bash
# Install Azurite (Microsoft's Azure Storage emulator) into tests/remote/azurite/node_modules, exactly as
# package-lock.json pins it. Run by tools/setup-deps.sh and by the remote tests when it is missing; does
# nothing when node_modules already matches the lock. Safe to run concurrently (flock).
set -eu
cd "$(dirname "$0")"
command -v npm >/dev/null || { echo "install.sh: npm is missing: run tools/setup-deps.sh" >&2; exit 1; }
exec 9<.
flock 9 # the directory itself: npm ci replaces node_modules
# A copy of the lock marks a finished install; install again when the lock changed.
if [ -f node_modules/.ntidx-installed ] && cmp -s package-lock.json node_modules/.ntidx-installed; then
  exit 0
fi
npm ci --no-audit --no-fund --loglevel=error >&2
cp package-lock.json node_modules/.ntidx-installed
