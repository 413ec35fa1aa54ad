#!/usr/bin/env bash
# Builds the libFuzzer targets (clang, ASan+UBSan) in build-fuzz/ and runs each
# for a fixed time, two at a time (docs/security.md, "Fuzzing").
#
#   scripts/fuzz.sh [SECONDS] [FORMAT...]
#
# SECONDS per target (default 60). FUZZ_SEED=N fixes libFuzzer's random seed
# (make test does, so that a CI failure can be replayed as it happened).
# Without FORMATs, every format listed in
# fuzz/CMakeLists.txt. The working corpus grows in build-fuzz/corpus/ and is
# kept between runs; the seeds (test vectors, samples) are read, never
# written. A crash, leak, hang (> 10 s for one input) or an allocation above
# 512 MB is a failure: the input is kept in build-fuzz/crashes/ and printed in
# base64, so it can be taken from a CI log into fuzz/regressions/<format>/.
set -euo pipefail
seconds=${1:-60}
shift || true
root=$(cd "$(dirname "$0")/.." && pwd)
build="$root/build-fuzz"

CC=clang cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Debug -DSERVAL_FUZZ=ON >/dev/null
cmake --build "$build" -j2 >/dev/null

formats=("$@")
if [ ${#formats[@]} -eq 0 ]; then
  mapfile -t formats < <(cut -d' ' -f1 "$build/fuzz-formats.txt" | grep .)
fi

mkdir -p "$build/corpus" "$build/crashes" "$build/logs"
run_one() { # name kind
  local name=$1 kind=$2 seeds
  seeds=$(grep "^$name " "$build/fuzz-formats.txt" | cut -d' ' -f2-)
  local corpus="$build/corpus/$name-$kind" log="$build/logs/$name-$kind.log"
  rm -f "$build/crashes/$name-$kind-"*
  mkdir -p "$corpus"
  local existing=()
  for s in $seeds "$root/fuzz/regressions/$name"; do [ -d "$s" ] && existing+=("$s"); done
  if "$build/fuzz/fuzz-$name-$kind" "$corpus" "${existing[@]}" \
       -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=512 \
       -print_final_stats=1 -artifact_prefix="$build/crashes/$name-$kind-" \
       ${FUZZ_SEED:+-seed="$FUZZ_SEED"} >"$log" 2>&1; then
    local runs
    runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo '?')
    echo "fuzz: $name-$kind: $runs executions in ${seconds} s, clean (corpus $(ls "$corpus" | wc -l) inputs)"
  else
    echo "fuzz: $name-$kind: FAILED; log $log"
    grep -E 'ERROR|SUMMARY|fuzz [a-z0-9-]+:' "$log" | head -5
    for a in "$build/crashes/$name-$kind-"*; do
      [ -f "$a" ] || continue
      echo "fuzz: input $(basename "$a") (base64):"
      base64 -w 0 "$a"; echo
    done
    return 1
  fi
}

jobs=()
for name in "${formats[@]}"; do
  # the zip reader has a decode target only (fuzz/CMakeLists.txt)
  for kind in decode roundtrip; do [ -x "$build/fuzz/fuzz-$name-$kind" ] && jobs+=("$name $kind"); done
done

# Two at a time: the machine has two cores.
failed=0
pids=()
for job in "${jobs[@]}"; do
  # shellcheck disable=SC2086
  run_one $job &
  pids+=($!)
  if [ ${#pids[@]} -ge 2 ]; then
    wait "${pids[0]}" || failed=$((failed + 1))
    pids=("${pids[@]:1}")
  fi
done
for p in "${pids[@]}"; do wait "$p" || failed=$((failed + 1)); done
echo "fuzz: $((${#jobs[@]} - failed)) passed, $failed failed"
[ "$failed" -eq 0 ]
