#!/usr/bin/env bash
# Runs the standard benchmark: midpoint on beams of the default 4:1 shape... scaled to about 2e4, 2e5
# and 2e6 DOFs (40:1 like the 2000x50 reference case), one process per size, and writes
# bench/results.csv (or $1). Usage: bench/run.sh [out.csv] [build dir]
set -euo pipefail
out=${1:-bench/results.csv}
build=${2:-build}
sizes=("632 16" "2000 50" "6324 158")
first=1
: > "$out"
for s in "${sizes[@]}"; do
  set -- $s
  for solver in direct cg; do
    hdr=""; [ $first -eq 1 ] && hdr="-header"; first=0
    "$build/bench/bench_scheme" -mx "$1" -my "$2" -steps 30 -scheme midpoint -linear_solver "$solver" $hdr | tee -a "$out"
  done
done
