#!/usr/bin/env bash
# Bounded fuzzing (make fuzz FUZZ_SECONDS=N): builds every firmware/fuzz/fuzz_*.c
# with clang's libFuzzer, ASan and UBSan in build/fuzz, runs each for N seconds.
# Exits non-zero as soon as one fuzzer finds a crash, overrun or hang.
set -euo pipefail
cd "$(dirname "$0")/../.."

seconds="${1:-30}"
build_dir="build/fuzz"
corpus_root="$build_dir/corpus"

CC=clang cmake -S . -B "$build_dir" -DCMAKE_BUILD_TYPE=Debug \
  -DEPDLE_BUILD_TESTS=OFF -DEPDLE_BUILD_FUZZERS=ON > /dev/null
cmake --build "$build_dir" -j2

shopt -s nullglob
fuzzers=(firmware/fuzz/fuzz_*.c)
if [ ${#fuzzers[@]} -eq 0 ]; then
  echo "fuzz.sh: no fuzzers in firmware/fuzz" >&2
  exit 1
fi
for source in "${fuzzers[@]}"; do
  name="$(basename "$source" .c)"
  corpus="$corpus_root/$name"
  mkdir -p "$corpus"
  # Hand-made seeds (firmware/fuzz/seeds/<name>, tools/gen/gen_fuzz_seeds.py) are read, never written.
  seeds=()
  if [ -d "firmware/fuzz/seeds/$name" ]; then
    seeds=("firmware/fuzz/seeds/$name")
  fi
  echo "== $name: ${seconds} s"
  # -timeout: one input taking over 10 s is a hang; crashes land in $build_dir.
  "$build_dir/firmware/fuzz/$name" -max_total_time="$seconds" -timeout=10 \
    -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$build_dir/$name-" \
    "$corpus" "${seeds[@]}"
done
