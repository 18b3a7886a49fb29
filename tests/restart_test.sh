#!/usr/bin/env bash
# Interrupted runs resume exactly. Usage: restart_test.sh <build>/labs
#  1. SIGKILL in the middle of a run with -checkpoint_every, then -restart: energy.csv (every step once)
#     and the final state are byte-identical to an uninterrupted run's.
#  2. SIGINT and SIGTERM: the run finishes its step, writes a final snapshot and a checkpoint, exits
#     with 128 + signal; the .pvd stays valid; -restart completes it identically.
set -u
labs=$(cd "$1" && pwd)
tests=$(cd "$(dirname "$0")" && pwd) # before the cd below: the script may be named by a relative path
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
m="$labs/midpoint"
args=(-T 40 -quiet)
failures=0
passed=0
check() { if eval "$2"; then passed=$((passed + 1)); else echo "FAIL: $1"; failures=$((failures + 1)); fi; }

"$m" "${args[@]}" -output_dir full -save_final full.mtx > /dev/null || { echo "FAIL: reference run"; exit 1; }

# Waits until <dir>/energy.csv has more than <rows> lines (at most 60 s).
wait_rows() {
  for _ in $(seq 1200); do
    [ -f "$1/energy.csv" ] && [ "$(wc -l < "$1/energy.csv")" -gt "$2" ] && return 0
    sleep 0.05
  done
  return 1
}

# 1. SIGKILL after a few checkpoints.
"$m" "${args[@]}" -output_dir killed -checkpoint_every 100 > /dev/null 2>&1 &
pid=$!
wait_rows killed 1500
kill -9 $pid
wait $pid 2> /dev/null
check "killed run left a checkpoint" '[ -f killed/checkpoint.bin ]'
check "killed run stopped before the end" '[ "$(wc -l < killed/energy.csv)" -lt 4001 ]'
"$m" "${args[@]}" -restart killed -save_final killed.mtx > /dev/null
check "restart after SIGKILL exits 0" '[ $? = 0 ]'
check "energy.csv after SIGKILL+restart identical" 'cmp -s full/energy.csv killed/energy.csv'
check "final state after SIGKILL+restart identical" 'cmp -s full.mtx killed.mtx'

# 1b. A restart with a larger -snapshot_every killed before its next snapshot: the .pvd it left listed the
# frames after the checkpoint, whose files the restart had removed, and the next restart refused the
# series (it is now rewritten before they go).
"$m" "${args[@]}" -output_dir sparse -checkpoint_every 100 -snapshot_every 7 > /dev/null 2>&1 &
pid=$!
wait_rows sparse 1550
kill -9 $pid
wait $pid 2> /dev/null
"$m" "${args[@]}" -restart sparse -checkpoint_every 1 -snapshot_every 100000 > /dev/null 2>&1 &
pid=$!
wait_rows sparse 1650
kill -9 $pid
wait $pid 2> /dev/null
listed_missing=0
for f in $(grep -o 'file="[^"]*"' sparse/beam.pvd | cut -d'"' -f2); do [ -e "sparse/$f" ] || listed_missing=1; done
check "a restart killed before its next snapshot leaves a series that lists only files there" '[ $listed_missing = 0 ]'
"$m" "${args[@]}" -restart sparse -snapshot_every 100000 > /dev/null 2> err.txt
rc=$? # before the title's $(...), which resets $?
check "... and the next restart continues it ($(head -c 200 err.txt))" '[ $rc = 0 ]'

# 2. SIGINT / SIGTERM: clean stop with exit 128 + signal, then restart.
for sig in INT TERM; do
  dir=stopped_$sig
  "$m" "${args[@]}" -output_dir $dir > $dir.log 2>&1 &
  pid=$!
  wait_rows $dir 800
  kill -$sig $pid
  wait $pid
  rc=$?
  want=$([ $sig = INT ] && echo 130 || echo 143)
  check "SIG$sig exit code $rc = $want" '[ $rc = $want ]'
  check "SIG$sig message" 'grep -q "continue with -restart $dir" $dir.log'
  last=$(tail -n 1 $dir/energy.csv | cut -d, -f1)
  check "SIG$sig final snapshot at step $last" 'grep -q "beam_$(printf %06d "$last").vtu" $dir/beam.pvd && grep -q "</Collection>" $dir/beam.pvd'
  "$m" "${args[@]}" -restart $dir -save_final $dir.mtx > /dev/null
  check "SIG$sig restart identical" 'cmp -s full/energy.csv $dir/energy.csv && cmp -s full.mtx $dir.mtx'
  # The frame written where the signal stopped the run (off the every-10 grid) is dropped on restart: the
  # series is the uninterrupted run's (it had one frame more until 2026-11-27).
  check "SIG$sig restarted series as the uninterrupted one" 'cmp -s full/beam.pvd $dir/beam.pvd && { [ $((last % 10)) = 0 ] || [ ! -e $dir/beam_$(printf %06d "$last").vtu ]; }'
done

# 3. A checkpoint written on 1 rank continues on 2 (global vectors in the file): the same final state to
#    1e-12 relative (parallel reductions round differently).
"$m" -T 20 -quiet -output_dir one > /dev/null
mpiexec --quiet -n 2 "$m" -T 40 -quiet -restart one -save_final two.mtx > /dev/null
check "restart on another number of ranks exits 0" '[ $? = 0 ]'
check "1-rank checkpoint continued on 2 ranks matches to 1e-12" 'paste <(tail -n +3 full.mtx) <(tail -n +3 two.mtx) | awk "{ d = \$1 - \$2; if (d < 0) d = -d; a = \$1 < 0 ? -\$1 : \$1; if (d > m) m = d; if (a > s) s = a } END { exit !(m <= 1e-12 * s) }"'

# 4. The discrete_system lab: a run to T = 4 continued to T = 10 writes the same energy.csv,
#    trajectory.csv and final state as one run to T = 10 (Newmark keeps its acceleration in the checkpoint).
d="$labs/discrete_system"
"$d" -output_dir dfull -save_final dfull.mtx > /dev/null
"$d" -T 4 -output_dir dpart > /dev/null
"$d" -restart dpart -save_final dpart.mtx > /dev/null
check "discrete_system restart identical" 'cmp -s dfull/energy.csv dpart/energy.csv && cmp -s dfull/trajectory.csv dpart/trajectory.csv && cmp -s dfull.mtx dpart.mtx'
# ... also when the first run ends off the -snapshot_every grid: its end row (t = 0.5, 50 steps, every 3)
# was kept, a row the uninterrupted run does not have.
"$d" -system fifteen_dof -dt 0.01 -T 1 -snapshot_every 3 -quiet -output_dir dgrid_full > /dev/null
"$d" -system fifteen_dof -dt 0.01 -T 0.5 -snapshot_every 3 -quiet -output_dir dgrid > /dev/null
"$d" -system fifteen_dof -dt 0.01 -T 1 -snapshot_every 3 -quiet -restart dgrid > /dev/null
check "discrete_system restart from an end off the row grid" 'cmp -s dgrid_full/trajectory.csv dgrid/trajectory.csv'
# ... and a row on the first run's grid stays when the spacing changes (every 5 to t = 0.5, then every 3:
# the row at 0.5 went, judged by the new spacing).
"$d" -system fifteen_dof -dt 0.01 -T 0.5 -snapshot_every 5 -quiet -output_dir dgrid5 > /dev/null
"$d" -system fifteen_dof -dt 0.01 -T 1 -snapshot_every 3 -quiet -restart dgrid5 > /dev/null
check "discrete_system restart keeps the first run's row on its own grid" 'grep -q "^0.5," dgrid5/trajectory.csv && grep -q "^0.51000000000000001," dgrid5/trajectory.csv'
# Chained restarts, each ending off the -snapshot_every 7 grid (steps 5 and 9, then on to 20): the series
# is the uninterrupted run's, frames and rows at 0, 7, 14, 20. The checkpoint keeps the writing run's
# grid; read off the entries before the end one, the first restart kept frame 5 (fewer than three
# frames) and the second read a spacing of 2 from frames 5 and 7 and kept frame 9 too (exit 0).
ch=(-mx 6 -my 2 -dt 0.01 -quiet -snapshot_every 7)
"$m" "${ch[@]}" -T 0.05 -output_dir chain > /dev/null
"$m" "${ch[@]}" -T 0.09 -restart chain > /dev/null
"$m" "${ch[@]}" -T 0.2 -restart chain > /dev/null
"$m" "${ch[@]}" -T 0.2 -output_dir chain_ref > /dev/null
check "chained restarts off the grid: the uninterrupted series" 'cmp -s chain/beam.pvd chain_ref/beam.pvd && [ "$(ls chain | grep -c vtu)" = 4 ] && cmp -s chain/beam_000020.vtu chain_ref/beam_000020.vtu'
dch=(-system two_dof -scheme central_difference -dt 0.4 -snapshot_every 7 -quiet)
"$d" "${dch[@]}" -T 2 -output_dir dchain > /dev/null
"$d" "${dch[@]}" -T 3.6 -restart dchain > /dev/null
"$d" "${dch[@]}" -T 8 -restart dchain > /dev/null
"$d" "${dch[@]}" -T 8 -output_dir dchain_ref > /dev/null
check "discrete_system chained restarts off the grid: the uninterrupted rows" 'cmp -s dchain/trajectory.csv dchain_ref/trajectory.csv && [ "$(wc -l < dchain/trajectory.csv)" = 5 ]'
# A restart with no step left (T at the checkpoint's, here after a divergence at step 12 with the last
# checkpoint at 10): the last frame and trajectory row an uninterrupted run ends with were not written,
# and discrete_system printed zero energies (exit 0).
ae=(-mx 6 -my 2 -dt 0.05 -quiet -snapshot_every 7 -checkpoint_every 10)
"$labs/almost_explicit" "${ae[@]}" -T 50 -output_dir nostep > /dev/null 2>&1
"$labs/almost_explicit" "${ae[@]}" -T 0.5 -restart nostep > /dev/null
"$labs/almost_explicit" "${ae[@]}" -T 0.5 -output_dir nostep_ref > /dev/null
check "a restart with no step left writes the last frame" 'cmp -s nostep/beam.pvd nostep_ref/beam.pvd && cmp -s nostep/beam_000010.vtu nostep_ref/beam_000010.vtu'
cd2=(-system two_dof -scheme central_difference -dt 0.4 -snapshot_every 7 -checkpoint_every 10 -quiet)
"$d" "${cd2[@]}" -T 500 -output_dir dnostep > /dev/null 2>&1
"$d" "${cd2[@]}" -T 16 -restart dnostep > dnostep.txt
"$d" "${cd2[@]}" -T 16 -output_dir dnostep_ref > dnostep_ref.txt
check "discrete_system restart with no step left: last row and energies" 'cmp -s dnostep/trajectory.csv dnostep_ref/trajectory.csv && [ "$(grep ^kinetic dnostep.txt)" = "$(grep ^kinetic dnostep_ref.txt)" ]'
# A restart without snapshots (-snapshot_every 0) of a run that wrote some: its series is trimmed to the
# checkpoint as a writing restart trims it (the .pvd listed frame 11, after the checkpoint at 10, and
# its file stayed).
"$labs/almost_explicit" -mx 6 -my 2 -dt 0.05 -quiet -checkpoint_every 5 -snapshot_every 11 -T 50 -output_dir trim0 > /dev/null 2>&1
"$labs/almost_explicit" -mx 6 -my 2 -dt 0.05 -quiet -checkpoint_every 5 -snapshot_every 0 -T 0.5 -restart trim0 > /dev/null
check "a restart with -snapshot_every 0 trims the series" '! grep -q beam_000011 trim0/beam.pvd && [ ! -e trim0/beam_000011.vtu ] && grep -q beam_000000 trim0/beam.pvd'
# ... and says so when it cannot write the trimmed .pvd (the error was swallowed, exit 0, the .pvd listing
# a frame whose file it had removed); the series stays as it was.
"$labs/almost_explicit" -mx 6 -my 2 -dt 0.05 -quiet -checkpoint_every 5 -snapshot_every 11 -T 50 -output_dir trimfull > /dev/null 2>&1
ln -s /dev/full trimfull/beam.pvd.tmp
"$labs/almost_explicit" -mx 6 -my 2 -dt 0.05 -quiet -checkpoint_every 5 -snapshot_every 0 -T 0.5 -restart trimfull > /dev/null 2> err.txt
check "a series trimmer that cannot write the .pvd says so" '[ $? = 3 ] && grep -q "cannot write .trimfull/beam.pvd" err.txt && grep -q beam_000011 trimfull/beam.pvd && [ -e trimfull/beam_000011.vtu ]'
# A solver option's number however spelled: one run (-shifted_ksp_rtol 1e-3 and 0.001 were refused
# as two).
"$m" -mx 6 -my 2 -T 1 -quiet -linear_solver cg -shifted_ksp_rtol 1e-3 -output_dir spelled > /dev/null
"$m" -mx 6 -my 2 -T 2 -quiet -linear_solver cg -shifted_ksp_rtol 0.001 -restart spelled > /dev/null 2> err.txt
rc=$? # before the title's $(...), which resets $?
check "a solver option's number spelled another way continues ($(head -c 200 err.txt))" '[ $rc = 0 ]'
# A PETSc boolean however spelled: one run (a flag alone and "true" were refused as two).
"$m" -mx 6 -my 2 -T 1 -quiet -linear_solver cg -shifted_ksp_initial_guess_nonzero -output_dir boolspelled > /dev/null
"$m" -mx 6 -my 2 -T 2 -quiet -linear_solver cg -shifted_ksp_initial_guess_nonzero TRUE -restart boolspelled > /dev/null 2> err.txt
rc=$? # before the title's $(...), which resets $?
check "a boolean solver option spelled another way continues ($(head -c 200 err.txt))" '[ $rc = 0 ]'
"$m" -mx 6 -my 2 -T 3 -quiet -linear_solver cg -shifted_ksp_initial_guess_nonzero off -restart boolspelled > /dev/null 2> err.txt
check "a boolean solver option turned off is refused" '[ $? = 2 ] && grep -q "shifted_ksp_initial_guess_nonzero 1, now .*shifted_ksp_initial_guess_nonzero 0" err.txt'
# The default load given explicitly is the default (refused as "point_loads was default").
"$m" -T 1 -quiet -output_dir deflt > /dev/null
"$m" -T 2 -quiet -point_load 20,0,0,-0.1 -restart deflt > /dev/null 2> err.txt
rc=$? # before the title's $(...), which resets $?
check "the default load given explicitly continues ($(head -c 200 err.txt))" '[ $rc = 0 ]'
# Explicit schemes on an iterative mass solve: the previous acceleration, the solve's initial guess,
# was not in the checkpoint (rk4, explicit_euler, semi_implicit_euler restarts 1e-17 apart, exit 0).
for scheme in rk4 explicit_euler semi_implicit_euler forward_euler; do
  cgargs=(-system fifteen_dof -scheme $scheme -dt 0.05 -quiet -linear_solver cg -load_harmonic 1,2)
  "$d" "${cgargs[@]}" -T 2 -output_dir cg_full_$scheme -save_final cg_full_$scheme.mtx > /dev/null
  "$d" "${cgargs[@]}" -T 0.86 -output_dir cg_part_$scheme > /dev/null
  "$d" "${cgargs[@]}" -T 2 -restart cg_part_$scheme -save_final cg_part_$scheme.mtx > /dev/null
  check "discrete_system $scheme restart with -linear_solver cg identical" \
    'cmp -s cg_full_$scheme/energy.csv cg_part_$scheme/energy.csv && cmp -s cg_full_$scheme.mtx cg_part_$scheme.mtx'
done
# Another scheme parameter is named by the option the user gave (was "scheme.alpha_f was 0.05, now 0.1"
# for -hht_alpha -0.05 -> -0.1: an internal name with the opposite sign).
"$d" -scheme hht -T 0.5 -dt 0.01 -quiet -output_dir dhht > /dev/null
"$d" -scheme hht -hht_alpha -0.1 -T 1 -dt 0.01 -quiet -restart dhht > /dev/null 2> err.txt
rc=$? # before the title's $(...), which resets $?
check "discrete_system restart with another -hht_alpha names it ($(head -c 300 err.txt))" '[ $rc = 2 ] && grep -q -- "-hht_alpha was -0.05, now -0.1;" err.txt'
"$d" -scheme generalized_alpha -T 0.5 -dt 0.01 -quiet -output_dir dga > /dev/null
"$d" -scheme generalized_alpha -rho_inf 0.5 -T 1 -dt 0.01 -quiet -restart dga > /dev/null 2> err.txt
rc=$? # before the title's $(...), which resets $?
check "discrete_system restart with another -rho_inf names it ($(head -c 300 err.txt))" '[ $rc = 2 ] && grep -q -- "-rho_inf was 0.8, now 0.5;" err.txt'

# 4b. fully_implicit on the default path of a beam above 10000 DOFs (mf_kron: CG started from the
#     extrapolated y_n + (y_n - y_{n-1})): y_{n-1} is in the checkpoint, so the continued run is identical.
fi="$labs/fully_implicit"
"$fi" -mx 200 -my 30 -T 2 -quiet -output_dir fifull -save_final fifull.mtx > /dev/null
"$fi" -mx 200 -my 30 -T 1 -quiet -output_dir fipart > /dev/null
"$fi" -mx 200 -my 30 -T 2 -quiet -restart fipart -save_final fipart.mtx > /dev/null
check "fully_implicit (mf_kron) restart identical" 'cmp -s fifull/energy.csv fipart/energy.csv && cmp -s fifull.mtx fipart.mtx'

# 5. A restart that does not match the checkpoint is refused (exit 2).
"$labs/semi_implicit" "${args[@]}" -restart full > /dev/null 2> err.txt
check "restart with another scheme refused" '[ $? = 2 ] && grep -q "lab was midpoint, now semi_implicit" err.txt'

# 6. A restart can't lie (issue 12): every mismatch or corruption is refused with exit 2, naming what
#    differs, and leaves the directory exactly as it was (same files, same bytes).
snapshot() { (cd "$1" && find . -type f | sort | xargs md5sum); }
refused() { # <what> <grep pattern> <command...>: exit 2, pattern in the message, directory unchanged
  local what=$1 pattern=$2
  shift 2
  local before after
  before=$(snapshot full)
  "$@" > /dev/null 2> err.txt
  local rc=$?
  after=$(snapshot full)
  check "$what refused (exit $rc)" '[ $rc = 2 ] && grep -q -- "$pattern" err.txt && [ "$before" = "$after" ]'
}
refused "restart with another E" "E was 100, now 200" "$m" "${args[@]}" -restart full -E 200
refused "restart with a transposed mesh" "mesh was 20x5, now 5x20" "$m" "${args[@]}" -restart full -mx 5 -my 20
refused "restart with other supports" "supports was clamped_left, now clamped_both" "$m" "${args[@]}" -restart full -supports clamped_both
refused "restart with another dt" "dt was 0.01, now 0.02" "$m" "${args[@]}" -restart full -dt 0.02
refused "restart with damping added" "rayleigh_alpha was 0, now 0.1" "$m" "${args[@]}" -restart full -rayleigh_alpha 0.1
refused "restart with another solver" "linear_solver was direct, now cg" "$m" "${args[@]}" -restart full -linear_solver cg
# The load in time was recorded only as "yes": another harmonic or curve was continued, exit 0.
"$m" -T 1 -quiet -load_harmonic 1,2 -output_dir harm > /dev/null
"$m" -T 2 -quiet -load_harmonic 5,7 -restart harm > /dev/null 2> err.txt
check "restart with another -load_harmonic refused" '[ $? = 2 ] && grep -q "load_in_time was harmonic 1,2, now harmonic 5,7" err.txt'
# The solvers' own options were not recorded: -shifted_ksp_type preonly -shifted_pc_type jacobi (now refused
# by itself) went on at a drift of 3e-2, exit 0; an ordering stands in for them.
"$m" -T 2 -quiet -load_harmonic 1,2 -shifted_pc_type lu -shifted_pc_factor_mat_ordering_type rcm -restart harm > /dev/null 2> err.txt
check "restart with other solver options refused" '[ $? = 2 ] && grep -q "solver_options was none, now -shifted_pc_factor_mat_ordering_type rcm -shifted_pc_type lu" err.txt'
cp full/checkpoint.bin ck.orig
for at in 40 400 2000 4000; do # one flipped bit: header, identity, data
  cp ck.orig full/checkpoint.bin
  printf "$(printf '\\x%02x' $(( $(od -An -tu1 -j $at -N1 ck.orig) ^ 4 )))" | dd of=full/checkpoint.bin bs=1 seek=$at conv=notrunc 2> /dev/null
  refused "checkpoint with a flipped bit at byte $at" "checksum mismatch" "$m" "${args[@]}" -restart full
done
cp ck.orig full/checkpoint.bin # the format before fully_implicit's history became its increment
printf '\x02' | dd of=full/checkpoint.bin bs=1 seek=7 conv=notrunc 2> /dev/null
refused "checkpoint of format version 2" "written by another version (2)" "$m" "${args[@]}" -restart full
head -c 1000 ck.orig > full/checkpoint.bin
refused "truncated checkpoint" "not a valid checkpoint\\|cannot be read\\|corrupted" "$m" "${args[@]}" -restart full
: > full/checkpoint.bin
refused "empty checkpoint" "not a valid checkpoint" "$m" "${args[@]}" -restart full
cp ck.orig full/checkpoint.bin
cp full/energy.csv energy.orig
head -n 2000 energy.orig > full/energy.csv
refused "truncated energy.csv" "rows stop before step" "$m" "${args[@]}" -restart full
cp energy.orig full/energy.csv
sed -i '1s/kinetic/kinetik/' full/energy.csv
refused "energy.csv with other columns" "columns differ" "$m" "${args[@]}" -restart full
cp energy.orig full/energy.csv
printf '\n' >> full/energy.csv # (a blank line after the checkpoint's rows was said to come before step N)
refused "energy.csv with a blank line" "is blank; the log up to step" "$m" "${args[@]}" -restart full
cp energy.orig full/energy.csv
# The series: a listed snapshot removed (the continued .pvd listed a missing file, exit 0); the .pvd
# removed with its snapshots there (a new series of the new snapshots only, exit 0); a .pvd of garbage
# (VTK's own error line came before the lab's).
mv full/beam_000020.vtu vtu.orig
refused "restart with a listed snapshot removed" "lists 'beam_000020.vtu', but it is missing" "$m" "${args[@]}" -restart full
# ... a FIFO or a directory in its place is named as such (a FIFO was "missing" until 2026-12-01).
mkfifo full/beam_000020.vtu
refused "restart with a FIFO in a listed snapshot's place" "lists 'beam_000020.vtu', but it is not a regular file" "$m" "${args[@]}" -restart full
rm full/beam_000020.vtu && mkdir full/beam_000020.vtu
refused "restart with a directory in a listed snapshot's place" "holds a directory 'beam_000020.vtu' where the labs write a file" "$m" "${args[@]}" -restart full
rmdir full/beam_000020.vtu
mv vtu.orig full/beam_000020.vtu
mv full/beam.pvd pvd.orig
refused "restart with the .pvd removed, its snapshots there" "it is missing while its snapshots" "$m" "${args[@]}" -restart full
echo 'garbage<<' > full/beam.pvd
refused "restart with a .pvd of garbage" "not a VTK collection; accepted: the .pvd as the interrupted run left it" "$m" "${args[@]}" -restart full
check "a .pvd of garbage refused in one line" '[ "$(wc -l < err.txt)" = 1 ]'
mv pvd.orig full/beam.pvd
# An entry deleted from the .pvd, its snapshot there: the continued series lacked it (exit 0).
cp full/beam.pvd pvd.orig
grep -v 'beam_000020.vtu' pvd.orig > full/beam.pvd
refused "restart with a .pvd entry deleted" "it does not list 'beam_000020.vtu'" "$m" "${args[@]}" -restart full
mv pvd.orig full/beam.pvd
# A snapshot the killed run wrote after its checkpoint is removed by the restart (with -snapshot_every
# changed it stayed unlisted, and the next restart refused it as a deleted entry); a refused restart
# prints nothing on stdout (the solver path line came first).
"$m" -dt 0.01 -T 0.4 -snapshot_every 10 -quiet -output_dir leftover > /dev/null
cp leftover/beam_000040.vtu leftover/beam_000050.vtu
"$m" -dt 0.01 -T 0.52 -snapshot_every 15 -quiet -restart leftover > /dev/null
"$m" -dt 0.01 -T 0.7 -snapshot_every 15 -quiet -restart leftover > /dev/null 2> err.txt
rc=$? # before the title's $(...), which resets $?
check "restarts after a snapshot left beyond the checkpoint ($(head -c 200 err.txt))" '[ $rc = 0 ] && [ ! -e leftover/beam_000050.vtu ]'
"$m" -dt 0.02 -T 0.8 -quiet -restart leftover > out_refused.txt 2> err.txt
check "a refused restart prints nothing on stdout" '[ $? = 2 ] && [ ! -s out_refused.txt ]'
mkdir -p empty_run
"$m" -restart empty_run > /dev/null 2> err.txt
check "restart without checkpoint refused" '[ $? = 2 ] && grep -q "no checkpoint" err.txt'
"$m" -restart nowhere > /dev/null 2> err.txt
check "restart of a missing directory refused, not created" '[ $? = 2 ] && grep -q "does not exist" err.txt && [ ! -e nowhere ]'

# 7. The nonlinear labs continue bit for bit too: a run to T/2 continued to T writes the same energy.csv
#    (Newton iteration counts included), trajectory and final state as one run to T.
ms="$labs/mass_spring"
msargs=(-model chain -chain_n 6 -scheme implicit_euler -dt 0.002 -quiet -track 2,5 -snapshot_every 25)
"$ms" "${msargs[@]}" -T 0.4 -output_dir msfull -save_final msfull.csv > /dev/null
"$ms" "${msargs[@]}" -T 0.2 -output_dir mspart > /dev/null
"$ms" "${msargs[@]}" -T 0.4 -restart mspart -save_final mspart.csv > /dev/null
check "mass_spring restart identical" 'cmp -s msfull/energy.csv mspart/energy.csv && cmp -s msfull/trajectory.csv mspart/trajectory.csv && cmp -s msfull.csv mspart.csv && cmp -s msfull/mass_spring.pvd mspart/mass_spring.pvd'
"$ms" "${msargs[@]}" -T 0.4 -restart mspart -gravity 0,0,-9 > /dev/null 2> err.txt
check "mass_spring restart with another gravity refused" '[ $? = 2 ] && grep -q "gravity was 0,0,-9.81, now 0,0,-9" err.txt'
# A solver option in upper case is the same option (PETSc ignores the case): the identity missed
# -MS_SNES_RTOL 0.9 and the restart went on with it (exit 0), and refused -ms_snes_rtol after -MS_SNES_RTOL.
"$ms" "${msargs[@]}" -T 0.4 -restart mspart -MS_SNES_RTOL 0.9 > /dev/null 2> err.txt
check "mass_spring restart with an upper-case solver option refused" '[ $? = 2 ] && grep -q "solver_options was none, now -ms_snes_rtol 0.9" err.txt'
"$ms" "${msargs[@]}" -T 0.2 -output_dir mscase -MS_SNES_RTOL 0.5 > /dev/null
"$ms" "${msargs[@]}" -T 0.4 -restart mscase -ms_snes_rtol 0.5 > /dev/null 2> err.txt
check "mass_spring restart with the same solver option in another case" '[ $? = 0 ]'
# Another -track list of the same length switched the file's particles at the restart, exit 0.
"$ms" "${msargs[@]/2,5/3,4}" -T 0.4 -restart mspart > /dev/null 2> err.txt
check "mass_spring restart with another -track list refused" '[ $? = 2 ] && grep -q "it tracks particles 2,5, the run -track 3,4" err.txt'
# One particle falling: the model gives no energy scale, so the scale follows the energies, and the
# checkpoint must say so (restored as fixed, the drift column parted from the straight run's).
printf 'x,y,z,mass,fixed\n0,0,0,1e26,0\n' > lone.csv
printf 'i,j,stiffness\n' > nosprings.csv
lone=(-particles lone.csv -springs nosprings.csv -scheme verlet -dt 0.001 -quiet -snapshot_every 0)
"$ms" "${lone[@]}" -T 0.4 -output_dir lonefull > /dev/null
"$ms" "${lone[@]}" -T 0.2 -output_dir lonepart > /dev/null
"$ms" "${lone[@]}" -T 0.4 -restart lonepart > /dev/null
check "mass_spring restart of a lone falling particle identical" 'cmp -s lonefull/energy.csv lonepart/energy.csv'
# The same files spelled another way (./x, x): one run (refused as another run's springs_file, exit 2).
"$ms" -particles ./lone.csv -springs .//nosprings.csv -scheme verlet -dt 0.001 -quiet -snapshot_every 0 -T 0.6 -restart lonepart > /dev/null 2> err.txt
check "mass_spring restart with ./ in the file names continues" '[ $? = 0 ]'
# The files copied elsewhere: the same data, the same run (identified by their data since 2026-11-27).
mkdir -p moved && cp lone.csv nosprings.csv moved/
"$ms" -particles moved/lone.csv -springs moved/nosprings.csv -scheme verlet -dt 0.001 -quiet -snapshot_every 0 -T 0.7 -restart lonepart > /dev/null 2> err.txt
rc=$? # before the title's $(...), which resets $?
check "mass_spring restart with the files copied elsewhere continues ($(head -c 200 err.txt))" '[ $rc = 0 ]'
# Above 20000 unknowns Newton's default preconditioner is GAMG, which keeps the interpolation of its
# first setup: a restart built it at its own first step and went on 1e-13 apart (exit 0).
clotharg=(-model cloth -cloth_nx 84 -cloth_ny 84 -scheme implicit_euler -dt 0.01 -quiet -snapshot_every 2)
"$ms" "${clotharg[@]}" -T 0.06 -output_dir gfull -save_final gfull.csv > /dev/null
"$ms" "${clotharg[@]}" -T 0.03 -output_dir gpart > /dev/null
"$ms" "${clotharg[@]}" -T 0.06 -restart gpart -save_final gpart.csv > /dev/null
check "mass_spring restart on the GAMG path identical" 'cmp -s gfull/energy.csv gpart/energy.csv && cmp -s gfull.csv gpart.csv'
# ... also from a checkpoint at T = 0, written before any step set that state (it held zeros: the
# restart diverged at its first step, exit 3).
"$ms" "${clotharg[@]}" -T 0 -output_dir gzero > /dev/null
"$ms" "${clotharg[@]}" -T 0.06 -restart gzero -save_final gzero.csv > /dev/null
check "mass_spring restart at T = 0 on the GAMG path identical" 'cmp -s gfull/energy.csv gzero/energy.csv && cmp -s gfull.csv gzero.csv'
# A file's contents changed: said so (the refusal showed only "data_hash was .., now ..").
printf 'x,y,z,mass,fixed\n0,0,0,2e26,0\n' > moved/lone.csv
"$ms" -particles moved/lone.csv -springs moved/nosprings.csv -scheme verlet -dt 0.001 -quiet -snapshot_every 0 -T 0.8 -restart lonepart > /dev/null 2> err.txt
rc=$? # before the title's $(...), which resets $?
check "mass_spring restart with a changed file names the data ($(head -c 300 err.txt))" '[ $rc = 2 ] && grep -q "the model.s data differ (an input file.s contents changed" err.txt'
mb="$labs/multibody"
mbargs=(-model double_pendulum -scheme verlet -dt 0.001 -quiet -snapshot_every 50)
"$mb" "${mbargs[@]}" -T 0.4 -output_dir mbfull -save_final mbfull.csv > /dev/null
"$mb" "${mbargs[@]}" -T 0.2 -output_dir mbpart > /dev/null
"$mb" "${mbargs[@]}" -T 0.4 -restart mbpart -save_final mbpart.csv > /dev/null
check "multibody restart identical" 'cmp -s mbfull/energy.csv mbpart/energy.csv && cmp -s mbfull.csv mbpart.csv'
# The model file by another path, and -0 for 0: the same run (both were refused as another run's).
mkdir -p mbmodel && cp "$tests/../Multibody/models/double_pendulum.json" mbmodel/dp.json
"$mb" -model mbmodel/dp.json -baumgarte_omega -0 -scheme verlet -dt 0.001 -quiet -snapshot_every 0 -T 0.1 -output_dir mbmoved > /dev/null
cp mbmodel/dp.json mbmodel/copy.json
"$mb" -model ./mbmodel/copy.json -baumgarte_omega 0 -scheme verlet -dt 0.001 -quiet -snapshot_every 0 -T 0.2 -restart mbmoved > /dev/null 2> err.txt
rc=$? # before the title's $(...), which resets $?
check "multibody restart with the model copied and -0 given as 0 continues ($(head -c 200 err.txt))" '[ $rc = 0 ]'
# With -projection every step's state is moved after Verlet's step, so the straight run recomputes the
# acceleration at the projected state; the restart used the checkpoint's stale one (differed from the
# first step after it). The checkpoint now says whether the history continues the state.
"$mb" "${mbargs[@]}" -projection -T 0.4 -output_dir mbpfull -save_final mbpfull.csv > /dev/null
"$mb" "${mbargs[@]}" -projection -T 0.2 -output_dir mbppart > /dev/null
"$mb" "${mbargs[@]}" -projection -T 0.4 -restart mbppart -save_final mbppart.csv > /dev/null
check "multibody restart with -projection identical" 'cmp -s mbpfull/energy.csv mbppart/energy.csv && cmp -s mbpfull.csv mbppart.csv'
"$mb" "${mbargs[@]}" -T 0.4 -restart mbpart -baumgarte_omega 10 > /dev/null 2> err.txt
check "multibody restart with another Baumgarte omega refused" '[ $? = 2 ] && grep -q "omega" err.txt'
# An edited model file (the bob's mass 1 -> 2) under the same name: the identity held no data and the
# restart went on with the other mechanism, exit 0. Now a hash of the description is in it.
printf '{"gravity": [0, -9.81, 0], "bodies": [{"name": "bob", "mass": %s, "inertia": [0.001, 0.001, 0.001], "position": [1, 0, 0]}],
 "joints": [{"type": "distance", "body1": "ground", "body2": "bob", "point1": [0, 0, 0], "point2": [1, 0, 0]}]}\n' 1 > mbfile.json
"$mb" -model mbfile.json -quiet -T 0.2 -output_dir mbf > /dev/null
"$mb" -model ./mbfile.json -quiet -T 0.3 -restart mbf > /dev/null 2> err.txt
check "multibody restart with ./ in the model file name continues" '[ $? = 0 ]'
sed -i 's/"mass": 1,/"mass": 2,/' mbfile.json
"$mb" -model mbfile.json -quiet -T 0.4 -restart mbf > /dev/null 2> err.txt
check "multibody restart with an edited model file refused" '[ $? = 2 ] && grep -q "data_hash" err.txt'

# 9. A new run in an old directory (2026-11-27). Run B killed before its first checkpoint left run A's
#    checkpoint live, and a restart spliced A's continuation after B's rows (exit 0); a run with
#    -snapshot_every 0 left the earlier series, which its restart continued. Now a new run removes the
#    earlier checkpoint, trajectory and series first.
"$m" -T 0.5 -quiet -output_dir reused > /dev/null
"$m" -T 400 -quiet -E 200 -output_dir reused > /dev/null 2>&1 &
pid=$!
wait_rows reused 200
kill -9 $pid
wait $pid 2> /dev/null
check "a new run removed the earlier run's checkpoint" '[ ! -e reused/checkpoint.bin ]'
"$m" -T 1 -quiet -restart reused > /dev/null 2> err.txt
check "restart of the killed new run refused (no checkpoint)" '[ $? = 2 ] && grep -q "no checkpoint" err.txt'
"$m" -T 0.5 -quiet -output_dir reseries > /dev/null
"$m" -T 0.3 -quiet -E 200 -snapshot_every 0 -output_dir reseries > /dev/null
check "a new run without snapshots removed the earlier series" '[ ! -e reseries/beam.pvd ] && ! ls reseries | grep -q "^beam_.*vtu$"'
"$m" -T 0.5 -quiet -E 200 -restart reseries > /dev/null
check "its restart starts a series of its own" 'grep -q "beam_000050.vtu" reseries/beam.pvd && ! grep -q "beam_000010.vtu" reseries/beam.pvd'
# Two runs in one directory at once: the second is refused (their energy.csv lines mixed, exit 0).
"$m" -T 400 -quiet -output_dir busy > /dev/null 2>&1 &
pid=$!
wait_rows busy 10
"$m" -T 0.1 -quiet -output_dir busy > /dev/null 2> err.txt
check "a second run in a busy directory refused" '[ $? = 2 ] && grep -q "in use by another run" err.txt'
kill -INT $pid
wait $pid 2> /dev/null
# T = 0 writes its checkpoint (the end of the run is its start): its restart said "no checkpoint".
"$m" -T 0 -quiet -output_dir t_zero > /dev/null
"$m" -T 0.05 -quiet -restart t_zero > /dev/null 2> err.txt
check "restart of a T = 0 run" '[ $? = 0 ] && [ "$(wc -l < t_zero/energy.csv)" = 7 ]'
# -0 is 0; another kind of run's checkpoint says so.
"$m" -T 0.05 -quiet -rayleigh_alpha 0 -output_dir minus_zero > /dev/null
"$m" -T 0.1 -quiet -rayleigh_alpha -0 -restart minus_zero > /dev/null 2> err.txt
check "restart with -rayleigh_alpha -0 after 0" '[ $? = 0 ]'
"$labs/discrete_system" -system two_dof -T 0.1 -quiet -output_dir dcheck > /dev/null
"$m" -T 1 -quiet -restart dcheck > /dev/null 2> err.txt
check "a discrete system's checkpoint in a beam lab" '[ $? = 2 ] && grep -q "belongs to another kind of run (its model is discrete" err.txt'
# An edited .pvd: an entry listed twice, a file outside the directory (exit 0 before).
for edit in twice outside; do
  cp -r full pvd_$edit
  if [ $edit = twice ]; then
    sed -i 's|\(.*beam_000050.vtu.*\)|\1\n\1|' pvd_$edit/beam.pvd
  else
    sed -i 's|file="beam_000050.vtu"|file="beam_/../../full/beam_000050.vtu"|' pvd_$edit/beam.pvd
    mkdir -p pvd_$edit/beam_
  fi
  "$m" -T 50 -quiet -restart pvd_$edit > /dev/null 2> err.txt
  check "restart with a .pvd edited ($edit) refused" '[ $? = 2 ] && grep -q "cannot continue the series" err.txt'
done

# The sweep labs: a signal ends the sweep after the run in progress, with the rows so far written (they
# died at once and lost every row until 2026-11-27).
"$labs/contact_study" -shapes particle -zetas 0,0.05,0.1,0.15,0.2,0.25,0.3,0.35,0.4,0.45 -output_dir cs_sig > cs_sig.txt 2>&1 &
pid=$!
for _ in $(seq 1200); do grep -q '^particle' cs_sig.txt && break; sleep 0.05; done
kill -INT $pid
wait $pid
rc=$?
rows=$(($(wc -l < cs_sig/contact_study.csv 2> /dev/null || echo 1) - 1))
check "contact_study stopped by SIGINT (exit $rc, $rows rows)" '[ $rc = 130 ] && [ $rows -ge 1 ] && [ $rows -lt 10 ] && grep -q "stopped by signal 2 after $rows of 10 runs" cs_sig.txt'
"$labs/constraint_drift" -T 100 -output_dir cd_sig > cd_sig.txt 2>&1 &
pid=$!
for _ in $(seq 1200); do grep -q '^none' cd_sig.txt && break; sleep 0.05; done
kill -TERM $pid
wait $pid
rc=$?
check "constraint_drift stopped by SIGTERM (exit $rc)" '[ $rc = 143 ] && grep -q "stopped by signal 15 after" cd_sig.txt && [ -s cd_sig/constraint_drift.csv ]'

# 8. The mass_spring lab on 1 and 2 ranks: the same energy history to 1e-10 (implicit Euler, Newton
#    and Krylov on distributed particles; the forces are summed in the same order on any partition).
"$ms" "${msargs[@]}" -T 0.1 -output_dir ms1 > /dev/null
mpiexec --quiet -n 2 "$ms" "${msargs[@]}" -T 0.1 -output_dir ms2 > /dev/null
check "mass_spring on 2 ranks matches 1 rank to 1e-10" 'paste -d, <(cut -d, -f8 ms1/energy.csv | tail -n +2) <(cut -d, -f8 ms2/energy.csv | tail -n +2) | awk -F, "{ d = \$1 - \$2; if (d < 0) d = -d; a = \$1 < 0 ? -\$1 : \$1; if (d > 1e-10 * (a + 1e-300)) bad = 1 } END { exit bad }"'

# 10. A 2-rank series whose parallel snapshot lost a piece, or was cut short: refused (the restart listed
#     a .pvtp ParaView cannot open, exit 0).
mpiexec --quiet -n 2 "$ms" -T 0.05 -quiet -output_dir ms_piece > /dev/null
cp -r ms_piece ms_cut
rm ms_piece/mass_spring_000050_1.vtp
mpiexec --quiet -n 2 "$ms" -T 0.1 -quiet -restart ms_piece > /dev/null 2> piece_err.txt
check "restart with a snapshot piece missing refused" '[ $? != 0 ] && grep -q "lists the piece .mass_spring_000050_1.vtp., but it is missing" piece_err.txt'
truncate -s 50 ms_cut/mass_spring_000050.pvtp
mpiexec --quiet -n 2 "$ms" -T 0.1 -quiet -restart ms_cut > /dev/null 2> piece_err.txt
check "restart with a parallel snapshot cut short refused" '[ $? != 0 ] && grep -q "is not a parallel VTK file with pieces" piece_err.txt'

# 11. The sweep labs write their rows after each run: a lab killed mid-sweep (as OpenMPI's mpiexec does
#     one second after forwarding a signal) keeps the rows measured (contact_study.csv appeared only at
#     the end). Killed as soon as the first row is there.
"$labs/contact_study" -output_dir cs_kill > /dev/null 2>&1 &
pid=$!
for _ in $(seq 1200); do
  [ -f cs_kill/contact_study.csv ] && [ "$(wc -l < cs_kill/contact_study.csv)" -ge 2 ] && break
  sleep 0.05
done
kill -9 $pid
wait $pid 2> /dev/null
check "contact_study killed mid-sweep kept its complete rows" 'rows=$(($(wc -l < cs_kill/contact_study.csv) - 1)); [ "$rows" -ge 1 ] && [ "$rows" -lt 16 ] && awk -F, "NF != 7 { exit 1 }" cs_kill/contact_study.csv'

# 12. A signal where no run can stop cleanly (the stability lab's analysis, MPI's start) ends the lab by
#     the signal's default action, as before, but with one line on stderr (it ended without a word, as
#     if it had crashed). Signalled once its output directory is there (past start-up: a signal before
#     PETSc's session starts still ends it without a word), in an analysis that takes a minute.
# Waits until <path> exists (at most 60 s).
wait_path() { for _ in $(seq 1200); do [ -e "$1" ] && return 0; sleep 0.05; done; return 1; }
# Waits until <path> is gone (at most 60 s).
wait_gone() { for _ in $(seq 1200); do [ -e "$1" ] || return 0; sleep 0.05; done; return 1; }
# An earlier run's chart in the directory: removed once the run goes on (after its eigensolves), so a
# stopped run does not leave it beside its own start, read as its results (until 2026-11-27). Signalled
# once it is gone, in the minute-long measurement.
mkdir -p st_sig && printf 'stale\n' > st_sig/spectral_radius.csv
"$labs/stability" -mx 200 -my 20 -output_dir st_sig > /dev/null 2> st_sig.txt &
pid=$!
wait_gone st_sig/spectral_radius.csv
kill -TERM $pid
wait $pid
rc=$?
check "stability stopped by SIGTERM says so (exit $rc)" '[ $rc = 143 ] && [ "$(wc -l < st_sig.txt)" = 1 ] && grep -q "^stability: stopped by signal 15 at a stage that cannot stop cleanly" st_sig.txt'
check "stability removed the earlier run's chart when it went on" '[ ! -e st_sig/spectral_radius.csv ]'
rm -rf st_sig
"$labs/stability" -mx 200 -my 20 -output_dir st_sig > /dev/null 2> st_sig.txt &
pid=$!
wait_path st_sig
kill -INT $pid
wait $pid
check "stability stopped by SIGINT says so" 'grep -q "^stability: stopped by signal 2 " st_sig.txt'
# On 2 ranks SIGINT gets the line once (rank 0); SIGTERM stays silent there, as OpenMPI also sends it
# when another rank aborts (after that rank's own line).
mpiexec --quiet -n 2 "$labs/stability" -mx 200 -my 20 -output_dir st_sig2 > /dev/null 2> st_sig.txt &
pid=$!
wait_path st_sig2
pkill -INT -P $pid
wait $pid
check "stability on 2 ranks stopped by SIGINT: one line" '[ "$(grep -c "stopped by signal 2" st_sig.txt)" = 1 ]'
# A SIGINT to the lab alone (pkill -INT, not Ctrl-C's whole group) while a chart is drawn: lost until
# 2026-11-27 (std::system ignores SIGINT in its caller), the lab went on, exit 0. Now it stops: after the
# chart (exit 130, "stopped by signal 2 while drawing the chart"). Signalled once summary.csv, written
# just before the chart, is there.
"$labs/paper_central_difference" -output_dir pcd_sig > /dev/null 2> pcd_sig.txt &
pid=$!
wait_path pcd_sig/summary.csv
kill -INT $pid
wait $pid
rc=$?
check "paper_central_difference stopped by SIGINT to the lab alone (exit $rc)" '[ $rc = 130 ] && [ "$(wc -l < pcd_sig.txt)" = 1 ] && grep -q "signal 2 while drawing the chart" pcd_sig.txt'

echo "$passed passed, $failures failed"
[ "$failures" = 0 ]
