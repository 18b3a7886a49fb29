#!/usr/bin/env bash
# What each lab reads: -help lists every option of the sets it takes (with the accepted choices), the
# solver prefixes and the scheme parameters, and nothing of the sets it does not take; -help writes
# nothing and exits 0. The stability lab on the discrete systems. Usage: lab_options_test.sh <build>/labs
set -u
# shellcheck source=harness.sh
source "$(dirname "$0")/harness.sh"

# help <lab> <listed options...> -- <options that must not be listed...>
help() {
  local lab=$1
  shift
  timeout 120 "$labs/$lab" -help > help.txt 2>&1
  local rc=$? absent=0
  [ "$rc" = 0 ] || fail "$lab -help -> exit $rc"
  [ -e out ] && fail "$lab -help wrote out/"
  for o in "$@"; do
    if [ "$o" = -- ]; then absent=1; continue; fi
    if grep -qE -- "^ *$o[ :]" help.txt; then
      [ $absent = 1 ] && fail "$lab -help lists $o, which it does not take" || passed=$((passed + 1))
    else
      [ $absent = 0 ] && fail "$lab -help does not list $o" || passed=$((passed + 1))
    fi
  done
}

time_sets=(-mx -my -hx -hy -thickness -thickness_file -supports -E -nu -rho -course_mass -lumped_mass -operator
  -point_load -top_load -load_curve -load_harmonic -rayleigh_alpha -rayleigh_beta -dt -T -divergence_factor
  -linear_solver -output_dir -quiet -save_final -snapshot_every -console_every -export_system -checkpoint_every)
help midpoint "${time_sets[@]}" -restart -shifted_ksp_type -shifted_pc_type -static_ksp_type -- -schemes -modes -system
help semi_implicit -mass_ksp_type -static_ksp_type -restart
help energy_drift "${time_sets[@]}" -schemes -mass_ksp_type -shifted_ksp_type -static_ksp_type -newmark_ksp_type \
  -newmark_beta -newmark_gamma -hht_alpha -rho_inf -- -restart -modes
help modes -mx -supports -E -operator -output_dir -modes -modes_eps_type -modes_st_type -- -dt -T -snapshot_every \
  -rayleigh_alpha -point_load -load_curve -checkpoint_every -restart -export_system -linear_solver -quiet
help stability -mx -supports -point_load -rayleigh_alpha -linear_solver -output_dir -system -M -K -C \
  -omega_range -omega_points -xi -measure_steps -measure_growth -omega_max_eps_type -omega_min_st_type \
  -newmark_beta -newmark_gamma -hht_alpha -rho_inf -- -dt -T -snapshot_every -checkpoint_every -restart -modes
help discrete_system -system -M -K -C -F -q0 -v0 -load_history -load_dt -load_curve -load_harmonic -scheme -dt -T \
  -linear_solver -output_dir -quiet -save_final -snapshot_every -checkpoint_every -restart -newmark_beta \
  -newmark_ksp_type -mass_ksp_type -- -mx -console_every -export_system -schemes
grep -qE "^ *-supports .*clamped_left clamped_both simply_supported" help.txt ||
  { timeout 60 "$labs/midpoint" -help 2>&1 | grep -qE "^ *-supports .*clamped_left clamped_both simply_supported"; } ||
  fail "-help does not list the accepted -supports values"
timeout 60 "$labs/discrete_system" -scheme hht -help 2>&1 | grep -qE "^ *-hht_alpha" || fail "discrete_system -scheme hht -help does not list -hht_alpha"
# Newton's solver is set up under -help too, so its inner solvers list their options (the Newton labs
# stopped before that set-up until 2026-11-29); -help calls no option unknown, in every lab alike.
for lab in "mass_spring -model chain -scheme implicit_euler" "contact_study -zetas 0.1" "mass_spring_stability -model chain"; do
  # shellcheck disable=SC2086 # (the lab and its options, split on purpose)
  timeout 120 "$labs/"$lab -help -ms_pc_type bjacobi > help.txt 2>&1
  rc=$?
  [ "$rc" = 0 ] && grep -qE -- "^ *-ms_sub_ksp_type[ :]" help.txt && passed=$((passed + 1)) ||
    fail "$lab -help -ms_pc_type bjacobi: exit $rc, -ms_sub_ksp_type listed: $(grep -c -- '-ms_sub_ksp_type' help.txt)"
done
for run in "fully_implicit -shifted_sub_pc_type lu" "mass_spring -model chain -scheme implicit_euler -ms_sub_pc_type lu" \
  "modes -modes_st_sub_ksp_view"; do
  # shellcheck disable=SC2086
  timeout 120 "$labs/"$run -help > help.txt 2>&1
  rc=$?
  [ "$rc" = 0 ] && [ ! -e out ] && passed=$((passed + 1)) || fail "$run -help: exit $rc (want 0: -help calls no option unknown)"
done
# -scheme's choices are the schemes the lab takes (the multibody labs listed all 16 and took 5).
for lab in multibody:"rk4 explicit_euler semi_implicit_euler forward_euler verlet (" \
  constraint_drift:"rk4 explicit_euler semi_implicit_euler forward_euler verlet (" \
  mass_spring:"rk4 explicit_euler semi_implicit_euler forward_euler verlet implicit_euler implicit_midpoint (" \
  contact_study:"rk4 explicit_euler semi_implicit_euler forward_euler verlet implicit_euler implicit_midpoint ("; do
  timeout 60 "$labs/${lab%%:*}" -help 2>&1 | grep -E "^ *-scheme " | grep -qF "(choose one of) ${lab#*:}" &&
    passed=$((passed + 1)) || fail "${lab%%:*} -help: -scheme does not list exactly ${lab#*:}"
done

# stability on the discrete systems: two_dof has omega_max^2 = 30 (so central differences need dt < 2/sqrt(30)).
timeout 300 "$labs/stability" -system two_dof -measure_steps 200 -omega_points 11 -output_dir s1 > s1.txt 2> s1.err
if [ $? = 0 ] && grep -q "^omega_max = 5.47722557" s1.txt && grep -q "^critical_dt central_difference = 0.365148" s1.txt &&
  grep -q "^measured_dt central_difference = 0.3[67]" s1.txt && [ -s s1/spectral_radius.csv ]; then
  passed=$((passed + 1))
else
  fail "stability -system two_dof: $(head -c 600 s1.txt s1.err)"
fi
# Each spectral_radius.csv column under its own scheme's name: the closed forms of the undamped schemes'
# amplification matrices (a 2x2 eigenproblem: round-off 1e-15; at Omega = 2 central differences have a
# double eigenvalue, where it is sqrt(eps)). Columns in another order passed every test until 2026-11-28.
awk -F, 'function err(x, y) { d = x - y; if (d < 0) d = -d; return d / y }
  NR == 1 { for (i = 1; i <= NF; ++i) c[$i] = i; ok = (NF == 17); next }
  { w = $1; grow = sqrt(1 + w * w); cd = w <= 2 ? 1 : (w * w - 2 + w * sqrt(w * w - 4)) / 2
    a = 1 - w * w / 2 + w ^ 4 / 24; b = w - w ^ 3 / 6; rk4 = sqrt(a * a + b * b)
    tol = (w - 2) ^ 2 < 1e-12 ? 1e-7 : 1e-12
    if (err($c["almost_explicit"], grow) > tol || err($c["forward_euler"], grow) > tol) ok = 0
    if (err($c["fully_implicit"], 1 / grow) > tol || err($c["implicit_euler"], 1 / grow) > tol) ok = 0
    if (err($c["midpoint"], 1) > tol || err($c["implicit_midpoint"], 1) > tol || err($c["newmark"], 1) > tol) ok = 0
    if (err($c["central_difference"], cd) > tol || err($c["semi_implicit"], cd) > tol || err($c["verlet"], cd) > tol) ok = 0
    if (err($c["rk4"], rk4) > tol) ok = 0
    ++rows }
  END { exit !(ok && rows == 11) }' s1/spectral_radius.csv && passed=$((passed + 1)) ||
  fail "stability: spectral_radius.csv against the closed forms: $(sed -n '1p;8p' s1/spectral_radius.csv)"
# (A sixth mutation audit's survivors.) The chart's grid: Omega from 0 to -omega_range (4) in
# -omega_points - 1 equal steps, the last exactly 4; the printed ratio is the stable end of the bracket
# over the theory (0.3651483717 = 2/sqrt(30)), to its 6 printed digits.
awk -F, 'NR > 1 { d = $1 - 0.4 * (NR - 2); if (d < 0) d = -d; if (d > 1e-15) bad = 1; last = $1 }
  END { exit bad || last != 4 }' s1/spectral_radius.csv && passed=$((passed + 1)) ||
  fail "stability: spectral_radius.csv's Omega grid: $(cut -d, -f1 s1/spectral_radius.csv | tr '\n' ' ')"
grep "^measured_dt central_difference = " s1.txt | sed 's/[=(;]/ /g' | awk '{ x = $3; r = $8
    d = r - x / 0.3651483717; if (d < 0) d = -d; exit !(d < 3e-5 && $4 == "unstable" && $7 == "measured/theory") }' && passed=$((passed + 1)) ||
  fail "stability: measured/theory is not the measured (stable) dt over the theory: $(grep '^measured_dt central' s1.txt)"
mm() { printf '%%%%MatrixMarket matrix coordinate real symmetric\n'; }
{ mm; printf '2 2 2\n1 1 1\n2 2 1\n'; } > M.mtx
{ mm; printf '2 2 3\n1 1 2\n2 1 -1\n2 2 2\n'; } > K.mtx
timeout 300 "$labs/stability" -M M.mtx -K K.mtx -measure_steps 0 -omega_points 3 -output_dir s2 > s2.txt 2> s2.err
# K = [[2,-1],[-1,2]], M = I: omega^2 = 1 and 3.
if [ $? = 0 ] && grep -q "^omega_max = 1.73205080" s2.txt && grep -q "^omega_min = 1$\|^omega_min = 1.000000000" s2.txt; then
  passed=$((passed + 1))
else
  fail "stability -M -K: $(head -c 600 s2.txt s2.err)"
fi
timeout 60 "$labs/stability" -system two_dof -mx 3 -output_dir never > /dev/null 2> e.txt
[ $? = 2 ] && grep -q "unknown option -mx" e.txt && passed=$((passed + 1)) || fail "stability -system two_dof -mx 3: $(cat e.txt)"
[ -e never ] && fail "a rejected run wrote its output directory"

echo "$passed passed, $failures failed"
[ "$failures" = 0 ]
