# bad_input, part files_and_numbers (sourced by tests/bad_input_test.sh, which defines expect, the input files
# and the labs' short names). Output files and directories, numbers and matrices in files, discrete_system, paper_central_difference, options files.
# PETSc ignores case in option names (-Options_File naming itself recursed to SIGSEGV) and reads quoted
# paths; YAML in a string aborted inside PETSc; -log_trace FILE writes FILE.0.
printf -- '-Options_File self_case.opts\n' > self_case.opts
mkdir -p "sp dir" && printf -- '-T 0.02\n' > "sp dir/in.opts" && printf -- '-options_file "sp dir/in.opts"\n' > quoted.opts
mkdir -p trace.0
expect 2 "'self_case.opts' includes itself" "$labs/midpoint" -options_file self_case.opts -output_dir $out
expect 0 "" "$labs/midpoint" -options_file quoted.opts -quiet -output_dir quoted_run
expect 2 "-options_string_yaml: YAML options" "$labs/midpoint" -options_string_yaml "T: [" -output_dir $out
expect 2 "-log_trace: cannot write 'trace.0': it is a directory" "$labs/midpoint" -log_trace trace -output_dir $out
# -save_final in an output directory given with a trailing slash, yet to be made; into the exported
# system's files or energy_drift's table (refused); a user's own directory named like a text file stays.
expect 0 "" "$labs/midpoint" -T 0.02 -quiet -output_dir slash_dir/ -save_final slash_dir/final.mtx
expect 2 "-save_final: 'exp_dir/F.mtx' is one of the run's own files" "$labs/midpoint" -T 0.02 -export_system exp_dir \
  -output_dir exp_run -save_final exp_dir/F.mtx
# -export_system's files are written when the run starts, after every refusal: a refused run wrote them
# (over a user's own M.mtx) and left their directory (until 2026-11-30).
mkdir -p exp_user && echo USERDATA > exp_user/M.mtx
expect 2 "-save_final: cannot write 'nodir/x.mtx'" "$labs/fully_implicit" -T 0.1 -export_system exp_user -save_final nodir/x.mtx -output_dir exp_user_run
{ [ "$(cat exp_user/M.mtx)" = USERDATA ] && [ "$(ls -A exp_user)" = M.mtx ] && [ ! -e exp_user_run ]; } ||
  fail "fully_implicit: a refused run wrote -export_system's files or left its lock: $(ls -A exp_user exp_user_run 2>&1 | tr '\n' ' ')"
expect 2 "-save_final: cannot write 'nodir/x.mtx'" "$labs/energy_drift" -T 0.1 -schemes midpoint -export_system exp_new -save_final nodir/x.mtx -output_dir exp_ed
{ [ ! -e exp_new ] && [ ! -e exp_ed ]; } || fail "energy_drift: a refused run left -export_system's files or its directories: $(ls -A exp_new exp_ed 2>&1 | tr '\n' ' ')"
printf x > exp_file
expect 2 "output directory 'exp_file/run' cannot be created" "$labs/semi_implicit" -T 0.1 -export_system exp_new -output_dir exp_file/run
[ ! -e exp_new ] || fail "semi_implicit: a refused output directory left -export_system's files"
# What a refused run made it takes back, and only that: the parents made before a later part failed
# (new1/../exp_file/x made new1), a directory reached through a link before '..', a lock file in a
# directory that was there before (each left until 2026-11-30).
expect 2 "output directory 'mk_new1/../exp_file/x' cannot be created" "$labs/midpoint" -T 0.02 -output_dir mk_new1/../exp_file/x
[ ! -e mk_new1 ] || fail "midpoint: a failed creation left the parent it made (mk_new1)"
mkdir -p mk_other/sub mk_pre && ln -sfn mk_other/sub mk_link
expect 2 "overflows a double" "$labs/stability" -rho 1e-300 -rayleigh_beta 1e160 -measure_steps 0 -output_dir mk_link/../mk_new2
expect 2 "overflows a double" "$labs/stability" -rho 1e-300 -rayleigh_beta 1e160 -measure_steps 0 -output_dir mk_pre
{ [ ! -e mk_other/mk_new2 ] && [ -z "$(ls -A mk_pre)" ]; } || fail "stability: a refusal left what it made: $(ls -A mk_other mk_pre | tr '\n' ' ')"
# The lock file is never opened through a link (a dangling one made its target) nor waited on as a FIFO
# (the run hung); a user's file named like the write probe is left alone (it was deleted, a link there
# truncated its target). Each until 2026-11-30.
mkdir -p lk_link lk_fifo lk_probe && ln -sfn "$PWD/lk_victim" lk_link/.lock && rm -f lk_fifo/.lock && mkfifo lk_fifo/.lock
expect 2 "output directory 'lk_link': its lock file 'lk_link/.lock' cannot be opened: not a regular file" "$labs/midpoint" -T 0.02 -output_dir lk_link
[ ! -e lk_victim ] || fail "midpoint: a link in the place of the lock file made its target"
expect 2 "its lock file 'lk_fifo/.lock' cannot be opened: not a regular file" "$labs/midpoint" -T 0.02 -output_dir lk_fifo
# A dangling link in the place of a log the run writes through it, whose directory is missing, or a loop of
# links: the run stopped at its first write (exit 3, after its set-up) until 2026-12-01; refused before it.
mkdir -p dl_dir dl_loop && ln -sfn /nonexistent_dir/e dl_dir/energy.csv && ln -sfn loop dl_loop/loop && ln -sfn loop dl_loop/energy.csv
expect 2 "output directory 'dl_dir' holds 'energy.csv', a symbolic link to '/nonexistent_dir/e', which cannot be made (no directory '/nonexistent_dir')" \
  "$labs/midpoint" -T 0.02 -output_dir dl_dir
expect 2 "holds 'energy.csv', a symbolic link to 'dl_loop/loop', which cannot be made (Too many levels of symbolic links)" \
  "$labs/discrete_system" -T 0.02 -output_dir dl_loop
mkdir -p dl_chain && ln -sfn l2 dl_chain/energy.csv && ln -sfn /nonexistent_dir/x dl_chain/l2 # (the chain's last link counts)
expect 2 "holds 'energy.csv', a symbolic link to '/nonexistent_dir/x', which cannot be made" "$labs/midpoint" -T 0.02 -output_dir dl_chain
# An options file in the output directory under a name the run writes was replaced by the energy log.
mkdir -p of_in && printf -- '-T 0.02\n-quiet\n' > of_in/energy.csv
expect 2 "output directory 'of_in' holds the run's input 'energy.csv' (-options_file)" "$labs/midpoint" -options_file of_in/energy.csv -output_dir of_in
# PETSc expands ${NAME} in an options file's path (another file than the one checked was read), and
# PETSC_OPTIONS has no '#' comments (its '-options_left #1' passed the check, then PETSc's traceback).
mkdir -p 'of_${NOPE}' && printf -- '-T 0.02\n' > 'of_${NOPE}/o.txt'
expect 2 "holds \${...}, which PETSc replaces; accepted: a path without \${" "$labs/midpoint" -options_file 'of_${NOPE}/o.txt' -output_dir $out
PETSC_OPTIONS='-options_left #1' expect 2 "PETSC_OPTIONS: -options_left: '#1' is not a truth value" "$labs/midpoint" -T 0.02 -output_dir $out
ln -sfn dl_target dl_dir/energy.csv # (a dangling link whose file can be made is written through, as before)
expect 0 "" "$labs/midpoint" -T 0.02 -quiet -output_dir dl_dir
[ -s dl_dir/dl_target ] || fail "midpoint: the log was not written through the link"
probe=$(printf '%-64s' .write_test_0_ | tr ' ' x)
echo precious > "lk_probe/$probe"
expect 0 "" "$labs/midpoint" -T 0.02 -quiet -output_dir lk_probe
[ "$(cat "lk_probe/$probe")" = precious ] || fail "midpoint: the write probe replaced a user's file of its name"
# A path the system takes only relative to a deep working directory (over PATH_MAX whole): what the
# refused run made goes too (it was recorded by its whole path, which lstat refused).
deep_cwd=$PWD/deep_cwd$(printf '/%0200d' $(seq 1 17))
mkdir -p "$deep_cwd"
deep_out=$(printf 'D%.0s' $(seq 1 200))/$(printf 'E%.0s' $(seq 1 200))
expect 2 "overflows a double" sh -c 'cd "$1" && exec "$2" -rho 1e-300 -rayleigh_beta 1e160 -measure_steps 0 -output_dir "$3"' sh "$deep_cwd" \
  "$labs/stability" "$deep_out"
[ -z "$(ls -A "$deep_cwd")" ] || fail "stability: a refusal in a deep working directory left what it made"
rm -rf deep_cwd
expect 2 "-save_final: 'ed_out/energy_drift.csv' is one of the run's own files" "$labs/energy_drift" -schemes midpoint \
  -save_final ed_out/energy_drift.csv -output_dir ed_out
# trajectory.csv is a run's own file for every lab that writes one (and for mass_spring, whose -track
# may write it); a mutant that forgot the name passed every test until 2026-11-28.
for lab in discrete_system mass_spring; do
  expect 2 "-save_final: 'tsf/trajectory.csv' is one of the run's own files in 'tsf'" "$labs/$lab" -T 0.01 \
    -save_final tsf/trajectory.csv -output_dir tsf
done
mkdir -p own_dirs/notes.txt
expect 0 "" "$labs/midpoint" -T 0.02 -quiet -output_dir own_dirs
# A singular (semidefinite) K: discrete_system runs without a static reference energy (its Cholesky
# factorization failed, exit 3); the stability lab, whose lowest frequency needs K invertible, refuses it.
{ mm 'coordinate real symmetric'; printf '2 2 2\n1 1 1\n2 2 1\n'; } > M_eye.mtx
{ mm 'coordinate real symmetric'; printf '2 2 1\n2 2 2\n'; } > K_singular.mtx
{ mm 'array real general'; printf '2 1\n1\n0\n'; } > F_rigid.mtx
expect 0 "" "$labs/discrete_system" -M M_eye.mtx -K K_singular.mtx -F F_rigid.mtx -T 1 -quiet -output_dir dsing
expect 2 "K_singular.mtx' is singular" "$labs/stability" -M M_eye.mtx -K K_singular.mtx -output_dir $out
# ... and a K positive definite only in exact arithmetic (condition 1e400): it passed the reader, then
# the eigensolver's factorization failed (exit 3, blaming the eigensolver's options).
{ mm 'coordinate real symmetric'; printf '2 2 2\n1 1 1e-200\n2 2 1e200\n'; } > K_illcond.mtx
expect 2 "K_illcond.mtx' has diagonal entries from 1e-200 to 1e+200, more than 1e100 apart" "$labs/stability" -M M_eye.mtx \
  -K K_illcond.mtx -output_dir $out
# ... but a K only badly scaled is accepted (the working-precision test is on D^-1/2 K D^-1/2).
{ mm 'coordinate real symmetric'; printf '2 2 2\n1 1 1e-3\n2 2 1e13\n'; } > K_scaled.mtx
expect 0 "" "$labs/stability" -M M_eye.mtx -K K_scaled.mtx -measure_steps 0 -output_dir st_scaled
grep -q "omega_min = 0.0316227766" out.txt || fail "stability on diag(1e-3, 1e13): omega_min $(grep omega_min out.txt)"
# A NUL byte quoted from a file ended the message there ("K_nul_value.mtx:3: '-5"): it is a blank.
{ mm 'coordinate real symmetric'; printf '2 2 2\n1 1 -5\0x\n2 2 1\n'; } > K_nul_value.mtx
expect 2 "K_nul_value.mtx:3: '-5 x' is not a number; accepted: a decimal real" "$labs/discrete_system" -M M_eye.mtx -K K_nul_value.mtx -output_dir $out
for lab in "${beam_labs[@]}"; do
  b="$labs/$lab"
  expect 2 "-mx: '' is not an integer" "$b" -mx "" -output_dir $out
  expect 2 "-my: '2.5' is not an integer" "$b" -my 2.5 -output_dir $out
  expect 2 "-E: 'abc' is not a finite real number" "$b" -E abc -output_dir $out
  expect 2 "-hx: 0 is out of range" "$b" -hx 0 -output_dir $out
  expect 2 "-hx, -hy: elements 1e+08 by 1 (aspect ratio 1e+08)" "$b" -hx 1e8 -output_dir $out
  expect 2 "-nu: 0.5 is out of range" "$b" -nu 0.5 -output_dir $out
  expect 2 "-supports: unknown value 'hinged'" "$b" -supports hinged -output_dir $out
  expect 2 "-thickness_file: thickness_word.txt:2: 'x'" "$b" -thickness_file thickness_word.txt -output_dir $out
  expect 2 "unknown option -bogus" "$b" -bogus 1 -output_dir $out
  expect 2 "-output_dir: empty" "$b" -output_dir ""
  # -mx 1 with both edges clamped: every node is on a clamped edge, nothing can move.
  expect 2 "every DOF" "$b" -mx 1 -my 1 -supports clamped_both -output_dir $out
done

# More values on one scheme lab (the parsing is shared).
expect 2 "-dt: '' is not a finite real number" "$m" -dt -output_dir $out
expect 2 "-dt: '0.0l' is not a finite real number" "$m" -dt 0.0l -output_dir $out
expect 2 "-dt: '-inf' is not a finite real number" "$m" -dt -inf -output_dir $out
expect 2 "-T: '1e999' overflows a double: its magnitude is above 1.8e308" "$m" -T 1e999 -output_dir $out
expect 2 "-mx: 99999999999999999999 is out of range" "$m" -mx 99999999999999999999 -output_dir $out
expect 2 "-mx: 2000000000 is out of range" "$m" -mx 2000000000 -output_dir $out
expect 2 "-T/-dt: more than 1e9 steps" "$m" -T 1e10 -dt 1 -output_dir $out
expect 2 "-rho: 'NaN' is not a finite real number" "$m" -rho NaN -output_dir $out
expect 2 "-top_load: 'infinity' is not a finite real number" "$m" -top_load infinity -output_dir $out
expect 2 "-point_load: '' is not a finite real number" "$m" -point_load 1,2,3,4, -output_dir $out
expect 2 "-point_load: node coordinates 1.5,2 are not node indices" "$m" -point_load 1.5,2,3,4 -output_dir $out
# 4294967296 wrapped to node -2147483648 in the message; 1e300 was "not an integer".
expect 2 "-point_load: node coordinates 4294967296,0 are not node indices" "$m" -point_load 4294967296,0,0,-1 -output_dir $out
expect 2 "-lumped_mass: 'maybe' is not a truth value" "$m" -lumped_mass maybe -output_dir $out
expect 2 "-quiet: 'maybe' is not a truth value" "$m" -quiet maybe -output_dir $out
expect 2 "-rayleigh_alpha: -1 is out of range" "$m" -rayleigh_alpha -1 -output_dir $out
expect 2 "-console_every: 0 is out of range" "$m" -console_every 0 -output_dir $out
expect 2 "-thickness_file: thickness_inf.txt:1: 'inf'" "$m" -thickness_file thickness_inf.txt -output_dir $out
expect 2 "-thickness_file: thickness_nul.txt:1:" "$m" -mx 1 -my 2 -thickness_file thickness_nul.txt -output_dir $out
expect 2 "-thickness_file: thickness_utf16.txt:1:" "$m" -mx 1 -my 3 -thickness_file thickness_utf16.txt -output_dir $out
expect 2 "-load_curve" "$m" -load_curve /nonexistent.csv -output_dir $out
expect 2 "curve_nan.csv:3:" "$m" -load_curve curve_nan.csv -output_dir $out
expect 2 "curve_not_increasing.csv:3:" "$m" -load_curve curve_not_increasing.csv -output_dir $out
expect 2 "curve_nul.csv:2:" "$m" -load_curve curve_nul.csv -output_dir $out
expect 2 "-load_harmonic: '1' has 1 numbers" "$m" -load_harmonic 1 -output_dir $out
expect 2 "output directory 'afile/x' cannot be created" "$m" -output_dir afile/x -T 0.1
expect 2 "-schemes: empty" "$labs/energy_drift" -schemes "" -output_dir $out
expect 2 "unknown scheme 'rk5'" "$labs/energy_drift" -schemes rk5 -output_dir $out
# A file in the place of a later scheme's directory: refused before any scheme runs (three ran first).
mkdir -p edfile && touch edfile/rk4
expect 2 "edfile/rk4" "$labs/energy_drift" -T 0.1 -output_dir edfile
[ ! -e edfile/midpoint/energy.csv ] && ! grep -q running out.txt || fail "energy_drift: a refused scheme directory should stop it before any run"
# energy_drift sets its schemes up one at a time for their runs; options for a late scheme's solver or
# parameters are still read (and refused) before anything runs or is written.
expect 2 "unknown option -central_difference_ksp_typo" "$labs/energy_drift" -central_difference_ksp_typo cg -output_dir $out
# A beam no machine of ours can hold (330 GiB): refused before anything, with nothing on stdout (the
# solver path line came first until 2026-11-26).
expect 2 "the run needs about" "$labs/energy_drift" -mx 60000 -my 6000 -output_dir $out
[ -s out.txt ] && fail "energy_drift's memory refusal printed on stdout: $(head -c 200 out.txt)"
# Refused after the model is built (an unknown option, an output directory that cannot be made): nothing
# on stdout either (the solver path line came first, as if the run had gone ahead, until 2026-11-27).
expect 2 "unknown option -typo_opt" "$labs/midpoint" -typo_opt 1 -output_dir $out
[ -s out.txt ] && fail "midpoint's unknown-option refusal printed on stdout: $(head -c 200 out.txt)"
touch sp_file
expect 2 "output directory 'sp_file' cannot be created" "$labs/midpoint" -output_dir sp_file
[ -s out.txt ] && fail "midpoint's output-directory refusal printed on stdout: $(head -c 200 out.txt)"
expect 2 "output directory 'sp_file' cannot be created" "$labs/energy_drift" -output_dir sp_file
[ -s out.txt ] && fail "energy_drift's output-directory refusal printed on stdout: $(head -c 200 out.txt)"
expect 2 "-hht_alpha" "$labs/energy_drift" -hht_alpha 5 -output_dir $out
expect 2 "-schemes: 'midpoint' is listed twice" "$labs/energy_drift" -schemes midpoint,rk4,midpoint -output_dir $out
# Scheme and built-in model names ignore case, as PETSc's lists (-scheme Verlet) do; the registry's
# spelling is kept (until 2026-11-27 -schemes Midpoint and multibody -model Pendulum were refused).
expect 0 "" "$labs/energy_drift" -schemes Midpoint,RK4 -T 0.02 -quiet -output_dir case_runs/ed
[ -s case_runs/ed/midpoint/energy.csv ] && [ -s case_runs/ed/rk4/energy.csv ] && passed=$((passed + 1)) ||
  fail "-schemes Midpoint,RK4 did not write the schemes' directories under their own names"
expect 2 "-schemes: 'midpoint' is listed twice" "$labs/energy_drift" -schemes Midpoint,midpoint -output_dir $out
expect 0 "" "$labs/multibody" -model Pendulum -T 0.01 -quiet -output_dir case_runs/mb
expect 2 "-modes: 0 is out of range" "$labs/modes" -modes 0 -output_dir $out
expect 2 "-modes: 'x' is not an integer" "$labs/modes" -modes x -output_dir $out
expect 2 "-omega_points: 1 is out of range" "$labs/stability" -omega_points 1 -output_dir $out
expect 2 "-xi: 'nan' is not a finite real number" "$labs/stability" -xi nan -output_dir $out
expect 2 "-measure_growth: 1 is out of range" "$labs/stability" -measure_growth 1 -output_dir $out
# stability on a discrete system: the same system options and file checks as discrete_system.
expect 2 "-system: unknown system 'three_dof'" "$labs/stability" -system three_dof -output_dir $out
expect 2 "M_zero_diag.mtx:2: M is not positive definite" "$labs/stability" -M M_zero_diag.mtx -K K.mtx -output_dir $out
expect 2 "-M and -K: both needed" "$labs/stability" -M M.mtx -output_dir $out
expect 2 "unknown option -mx" "$labs/stability" -system two_dof -mx 4 -output_dir $out
expect 2 "unknown option -dt" "$labs/stability" -M M.mtx -K K.mtx -dt 1 -output_dir $out

# discrete_system: options, matrices (singular, indefinite, non-finite, truncated, mismatched), loads.
expect 2 "-dt: -1 is out of range" "$d" -dt -1 -output_dir $out
expect 2 "-dt: '' is not a finite real number" "$d" -dt "" -output_dir $out
expect 2 "-T: 'nan' is not a finite real number" "$d" -T nan -output_dir $out
expect 2 "-snapshot_every: '1.5' is not an integer" "$d" -snapshot_every 1.5 -output_dir $out
expect 2 "-system: unknown system 'three_dof'" "$d" -system three_dof -output_dir $out
expect 2 "-scheme: unknown scheme 'euler'" "$d" -scheme euler -output_dir $out
expect 2 "-linear_solver: unknown value 'lu'" "$d" -linear_solver lu -output_dir $out
expect 2 "unknown option -bogus" "$d" -bogus -output_dir $out
expect 2 "-quiet: 'maybe' is not a truth value" "$d" -quiet maybe -output_dir $out
expect 2 "unknown option -console_every" "$d" -console_every 5 -output_dir $out
expect 2 "-scheme: unknown scheme ''" "$d" -scheme -output_dir $out
expect 2 "-M: no path given; accepted: a file name" "$d" -M -K K.mtx -output_dir $out
expect 2 "-load_curve: no path given; accepted: a file name" "$m" -load_curve -output_dir $out
# Each says what it takes (all said "a file or directory name" until 2026-12-01; a directory is refused
# as -save_final).
expect 2 "-restart: no path given; accepted: a directory name" "$m" -restart -output_dir $out
expect 2 "-export_system: no path given; accepted: a directory name" "$m" -export_system -output_dir $out
expect 2 "-save_final: no path given; accepted: a file name" "$m" -save_final '' -output_dir $out
expect 2 "-output_dir: empty" "$d" -output_dir ""
expect 2 "-system and matrix files" "$d" -system two_dof -M M.mtx -K K.mtx -output_dir $out
expect 2 "-M and -K: both needed" "$d" -M M.mtx -output_dir $out
# A kernel file gives its size as 0 and holds text: it was called "empty file".
expect 2 "/proc/self/status: a file that gives its size as 0 but is not empty" "$d" -M M.mtx -K /proc/self/status -output_dir $out
# A UTF-8 byte order mark before the header is skipped, as in the CSV readers (the header was refused,
# the mark invisible in the message).
printf '\xEF\xBB\xBF' > K_bom.mtx && cat K.mtx >> K_bom.mtx
expect 0 "" "$d" -M M.mtx -K K_bom.mtx -T 0.01 -output_dir $out
printf '\xEF\xBB\xBFt,g\n0,0\n1,1\n' > lc_bom.csv && printf '\xEF\xBB\xBF1.0\n' > th_bom.txt
expect 0 "" "$m" -T 0.01 -load_curve lc_bom.csv -output_dir $out
expect 0 "" "$m" -T 0.01 -mx 1 -my 1 -thickness_file th_bom.txt -output_dir $out
printf 'abc\n' > th_text.txt
expect 2 "th_text.txt:1: 'abc' is not a finite real number; accepted: reals separated by spaces or lines" "$m" -thickness_file th_text.txt -output_dir $out
printf 'x\n' > lc_x.csv
expect 2 "lc_x.csv:1: expected two comma-separated numbers t,g; got 1 fields in 'x'; accepted: rows t,g" "$m" -load_curve lc_x.csv -output_dir $out
expect 2 "/nonexistent.mtx: cannot open the file" "$d" -M /nonexistent.mtx -K K.mtx -output_dir $out
expect 2 "M_zero_diag.mtx:2: M is not positive definite" "$d" -M M_zero_diag.mtx -K K.mtx -output_dir $out
# omega_max dt past 1e7 puts M below the round-off of dt^2 K: said (Newmark "lost" all its energy, silently).
{ mm 'coordinate real symmetric'; printf '2 2 2\n1 1 1e-30\n2 2 1e-30\n'; } > M_tiny.mtx
{ mm 'array real general'; printf '2 1\n1\n0\n'; } > q0_one.mtx
{ mm 'coordinate real symmetric'; printf '2 2 3\n1 1 2\n2 1 -1\n2 2 1\n'; } > K_soft.mtx
expect 0 "warning: omega_max dt = 1.62e+13: M is below the round-off of dt^2 K in the schemes' step matrices" "$d" -M M_tiny.mtx \
  -K K_soft.mtx -q0 q0_one.mtx -T 0.05 -quiet -output_dir ds_tiny
# A warning met while the lab sets up is not printed before a refusal (until 2026-12-01 the omega_max dt
# and the redundant-constraint warnings came before the error line of a refused output directory).
no_warning() { grep -aq '^warning' err.txt && fail "$1: a warning before the refusal: $(head -c 300 err.txt)"; }
expect 2 "output directory 'afile/x' cannot be created" "$d" -M M_tiny.mtx -K K_soft.mtx -q0 q0_one.mtx -output_dir afile/x
no_warning "discrete_system, tiny M"
expect 2 "output directory 'afile/x' cannot be created" "$labs/multibody" -model n_four_bar -output_dir afile/x
no_warning "multibody n_four_bar"
expect 2 "output directory 'afile/x' cannot be created" "$labs/constraint_drift" -model slider_crank -output_dir afile/x
no_warning "constraint_drift slider_crank"
expect 2 "M_negative_diag.mtx:2: M is not positive definite" "$d" -M M_negative_diag.mtx -K K.mtx -output_dir $out
expect 2 "M_nan.mtx:4: value 'nan' is not finite" "$d" -M M_nan.mtx -K K.mtx -output_dir $out
expect 2 "M_inf.mtx:4: value '1e999' is not finite" "$d" -M M_inf.mtx -K K.mtx -output_dir $out
# Subnormal numbers in files, as in options (the Matrix Market one was taken, exit 0; the curve's was
# "not two numbers").
{ mm 'coordinate real symmetric'; printf '2 2 2\n1 1 1\n2 2 1e-320\n'; } > M_sub.mtx
expect 2 "M_sub.mtx:4: value '1e-320' underflows a double" "$d" -M M_sub.mtx -K K.mtx -output_dir $out
# 1e-400 reads as 0 (M's diagonal then "not positive definite", K's entry dropped); 0e-400 is 0.
{ mm 'coordinate real symmetric'; printf '2 2 3\n1 1 2\n2 1 -1e-400\n2 2 2\n'; } > K_under.mtx
expect 2 "K_under.mtx:4: value '-1e-400' underflows a double" "$d" -M M_eye.mtx -K K_under.mtx -output_dir $out
{ mm 'coordinate real symmetric'; printf '2 2 3\n1 1 2\n2 1 0e-400\n2 2 2\n'; } > K_zero_exp.mtx
expect 0 "" "$d" -M M_eye.mtx -K K_zero_exp.mtx -T 0.01 -quiet -output_dir ds_zero_exp
printf 't,g\n0,1\n1,1e-320\n' > curve_sub.csv
expect 2 "curve_sub.csv:3: '1e-320' underflows a double" "$m" -load_curve curve_sub.csv -output_dir $out
# A number too large for a double is said to overflow (it "is not two numbers t,g" until 2026-11-27).
printf 't,g\n0,1\n1,1e400\n' > curve_over.csv
expect 2 "curve_over.csv:3: '1e400' overflows a double" "$m" -load_curve curve_over.csv -output_dir $out
expect 2 "K_missing_entry.mtx:4: the file ends after 2 of the 3 entries" "$d" -M M.mtx -K K_missing_entry.mtx -output_dir $out
expect 2 "K_cut_in_entry.mtx:5: expected 'row col value'" "$d" -M M.mtx -K K_cut_in_entry.mtx -output_dir $out
expect 2 "K_cut_in_size.mtx:2: bad size line" "$d" -M M.mtx -K K_cut_in_size.mtx -output_dir $out
expect 2 "K_cut_in_header.mtx:1:" "$d" -M M.mtx -K K_cut_in_header.mtx -output_dir $out
expect 2 "K_empty.mtx:1: empty file" "$d" -M M.mtx -K K_empty.mtx -output_dir $out
expect 2 "K_3x3.mtx:2: the matrix is 3 x 3; accepted: 2 x 2" "$d" -M M.mtx -K K_3x3.mtx -output_dir $out
expect 2 "K_unsymmetric.mtx:4: K is not symmetric" "$d" -M M.mtx -K K_unsymmetric.mtx -output_dir $out
expect 2 "K_nul.mtx:4:" "$d" -M M.mtx -K K_nul.mtx -output_dir $out
expect 2 "K_upper.mtx:4: entry (1,2) lies above the diagonal" "$d" -M M.mtx -K K_upper.mtx -output_dir $out
expect 2 "F_short.mtx:3: the file ends after 1 of the 2 values" "$d" -M M.mtx -K K.mtx -F F_short.mtx -output_dir $out
# A size line declaring 1e9 values backed by none: an input error at once, no 24 GB reservation.
expect 2 "F_huge_declared.mtx:3: the file ends after 1 of the 1000000000 values" "$d" -M M.mtx -K K.mtx -F F_huge_declared.mtx -output_dir $out
expect 2 "-load_dt: needed with -load_history" "$d" -load_history history.mtx -output_dir $out
expect 2 "-load_dt: 'nan' is not a finite real number" "$d" -load_history history.mtx -load_dt nan -output_dir $out
expect 2 "-load_dt: 0 is out of range" "$d" -load_history history.mtx -load_dt 0 -output_dir $out
expect 2 "history_3rows.mtx:2: the load history has 3 rows" "$d" -load_history history_3rows.mtx -load_dt 1 -output_dir $out
expect 2 "more than one given" "$d" -load_history history.mtx -load_dt 1 -load_harmonic 1,2 -output_dir $out
expect 2 "curve_nan.csv:3:" "$d" -load_curve curve_nan.csv -output_dir $out
expect 2 "-load_harmonic: 'inf' is not a finite real number" "$d" -load_harmonic 1,inf -output_dir $out

# paper_central_difference takes only -output_dir.
p="$labs/paper_central_difference"
expect 2 "unknown option -dt" "$p" -dt -1 -output_dir $out
expect 2 "output directory 'afile/x' cannot be created" "$p" -output_dir afile/x

# Options the database would mangle (issue 12): checked before PETSc starts, or refused when read.
mkdir -p adir
long=$(printf '1,%.0s' $(seq 1 2100))1 # 4201 characters
for lab in midpoint discrete_system stability; do
  b="$labs/$lab"
  expect 2 "-options_file: cannot open '/nonexistent/opts'" "$b" -options_file /nonexistent/opts -output_dir $out
  expect 2 "-options_file: 'adir' is not a readable regular file" "$b" -options_file adir -output_dir $out
  expect 2 "-options_file: no file given" "$b" -output_dir $out -options_file
  expect 2 "-log_view: cannot write '/nonexistent/x'" "$b" -log_view :/nonexistent/x -output_dir $out
  expect 2 "-log_view: cannot write 'afile/x'" "$b" -log_view :afile/x:ascii_info -output_dir $out
  # Where the permission bits say writable and no file can be made (root in /proc: a 2-rank run hung in
  # PetscFinalize; -history there crashed), or a FIFO without a reader.
  expect 2 "-log_view: cannot write '/proc/beam_lv.txt' (making a file in its directory" "$b" -log_view :/proc/beam_lv.txt -output_dir $out
  expect 2 "-history: cannot write '/proc/beam_hist'" "$b" -history /proc/beam_hist -output_dir $out
  # A FIFO with a reader is not opened by the check (closing it ended the reader; PETSc's open then
  # waited for ever): the log reaches the reader.
  if [ "$lab" != stability ]; then
    rm -f lv_fifo lv_fifo.out && mkfifo lv_fifo
    timeout 60 cat lv_fifo > lv_fifo.out &
    expect 0 "" "$b" -T 0.02 -quiet -log_view :lv_fifo -output_dir lv_fifo_run
    wait
    grep -q "Performance Summary" lv_fifo.out || fail "$lab -log_view into a FIFO with a reader: the log did not reach it"
  fi
  expect 2 "stray argument 'leftover'" "$b" leftover -output_dir $out
  expect 2 "stray argument '3'" "$b" -dt 2 3 -output_dir $out
  expect 2 "stray argument 'x'" "$b" -output_dir $out x
  expect 2 "-output_dir: the value has 4201 characters; accepted: at most 4095" "$b" -output_dir "$long"
done
expect 2 "-point_load: the value has 4201 characters" "$m" -point_load "$long" -output_dir $out
expect 2 "stray argument '3'" "$m" -mx 2 3 -output_dir $out
printf -- '-point_load %s\n' "$long" > long_opts
# An options file PETSc would refuse inside PetscInitialize, with its traceback and an abort (exit 134):
# two options on a line, a value on its own line, an alias without its target. Read before PETSc starts.
printf -- '-T 0.01 -dt 0.001\n' > opts_two.txt
printf -- '# the end time\n-T\n0.01\n' > opts_split.txt
printf -- 'alias -tt\n' > opts_alias.txt
printf -- '# comment\n-T 0.02 # the end\n\t-dt\t0.01\r\nalias -tt -T\n' > opts_good.txt
for lab in midpoint mass_spring multibody; do
  expect 2 "-options_file: 'opts_two.txt' line 1: '-dt' after the option's value; accepted: one option per line" \
    "$labs/$lab" -options_file opts_two.txt -output_dir $out
  expect 2 "-options_file: 'opts_split.txt' line 3: '0.01' is not an option name" "$labs/$lab" -options_file opts_split.txt -output_dir $out
  expect 2 "-options_file: 'opts_alias.txt' line 1: an alias line is 'alias -name -other'" "$labs/$lab" -options_file opts_alias.txt -output_dir $out
  "$labs/$lab" -options_file opts_good.txt -quiet -output_dir opts_good_out >/dev/null 2>&1 ||
    fail "$lab: a valid options file (comments, tabs, CRLF, an alias) was refused"
done
# The same command line reading different files on the two ranks (relative paths from per-rank working
# directories): rank 1's refusal ends both, exit 2.
mkdir -p opts_r0 opts_r1
cp opts_good.txt opts_r0/o.txt
cp opts_two.txt opts_r1/o.txt
expect 2 "-options_file: 'o.txt' line 1: '-dt' after the option's value; accepted: one option per line, -name or -name value ('#' comments) (on rank 1)" \
  mpiexec --quiet -n 2 sh -c "cd opts_r\$OMPI_COMM_WORLD_RANK && exec '$labs/mass_spring' -options_file o.txt -output_dir '$PWD/$out'"
# ... and files every rank accepts but whose options differ: PETSc reads rank 0's alone (rank 1's -T 0.2
# ran as rank 0's 0.1, exit 0; an option in rank 1's .petscrc only was ignored; until 2026-11-30).
mkdir -p optd_r0 optd_r1 optd_same_r0 optd_same_r1
printf -- '-T 0.1\n' > optd_r0/o.txt
printf -- '-T 0.2\n' > optd_r1/o.txt
printf -- '-T 0.1\n-options_file nested.txt\n' | tee optd_same_r0/o.txt > optd_same_r1/o.txt
printf -- '-dt 0.05\n' | tee optd_same_r0/nested.txt > optd_same_r1/nested.txt
ranks_in() { # ranks_in <dir prefix> <output dir>: the command running midpoint on rank r in <dir prefix><r>
  echo "cd $1\$OMPI_COMM_WORLD_RANK && exec '$m' \"\$@\" -quiet -snapshot_every 0 -output_dir '$PWD/$2'"
}
expect 2 "the options file 'o.txt' has another content on rank 1 than on rank 0 (PETSc takes rank 0's files for every rank); accepted: the same options files, alike, on every rank" \
  mpiexec --quiet -n 2 sh -c "$(ranks_in optd_r $out)" sh -options_file o.txt
printf -- '-dt 0.02\n' > optd_same_r1/nested.txt
expect 2 "the options file 'nested.txt' has another content on rank 1" mpiexec --quiet -n 2 sh -c "$(ranks_in optd_same_r $out)" sh -options_file o.txt
cp optd_same_r0/nested.txt optd_same_r1/nested.txt
printf -- '-T 0.1\n' > optd_r1/.petscrc
expect 2 "rank 0 read the options file none where rank 1 read '.petscrc'" mpiexec --quiet -n 2 sh -c "$(ranks_in optd_r $out)" sh -T 0.1
expect 0 "" mpiexec --quiet -n 2 sh -c "$(ranks_in optd_r optd_skip)" sh -skip_petscrc -T 0.1
expect 0 "" mpiexec --quiet -n 2 sh -c "$(ranks_in optd_same_r optd_same)" sh -options_file o.txt
grep -q "^midpoint  *2 " out.txt || fail "per-rank copies of the same options files: not run with their -T 0.1 -dt 0.05: $(head -c 300 out.txt)"
expect 2 "-point_load:" "$m" -options_file long_opts -output_dir $out
expect 2 "-schemes: 'midpoint,' has an empty item" "$labs/energy_drift" -schemes midpoint, -output_dir $out
expect 2 "-schemes: ',midpoint' has an empty item" "$labs/energy_drift" -schemes ,midpoint -output_dir $out
expect 2 "-schemes: 'midpoint,,rk4' has an empty item" "$labs/energy_drift" -schemes midpoint,,rk4 -output_dir $out
expect 2 "-schemes: ',' has an empty item" "$labs/energy_drift" -schemes , -output_dir $out
# Issue 12: files that are not what they claim, sizes, definiteness, late failures.
printf '# comments only\n\n' > comments.txt
expect 2 "holds no number" "$m" -thickness_file comments.txt -output_dir $out
expect 2 "not a regular file" "$m" -thickness_file . -output_dir $out
expect 2 "not a regular file" "$m" -thickness_file /dev/zero -output_dir $out
: > empty.txt
expect 2 "empty file" "$m" -thickness_file empty.txt -output_dir $out
# Count and sign named with the file (they said "element thickness: 3 values given").
printf '1\n2\n3\n' > thickness_3.txt
printf '1\n-1\n3\n4\n' > thickness_neg.txt
expect 2 "-thickness_file: 'thickness_3.txt' holds 3 numbers; accepted: exactly mx*my = 4" "$labs/modes" -mx 2 -my 2 \
  -thickness_file thickness_3.txt -output_dir $out
expect 2 "-thickness_file: 'thickness_neg.txt': number 2, -1, is out of range" "$labs/modes" -mx 2 -my 2 \
  -thickness_file thickness_neg.txt -output_dir $out
expect 2 "not a regular file" "$m" -load_curve /dev/zero -output_dir $out
expect 2 "more than this build's PETSc indices can count" "$m" -mx 50000 -my 50000 -output_dir $out
expect 2 "more than this build's PETSc indices can count" "$m" -mx 1000000000 -my 1 -output_dir $out
expect 2 "this machine has" "$m" -mx 5000 -my 5000 -linear_solver direct -output_dir $out
expect 2 "this machine has" "$m" -mx 20000 -my 20000 -output_dir $out
expect 2 "this machine has" "$labs/modes" -mx 20000 -my 20000 -output_dir $out
expect 2 "this machine has" "$labs/stability" -mx 20000 -my 20000 -output_dir $out
expect 2 "-save_final: cannot write" "$m" -save_final /nonexistent/dir/x.mtx -output_dir $out
{ mm 'coordinate real symmetric'; printf '2 2 2\n1 1 1\n2 2 -1\n'; } > K_indefinite.mtx
{ mm 'coordinate real symmetric'; printf '2 2 2\n1 1 -2\n2 2 -1\n'; } > K_negative.mtx
{ mm 'coordinate real symmetric'; printf '2 2 3\n1 1 1\n2 1 -1\n2 2 1\n'; } > K_singular.mtx
expect 2 "K is indefinite or negative" "$d" -M M.mtx -K K_indefinite.mtx -output_dir $out
expect 2 "K is indefinite or negative" "$d" -M M.mtx -K K_negative.mtx -output_dir $out
expect 2 "not a regular file" "$d" -M /dev/zero -K K.mtx -output_dir $out
expect 2 "not a regular file" "$d" -M . -K K.mtx -output_dir $out
expect 0 "" "$d" -M M.mtx -K K_singular.mtx -T 0.1 -output_dir valid_singular
