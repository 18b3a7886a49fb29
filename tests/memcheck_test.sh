#!/usr/bin/env bash
# Memory checks of a short lab run, a rejected run and a failed run:
#   - PETSc's -malloc_dump lists nothing at PetscFinalize (every PETSc object and PetscMalloc freed);
#     PETSc turns its tracing malloc off under valgrind, so these runs are native;
#   - valgrind memcheck reports no error (--leak-check=no: OpenMPI keeps memory to exit), on one rank
#     and on two (MUMPS, scatters); tests/valgrind.supp holds the MPI runtime's noise.
# Usage: memcheck_test.sh <build>/labs <tests source dir>. Needs valgrind and mpiexec; as root also
# OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1.
set -u
labs=$(cd "$1" && pwd)
supp=$(cd "$2" && pwd)/valgrind.supp
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
failures=0
passed=0
command -v valgrind > /dev/null || { echo "FAIL: valgrind not installed (apt-get install valgrind)"; exit 1; }

# check <rc> <mode> <cmd...>; mode: dump (native, -malloc_dump) or valgrind
check() {
  local rc=$1 mode=$2
  shift 2
  local cmd=("$@")
  if [ "$mode" = valgrind ]; then
    # mpiexec ... lab args -> mpiexec ... valgrind ... lab args
    local i=0 pre=()
    if [ "${cmd[0]}" = mpiexec ]; then pre=("${cmd[@]:0:4}"); i=4; fi
    cmd=("${pre[@]}" valgrind -q --error-exitcode=9 --leak-check=no --track-origins=yes --num-callers=30
         --suppressions="$supp" "${cmd[@]:$i}")
  else
    cmd+=(-malloc_dump)
  fi
  timeout 300 "${cmd[@]}" > out.txt 2> err.txt
  local got=$?
  local leaks vgerr
  leaks=$(grep -aEc '^\[ *[0-9]+\] [0-9]+ bytes ' out.txt err.txt | awk -F: '{ s += $2 } END { print s + 0 }')
  vgerr=$(grep -ac '^==[0-9]*==' err.txt)
  if [ "$got" != "$rc" ] || [ "$leaks" != 0 ] || [ "$vgerr" != 0 ]; then
    echo "FAIL ($mode): $* -> exit $got (want $rc), $leaks -malloc_dump lines, $vgerr valgrind lines:"
    grep -aE '^\[ *[0-9]+\] [0-9]+ bytes |^==[0-9]*==|error' out.txt err.txt | head -n 30 | sed 's/^/  /'
    failures=$((failures + 1))
  else
    passed=$((passed + 1))
  fi
}

m="$labs/midpoint"
short=(-mx 6 -my 2 -T 0.2 -console_every 1000)
printf '%%%%MatrixMarket matrix coordinate real symmetric\n2 2 2\n1 1 0\n2 2 1\n' > M_singular.mtx
printf '%%%%MatrixMarket matrix coordinate real symmetric\n2 2 2\n1 1 1\n2 2 1\n' > K.mtx
for mode in dump valgrind; do
  check 0 $mode "$m" "${short[@]}" -output_dir run_$mode
  check 2 $mode "$m" "${short[@]}" -dt -1 -output_dir rejected_$mode # bad option: exit 2
  check 2 $mode "$labs/discrete_system" -M M_singular.mtx -K K.mtx -output_dir rejected_$mode # bad file
  check 3 $mode "$labs/semi_implicit" "${short[@]}" -dt 0.5 -T 20 -output_dir diverged_$mode # exit 3 mid-run
  check 0 $mode "$labs/discrete_system" -system fifteen_dof -scheme newmark -T 1 -output_dir discrete_$mode
  check 0 $mode mpiexec --quiet -n 2 "$m" "${short[@]}" -output_dir mpi_$mode
done
# A failure on every rank alike frees everything on 2 ranks too (the unwind watch destroys, not keeps),
# on the default and the direct (MUMPS) path.
check 3 dump mpiexec --quiet -n 2 "$labs/semi_implicit" "${short[@]}" -dt 0.5 -T 20 -output_dir mpi_diverged
check 3 dump mpiexec --quiet -n 2 "$labs/semi_implicit" "${short[@]}" -dt 0.5 -T 20 -linear_solver direct -output_dir mpi_diverged_direct

echo "$passed passed, $failures failed"
[ "$failures" = 0 ]
