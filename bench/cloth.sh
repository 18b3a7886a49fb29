#!/bin/bash
# The cloth benchmark of issue 10 ("Scale and speed"), not a test: the built-in cloth (stiffness 1000,
# total mass 1, two corners fixed, gravity) written to CSV files by `mass_spring -write_network`, then
# read back with -particles/-springs by
#   build/bench/bench_cloth   the mass_spring lab's run, implicit Euler, dt = 0.01, the lab's default
#                             solver path (no solver options), on 1 rank and, at 1024x1024, on 2;
#   bench/scipy_cloth.py      the same step in SciPy (Newton with a vectorized Jacobian), CG and splu.
# Every run takes the same first STEPS steps from rest (the same nonlinear solves for every size and
# both codes); a row is one run, with the 1-minute load average read just before it. Writes
# bench/cloth_results.csv and, by bench/cloth_summary.py, bench/cloth_results.md.
#
#   bench/cloth.sh [BUILD_DIR]      (the cloth files go to ${CLOTH_TMP:-/tmp/cloth_bench}, ~0.5 GB)
# Environment: STEPS (2), REPEATS (3: runs of each configuration at 128x128, in pairs PETSc/SciPy),
# SIZES ("128 512 1024"), SCIPY_SPLU (1: also SciPy with splu at 128x128).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../build}
lab=$build/labs/mass_spring
bench=$build/bench/bench_cloth
python=/usr/bin/python3 # the python3 on PATH has no numpy
tmp=${CLOTH_TMP:-/tmp/cloth_bench}
steps=${STEPS:-2}
repeats=${REPEATS:-3}
sizes=${SIZES:-128 512 1024}
csv=$here/cloth_results.csv
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# Before the results file is started anew (a wrong build directory emptied it, then failed, exit 127).
for program in "$lab" "$bench"; do
  [ -x "$program" ] || { echo "cloth.sh: $program not found; accepted: a build directory (cmake --build $build)" >&2; exit 2; }
done
[ -x "$python" ] || { echo "cloth.sh: $python not found; accepted: Debian's python3 with numpy and scipy" >&2; exit 2; }
mkdir -p "$tmp"

load1() { cut -d' ' -f1 /proc/loadavg; }
header="impl,path,particles,springs,ranks,steps,read_s,setup_s,median_step_s,mean_step_s,min_step_s,max_step_s,newton_per_step,krylov_per_step,peak_rss_mib"
echo "nx,$header,load1,status" > "$csv"
T=$(awk "BEGIN { print $steps * 0.01 }")

# One row: N RANKS IMPL COMMAND...; a failed run leaves a row with its status and error line.
row() {
  local n=$1 ranks=$2 impl=$3
  shift 3
  local load out
  load=$(load1)
  echo "uptime before: $(uptime)" >&2
  if out=$("$@" 2>&1); then
    echo "$n,$(tail -1 <<< "$out"),$load,ok" | tee -a "$csv"
  else
    echo "$n,$impl,failed,,,$ranks,,,,,,,,,,,$load,failed: $(tail -1 <<< "$out" | tr ',' ';' | cut -c1-300)" | tee -a "$csv"
  fi
}
petsc() { # N RANKS
  local n=$1 ranks=$2 launcher=()
  [ "$ranks" -gt 1 ] && launcher=(mpiexec --oversubscribe -n "$ranks")
  row "$n" "$ranks" petsc "${launcher[@]}" "$bench" -particles "$tmp/c$n/particles.csv" -springs "$tmp/c$n/springs.csv" \
    -scheme implicit_euler -dt 0.01 -T "$T" -path default
}
scipy() { # N SOLVER
  row "$1" 1 scipy "$python" "$here/scipy_cloth.py" "$tmp/c$1" --steps "$steps" --solver "$2"
}

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(free -g | awk '/Mem/ { print $2 }') GiB" >&2
for n in $sizes; do
  [ -s "$tmp/c$n/springs.csv" ] || "$lab" -model cloth -cloth_nx "$n" -cloth_ny "$n" -write_network "$tmp/c$n" >&2
done
for n in $sizes; do
  case $n in
  128)
    for ((r = 0; r < repeats; ++r)); do
      petsc 128 1
      scipy 128 cg
    done
    [ "${SCIPY_SPLU:-1}" = 1 ] && scipy 128 splu
    ;;
  1024)
    petsc 1024 1
    petsc 1024 2
    ;;
  *) petsc "$n" 1 ;;
  esac
done
echo "uptime at end: $(uptime)" >&2
"$python" "$here/cloth_summary.py" "$csv" > "$here/cloth_results.md"
echo "wrote $csv and $here/cloth_results.md" >&2
