#!/usr/bin/env bash
# Newton on the folding 128x128 cloth (issue 10), the case that showed steps accepted unsolved: with dt =
# 0.01 the cloth folds at t ~ 0.15, where GAMG's SOR smoother meets near-zero diagonals of the exact
# Jacobian and its output reaches 1e99. Left-preconditioned GMRES then "converged" in one iteration on
# a useless direction and Newton took the unchanged iterate for a solution: steps 15 and 16 were
# accepted after 0 or 1 Newton iterations, with the energy jumping. The default (right preconditioning,
# ImplicitTheta.cpp) must never accept such a step: every step in energy.csv took 2 or more Newton
# iterations (a step of this cloth from motion needs 5 to 8), and a step Newton cannot solve stops the
# run with exit 3 and the hint. (Left-preconditioned, the same run now stops at step 15 too: Newton's
# convergence test checks the linear solve. Measured by hand on 2026-11-30, not run here: it asserted nothing.)
# Since 2026-11-28 a step the multigrid path cannot solve is solved again by a direct LU (ImplicitTheta::
# directFallback): step 15 then passes, so the runs stop at t = 0.15 (that step costs ~40 s); the capped
# run names the default solver (-ms_pc_type gamg), which turns the fallback off.
# Last, the fallback itself on a 64x64 cloth whose GMRES is capped at one iteration.
# Usage: cloth_newton_test.sh <build>/labs
set -u
# shellcheck source=harness.sh
source "$(dirname "$0")/harness.sh"
# run <dir> <options...>: the cloth to t = 0.17; prints the exit code
run() {
  local dir=$1
  shift
  timeout 300 "$labs/mass_spring" -model cloth -cloth_nx 128 -cloth_ny 128 -scheme implicit_euler -dt 0.01 -T 0.15 \
    -snapshot_every 0 -quiet -output_dir "$work/$dir" "$@" > "$work/$dir.out" 2>&1
  echo $?
}
# the smallest Newton count of the steps after the first ten (energy.csv's last column)
fewest() { awk -F, 'NR > 11 { if (min == "" || $NF < min) min = $NF } END { print min }' "$work/$1/energy.csv"; }

rc=$(run right)
case $rc in
  0) ;;
  3) grep -q "try a smaller -dt" "$work/right.out" || fail "exit 3 without the hint: $(tail -n 1 "$work/right.out")" ;;
  *) fail "default run: exit $rc: $(tail -n 1 "$work/right.out")" ;;
esac
min=$(fewest right)
[ -n "$min" ] && [ "$min" -ge 2 ] || fail "default run accepted a step after $min Newton iteration(s)"

# A Krylov solve stopped by its iteration count and called converged (-ms_ksp_converged_maxits) gives no
# small-step guarantee: Newton's step tests must not take its zero step for a solution (step 15 was
# accepted unchanged, residual 6e-3, before ImplicitTheta's convergence test checked the linear solve).
rc=$(run capped -ms_pc_type gamg -ms_ksp_max_it 40 -ms_ksp_converged_maxits)
case $rc in
  0 | 3) ;;
  *) fail "capped run: exit $rc: $(tail -n 1 "$work/capped.out")" ;;
esac
min=$(fewest capped)
[ -n "$min" ] && [ "$min" -ge 2 ] || fail "capped run accepted a step after $min Newton iteration(s)"

# The fallback: with GMRES capped at one iteration every Newton solve of the multigrid path fails, so
# every step is solved by the direct LU; the result is the LU path's (-ms_pc_type lu) within Newton's
# tolerance (1e-10 |R(0)| per step: 1.5e-12 in positions, 1.5e-10 in velocities measured). Options
# that choose the linear solver get no fallback: exit 3 as before.
small() {
  local dir=$1
  shift
  timeout 300 "$labs/mass_spring" -model cloth -cloth_nx 64 -cloth_ny 64 -scheme implicit_euler -dt 0.01 -T 0.03 \
    -snapshot_every 0 -quiet -output_dir "$work/$dir" -save_final "$work/$dir.csv" "$@" > "$work/$dir.out" 2>&1
  echo $?
}
rc=$(small fallback -ms_ksp_max_it 1)
[ "$rc" = 0 ] || fail "fallback run: exit $rc: $(tail -n 1 "$work/fallback.out")"
[ "$(grep -c "solved again with a direct LU (MUMPS)" "$work/fallback.out")" = 1 ] || fail "fallback run: no single note: $(cat "$work/fallback.out")"
rc=$(small direct -ms_pc_type lu)
[ "$rc" = 0 ] || fail "LU run: exit $rc"
grep -q "direct LU" "$work/direct.out" && fail "LU run printed the fallback's note"
differ=$(awk -F, 'FNR == 1 { next } NR == FNR { for (i = 2; i <= 7; ++i) a[FNR, i] = $i; next }
  { for (i = 2; i <= 7; ++i) { d = $i - a[FNR, i]; if (d < 0) d = -d; lim = i <= 4 ? 1e-10 : 1e-8; if (d > lim) bad++ } }
  END { print bad + 0 }' "$work/direct.csv" "$work/fallback.csv")
[ "$differ" = 0 ] || fail "fallback and LU runs differ beyond Newton's tolerance in $differ entries"
rc=$(small chosen -ms_pc_type gamg -ms_ksp_max_it 1)
[ "$rc" = 3 ] || fail "-ms_pc_type gamg -ms_ksp_max_it 1: exit $rc, expected 3 (no fallback when options choose the solver)"
grep -q "with GMRES + GAMG and then a direct LU" "$work/chosen.out" && fail "a fallback under -ms_pc_type gamg"

echo "cloth_newton: $failures failure(s)"
[ "$failures" = 0 ]
