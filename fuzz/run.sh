#!/usr/bin/env bash
# Builds the libFuzzer harnesses of fuzz/ in build-fuzz (clang, ASan + UBSan) and runs each one for
# SECONDS (default 60) from its seed corpus fuzz/corpus/<name>/ (copied: the seeds stay as committed).
# Fails on any crash, sanitizer report, failed property check, leak, out-of-memory or hang (an input
# running longer than 10 s). Usage: fuzz/run.sh [seconds] [name...]
#   names: matrix_market load_curve load_history real_file option_values (default: all)
# Reproduce a failure: build-fuzz/fuzz/fuzz_<name> build-fuzz/fuzz/artifacts/<name>/crash-...
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
shift || true
names=("$@")
[ ${#names[@]} -gt 0 ] || names=(matrix_market load_curve load_history real_file option_values)
build=${BEAM_FUZZ_BUILD:-build-fuzz}

if [ ! -f "$build/CMakeCache.txt" ]; then
  cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_C_COMPILER=clang \
    -DBEAM_FUZZ=ON -DBUILD_TESTING=OFF > "$build.configure.log" 2>&1 || { cat "$build.configure.log"; exit 1; }
fi
cmake --build "$build" --target fuzz_targets -j2

export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
export ASAN_OPTIONS=detect_leaks=1
# The harnesses write each input to a scratch file in $TMPDIR: keep it in memory when possible.
if [ -z "${TMPDIR:-}" ] && [ -d /dev/shm ] && [ -w /dev/shm ]; then export TMPDIR=/dev/shm; fi
failed=()
for name in "${names[@]}"; do
  bin="$build/fuzz/fuzz_$name"
  seeds="fuzz/corpus/$name"
  work="$build/fuzz/corpus/$name"
  art="$build/fuzz/artifacts/$name"
  log="$build/fuzz/$name.log"
  [ -x "$bin" ] && [ -d "$seeds" ] || { echo "fuzz: no target or seeds for '$name'"; exit 1; }
  mkdir -p "$work" "$art"
  dict=()
  [ -f "fuzz/$name.dict" ] && dict=(-dict="fuzz/$name.dict")
  rc=0
  # -timeout: an input running longer is a hang; the outer timeout catches a stuck fuzzer.
  timeout $((seconds + 120)) "$bin" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -print_final_stats=1 "${dict[@]}" -artifact_prefix="$art/" "$work" "$seeds" > "$log" 2>&1 || rc=$?
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
  if [ "$rc" != 0 ] || grep -qE 'ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|runtime error:|fuzz check failed' "$log"; then
    echo "fuzz $name: FAILED (exit $rc) after ${execs:-?} executions; log $log, artifacts $art:"
    grep -E 'ERROR|runtime error|fuzz check failed|SUMMARY|Test unit written' "$log" | head -n 8 | sed 's/^/  /'
    failed+=("$name")
  else
    echo "fuzz $name: ok, ${execs:-?} executions in ${seconds} s, corpus $(ls "$work" | wc -l) files"
  fi
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz: failed: ${failed[*]}"
  exit 1
fi
echo "fuzz: all ${#names[@]} targets clean"
