#!/usr/bin/env bash
# End-to-end checks of the lab binaries. Usage: lab_cli_test.sh <build>/labs
# Each case: expected exit code, a fragment the one-line error must contain, the command.
set -u
labs=$1
labs=$(cd "$labs" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
failures=0
passed=0

expect() { # expect <rc> <fragment> <cmd...>
  local rc=$1 fragment=$2; shift 2
  "$@" > out.txt 2> err.txt
  local got=$?
  local lines
  lines=$(grep -vc '^warning:' err.txt) # warnings may precede the one error line
  if [ "$got" != "$rc" ] || { [ -n "$fragment" ] && ! grep -qF -- "$fragment" err.txt; } || { [ "$rc" != 0 ] && [ "$lines" != 1 ]; }; then
    echo "FAIL: $* -> exit $got (want $rc), stderr ($lines lines): $(head -c 300 err.txt)"
    failures=$((failures + 1))
  else
    passed=$((passed + 1))
  fi
}

m="$labs/midpoint"
# Bad options: exit 2, one line naming the option and what is accepted, nothing written.
expect 2 "-dt: 0 is out of range; accepted: a real > 0" "$m" -dt 0 -output_dir bad1
expect 2 "-dt: 'abc' is not a finite real number" "$m" -dt abc -output_dir bad1
expect 2 "-T: -1 is out of range" "$m" -T -1 -output_dir bad1
expect 2 "-mx: 0 is out of range; accepted: an integer >= 1" "$m" -mx 0 -output_dir bad1
expect 2 "-my: '2.5' is not an integer" "$m" -my 2.5 -output_dir bad1
expect 2 "-nu: 0.5 is out of range; accepted: -1 < nu < 0.5" "$m" -nu 0.5 -output_dir bad1
expect 2 "-nu: -1 is out of range" "$m" -nu -1 -output_dir bad1
expect 2 "-E: -100 is out of range; accepted: a real > 0" "$m" -E -100 -output_dir bad1
expect 2 "-rho: 0 is out of range" "$m" -rho 0 -output_dir bad1
expect 2 "-dt: 'nan' is not a finite real number" "$m" -dt nan -output_dir bad1
expect 2 "-supports: unknown value 'hinged'; accepted: clamped_left, clamped_both, simply_supported" "$m" -supports hinged -output_dir bad1
expect 2 "-linear_solver: unknown value 'lu'; accepted: direct, cg" "$m" -linear_solver lu -output_dir bad1
expect 2 "-operator: unknown value 'x'; accepted: assembled, matfree" "$m" -operator x -output_dir bad1
expect 2 "a matrix-free operator cannot be factored" "$m" -operator matfree -linear_solver direct -output_dir bad1
expect 2 "-shifted_pc_type cholesky: needs an assembled matrix; accepted with -operator matfree: jacobi, none" "$m" -operator matfree -shifted_pc_type cholesky -output_dir bad1
expect 2 "-point_load: node (30,0) is outside the beam" "$m" -point_load 30,0,0,-1 -output_dir bad1
expect 2 "-point_load: '1,2,3' has 3 numbers; accepted: groups of four x,y,fx,fy" "$m" -point_load 1,2,3 -output_dir bad1
expect 2 "-course_mass: 'maybe' is not a truth value" "$m" -course_mass maybe -output_dir bad1
expect 2 "unknown option -dtt" "$m" -dtt 0.1 -output_dir bad1
expect 2 "options of the 'shifted_' solver" "$m" -shifted_ksp_type nonsense -output_dir bad1
expect 2 "-snapshot_every: -1 is out of range" "$m" -snapshot_every -1 -output_dir bad1
expect 2 "-thickness_file: '/nonexistent': cannot open the file" "$m" -thickness_file /nonexistent -output_dir bad1
printf '1 2\n3 x\n' > thick.txt
expect 2 "thick.txt:2: 'x' is not a finite real number" "$m" -thickness_file thick.txt -output_dir bad1
expect 2 "-thickness_file: 't3.txt' holds 3 numbers; accepted: exactly mx*my = 100" bash -c "printf '1 1 1' > t3.txt; '$m' -thickness_file t3.txt -output_dir bad1"
expect 2 "-schemes: unknown scheme 'rk5'; accepted: almost_explicit, semi_implicit" "$labs/energy_drift" -schemes midpoint,rk5 -output_dir bad1
if [ -e bad1 ]; then echo "FAIL: a rejected run wrote its output directory"; failures=$((failures + 1)); fi
touch afile
expect 2 "output directory 'afile/x' cannot be created" "$m" -output_dir afile/x -T 0.1

# energy.csv's columns hold what their names say: total = kinetic + potential - work + dissipated and
# balance_error = total - total_0 on every row of a damped, loaded run (work and dissipated both > 0 and
# different, so a swapped column shows; the work column written with the dissipated energy passed every
# test until 2026-11-28).
expect 0 "" "$labs/fully_implicit" -rayleigh_alpha 0.2 -T 5 -output_dir ecols -quiet
awk -F, 'NR == 1 { for (i = 1; i <= NF; ++i) c[$i] = i; next }
  { k = $c["kinetic"]; p = $c["potential"]; w = $c["work"]; d = $c["dissipated"]; t = $c["total"]
    s = (k < 0 ? -k : k) + (p < 0 ? -p : p) + (w < 0 ? -w : w) + d
    r = t - (k + p - w + d); if (r < 0) r = -r; if (r > 1e-12 * s) bad = 1
    if (NR == 2) t0 = t; b = $c["balance_error"] - (t - t0); if (b < 0) b = -b; if (b > 1e-12 * s) bad = 1 }
  END { exit bad || !(w > 0 && d > 0 && w != d) }' ecols/energy.csv && passed=$((passed + 1)) ||
  { echo "FAIL: energy.csv's columns do not add up: $(sed -n '1p;300p' ecols/energy.csv)"; failures=$((failures + 1)); }

# contact_study.csv: the theory column is the linear spring-dashpot restitution exp(-pi z/sqrt(1 - z^2))
# and the damping 2 z sqrt(k_c m) (defaults k_c = 1e4, m = 0.1), to round-off (no test read them until
# 2026-11-28: e_theory with sqrt(1 + z^2) passed), and without gravity the measured restitution within
# the README's 0.5 % of it (the model's damping 2 z sqrt(k_c m)/2 passed: the table's column was computed
# apart from the model's until 2026-11-28).
expect 0 "" "$labs/contact_study" -shapes particle -zetas 0.1,0.5 -gravity_z 0 -output_dir cstudy
awk -F, 'NR > 1 { z = $2; e = exp(-atan2(0, -1) * z / sqrt(1 - z * z)); b = 2 * z * sqrt(1e4 * 0.1)
    de = ($4 - e) / e; db = ($3 - b) / b; if (de < 0) de = -de; if (db < 0) db = -db
    dm = ($5 - e) / e; if (dm < 0) dm = -dm
    if ($1 != "particle" || de > 1e-12 || db > 1e-12 || dm > 5e-3 || $7 != "ok") bad = 1; ++rows }
  END { exit bad || rows != 2 }' cstudy/contact_study.csv && passed=$((passed + 1)) ||
  { echo "FAIL: contact_study.csv's theory or damping: $(cat cstudy/contact_study.csv)"; failures=$((failures + 1)); }
# Its relative_difference is (measured - theory) / theory to round-off (divided by the measured value it
# passed: a sixth mutation audit).
awk -F, 'NR > 1 { d = $6 - ($5 - $4) / $4; if (d * d > 1e-28) bad = 1 } END { exit bad }' cstudy/contact_study.csv &&
  passed=$((passed + 1)) || { echo "FAIL: contact_study.csv's relative_difference: $(cat cstudy/contact_study.csv)"; failures=$((failures + 1)); }
# energy_drift.csv: each scheme's max_abs_rel_drift and final_rel_drift are the largest |drift| and the
# last drift of its own energy.csv (never read by a test until 2026-11-28: the two columns swapped passed).
expect 0 "" "$labs/energy_drift" -schemes midpoint,fully_implicit -T 0.5 -output_dir edrift
for s in midpoint fully_implicit; do
  row=$(grep "^$s," edrift/energy_drift.csv)
  awk -F, -v row="$row" 'NR == 1 { for (i = 1; i <= NF; ++i) c[$i] = i; next }
    { d = $c["drift"]; a = d < 0 ? -d : d; if (a > m) m = a; last = d }
    END { split(row, r, ","); dm = r[2] - m; df = r[3] - last; if (dm < 0) dm = -dm; if (df < 0) df = -df
          exit !(m > 0 && dm <= 1e-15 * m && df <= 1e-15 * (last < 0 ? -last : last) && r[4] == 0) }' \
    "edrift/$s/energy.csv" && passed=$((passed + 1)) ||
    { echo "FAIL: energy_drift.csv's row for $s ($row) against its energy.csv"; failures=$((failures + 1)); }
done

# trajectory.csv (-track): a free particle (no springs, no gravity) moves exactly along x0 + v0 t, so
# every row's position is 1 + 0.5 t, -0.25 t, 0.125 t (round-off of ten sums, 1e-14) and its velocity
# v0 exactly (position and velocity columns swapped passed every test until 2026-11-28: no test read them).
printf 'x,y,z,mass,fixed,vx,vy,vz\n0,0,0,1,1,0,0,0\n1,0,0,2,0,0.5,-0.25,0.125\n' > free_particles.csv
printf 'i,j,stiffness\n' > no_springs.csv
expect 0 "" "$labs/mass_spring" -particles free_particles.csv -springs no_springs.csv -gravity 0,0,0 -scheme verlet \
  -dt 0.1 -T 1 -track 1 -quiet -output_dir freetrack
awk -F, 'NR == 1 { ok = ($0 == "step,time,particle,x,y,z,vx,vy,vz"); next }
  { t = $2; dx = $4 - (1 + 0.5 * t); dy = $5 + 0.25 * t; dz = $6 - 0.125 * t
    if ($3 != 1 || dx * dx > 1e-28 || dy * dy > 1e-28 || dz * dz > 1e-28 || $7 != 0.5 || $8 != -0.25 || $9 != 0.125) ok = 0
    ++rows }
  END { exit !(ok && rows == 11) }' freetrack/trajectory.csv && passed=$((passed + 1)) ||
  { echo "FAIL: trajectory.csv of a free particle: $(sed -n '1p;3p' freetrack/trajectory.csv)"; failures=$((failures + 1)); }

# stiffness_sweep.csv (mass_spring_stability): omega_max_dt = omega_max dt (dt = 0.01), omega_max
# scales as sqrt(stiffness) for a chain at rest (S proportional to k: x4 gives x2, to 1e-9, the
# eigensolver's tolerance), and verlet is stable exactly when omega_max dt < 2 (its limit); the column
# holding omega_max alone passed every test until 2026-11-28.
expect 0 "" "$labs/mass_spring_stability" -model chain -chain_n 5 -stiffness_factors 1,4 \
  -schemes verlet,implicit_euler -measure_steps 0 -output_dir sweep
awk -F, 'NR == 1 { ok = ($0 ~ /^factor,omega_max,omega_max_dt,scheme,stable,/); next }
  { r = ($3 - $2 * 0.01) / $3; if (r < 0) r = -r; if (r > 1e-15) ok = 0
    w[$1] = $2; if ($4 == "verlet" && ($5 == 1) != ($3 < 2)) ok = 0; ++rows }
  END { q = w[4] / w[1] - 2; if (q < 0) q = -q; exit !(ok && rows == 4 && q < 1e-9) }' sweep/stiffness_sweep.csv &&
  passed=$((passed + 1)) ||
  { echo "FAIL: stiffness_sweep.csv: $(cat sweep/stiffness_sweep.csv)"; failures=$((failures + 1)); }
# steps_done: the trial's T = 1 at dt = 0.01 is 100 steps when stable, fewer when it diverged (a sixth
# mutation audit: one more passed).
awk -F, 'NR > 1 { if ($5 == 1 ? $6 != 100 : !($6 < 100)) bad = 1 } END { exit bad }' sweep/stiffness_sweep.csv &&
  passed=$((passed + 1)) || { echo "FAIL: stiffness_sweep.csv's steps_done: $(cat sweep/stiffness_sweep.csv)"; failures=$((failures + 1)); }

# Write errors: a full disk (/dev/full) stops the run with exit 3 naming the file.
mkdir diskfull && ln -s /dev/full diskfull/energy.csv
expect 3 "cannot write 'diskfull/energy.csv': No space left on device" "$m" -T 0.1 -output_dir diskfull
ln -s /dev/full fullsink # through a link, so a regression would replace the link, never /dev/full
expect 3 "cannot write 'fullsink': No space left on device" "$m" -T 0.1 -output_dir ok1 -save_final fullsink
if [ ! -c /dev/full ]; then echo "FAIL: /dev/full was replaced"; failures=$((failures + 1)); fi

# Divergence: exit 3, step and time named, output so far valid.
expect 3 "semi_implicit diverged at step" "$labs/semi_implicit" -dt 0.05 -T 20 -output_dir div -console_every 1000
expect 3 "almost_explicit diverged at step" "$labs/almost_explicit" -output_dir div2 -console_every 1000
last=$(tail -n 1 div/energy.csv | cut -d, -f1)
if ! grep -q '</Collection>' div/beam.pvd || [ -z "$last" ]; then
  echo "FAIL: diverged run left an invalid .pvd or energy.csv"; failures=$((failures + 1))
fi
# Its series ends with the diverged state (step 17, t = 0.85: the blow-up a student wants to see), drawn
# and finite, one step after energy.csv's last row (it ended at step 10, the last scheduled snapshot).
end=$(grep '<DataSet' div/beam.pvd | tail -n 1)
case "$last $end" in
  "16 "*'timestep="0.8500000000000001"'*'file="beam_000017.vtu"'*) [ -s div/beam_000017.vtu ] || { echo "FAIL: no beam_000017.vtu"; failures=$((failures + 1)); } ;;
  *) echo "FAIL: diverged run's series ends with '$end' (energy.csv at step $last)"; failures=$((failures + 1)) ;;
esac
# A failed Newton solve leaves the state of the last accepted step (21), which ends the series (at 20
# before); -snapshot_every 5 puts it off the grid.
expect 3 "Newton did not converge in the step from t = 0.42" "$labs/mass_spring" -model cloth -cloth_nx 10 -cloth_ny 10 \
  -scheme implicit_euler -dt 0.02 -T 1 -ms_snes_max_it 4 -snapshot_every 5 -output_dir newtonfail -quiet
end=$(grep '<DataSet' newtonfail/mass_spring.pvd | tail -n 1)
case "$(tail -n 1 newtonfail/energy.csv | cut -d, -f1) $end" in
  "21 "*'timestep="0.42"'*'file="mass_spring_000021.vtp"'*) ;;
  *) echo "FAIL: failed Newton run's series ends with '$end'"; failures=$((failures + 1)) ;;
esac
# discrete_system's trajectory.csv too ends with the diverged state (step 6, t = 3; energy.csv at step 5;
# it ended at the last scheduled row, t = 0, before).
expect 3 "almost_explicit diverged at step 6, t = 3" "$labs/discrete_system" -system two_dof -scheme almost_explicit \
  -dt 0.5 -T 200 -output_dir discdiv -quiet
[ "$(tail -n 1 discdiv/trajectory.csv | cut -d, -f1)" = 3 ] && [ "$(tail -n 1 discdiv/energy.csv | cut -d, -f1)" = 5 ] ||
  { echo "FAIL: diverged discrete run: trajectory ends '$(tail -n 1 discdiv/trajectory.csv)'"; failures=$((failures + 1)); }
# Restarted from its step-4 checkpoint (rows every 5 steps: only row 0 before it), it diverges again the
# same way and its trajectory.csv is the straight run's (the restart was refused as "rows stop", exit 2).
expect 3 "almost_explicit diverged at step 6, t = 3" "$labs/discrete_system" -system two_dof -scheme almost_explicit \
  -dt 0.5 -T 200 -snapshot_every 5 -checkpoint_every 4 -output_dir discre -quiet
cp discre/trajectory.csv discre_straight.csv
expect 3 "almost_explicit diverged at step 6, t = 3" "$labs/discrete_system" -system two_dof -scheme almost_explicit \
  -dt 0.5 -T 200 -snapshot_every 5 -checkpoint_every 4 -restart discre -quiet
cmp -s discre/trajectory.csv discre_straight.csv || { echo "FAIL: restarted diverged discrete run's trajectory.csv differs"; failures=$((failures + 1)); }

# Sample run: midpoint conserves E (drift at round-off: 5000 steps x ~1e-15 per step, bound 1e-10),
# one snapshot every 10 steps plus step 0 (501), and the declared energy.csv header.
expect 0 "" "$m" -output_dir mid -console_every 100000 -save_final final.mtx -export_system sys
cp out.txt mid_console.txt
if [ "$(head -n 1 mid/energy.csv | cut -d, -f1-6)" != "step,time,kinetic,potential,work,total" ]; then
  echo "FAIL: energy.csv header: $(head -n 1 mid/energy.csv)"; failures=$((failures + 1))
fi
rows=$(($(wc -l < mid/energy.csv) - 1))
snaps=$(grep -c '<DataSet' mid/beam.pvd)
maxdrift=$(awk -F, 'NR > 1 { d = $NF < 0 ? -$NF : $NF; if (d > m) m = d } END { print m + 0 }' mid/energy.csv)
if [ "$rows" != 5001 ] || [ "$snaps" != 501 ] || ! awk -v d="$maxdrift" 'BEGIN { exit !(d < 1e-10) }'; then
  echo "FAIL: midpoint sample run: rows=$rows snapshots=$snaps max|drift|=$maxdrift"; failures=$((failures + 1))
fi
if [ "$(sed -n 2p final.mtx)" != "252 2" ] || [ "$(wc -l < sys/fixed.txt)" != 12 ] || ! head -n 1 sys/K.mtx | grep -q 'coordinate real general'; then
  echo "FAIL: -save_final / -export_system files"; failures=$((failures + 1))
fi

# The console's last energy line is the last step's even when it is not a multiple of -console_every
# (5000 steps, every 100000: steps 0 and 5000; the final line was dropped by a mutant no test caught).
if [ "$(grep -c '^step ' mid_console.txt)" != 2 ] || ! grep '^step ' mid_console.txt | tail -n 1 | grep -q '^step  *5000 '; then
  echo "FAIL: the console's energy lines: $(grep '^step ' mid_console.txt | tr '\n' '|')"; failures=$((failures + 1))
fi
# -export_system: Matrix Market indices are 1-based within 1..n and every entry counted in the size line;
# fixed.txt's DOFs are 0-based: K's and M's row i+1 of a listed DOF i holds only the diagonal 1, and a
# DOF not listed has couplings (a 1-based fixed.txt or 0-based columns passed every test until 2026-11-28).
for f in K M; do
  awk 'FNR == NR { fixed[$1 + 1] = 1; next }
    /^%/ { next }
    !size { n = $1; nnz = $3; size = 1; next }
    { ++entries; if ($1 < 1 || $1 > n || $2 < 1 || $2 > n || $1 != int($1) || $2 != int($2)) bad = 1
      if ($1 in fixed) { if (($1 == $2 && $3 != 1) || ($1 != $2 && $3 != 0)) bad = 1 }
      else if ($1 != $2 && $3 != 0) coupled[$1] = 1 }
    END { for (i = 1; i <= n; ++i) if (!(i in fixed) && !(i in coupled)) bad = 1
          exit bad || entries != nnz || length(fixed) != 12 }' sys/fixed.txt sys/$f.mtx && passed=$((passed + 1)) ||
    { echo "FAIL: sys/$f.mtx against sys/fixed.txt (1-based entries, frozen rows of the 0-based DOFs)"; failures=$((failures + 1)); }
done

# A second run into the same -output_dir replaces energy.csv: one header, the second run's rows.
expect 0 "" "$m" -T 0.05 -quiet -output_dir twice
expect 0 "" "$m" -T 0.02 -quiet -output_dir twice
[ "$(grep -c '^step,' twice/energy.csv)" = 1 ] && [ "$(wc -l < twice/energy.csv)" = 4 ] && passed=$((passed + 1)) ||
  { echo "FAIL: a second run's energy.csv: $(cut -c1-20 twice/energy.csv | tr '\n' '|')"; failures=$((failures + 1)); }

# The multibody energy.csv's columns in the README's order (the violations after the energies).
expect 0 "" "$labs/multibody" -model pendulum -T 0.01 -quiet -output_dir mbcols
[ "$(head -n 1 mbcols/energy.csv)" = "step,time,kinetic,potential,total,position_violation,velocity_violation,quaternion_norm_error,dissipated,balance_error,drift" ] &&
  passed=$((passed + 1)) || { echo "FAIL: multibody energy.csv header: $(head -n 1 mbcols/energy.csv)"; failures=$((failures + 1)); }

# newton_its is SNES's own count: the converged-reason lines' iterations, step by step.
expect 0 "" "$labs/mass_spring" -model chain -scheme implicit_euler -T 0.05 -ms_snes_converged_reason -quiet -output_dir nits
snes=$(grep -o 'iterations [0-9]*' out.txt | cut -d' ' -f2 | tr '\n' ' ')
logged=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; ++i) c[$i] = i; next } NR > 2 { printf "%s ", $c["newton_its"] }' nits/energy.csv)
[ -n "$snes" ] && [ "$snes" = "$logged" ] && [ "$(echo $snes | wc -w)" = 50 ] && passed=$((passed + 1)) ||
  { echo "FAIL: newton_its '$logged' against SNES's '$snes'"; failures=$((failures + 1)); }

# An unconverged energy-scale solve (CG capped at 2 iterations) is said once per run, however many
# schemes (energy_drift: one model) or trial runs (stability: the scale handed to every trial) use it.
for run in "energy_drift -T 0.05" "stability -measure_steps 100"; do
  lab=${run%% *}
  "$labs/$lab" ${run#* } -linear_solver cg -static_ksp_max_it 2 -output_dir scale_$lab > scale.txt 2>&1
  said=$(grep -c "^energy scale: .*unconverged: a lower bound" scale.txt)
  if [ "$said" != 1 ]; then
    echo "FAIL: $lab said the unconverged energy scale $said times, want 1"; failures=$((failures + 1))
  fi
done

# Rayleigh damping lowers the explicit schemes' critical steps (2026-11-30: semi_implicit -rayleigh_beta 0.003
# -dt 0.045 diverged at step 51 without a warning, the check held the undamped 0.0474): the damped limit
# 2 (sqrt(1 + xi^2) - xi) / omega_max = 0.0445079 at xi = beta omega_max / 2 warns at 0.045 (the run then
# diverges, exit 3) and not at 0.0445. In stability, rk4 at alpha = 2 omega_max is set by its overdamped
# modes: L / alpha = 2.785294 / 84.36 = 0.0330173, half the undamped-mode value; verlet's matrix on
# (x, y, a) (damped, its acceleration is taken at the half-step velocity) gives semi_implicit's 0.01964,
# measured 0.0197569 (the 2x2 step restarted from (x, y) gave 0.0474).
"$labs/semi_implicit" -rayleigh_beta 0.003 -dt 0.045 -quiet -output_dir rayleigh1 > ray.txt 2>&1
[ $? = 3 ] && grep -q "^warning: dt = 0.045 exceeds the critical step 0.0445079 of semi_implicit (omega_max = 42.1824; with the Rayleigh damping, the limit of the mode at omega = 42.1824, xi = 0.0632736)$" ray.txt &&
  passed=$((passed + 1)) || { echo "FAIL: damped warning: $(head -c 400 ray.txt)"; failures=$((failures + 1)); }
"$labs/semi_implicit" -rayleigh_beta 0.003 -dt 0.0445 -T 5 -quiet -output_dir rayleigh2 > ray.txt 2>&1
[ $? = 0 ] && ! grep -q "warning" ray.txt && passed=$((passed + 1)) || { echo "FAIL: damped, below the limit: $(head -c 400 ray.txt)"; failures=$((failures + 1)); }
"$labs/stability" -rayleigh_alpha 84.36 -measure_steps 0 -omega_points 2 -output_dir rayleigh3 > ray.txt 2>&1
grep -q "^critical_dt rk4 = 0.0330173   (Omega_crit = .*, xi = 125.885)$" ray.txt &&
  grep -q "^critical_dt verlet = 0.01964   (Omega_crit = 0.828461, at omega = 42.1824, xi = 0.999943)$" ray.txt &&
  passed=$((passed + 1)) || { echo "FAIL: stability with Rayleigh damping: $(grep -E 'rk4|note' ray.txt | head -c 400)"; failures=$((failures + 1)); }

# The verdict (2026-11-27): a bounded drift is "oscillates" whatever T it ends at (semi_implicit was
# "loses energy" at T = 5 and "gains energy" at T = 20; central difference's drift, below zero but
# coming back, "loses energy"); a drift that grows to the end keeps its sign's word (fully implicit,
# RK4). A restarted run's verdict is the straight run's (the checkpoint keeps the drift's extremes and
# its largest drawdown).
for T in 20 50; do
  "$labs/energy_drift" -schemes semi_implicit,central_difference,fully_implicit,rk4 -T $T -snapshot_every 0 -quiet \
    -output_dir verdict_$T > verdict.txt 2>&1
  for want in "semi_implicit .* oscillates" "central_difference .* oscillates" "fully_implicit .* loses energy" "rk4 .* loses energy"; do
    if grep -q "^${want}$" verdict.txt; then passed=$((passed + 1)); else
      echo "FAIL: T = $T: no line '$want' in: $(grep -E '^(semi|central|fully|rk4)' verdict.txt | tr '\n' ';')"; failures=$((failures + 1))
    fi
  done
done
"$labs/semi_implicit" -T 20 -snapshot_every 0 -quiet -output_dir verdict_straight > straight.txt
"$labs/semi_implicit" -T 3 -snapshot_every 0 -quiet -output_dir verdict_restart > /dev/null
"$labs/semi_implicit" -T 20 -snapshot_every 0 -quiet -restart verdict_restart > restarted.txt
if [ "$(grep '^semi_implicit ' straight.txt)" = "$(grep '^semi_implicit ' restarted.txt)" ]; then passed=$((passed + 1)); else
  echo "FAIL: restarted summary '$(grep '^semi_implicit ' restarted.txt)' differs from the straight run's '$(grep '^semi_implicit ' straight.txt)'"
  failures=$((failures + 1))
fi

# paper_central_difference runs each step with the paper's force: h = 0.1423 with f = (0.5, -2.9) (its
# Figure 6; +2.9 until 2026-11-27), the others with (0.5, 2.9). Stable central differences settle at the
# static solution K^-1 f of reference 002's 2-DOF system, (-0.12667, -0.35333) and (0.26, 0.42), to 1e-9.
expect 0 "" "$labs/paper_central_difference" -output_dir paper
settled() { # settled <trajectory.csv> <q1> <q2>
  tail -n 1 "$1" | awk -F, -v a="$2" -v b="$3" '{ d1 = $2 - a; d2 = $3 - b; exit !(d1 * d1 < 1e-18 && d2 * d2 < 1e-18) }'
}
if settled paper/two_dof_h0.1423/central_difference/trajectory.csv -0.12666666666666667 -0.35333333333333333 &&
  settled paper/two_dof_h0.285/central_difference/trajectory.csv 0.26 0.42; then
  passed=$((passed + 1))
else
  echo "FAIL: paper_central_difference's 2-DOF runs do not settle at K^-1 f with the paper's forces"
  failures=$((failures + 1))
fi
# summary.csv records each run's force (the h = 0.1423 runs' was only on the console until 2026-11-27).
if [ "$(grep -c '^two_dof,0.1423,.*,0.5;-2.9$' paper/summary.csv)" = 2 ] &&
  [ "$(grep -c '^two_dof,0.285,.*,0.5;2.9$' paper/summary.csv)" = 2 ] &&
  head -n 1 paper/summary.csv | grep -q ',overflowed,force$'; then
  passed=$((passed + 1))
else
  echo "FAIL: paper_central_difference's summary.csv does not record the runs' forces: $(head -n 3 paper/summary.csv | tr '\n' '|')"
  failures=$((failures + 1))
fi

echo "$passed passed, $failures failed"
[ "$failures" = 0 ]
