#!/usr/bin/env bash
# A failure on one MPI rank only, after MUMPS has factored (tests/rank_local_error.cpp): the job ends
# with exit 3 and the failing rank's line within seconds (runMain's 5 s arrival check, then MPI_Abort),
# instead of waiting forever in MUMPS's collective termination.
# Usage: rank_local_error_test.sh <rank_local_error binary>
prog=$1
start=$(date +%s)
timeout -s KILL 60 mpiexec --quiet -n 2 "$prog" > out.txt 2> err.txt
rc=$?
elapsed=$(( $(date +%s) - start ))
if [ $rc = 137 ]; then echo "FAIL: hung (killed after 60 s)"; exit 1; fi
if [ $rc != 3 ]; then echo "FAIL: exit $rc, want 3"; cat err.txt; exit 1; fi
if ! grep -q "rank_local_error: error (rank 1): a failure on the last rank only" err.txt; then
  echo "FAIL: no error line"; cat err.txt; exit 1
fi
echo "ok: exit 3 in ${elapsed} s"
