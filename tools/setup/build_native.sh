#!/usr/bin/env bash
# The host build (simulated board library, and with tests ON the C unit tests):
# `bash tools/setup/build_native.sh BUILD_DIR ON|OFF [quiet]`. Quiet, it prints one line and
# keeps the compiler's output in BUILD_DIR/build.log unless the build fails.
set -euo pipefail
cd "$(dirname "$0")/../.."
build="$1"
tests="$2"
quiet="${3:-}"

configure=(cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Debug "-DEPDLE_BUILD_TESTS=$tests")
compile=(cmake --build "$build" -j2)
if [ -z "$quiet" ]; then
  "${configure[@]}" >/dev/null
  exec "${compile[@]}" -- --no-print-directory
fi
mkdir -p "$build"
log="$build/build.log"
printf 'building the simulated board (log: %s) ... ' "$log"
if "${configure[@]}" >"$log" 2>&1 && "${compile[@]}" -- --no-print-directory >>"$log" 2>&1; then
  echo ok
else
  echo failed
  tail -n 30 "$log" >&2
  exit 1
fi
