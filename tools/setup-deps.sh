#!/usr/bin/env bash
# Install the Debian packages ntidx needs, when missing. Safe to run again.
set -eu
need=()
# libsqlite3-dev and sqlite3: the SQL tables (tools/sqlite) and the shell the tests load them into.
# python3-dev: the Python module (tools/python) is built for Debian's /usr/bin/python3, whose numpy, pandas
# and Dask (dask.dataframe is python3-dask; distributed's LocalCluster and Client python3-distributed) its
# tests and benchmarks use. python3-mesonpy, python3-pip and python3-venv: the wheel test builds the module
# with meson-python (pyproject.toml) and installs it into a fresh venv, offline.
# libcurl4-openssl-dev: remote traces (HTTP range requests, Azure Blob Storage; src/format/source_http.c);
# libssl-dev: libcrypto's HMAC-SHA256 for Azure's Shared Key signatures (src/format/source_azure.c); openssl:
# the TLS test makes its CA and server certificate with it (tests/remote/tls_test.py). nginx: the remote benchmark
# (tools/bench/bench_remote.py --nginx) times a whole-trace stats against curl from a server that takes no CPU
# from them (sendfile), beside the tests' Python one; the benchmark runs its own on a loopback port (the service the
# package may start is not used).
for pkg in gcc g++ clang meson ninja-build pkg-config libxxhash-dev libcmocka-dev python3 scdoc libsqlite3-dev sqlite3 \
  python3-dev python3-numpy python3-pandas python3-dask python3-distributed \
  python3-mesonpy python3-pip python3-venv libcurl4-openssl-dev libssl-dev openssl nginx; do
  dpkg -s "$pkg" >/dev/null 2>&1 || need+=("$pkg")
done
# libFuzzer and the sanitizer runtimes ship with clang's runtime package.
dpkg -s libclang-rt-14-dev >/dev/null 2>&1 || dpkg -s libclang-rt-dev >/dev/null 2>&1 || need+=(libclang-rt-dev)
# chromium: the report test opens ntidx report's page in it, headless (tests/report, with playwright-core).
dpkg -s chromium >/dev/null 2>&1 || need+=(chromium)
# node and npm: the export test validates speedscope files with npm packages (tests/export/schema); the remote
# tests run Azurite, the Azure Storage emulator (tests/remote/azurite).
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
# Azurite, as tests/remote/azurite/package-lock.json pins it (npm ci).
"$(dirname "$0")/../tests/remote/azurite/install.sh"
# playwright-core, as tests/report/browser/package-lock.json pins it (it drives Debian's Chromium).
"$(dirname "$0")/../tests/report/browser/install.sh"
