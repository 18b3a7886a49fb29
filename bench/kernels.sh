#!/usr/bin/env bash
# The memory system's 2-rank speed-up on the vector kernels of a time step (bench/bench_kernels.cpp), at
# the two sizes of issue 13 (2000x50 and 20000x50 elements: 204102 and 2040102 DOFs). Not a test; needs a
# quiet machine. Usage: bench/kernels.sh [build] [repeats]   (default build, 3): prints the CSV rows of
# every run and, per size and kernel, the median over the runs of best 1-rank time / best 2-rank time.
set -euo pipefail
build=${1:-build}
repeats=${2:-3}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
rows=$(mktemp)
trap 'rm -f "$rows"' EXIT
echo "# $(date -u '+%Y-%m-%d %H:%M') UTC, load $(cut -d' ' -f1 /proc/loadavg)"
"$build/bench/bench_kernels" -dofs 1000 -repetitions 3 -header | head -1
for ((r = 0; r < repeats; r++)); do
  for dofs in 204102 2040102; do
    for n in 1 2; do
      mpiexec --quiet -n $n "$build/bench/bench_kernels" -dofs $dofs | tee -a "$rows"
    done
  done
done
echo "# 2-rank speed-up (median over $repeats runs of best 1-rank s / best 2-rank s)"
awk -F, '{ t[$2 "," $3 "," $1] = t[$2 "," $3 "," $1] " " $4; if ($1 == 1) keys[$2 "," $3] = 1 }
  END {
    for (k in keys) {
      m = split(t[k ",1"], one, " "); split(t[k ",2"], two, " ")
      for (i = 1; i <= m; i++) r[i] = one[i] / two[i]
      for (i = 2; i <= m; i++) for (j = i; j > 1 && r[j - 1] > r[j]; j--) { x = r[j]; r[j] = r[j - 1]; r[j - 1] = x }
      split(k, a, ","); printf "%8s DOFs  %-7s %.2fx\n", a[1], a[2], r[int((m + 1) / 2)]
    }
  }' "$rows" | sort -n
