# bad_input, part beam_options (sourced by tests/bad_input_test.sh, which defines expect, the input files
# and the labs' short names). The beam labs' option sets, PETSc's start-up options, its reports and displays.
# The beam labs share their option sets: every lab taking a set rejects the same bad values, and a lab
# refuses the options of a set it does not take (the eigenvalue labs run no time loop, modes has no loads).
time_labs=(almost_explicit semi_implicit fully_implicit midpoint energy_drift)
for lab in "${time_labs[@]}"; do
  b="$labs/$lab"
  expect 2 "-dt: -1 is out of range; accepted: a real > 0" "$b" -dt -1 -output_dir $out
  expect 2 "-dt: 'nan' is not a finite real number" "$b" -dt nan -output_dir $out
  expect 2 "-T: 'inf' is not a finite real number" "$b" -T inf -output_dir $out
  expect 2 "-point_load: 'nan' is not a finite real number" "$b" -point_load 1,2,nan,0 -output_dir $out
done
for lab in stability modes; do
  for option in -dt -T -snapshot_every -console_every -checkpoint_every -restart -export_system -save_final -quiet -schemes; do
    expect 2 "unknown option $option" "$labs/$lab" $option 1 -output_dir $out
  done
done
expect 2 "unknown option -rayleigh_alpha" "$labs/modes" -rayleigh_alpha 1 -output_dir $out
expect 2 "unknown option -load_harmonic" "$labs/modes" -load_harmonic 1,2 -output_dir $out
expect 2 "unknown option -point_load" "$labs/modes" -point_load 1,2,3,4 -output_dir $out
expect 2 "-point_load: 'nan' is not a finite real number" "$labs/stability" -point_load 1,2,nan,0 -output_dir $out
expect 2 "-xi: 1e100 is out of range; accepted: a real in [0, 1e20]" "$labs/stability" -xi 1e100 -output_dir $out
expect 2 "-thickness and -thickness_file both given" "$labs/midpoint" -thickness 2 -thickness_file thickness_word.txt -output_dir $out
expect 2 "-load_dt: given without -load_history" "$labs/discrete_system" -load_dt 0.1 -output_dir $out
# An option given twice: PETSc keeps the last value, so an invalid earlier one was read by nobody
# (-T abc -T 0.05 ran with T = 0.05, exit 0). Every occurrence on the command line is checked, names
# matched without regard to case as PETSc does (-t is -T); a valid override still runs.
expect 2 "-T: 'abc' is not a finite real number" "$labs/midpoint" -T abc -T 0.05 -output_dir $out
expect 2 "-T: 'abc' is not a finite real number" "$labs/midpoint" -t abc -T 0.05 -output_dir $out
expect 2 "-mx: '1.5' is not an integer" "$labs/semi_implicit" -mx 1.5 -mx 4 -output_dir $out
expect 2 "-quiet: 'maybe' is not a truth value" "$labs/semi_implicit" -quiet maybe -quiet -output_dir $out
expect 2 "-scheme: unknown scheme 'foo'" "$labs/mass_spring" -model chain -scheme foo -scheme verlet -output_dir $out
expect 2 "-gravity: 'x' is not a finite real number" "$labs/mass_spring" -model chain -gravity 0,0,x -gravity 0,0,-1 -output_dir $out
expect 0 "" "$labs/midpoint" -T 1 -T 0.02 -snapshot_every 0 -quiet -output_dir twice
# The default load on a support: warned about as an explicit one is (it was silent); clamped at both ends
# the default load is at mid-span (it was on the clamped right end: the beam did not move, exit 0).
expect 0 "warning: the default load (no -point_load or -top_load given) at node (0,0) pushes a frozen DOF (uy)" \
  "$labs/semi_implicit" -supports simply_supported -mx 1 -T 0.02 -snapshot_every 0 -quiet -output_dir dflt1
expect 0 "" "$labs/semi_implicit" -supports clamped_both -T 0.05 -snapshot_every 0 -output_dir dflt2
grep -q "oscillates" out.txt && passed=$((passed + 1)) || fail "clamped_both with the default load: $(tail -3 out.txt)"

# Output files and directories (2026-11-27): -save_final naming one of the run's own files (it replaced
# energy.csv, exit 0); energy_drift's one -save_final file for several schemes (the last scheme's state,
# without a word); a directory where a lab writes a file (energy_drift ran 15 schemes, then exit 3).
expect 2 "-save_final: 'never/energy.csv' is one of the run's own files" "$labs/midpoint" -T 0.02 -output_dir $out -save_final $out/energy.csv
expect 2 "-save_final: 'never/beam_000010.vtu' is one of the run's own files" "$labs/midpoint" -T 0.02 -output_dir $out -save_final $out/beam_000010.vtu
# ... or its staging name (2026-11-28: accepted, and the next restart consumed energy.csv.tmp as its own).
expect 2 "-save_final: 'never/energy.csv.tmp' is one of the run's own files" "$labs/midpoint" -T 0.02 -output_dir $out -save_final $out/energy.csv.tmp
expect 2 "-save_final: 'never/checkpoint.bin.tmp' is one of the run's own files" "$labs/midpoint" -T 0.02 -output_dir $out -save_final $out/checkpoint.bin.tmp
expect 2 "-save_final: one file for 2 schemes" "$labs/energy_drift" -schemes midpoint,newmark -save_final sf.mtx -output_dir $out
# energy_drift sets every scheme up before any runs, with or without solver options: a -dt whose step
# matrix overflows, a load whose energy does, a solver option refused at the set-up stop it before it
# prints or removes anything (three schemes had run and the earlier table had gone, until 2026-12-01).
rm -rf ed_keep && "$labs/energy_drift" -T 0.05 -snapshot_every 0 -quiet -schemes almost_explicit,midpoint -output_dir ed_keep > /dev/null 2>&1 ||
  fail "energy_drift: the run to keep failed"
for bad in "-dt 1e300 -T 1e300" "-top_load 1e308" "-point_load 20,0,1e300,1e300" "-shifted_pc_type shell"; do
  # shellcheck disable=SC2086
  expect 2 "" "$labs/energy_drift" -T 0.05 -snapshot_every 0 -quiet -schemes almost_explicit,midpoint $bad -output_dir ed_keep
  [ -s out.txt ] && fail "energy_drift $bad: printed $(head -c 200 out.txt) before its refusal"
  [ -s ed_keep/energy_drift.csv ] || fail "energy_drift $bad: the earlier table was removed"
done
expect 0 "" "$labs/midpoint" -T 0.02 -quiet -output_dir fresh_dir -save_final fresh_dir/final.mtx
[ -s fresh_dir/final.mtx ] && passed=$((passed + 1)) || fail "-save_final in the output directory the run makes: not written"
mkdir -p dirs_in_place/midpoint/energy.csv dirs_in_place2/energy_drift.png
expect 2 "holds a directory 'energy.csv' where the labs write a file" "$labs/energy_drift" -schemes newmark,midpoint -T 0.02 -output_dir dirs_in_place
[ -e dirs_in_place/newmark/energy.csv ] && fail "energy_drift ran a scheme before refusing a directory in a file's place" || passed=$((passed + 1))
expect 2 "holds a directory 'energy_drift.png'" "$labs/energy_drift" -schemes midpoint -T 0.02 -output_dir dirs_in_place2
long_dir=$(printf 'd%.0s' $(seq 200))
long_dir="$long_dir/$long_dir/$long_dir/$long_dir/$long_dir/$long_dir/$long_dir/$long_dir/$long_dir/$long_dir/$long_dir/$long_dir/$long_dir/$long_dir/$long_dir/$long_dir/$long_dir/$long_dir/$long_dir/$long_dir/xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
expect 2 "leaves no room for the run's file names; accepted: a path of at most" "$labs/midpoint" -T 0.02 -output_dir "$long_dir"
[ -e "${long_dir%%/*}" ] && fail "a refused long output path was created" || passed=$((passed + 1))
# stability: a chart whose amplification matrix overflows (a NaN cell, exit 0); eigensolver options that
# look at the other end of the spectrum (omega_min printed as omega_max, exit 0).
# (Since the matrices act on the schemes' whole state, 2026-11-30, -xi 1e5 -omega_range 1e5 alone is finite: the
# restarted central difference's start-up overflowed, its recurrence does not; Newmark's beta 1e300 did, and
# since 2026-11-30 beta and gamma above 1e6 are refused: 3e15 gave a finite critical step, 1e18 zero, 1e22
# infinity, round-off's recurrence. With the bound no parameter in range overflows: the largest -xi and
# -omega_range with beta and gamma 1e6 stay finite.)
expect 2 "-newmark_beta: 1e300 is out of range; accepted: a real in [0, 1e6]" "$labs/stability" -measure_steps 0 -xi 1e5 -omega_range 1e5 -newmark_beta 1e300 -output_dir $out
expect 2 "-newmark_beta: 3e15 is out of range; accepted: a real in [0, 1e6]" "$labs/stability" -measure_steps 0 -newmark_beta 3e15 -output_dir $out
expect 2 "-newmark_gamma: 1e10 is out of range; accepted: a real in [1/2, 1e6]" "$labs/energy_drift" -schemes newmark -newmark_gamma 1e10 -T 0.02 -output_dir $out
expect 0 "" "$labs/stability" -measure_steps 0 -xi 1e20 -omega_range 1e5 -newmark_beta 1e6 -newmark_gamma 1e6 -output_dir st_params_max
grep -q "critical_dt newmark = inf" out.txt && passed=$((passed + 1)) || fail "stability at beta = gamma = 1e6: $(grep 'critical_dt newmark' out.txt)"
expect 2 "-omega_max_eps_target, -omega_max_eps_interval or a -omega_max_eps_<which> option: this eigensolver finds the largest" \
  "$labs/stability" -measure_steps 0 -omega_max_eps_target 0 -output_dir st_wrong_end
expect 2 "-modes_eps_target, -modes_eps_interval or a -modes_eps_<which> option: this eigensolver finds the smallest" \
  "$labs/modes" -modes_eps_largest_magnitude -modes_st_type shift -output_dir modes_wrong_end
# Options files PETSc reads on its own (2026-11-27): a nested -options_file was not vetted (a file naming
# itself: SIGSEGV; a nested directory: PETSc's traceback, exit 134); YAML aborted inside PETSc; so did a
# malformed ./.petscrc; -history into a missing directory crashed (SIGSEGV).
printf -- '-options_file self.opts\n' > self.opts
printf -- '-T 0.02\n-options_file adir_opts\n' > nested_dir.opts
mkdir -p adir_opts
printf -- 'T: [\n' > bad.yaml
expect 2 "'self.opts' line 1: -options_file: 'self.opts' includes itself" "$labs/midpoint" -options_file self.opts -output_dir $out
expect 2 "'nested_dir.opts' line 2: -options_file: 'adir_opts' is not a readable regular file" "$labs/midpoint" -options_file nested_dir.opts -output_dir $out
expect 2 "is a YAML options file; accepted: a plain options file" "$labs/midpoint" -options_file bad.yaml -output_dir $out
printf -- '-T 0.1\n-dt\0 1\n' > nul.opts # the message stopped at the NUL: "line 2: '"
expect 2 "'nul.opts' line 2: a NUL byte (a binary file?); accepted: one option per line" "$labs/midpoint" -options_file nul.opts -output_dir $out
expect 2 "PETSC_OPTIONS: -options_file: 'adir_opts' is not a readable regular file" env PETSC_OPTIONS="-options_file adir_opts" "$labs/midpoint" -output_dir $out
expect 2 "-history: cannot write 'nodir/h.txt'" "$labs/midpoint" -history nodir/h.txt -output_dir $out
expect 2 "-log_view: unknown format 'bogus'" "$labs/midpoint" -log_view :lv.txt:bogus -output_dir $out
mkdir -p rc_dir && printf -- '-T 0.05 -dt 0.01\n' > rc_dir/.petscrc
cd rc_dir
expect 2 "'.petscrc' line 1: '-dt' after the option's value" "$labs/midpoint" -output_dir $out
expect 2 "'.petscrc' line 1: '-dt' after the option's value" "$labs/midpoint" -skip_petscrc false -output_dir $out
expect 0 "" "$labs/midpoint" -skip_petscrc -T 0.02 -quiet -output_dir rc_skipped
expect 0 "" "$labs/midpoint" -SKIP_PETSCRC true -T 0.02 -quiet -output_dir rc_skipped2
expect 0 "" "$labs/midpoint" -skip_petscrc OFF -skip_petscrc yes -T 0.02 -quiet -output_dir rc_skipped3
cd ..
# PETSc's start-up flags read before PetscInitialize's error handling: a value that is no truth value aborted (exit 134).
expect 2 "-skip_petscrc: 'foo' is not a truth value; accepted: true, false (or no value)" "$labs/midpoint" -skip_petscrc foo -output_dir $out
expect 2 "-help: 'leftover' is not accepted; accepted: -help, -help intro (the introduction only), or no -help" "$labs/mass_spring" -help leftover -output_dir $out
expect 2 "-HELP: 'y' is not accepted" "$labs/modes" -help -HELP y -output_dir $out
expect 2 "-help: 'false' is not accepted" "$labs/midpoint" -help false -output_dir $out
expect 2 "-version: takes no value ('foo'); accepted: -version alone" "$labs/midpoint" -version foo -output_dir $out
expect 0 "" "$labs/midpoint" -help intro -output_dir $out
expect 2 "-options_monitor_cancel: '2' is not a truth value" "$labs/midpoint" -options_monitor_cancel 2 -output_dir $out
expect 2 "-options_monitor: 'stdout' is not a truth value" "$labs/midpoint" -options_monitor stdout -output_dir $out
expect 2 "-petsc_ci_portable_error_output: 'x' is not a truth value" "$labs/midpoint" -petsc_ci_portable_error_output x -output_dir $out
expect 0 "" "$labs/midpoint" -options_monitor_cancel No -T 0.02 -quiet -output_dir rc_monitor_no
# Whatever else PETSc refuses as it starts (its traceback, then an abort, exit 134): one line, exit 2.
expect 2 "-malloc_debug: 'foo' is not a truth value; accepted: true, false (or no value)" "$labs/midpoint" -malloc_debug foo -output_dir $out
expect 2 "PETSc refused an option it reads as it starts (from the command line, PETSC_OPTIONS, an options file or a .petscrc): Intensity 5 not in [0,2]" "$labs/multibody" -check_pointer_intensity 5 -output_dir $out
expect 2 ": Unable to open file nodir/info.0" "$labs/modes" -info nodir/info -output_dir $out
expect 2 ": Unable to open file nodir/info.0" env PETSC_OPTIONS="-info nodir/info" "$labs/contact_study" -output_dir $out
seq 600 | sed 's/^/-zz/' > many.opts # PETSc's database holds 512 options
expect 2 ": Number of options 512 < max number of options 512" "$labs/midpoint" -options_file many.opts -output_dir $out
expect 2 "-malloc_debug: 'foo' is not a truth value" "$labs/mass_spring" -options_monitor_cancel true -malloc_debug foo -output_dir $out
mkdir -p rc_bad && printf -- '-fp_trap foo\n' > rc_bad/.petscrc
cd rc_bad
expect 2 "Unknown logical value: foo" "$labs/semi_implicit" -output_dir $out
cd ..
# Names the checks before PETSc starts would not see, and start-up options a lab cannot honour.
expect 2 "-prefix_push: prefixes the names of the options after it; accepted: each option by its full name" "$labs/midpoint" -prefix_push hi -story nodir/h -prefix_pop -output_dir $out
printf -- 'alias -hh -history\n-hh nodir/h\n' > alias_history.opts
expect 2 "line 1: -history: given a second name (-hh), which the checks before PETSc starts do not see; accepted: -history by its own name" "$labs/midpoint" -options_file alias_history.opts -output_dir $out
expect 2 "-petsc_sleep: 'nan' is not a number of seconds; accepted: a finite number >= 0" "$labs/midpoint" -petsc_sleep nan -output_dir $out
expect 2 "-petsc_sleep: 'inf' is not a number of seconds" env PETSC_OPTIONS="-petsc_sleep inf" "$labs/midpoint" -output_dir $out
expect 2 "-mpi_linear_solver_server: the labs' solvers run on every rank" "$labs/fully_implicit" -mpi_linear_solver_server -output_dir $out
expect 2 "-python: the labs use no Python" "$labs/midpoint" -python "touch python_ran" -output_dir $out
[ ! -e python_ran ] || fail "-python ran its value as a command"
# -log_view's viewer syntax, [ascii]:FILE[:FORMAT[:MODE]] (a type in front skipped the checks).
expect 2 "-log_view: cannot write 'nodir/lv.txt' (no writable directory 'nodir')" "$labs/midpoint" -log_view ascii:nodir/lv.txt -output_dir $out
expect 2 "-log_view: 'stdout' is not an ASCII viewer; accepted: -log_view [ascii]:FILE[:FORMAT[:MODE]] (no FILE: the screen)" "$labs/midpoint" -log_view stdout -output_dir $out
expect 2 "-log_view: 'binary:lv.bin' is not an ASCII viewer" "$labs/midpoint" -log_view binary:lv.bin -output_dir $out
expect 2 "-log_view: unknown format 'bogus'" "$labs/midpoint" -log_view ascii:lv.txt:bogus -output_dir $out
expect 2 "-log_view: unknown file mode 'sideways'; accepted: write, append, update, append_update" "$labs/midpoint" -log_view :lv.txt:ascii_info:sideways -output_dir $out
expect 0 "" "$labs/midpoint" -T 0.02 -quiet -log_view ascii:lv_xml.txt:ASCII_XML -output_dir log_xml
expect 0 "" "$labs/midpoint" -T 0.02 -quiet -log_view :lv_append.txt:ascii_info:append -output_dir log_append
{ grep -aq '<?xml' lv_xml.txt && grep -aq 'Event' lv_append.txt; } || fail "-log_view with a format in upper case or a file mode wrote no log"
# The lab writes PETSc's end-of-run reports itself (to check the writes): each once, not again in PetscFinalize.
[ "$(grep -ac 'Performance Summary' lv_append.txt)" = 1 ] || fail "-log_view's log appended $(grep -ac 'Performance Summary' lv_append.txt) times"
expect 2 "-malloc_view: cannot write 'nodir/mv_0' (no writable directory 'nodir')" "$labs/midpoint" -malloc_view nodir/mv -output_dir $out
# A refused run leaves nothing of what PETSc does at its end: -citations overwrote its file, -options_left
# foo added a traceback after the error line (expect: one line, no PETSC ERROR).
echo precious > keep.txt
expect 2 "unknown option -bogus" "$labs/midpoint" -citations keep.txt -bogus 1 -output_dir $out
[ "$(cat keep.txt)" = precious ] || fail "a refused run with -citations keep.txt overwrote keep.txt"
expect 2 "-options_left: 'foo' is not a truth value; accepted: true, false (or no value)" "$labs/midpoint" -options_left foo -output_dir $out
# Solver reports and monitors PETSc 3.18 crashed on (a segmentation fault, exit 59), failed on as a run
# (exit 3), ran outside the lab (a socket, Python) or drew nothing with (no X display).
ms_chain=("$labs/mass_spring" -model chain -scheme implicit_euler -T 0.005)
expect 2 "-ms_ksp_monitor ::ascii_info_detail: PETSc has no such monitor for the viewer ascii in format ascii_info_detail (it crashed: a segmentation fault); accepted: -ms_ksp_monitor [ascii][:FILE], -ms_ksp_monitor draw, -ms_ksp_monitor draw::draw_lg" \
  "${ms_chain[@]}" -ms_ksp_monitor ::ascii_info_detail -output_dir $out
expect 2 "-shifted_ksp_monitor_max :m.txt:ascii_info: PETSc has no such monitor for the viewer ascii in format ascii_info (it crashed: a segmentation fault); accepted: -shifted_ksp_monitor_max [ascii][:FILE]" \
  "$labs/fully_implicit" -shifted_ksp_monitor_max :m.txt:ascii_info -output_dir $out
expect 2 "-SHIFTED_KSP_MONITOR_SHORT draw: draws in an X window, and DISPLAY is not set; accepted: an ASCII viewer, draw:image or draw:tikz, or a run under X (xvfb-run)" \
  env -u DISPLAY "$labs/fully_implicit" -SHIFTED_KSP_MONITOR_SHORT draw -output_dir $out
expect 2 "-ms_snes_monitor_lg_range: draws in an X window, and DISPLAY is not set" env -u DISPLAY "${ms_chain[@]}" -ms_snes_monitor_lg_range -output_dir $out
expect 2 "-ms_snes_converged_reason ::ascii_info_detail: the format ascii_info_detail needs an exact solution on a DM" "${ms_chain[@]}" -ms_snes_converged_reason ::ascii_info_detail -output_dir $out
expect 2 "-ms_snes_view: cannot write 'nodir/v.txt' (no writable directory 'nodir')" "${ms_chain[@]}" -ms_snes_view ascii:nodir/v.txt -output_dir $out
expect 2 "-ms_snes_view: unknown file mode 'foo'; accepted: write, append, update, append_update" "${ms_chain[@]}" -ms_snes_view ascii:v.txt::foo -output_dir $out
expect 2 "-ms_ksp_monitor nodir/m.txt: 'nodir/m.txt' is not a viewer the labs take; accepted: -ms_ksp_monitor [ascii][:FILE[:FORMAT[:MODE]]], binary[:FILE] or draw (under X)" "${ms_chain[@]}" -ms_ksp_monitor nodir/m.txt -output_dir $out
expect 2 "-mat_view socket: 'socket' is not a viewer the labs take" "$labs/midpoint" -mat_view socket -output_dir $out
expect 2 "-ms_ksp_view_diagonal_scale: shows the diagonal scaling, and there is none without -ms_ksp_diagonal_scale" "${ms_chain[@]}" -ms_ksp_view_diagonal_scale -output_dir $out
expect 2 "-ms_snes_fd_color: a coloured finite-difference Jacobian needs PETSc's DM coloring (it crashed: a segmentation fault); accepted: the exact Jacobian (without it), -ms_snes_fd (uncoloured) or -ms_snes_mf for a matrix-free one" "${ms_chain[@]}" -ms_snes_fd_color -output_dir $out
# PETSc's finite-difference Jacobian and Jacobian tests (they failed: "Must call DMShellSetGlobalVector()",
# after step 0 for -ms_snes_test_jacobian): Newton's root the same to its tolerance; the exact Jacobian
# within finite differences' error (about sqrt(eps) relative).
expect 0 "" "${ms_chain[@]}" -quiet -save_final exact.csv -output_dir snes_exact
expect 0 "" "${ms_chain[@]}" -quiet -ms_snes_fd -save_final fd.csv -output_dir snes_fd
paste -d, exact.csv fd.csv | awk -F, 'NR > 1 { for (i = 2; i <= 7; ++i) { d = $i - $(i + 7); if (d > 1e-9 || d < -1e-9) bad = 1 } } END { exit bad }' ||
  fail "-ms_snes_fd: the final state differs from the exact Jacobian's by more than 1e-9"
# The same with fixed particles (the chain's anchor, the cloth's two corners, the lattice's left edge):
# until 2026-11-30 a Newton iterate moved them and the finite differences filled their columns (0.075 on
# a 4-particle chain), now they stay put in every state the model is given.
for model in "disk" "chain -chain_n 3" "cloth -cloth_nx 6 -cloth_ny 6" "beam_lattice"; do
  expect 0 "" "$labs/mass_spring" -model $model -scheme implicit_euler -T 0.002 -quiet -ms_snes_test_jacobian -output_dir snes_test
  grep -a '||J - Jfd||_F/||J||_F = ' out.txt | awk '{ r = $5 + 0; if (!(r > 0 && r < 1e-5)) bad = 1; n++ } END { exit bad || n == 0 }' ||
    fail "-ms_snes_test_jacobian on $model: no ratio, or one not within (0, 1e-5): $(grep -a 'J - Jfd' out.txt | head -2)"
done
expect 0 "" "${ms_chain[@]}" -quiet -ms_snes_compare_explicit -output_dir snes_compare
grep -aq 'Finite difference Jacobian' out.txt || fail "-ms_snes_compare_explicit printed no finite-difference Jacobian"
expect 2 "-ms_snes_compare_explicit_draw: draws in an X window, and DISPLAY is not set" env -u DISPLAY "${ms_chain[@]}" -ms_snes_compare_explicit_draw false -output_dir $out
expect 2 "-shifted_ksp_plot_eigenvalues: draws in an X window" env -u DISPLAY "$labs/fully_implicit" -linear_solver cg -shifted_ksp_plot_eigenvalues -output_dir $out
expect 2 "-ms_snes_grid_sequence -1: the labs' models have no grid hierarchy to refine" "${ms_chain[@]}" -ms_snes_grid_sequence -1 -output_dir $out
expect 2 "-ms_snes_monitor_fields: monitors the fields of a DM" "${ms_chain[@]}" -ms_snes_monitor_fields -output_dir $out
expect 2 "-ms_snes_monitor_python: runs a Python monitor; the labs use no Python; accepted: -ms_snes_monitor" "${ms_chain[@]}" -ms_snes_monitor_python -output_dir $out
expect 0 "" "${ms_chain[@]}" -quiet -ms_ksp_monitor ascii:kspmon.txt -ms_snes_converged_reason ::ascii_info -ms_ksp_diagonal_scale -ms_ksp_view_diagonal_scale ascii:dscale.txt -output_dir reports_ok
{ grep -aq 'KSP Residual norm' kspmon.txt && grep -aq 'Nonlinear ms_ solve converged' out.txt && [ -s dscale.txt ]; } || fail "the reports with valid viewers wrote nothing"
# An X display no server answers (PETSc: an error, nothing drawn, exit 0), named by DISPLAY or -display
# (PetscSetDisplay's order); one that answers, by either. -x_virtual ran `pkill -9 Xvfb` (every user's).
expect 2 "-ms_ksp_monitor draw: draws in an X window, and no X server answers at ':987'" env DISPLAY=:987 "${ms_chain[@]}" -ms_ksp_monitor draw -output_dir $out
expect 2 "-ms_snes_monitor_lg_range: draws in an X window, and no X server answers at 'localhost:987'" \
  env -u DISPLAY "${ms_chain[@]}" -display localhost:987 -ms_snes_monitor_lg_range -output_dir $out
expect 2 "-ms_ksp_monitor draw: draws in an X window, and no X server answers at 'nocolon'" env DISPLAY=nocolon "${ms_chain[@]}" -ms_ksp_monitor draw -output_dir $out
# -n 250: the search for a free display starts away from :99, where another test's xvfb-run (render_png,
# run beside this one under ctest -j2) may start at the same moment (both took :99, one could not open it).
# -noreset: Xvfb resets when its last client leaves, and PETSc's drawing opens the display more than once;
# an opening during the reset failed ("Unable to open display on :250", 6 runs of 20 with both cores busy).
xvfb=(xvfb-run -a -n 250 -s "-screen 0 1280x1024x24 -noreset")
expect 0 "" "${xvfb[@]}" "${ms_chain[@]}" -quiet -ms_ksp_monitor draw -output_dir drawn
expect 0 "" "${xvfb[@]}" sh -c 'exec env -u DISPLAY "$0" "$@" -display "$DISPLAY"' "${ms_chain[@]}" -quiet -ms_snes_monitor_lg_range -output_dir drawn2
# An empty -display reaches XOpenDisplay as "": it drew in some runs under xvfb-run and failed in others
# (exit 59 under ctest); it was refused as "DISPLAY is not set" until 2026-11-30, even under X.
expect 2 "-ms_ksp_monitor draw: draws in an X window, and -display is empty; accepted: -display [HOST]:N," "${xvfb[@]}" "${ms_chain[@]}" -quiet -display '' -ms_ksp_monitor draw -output_dir $out
expect 2 "-ms_ksp_monitor draw: draws in an X window, and -display is empty;" env -u DISPLAY "${ms_chain[@]}" -display '' -ms_ksp_monitor draw -output_dir $out
expect 2 "-ms_ksp_monitor draw: draws in an X window, and DISPLAY is empty;" env DISPLAY= "${ms_chain[@]}" -ms_ksp_monitor draw -output_dir $out
expect 2 "-x_virtual: PETSc would kill every Xvfb on the machine (pkill -9 Xvfb) to start its own; accepted: a run under xvfb-run -a" "${ms_chain[@]}" -x_virtual -output_dir $out
expect 2 "PETSC_OPTIONS: -X_Virtual: PETSc would kill every Xvfb" env PETSC_OPTIONS="-X_Virtual yes" "$labs/midpoint" -output_dir $out
expect 2 "-x_virtual: 'foo' is not a truth value" "$labs/midpoint" -x_virtual foo -output_dir $out
printf -- '-Saws_Options yes\n' > saws.opts
expect 0 "" "$labs/midpoint" -T 0.02 -quiet -x_virtual false -output_dir x_virtual_off
expect 2 "-saws_options: PETSc would ask for every option's value on the terminal (this PETSc has no SAWs)" "$labs/midpoint" -saws_options -output_dir $out < /dev/null
expect 2 "line 1: -Saws_Options: PETSc would ask" "$labs/mass_spring" -options_file saws.opts -output_dir $out
expect 0 "" "$labs/midpoint" -T 0.02 -quiet -saws_options 0 -output_dir saws_off
# Start-up and end-of-run flags whose value PETSc does not read as given: Debian's optimized PETSc takes
# -malloc_test and checks nothing; -objects_dump reads its value's first letter (-objects_dump false
# dumped). Both were accepted with any value (until 2026-11-30).
expect 2 "-malloc_test: does nothing in this PETSc (an optimized build); accepted: -malloc_dump, which lists what the run left allocated at its end" \
  "$labs/midpoint" -malloc_test -output_dir $out
expect 2 "-malloc_test: 'foo' is not a truth value" "$labs/midpoint" -malloc_test foo -output_dir $out
printf -- '-malloc_test yes\n' > malloc_test.opts
expect 2 "-options_file: 'malloc_test.opts' line 1: -malloc_test: does nothing in this PETSc" "$labs/midpoint" -options_file malloc_test.opts -output_dir $out
expect 0 "" "$labs/midpoint" -T 0.02 -quiet -malloc_test false -output_dir malloc_test_off
expect 2 "-objects_dump: 'false' is not accepted; accepted: -objects_dump (the PETSc objects left at the end) or -objects_dump all" \
  "$labs/midpoint" -objects_dump false -output_dir $out
expect 0 "" "$labs/midpoint" -T 0.02 -quiet -objects_dump all -output_dir objects_dump_all
! grep -aq "never freed" out.txt || fail "midpoint -objects_dump all: objects left at the end: $(head -c 300 out.txt)"
# PETSc's reports at its end were unknown options; their values are checked before PETSc starts.
expect 2 "-citations: cannot write 'nodir/cite.txt' (no writable directory 'nodir')" "$labs/mass_spring" -citations nodir/cite.txt -output_dir $out
expect 2 "PETSC_OPTIONS: -get_total_flops: 'maybe' is not a truth value" env PETSC_OPTIONS="-get_total_flops maybe" "$labs/midpoint" -output_dir $out
printf -- '-Options_View 2\n' > view2.opts
expect 2 "line 1: -Options_View: '2' is not a truth value" "$labs/midpoint" -options_file view2.opts -output_dir $out
expect 0 "" "$labs/midpoint" -T 0.02 -quiet -options_left -OPTIONS_VIEW yes -get_total_flops -citations cite.txt -output_dir end_reports
{ grep -aq 'There are no unused options.' out.txt && grep -aq '^-get_total_flops' out.txt && grep -aq 'Total flops over all processors' out.txt &&
  [ "$(grep -ac 'cite the following' cite.txt)" = 1 ] && grep -aq 'petsc-user-ref' cite.txt; } ||
  fail "-options_left, -options_view, -get_total_flops or -citations FILE reported nothing"
expect 0 "" "$labs/midpoint" -T 0.02 -quiet -options_left false -output_dir end_reports_off
! grep -aq 'unused options' out.txt || fail "-options_left false reported the options"
expect 0 "" mpiexec --quiet -n 2 "$labs/mass_spring" -model chain -T 0.02 -options_left -citations -output_dir end_reports_2
[ "$(grep -ac 'There are no unused options.' out.txt)" = 1 ] && [ "$(grep -ac 'cite the following' out.txt)" = 1 ] ||
  fail "2 ranks: -options_left and -citations not reported once"
expect 2 "unknown option -bogus" "$labs/midpoint" -bogus 1 -log_view :refused_log.txt -output_dir $out
[ ! -e refused_log.txt ] || fail "a refused run wrote its -log_view log"
mkdir -p rc_fifo && mkfifo rc_fifo/.petscrc
cd rc_fifo
expect 2 "PETSc's options file '.petscrc' is not a regular file (PETSc would wait on it); accepted: a regular file, or -skip_petscrc" "$labs/midpoint" -output_dir $out
cd ..
expect 2 "-malloc_debug: 'foo' is not a truth value" mpiexec --quiet -n 2 "$labs/midpoint" -malloc_debug foo -output_dir $out
expect 2 ": Unable to open file nodir/info.0" mpiexec --quiet -n 2 "$labs/mass_spring" -info nodir/info -output_dir $out
# PETSc failing on one rank only held the other in its start: the job hung, without a word.
mkdir -p info_r1.1
expect 2 "(rank 1): PETSc refused an option it reads as it starts (from the command line, PETSC_OPTIONS, an options file or a .petscrc): Unable to open file info_r1.1" \
  mpiexec --quiet -n 2 "$labs/midpoint" -info info_r1 -output_dir $out
mkdir -p mview_1
expect 2 "-malloc_view: cannot write 'mview_1': it is a directory; accepted: a file in a writable directory (on rank 1)" \
  mpiexec --quiet -n 2 "$labs/midpoint" -malloc_view mview -output_dir $out
expect 2 "-history: no file given, and no HOME for PETSc's ~/.petschistory; accepted: -history FILE" env -u HOME "$labs/midpoint" -history -output_dir $out
expect 2 "-history: cannot write 'nodir/.petschistory'" env HOME=nodir "$labs/midpoint" -history -output_dir $out
expect 2 "-log_summary: cannot write 'nodir/ls.txt'" "$labs/midpoint" -log_summary nodir/ls.txt -output_dir $out
# A refusal into a pipe whose reader quit: exit 2, not SIGPIPE (141).
"$labs/midpoint" -malloc_debug foo -output_dir $out 2>&1 >/dev/null | true
piped=${PIPESTATUS[0]}
[ "$piped" = 2 ] || fail "a refusal into a closed pipe: exit $piped, want 2"
cd rc_dir
rm .petscrc && mkdir petscrc # a directory PETSc passes over
expect 0 "" "$labs/midpoint" -T 0.02 -quiet -output_dir rc_dir_passed
cd ..
# A -dt whose step matrix overflows (c = dt^2/4 = 2.5e307 at dt = 1e154): midpoint, which keeps energy at
# every dt, "diverged" at step 1 (exit 3) until 2026-12-01; refused before anything is written.
expect 2 "the step matrix a M + b C + c S overflows (a = 1, b = 0, c = 2.5e+307, from -dt); accepted: a -dt for which it is finite" \
  "$labs/midpoint" -dt 1e154 -T 1e154 -output_dir dt_overflow
[ ! -e dt_overflow ] || fail "midpoint: the refused -dt left its output directory"
expect 2 "the step matrix a M + b C + c S overflows" "$labs/discrete_system" -scheme newmark -dt 1e160 -T 3e160 -output_dir $out
expect 0 "" "$labs/midpoint" -dt 1e153 -T 1e153 -quiet -output_dir dt_large # (the largest that fits: conserved)
# Element sizes whose 1/h^2 terms overflow: refused by their range (the reason given was "the stiffness
# matrix's largest diagonal entry on the free DOFs is inf"); at the range's end the modes scale as 1/h.
expect 2 "-hx: 1e-154 is out of range; accepted: a real in [1e-150, 1e150]" "$labs/modes" -hx 1e-154 -hy 1e-154 -output_dir $out
expect 0 "" "$labs/modes" -hx 1e-150 -hy 1e-150 -output_dir hx_small
# The matrix-free path at such a -dt ran on with a beam that did not move (exit 0): its step matrix is
# probed by a product. An overflowing Rayleigh damping matrix "diverged" at step 1 after the first output.
expect 2 "the step matrix a M + b C + c S overflows" "$labs/midpoint" -mx 4 -my 2 -operator matfree -dt 1e154 -T 1e154 -output_dir $out
for op in assembled matfree; do
  expect 2 "-rayleigh_alpha, -rayleigh_beta: the damping matrix alpha M + beta S (alpha = 0, beta = 1e+306) overflows a double" \
    "$labs/midpoint" -mx 4 -my 2 -operator $op -T 0.05 -rayleigh_beta 1e306 -output_dir ray_overflow
  [ ! -e ray_overflow ] || fail "midpoint -operator $op: the refused damping left its output directory"
done
# -export_system into the directory of the run's own inputs replaced them (exit 0).
mkdir -p ex_in && printf '1\n1\n1\n1\n1\n1\n1\n1\n' > ex_in/K.mtx && printf 't,g\n0,1\n1,2\n' > ex_in/fixed.txt
expect 2 "-export_system: 'ex_in/K.mtx' is the run's input (-thickness_file; the export would replace it)" "$labs/midpoint" -mx 4 -my 2 \
  -T 0.05 -output_dir $out -export_system ex_in -thickness_file ex_in/K.mtx -load_curve ex_in/fixed.txt
[ "$(head -1 ex_in/fixed.txt)" = "t,g" ] || fail "midpoint: -export_system replaced the load curve"
