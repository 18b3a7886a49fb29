#!/usr/bin/env bash
# Bad input across every lab binary: each row is an expected exit code, a fragment the error line must
# contain and a command. A failing run (exit != 0) must print exactly one stderr line that does not start
# with "warning:" and no PETSc traceback ("PETSC ERROR" nowhere in stdout or stderr); a rejected run
# (exit 2) must not create its output directory; every run must end within 60 s.
# The rows are in parts, tests/bad_input/<part>.sh, run by CTest as bad_input_<part> side by side (the
# whole took 10 minutes on one core); this script defines what every part uses and runs one.
# Usage: bad_input_test.sh <build>/labs <part>   (needs mpiexec for the MPI rows; run as root with
# OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1). Separate from lab_cli_test.sh, which
# checks the documented messages, divergence and a sample run of the scheme labs.
set -u
part=${2:?usage: bad_input_test.sh <build>/labs <part>, a part being a file of tests/bad_input}
# shellcheck source=harness.sh
source "$(dirname "$0")/harness.sh"
[ -f "$tests/bad_input/$part.sh" ] || { echo "no part '$part' in $tests/bad_input"; exit 1; }

expect() { # expect <rc> <fragment> <cmd...>
  local rc=$1 fragment=$2
  shift 2
  timeout 60 "$@" > out.txt 2> err.txt
  local got=$? lines
  lines=$(grep -avc '^warning:' err.txt)
  if [ "$got" = 124 ]; then
    fail "$* -> timed out after 60 s"
  elif [ "$got" != "$rc" ] || { [ -n "$fragment" ] && ! grep -aqF -- "$fragment" err.txt; } ||
    { [ "$rc" != 0 ] && [ "$lines" != 1 ]; } || grep -aq 'PETSC ERROR' out.txt err.txt; then
    fail "$* -> exit $got (want $rc, message with '$fragment'), stderr ($lines lines): $(head -c 300 err.txt | tr -d '\0')"
  else
    passed=$((passed + 1))
  fi
}

# Every lab binary must have rows here: a new lab fails until it is added.
beam_labs=(almost_explicit semi_implicit fully_implicit midpoint energy_drift stability modes)
all_labs=("${beam_labs[@]}" discrete_system paper_central_difference mass_spring mass_spring_stability multibody constraint_drift contact_study)
for f in "$labs"/*; do
  [ -f "$f" ] && [ -x "$f" ] || continue
  name=$(basename "$f")
  case " ${all_labs[*]} " in *" $name "*) ;; *) fail "lab '$name' is not in all_labs of tests/bad_input_test.sh (add it, and rows for it in tests/bad_input/)" ;; esac
done
for name in "${all_labs[@]}"; do
  [ -x "$labs/$name" ] || fail "lab '$name' was not built"
done

# Input files: tiny valid ones and broken ones.
mm() { printf '%%%%MatrixMarket matrix %s\n' "$1"; } # header
{ mm 'coordinate real symmetric'; printf '2 2 2\n1 1 1\n2 2 1\n'; } > M.mtx
{ mm 'coordinate real symmetric'; printf '2 2 3\n1 1 2\n2 1 -1\n2 2 2\n'; } > K.mtx
{ mm 'coordinate real symmetric'; printf '2 2 2\n1 1 0\n2 2 1\n'; } > M_zero_diag.mtx
{ mm 'coordinate real symmetric'; printf '2 2 2\n1 1 -1\n2 2 1\n'; } > M_negative_diag.mtx
{ mm 'coordinate real symmetric'; printf '2 2 2\n1 1 1\n2 2 nan\n'; } > M_nan.mtx
{ mm 'coordinate real symmetric'; printf '2 2 2\n1 1 1\n2 2 1e999\n'; } > M_inf.mtx
{ mm 'coordinate real symmetric'; printf '2 2 3\n1 1 2\n2 1 -1\n'; } > K_missing_entry.mtx
{ mm 'coordinate real symmetric'; printf '2 2 3\n1 1 2\n2 1 -1\n2 2'; } > K_cut_in_entry.mtx
{ mm 'coordinate real symmetric'; printf '2 2'; } > K_cut_in_size.mtx
printf '%%%%MatrixMarket matrix coordinate real sym' > K_cut_in_header.mtx
: > K_empty.mtx
{ mm 'coordinate real symmetric'; printf '3 3 1\n1 1 1\n'; } > K_3x3.mtx
{ mm 'coordinate real general'; printf '2 2 2\n1 1 1\n1 2 5\n'; } > K_unsymmetric.mtx
{ mm 'coordinate real symmetric'; printf '2 2 2\n1 1 1\n2 2 1\0junk\n'; } > K_nul.mtx
{ mm 'coordinate real symmetric'; printf '2 2 2\n1 1 1\n1 2 1\n'; } > K_upper.mtx
{ mm 'array real general'; printf '2 1\n1\n'; } > F_short.mtx
{ mm 'array real general'; printf '1000 1000000\n1\n'; } > F_huge_declared.mtx
{ mm 'array real general'; printf '2 3\n0\n0\n1\n1\n0\n0\n'; } > history.mtx
{ mm 'array real general'; printf '3 1\n0\n0\n1\n'; } > history_3rows.mtx
printf 't,g\n0,0\n1,nan\n' > curve_nan.csv
printf 't,g\n0,0\n0,1\n' > curve_not_increasing.csv
printf '0,0\n1,\0\n' > curve_nul.csv
printf '1 2\nx\n' > thickness_word.txt
printf '1 inf\n' > thickness_inf.txt
printf '1\0002\n' > thickness_nul.txt
printf '1 1 1\n' | iconv -t UTF-16 > thickness_utf16.txt
touch afile
out=never # rejected runs must not create it

# The labs most rows run, and the command lines the parts share.
m="$labs/midpoint"
d="$labs/discrete_system"
mb="$labs/multibody"
chain=("$labs/mass_spring" -model chain -scheme implicit_euler -T 0.01 -output_dir $out) # Newton on a small network
one=(mpiexec --quiet -n 1) # MPMD: "${one[@]}" <rank 0's command> : -n 1 <rank 1's command>
differ="the command line differs between MPI ranks"

# shellcheck source=/dev/null
source "$tests/bad_input/$part.sh"

echo "$passed passed, $failures failed"
[ "$failures" = 0 ]
