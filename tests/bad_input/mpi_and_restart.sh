# bad_input, part mpi_and_restart (sourced by tests/bad_input_test.sh, which defines expect, the input files
# and the labs' short names). MPI: rank 0's line, files only rank 0 writes, devices and size limits, restarts, per-rank command lines, factorization packages.
# MPI: the error line comes from rank 0 only; a failure on every rank ends the job promptly.
mpi=(mpiexec --quiet -n 2)
expect 2 "-dt: -1 is out of range" "${mpi[@]}" "$m" -dt -1 -output_dir $out
expect 2 "M_zero_diag.mtx:2: M is not positive definite" "${mpi[@]}" "$d" -M M_zero_diag.mtx -K K.mtx -output_dir $out
expect 2 "every DOF" "${mpi[@]}" "$m" -mx 1 -my 1 -supports clamped_both -output_dir $out
# The memory check is agreed by the ranks (each node's share against its MemAvailable): all refuse at once.
expect 2 "this machine has" "${mpi[@]}" "$m" -mx 20000 -my 20000 -output_dir $out
expect 3 "semi_implicit diverged at step" "${mpi[@]}" "$labs/semi_implicit" -dt 0.05 -T 20 -console_every 100000 -output_dir mpi_div
# Files only rank 0 writes (energy.csv, the checkpoint): a file it cannot write is agreed by every rank,
# so the job ends at once with rank 0's line ("error:", not "error (rank 0):"). Before, the other rank
# waited in the next step's collectives until the 5 s arrival check, or on the direct path until the
# 10 s unwind watchdog, ended the job with the failing rank's line.
# (A full disk: /dev/full in the files' places. A directory there is refused before the run since
# 2026-11-27, below.)
mkdir -p w_energy w_ckpt && ln -sf /dev/full w_energy/energy.csv && ln -sf /dev/full w_ckpt/checkpoint.bin.tmp
for solver in cg direct; do
  ln -sf /dev/full w_ckpt/checkpoint.bin.tmp # a failed checkpoint removes its staging file
  expect 3 "midpoint: error: cannot write 'w_energy/energy.csv': No space left on device" "${mpi[@]}" "$m" -linear_solver $solver -output_dir w_energy
  expect 3 "midpoint: error: cannot write checkpoint 'w_ckpt/checkpoint.bin'" "${mpi[@]}" "$m" -linear_solver $solver \
    -checkpoint_every 5 -output_dir w_ckpt
done
expect 3 "mass_spring: error: cannot write 'w_energy/energy.csv'" "${mpi[@]}" "$labs/mass_spring" -T 0.01 -output_dir w_energy
mkdir -p w_dir/energy.csv
expect 2 "midpoint: error: output directory 'w_dir' holds a directory 'energy.csv'" "${mpi[@]}" "$m" -output_dir w_dir
# A FIFO without a reader in energy.csv's place is refused, not waited on (it hung); a full disk at the
# checkpoint's header (rank 0 writes it) is agreed (it took the 10 s watchdog on the direct path).
mkdir -p w_fifo w_full && mkfifo w_fifo/energy.csv && ln -sf /dev/full w_full/checkpoint.bin.tmp
expect 3 "midpoint: error: cannot write 'w_fifo/energy.csv': No such device or address" "${mpi[@]}" "$m" -T 0.1 -output_dir w_fifo
# ... and in a snapshot's place, on one rank's piece too (VTK's blocking open waited forever, and SIGTERM
# could not end it); with a reader the snapshot goes through the pipe, the bytes of the regular file.
mkdir -p w_fifo_vtu w_fifo_piece && mkfifo w_fifo_vtu/beam_000000.vtu w_fifo_piece/beam_000010_1.vtu
expect 3 "cannot write 'w_fifo_vtu/beam_000000.vtu': No such device or address" "$m" -T 0.1 -output_dir w_fifo_vtu
expect 3 "cannot write 'w_fifo_piece/beam_000010_1.vtu': No such device or address" "${mpi[@]}" "$m" -T 0.3 -output_dir w_fifo_piece
mkdir -p w_fifo_read && mkfifo w_fifo_read/beam_000000.vtu
(timeout 30 cat w_fifo_read/beam_000000.vtu > fifo_read.vtu) &
sleep 0.5 # the reader first: without one the FIFO is refused
expect 0 "" "$m" -T 0.1 -quiet -output_dir w_fifo_read
wait
"$m" -T 0.1 -quiet -output_dir w_fifo_ref > /dev/null 2>&1
cmp -s fifo_read.vtu w_fifo_ref/beam_000000.vtu && passed=$((passed + 1)) || fail "a snapshot through a FIFO differs from the file"
for solver in cg direct; do
  ln -sf /dev/full w_full/checkpoint.bin.tmp
  expect 3 "fully_implicit: error: cannot write checkpoint 'w_full/checkpoint.bin'" "${mpi[@]}" "$labs/fully_implicit" \
    -linear_solver $solver -T 0.2 -output_dir w_full
done
# A file-size limit passed in the middle of the checkpoint's vectors (8 MiB leaves MPI's start-up files
# room; the checkpoint of this 604k-DOF beam is 9.7 MB): the system's words and exit 3 on 1 and 2 ranks
# together, not death by SIGXFSZ, nor PETSc's byte counts, nor the other rank waiting in VecView.
for launcher in "" "${mpi[*]}"; do
  expect 3 "midpoint: error: cannot write checkpoint 'w_fsize/checkpoint.bin': File too large" \
    bash -c "ulimit -f 8192 && exec $launcher $m -mx 2000 -my 150 -T 0.05 -checkpoint_every 5 -snapshot_every 0 -quiet -output_dir w_fsize"
  [ ! -e w_fsize/checkpoint.bin.tmp ] || fail "a failed checkpoint left w_fsize/checkpoint.bin.tmp"
done
# A snapshot cut by a file-size limit is not left under its final name (a cut .vtu of 16 MiB was), and
# under MPI the .pvtu that would list the missing piece goes too.
for launcher in "" "${mpi[*]}"; do
  expect 3 "midpoint: error: cannot write 'w_vsize/beam_000000" \
    bash -c "ulimit -f 8192 && exec $launcher $m -mx 2000 -my 150 -T 0.01 -quiet -output_dir w_vsize"
  leftover=$(ls w_vsize | grep -v '^energy.csv$' | tr '\n' ' ')
  [ -z "$leftover" ] || fail "a snapshot cut by the file-size limit left: $leftover"
  rm -rf w_vsize
done
# A snapshot on a full disk names the system's error, not VTK's dump of its pipeline request.
mkdir -p w_vtu && ln -sf /dev/full w_vtu/beam_000000_1.vtu
expect 3 "midpoint: error: cannot write 'w_vtu/beam_000000_1.vtu': No space left on device" "${mpi[@]}" "$m" -T 0.05 -output_dir w_vtu
# Tables and exported files that rank 0 alone writes at the end are agreed too (they took the 5 s
# arrival check or the 10 s watchdog): modes.csv, the exported matrices.
mkdir -p w_modes w_export && ln -sf /dev/full w_modes/modes.csv && ln -sf /dev/full w_export/K.mtx
expect 3 "modes: error: cannot write 'w_modes/modes.csv': No space left on device" "${mpi[@]}" "$labs/modes" -output_dir w_modes
expect 3 "midpoint: error: cannot write 'w_export/K.mtx'" "${mpi[@]}" "$m" -linear_solver direct -T 0.1 -export_system w_export \
  -output_dir w_export_run
# PETSc's end-of-run reports on a full disk: PetscFinalize lost them without a word, exit 0 (the log's
# file closed by an MPI callback that drops fclose's error, -citations' failed close unseen).
expect 3 "midpoint: error: -log_view: cannot write '/dev/full': No space left on device" "${mpi[@]}" "$m" -T 0.02 -quiet \
  -log_view :/dev/full:ascii_info_detail -output_dir w_reports
expect 3 "mass_spring: error: -citations: cannot write '/dev/full': No space left on device" "${mpi[@]}" "$labs/mass_spring" \
  -model chain -T 0.02 -quiet -citations /dev/full -output_dir w_reports
expect 3 "midpoint: error: -log_summary: cannot write '/dev/full'" "$m" -T 0.02 -quiet -log_summary /dev/full -output_dir w_reports
# A run that failed keeps its exit code and its own line first.
expect_lines() { # expect_lines <rc> <lines> <cmd...>: the exit code and the number of error lines
  local rc=$1 n=$2
  shift 2
  timeout 60 "$@" > out.txt 2> err.txt
  local got=$?
  [ "$got" = "$rc" ] && [ "$(grep -ac ': error: ' err.txt)" = "$n" ] && passed=$((passed + 1)) ||
    fail "$* -> exit $got (want $rc with $n error lines): $(head -c 300 err.txt)"
}
expect_lines 3 2 "$labs/semi_implicit" -dt 0.05 -T 20 -console_every 100000 -log_view :/dev/full -output_dir w_reports_div
grep -aq 'diverged at step' err.txt && grep -aq 'log_view: cannot write' err.txt || fail "a diverged run's -log_view on a full disk: $(cat err.txt)"
"$m" -T 0.3 -snapshot_every 0 -checkpoint_every 5 -quiet -output_dir w_zero > /dev/null 2>&1
# -restart names the run's directory: the checkpoint file itself is refused, naming what is accepted (it
# was taken for an output directory to create); the same directory written another way is accepted.
expect 2 "-restart: 'w_zero/checkpoint.bin' is not a directory; accepted: the output directory of the run to continue" "$m" \
  -T 0.1 -restart w_zero/checkpoint.bin
expect 2 "-restart: '/dev/null' is not a directory" "$m" -T 0.1 -restart /dev/null
expect 2 "-restart: 'w_missing' does not exist" "$m" -T 0.1 -restart w_missing
[ ! -e w_missing ] || fail "-restart of a missing directory created it"
expect 2 "-restart: writes into the run's own directory 'w_zero'; accepted: no -output_dir, or the same one" "$m" \
  -T 0.1 -restart w_zero -output_dir w_other
expect 0 "" "$m" -T 0.4 -snapshot_every 0 -quiet -restart ./w_zero/ -output_dir w_zero
# Restarting with a log that is a device (read forever: /dev/zero took all memory) or that was cut short
# (discrete_system's trajectory.csv was continued with a silent gap, exit 0).
ln -sf /dev/zero w_zero/energy.csv
expect 2 "-restart: cannot continue 'w_zero/energy.csv': it is not a regular file" "${mpi[@]}" "$m" -T 0.5 -snapshot_every 0 \
  -restart w_zero -output_dir w_zero
# edited_restart <dir> <sed expression> <message>: a run to step 20 with checkpoints, its energy.csv
# edited by the expression, and the restart refused with the message.
edited_restart() {
  "$m" -T 0.2 -checkpoint_every 5 -snapshot_every 0 -quiet -output_dir "$1" > /dev/null 2>&1
  sed -i "$2" "$1/energy.csv"
  expect 2 "-restart: cannot continue '$1/energy.csv': $3" "$m" -T 0.4 -snapshot_every 0 -restart "$1" -output_dir "$1"
}
# A duplicated row (a step twice), and -track's rows of the last step cut short (one particle's row of
# step 50 missing): continued with a repeated or missing row before, exit 0.
edited_restart w_dup '5p' "its rows skip or repeat a step before step 20"
# A value edited to NaN (or to text) in an earlier row: continued with it, exit 0.
edited_restart w_nan '5s/^\([^,]*\),[^,]*/\1,nan/' "a row holds 'nan', not a finite number, before step 20"
# An empty field (a row cut or edited to ",,") is no number either (strtod reads nothing and stops at its end).
edited_restart w_empty '5s/,[^,]*$/,/' "a row holds '', not a finite number, before step 20"
edited_restart w_step '5s/^3,/3.0,/' "a row's step is not an integer as written before step 20"
"$labs/discrete_system" -system fifteen_dof -dt 0.05 -snapshot_every 3 -T 0.86 -quiet -output_dir w_tnan > /dev/null
sed -i '3s/,[^,]*$/,nan/' w_tnan/trajectory.csv
expect 2 "-restart: cannot continue 'w_tnan/trajectory.csv': a row holds 'nan', not a finite number, before t = 0.9" \
  "$labs/discrete_system" -system fifteen_dof -dt 0.05 -snapshot_every 3 -T 2 -quiet -restart w_tnan
"$labs/mass_spring" -T 0.05 -checkpoint_every 5 -track 0,3 -snapshot_every 0 -quiet -output_dir w_track > /dev/null 2>&1
head -c -10 w_track/trajectory.csv > w_track/cut && mv w_track/cut w_track/trajectory.csv
expect 2 "-restart: cannot continue 'w_track/trajectory.csv': its rows stop before step 50" "$labs/mass_spring" -T 0.1 \
  -track 0,3 -snapshot_every 0 -restart w_track -output_dir w_track
# The last particle's row of the checkpoint's step missing whole: said to stop before it (it was "tracks
# particles 0, the run -track 0,3").
head -n -1 w_track/trajectory.csv > w_track/cut && mv w_track/cut w_track/trajectory.csv
expect 2 "-restart: cannot continue 'w_track/trajectory.csv': its rows stop before step 50" "$labs/mass_spring" -T 0.1 \
  -track 0,3 -snapshot_every 0 -restart w_track -output_dir w_track
# Another list that begins with the file's is another list, not a step cut short.
"$labs/mass_spring" -T 0.05 -track 0 -snapshot_every 0 -quiet -output_dir w_track0 > /dev/null 2>&1
expect 2 "-restart: cannot continue 'w_track0/trajectory.csv': it tracks particles 0, the run -track 0,3" "$labs/mass_spring" \
  -T 0.1 -track 0,3 -snapshot_every 0 -restart w_track0 -output_dir w_track0
# A restart without the -track of the run it continues: its trajectory.csv stopped at the checkpoint, exit 0.
expect 2 "-restart: 'w_track/trajectory.csv' holds the -track rows of the run it continues" "$labs/mass_spring" -T 0.1 \
  -snapshot_every 0 -restart w_track -output_dir w_track
# -save_final on a device is written in place: mass_spring wrote '/dev/full.tmp' and renamed it over the
# device (as root: /dev/full became a regular file) and multibody reported success; a FIFO without a
# reader hung multibody.
for lab in mass_spring multibody; do
  expect 3 "$lab: error: " "$labs/$lab" -T 0.05 -snapshot_every 0 -quiet -save_final /dev/full -output_dir w_sf
done
[ -c /dev/full ] || fail "-save_final /dev/full replaced the device"
mkfifo w_sf_fifo
expect 2 "-save_final: cannot write 'w_sf_fifo': No such device or address" "$labs/multibody" -T 0.05 -snapshot_every 0 \
  -save_final w_sf_fifo -output_dir w_sf
# A FIFO reader that quits: "Broken pipe", exit 3 (PETSc's signal handler ended it with exit 59). The
# run writes about 300 kB of rows, more than the pipe's 64 kB buffer can hold once the reader is gone.
mkdir -p w_pipe && mkfifo w_pipe/energy.csv
(timeout 30 head -c 300 w_pipe/energy.csv > /dev/null) &
expect 3 "midpoint: error: cannot write 'w_pipe/energy.csv': Broken pipe" "$m" -T 20 -snapshot_every 0 -quiet -output_dir w_pipe
wait
"$d" -T 0.5 -checkpoint_every 10 -output_dir w_traj > /dev/null 2>&1
head -2 w_traj/trajectory.csv > w_traj/cut && mv w_traj/cut w_traj/trajectory.csv
expect 2 "-restart: cannot continue 'w_traj/trajectory.csv': its rows stop before t = 0.5" "$d" -T 1 -restart w_traj -output_dir w_traj
# Every scheme of energy_drift diverging leaves nothing to compare: exit 3 after the table (some
# diverging is the lab's point: exit 0).
expect 3 "all 2 schemes diverged (DIVERGED in the table, which is written); the first, almost_explicit diverged at step" \
  "$labs/energy_drift" -schemes almost_explicit,semi_implicit -dt 0.05 -T 20 -output_dir ed_div
awk -F, 'NR == 1 { ok = ($0 == "scheme,max_abs_rel_drift,final_rel_drift,diverged"); next } { if ($4 != 1) ok = 0; ++rows }
  END { exit !(ok && rows == 2) }' ed_div/energy_drift.csv && passed=$((passed + 1)) ||
  fail "energy_drift: the table of a run where every scheme diverged does not say so: $(tr '\n' '|' < ed_div/energy_drift.csv)"
# Per-rank command lines (MPMD) that differ, with a bad value or valid ones: the ranks compare their
# command lines before PETSc reads them, so the job ends at once with exit 2 and one line quoting both.
# Before that check a bad value was caught, but valid values that differed hung (-T), mixed the physics
# with exit 0 (-E) or crashed PETSc (-options_file on one rank).
expect 2 "$differ" "${one[@]}" "$labs/modes" -output_dir $out : -n 1 "$labs/modes" -modes x -output_dir $out
for lab in midpoint energy_drift; do
  b="$labs/$lab"
  expect 2 "$differ" "${one[@]}" "$b" -output_dir $out : -n 1 "$b" -dt abc -output_dir $out
  expect 2 "$differ" "${one[@]}" "$b" -dt abc -output_dir $out : -n 1 "$b" -output_dir $out
done
expect 2 "$differ" "${one[@]}" "$m" -output_dir $out : -n 1 "$m" -mx 0 -output_dir $out
expect 2 "$differ" "${one[@]}" "$m" -output_dir $out : -n 1 "$m" -bogus 1 -output_dir $out
expect 2 "rank 1: 'midpoint -T 0.5 -output_dir" "${one[@]}" "$m" -T 0.3 -output_dir $out : -n 1 "$m" -T 0.5 -output_dir $out
expect 2 "$differ" "${one[@]}" "$m" -E 100 -output_dir $out : -n 1 "$m" -E 200 -output_dir $out
printf -- '-shifted_ksp_rtol 1e-3\n' > opts_one_rank.txt
expect 2 "$differ" "${one[@]}" "$m" -output_dir $out : -n 1 "$m" -options_file opts_one_rank.txt -output_dir $out
expect 2 "rank 1: 'semi_implicit" "${one[@]}" "$m" -output_dir $out : -n 1 "$labs/semi_implicit" -output_dir $out
# Another program under the same name (or another build of the lab): the name alone passed, and it hung.
mkdir -p other_build && cp "$labs/semi_implicit" other_build/midpoint
expect 2 "[program " "${one[@]}" "$m" -T 0.3 -output_dir $out : -n 1 other_build/midpoint -T 0.3 -output_dir $out
expect 2 "$differ" "${one[@]}" -x PETSC_OPTIONS=-quiet "$m" -output_dir $out : -n 1 "$m" -output_dir $out
# A bad value of a PETSc solver option (an unknown type, an unknown enum value) is bad input too (exit 2,
# PETSc's line), also on one rank only.
expect 2 "Unable to find requested KSP type nope" "$labs/mass_spring" -scheme implicit_euler -T 0.01 -ms_ksp_type nope -output_dir $out
expect 2 "Unknown option nope for -ms_ksp_pc_side" "$labs/mass_spring" -scheme implicit_euler -T 0.01 -ms_ksp_type gmres \
  -ms_ksp_pc_side nope -output_dir $out
expect 2 "-ms_ksp_pc_side" "$labs/mass_spring" -scheme implicit_euler -T 0.01 -ms_ksp_pc_side nope -output_dir $out # direct path
expect 2 "Unable to find requested PC type nope" "$m" -shifted_pc_type nope -output_dir $out
# A factorization package that cannot make the factorization: named with those that can (PETSc finds out
# at the first factorization: a diverged run, exit 3, until 2026-11-28); on two ranks PETSc's own LU is
# serial only.
expect 2 "-ms_pc_factor_mat_solver_type nope: cannot make the lu factorization of a seqaij matrix; accepted here: petsc, mumps" \
  "$labs/mass_spring" -model chain -scheme implicit_euler -T 0.01 -ms_pc_type lu -ms_pc_factor_mat_solver_type nope -output_dir $out
expect 2 "-shifted_pc_factor_mat_solver_type nope: cannot make the lu factorization" "$m" -shifted_pc_type lu \
  -shifted_pc_factor_mat_solver_type nope -output_dir $out
expect 2 "-shifted_pc_factor_mat_solver_type petsc: cannot make the lu factorization of a mpiaij matrix; accepted here: mumps, superlu_dist" \
  mpiexec --quiet -n 2 "$m" -shifted_pc_type lu -shifted_pc_factor_mat_solver_type petsc -output_dir $out
# ... and the other factorization options PETSc checks only there: negative levels of fill, an unknown ordering.
expect 2 "-shifted_pc_factor_levels -1: accepted: an integer >= 0" "$m" -shifted_pc_type ilu -shifted_pc_factor_levels -1 -output_dir $out
expect 2 "-ms_pc_factor_mat_ordering_type nope: not an ordering; accepted: natural, nd" "$labs/mass_spring" -model chain \
  -scheme implicit_euler -T 0.01 -ms_pc_type lu -ms_pc_factor_mat_ordering_type nope -output_dir $out
