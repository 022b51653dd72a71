#!/usr/bin/env bash
# Install the Debian packages ntidx needs, when missing. Safe to run again.
set -eu
need=()
for pkg in gcc g++ clang meson ninja-build pkg-config libxxhash-dev libcmocka-dev python3 scdoc; do
  dpkg -s "$pkg" >/dev/null 2>&1 || need+=("$pkg")
done
# libFuzzer and the sanitizer runtimes ship with clang's runtime package.
dpkg -s libclang-rt-14-dev >/dev/null 2>&1 || dpkg -s libclang-rt-dev >/dev/null 2>&1 || need+=(libclang-rt-dev)
# node and npm: the export test validates speedscope files with npm packages (tests/export/schema).
command -v node >/dev/null 2>&1 || need+=(nodejs)
command -v npm >/dev/null 2>&1 || need+=(npm)
if [ ${#need[@]} -gt 0 ]; then
  echo "setup: installing ${need[*]}" >&2
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need[@]}" >/dev/null
fi
# The speedscope schema and ajv, as tests/export/schema/package-lock.json pins them (npm ci).
"$(dirname "$0")/../tests/export/schema/install.sh"
