#!/usr/bin/env bash
# A failure on one MPI rank only while MUMPS holds a factorization (tests/rank_local_error.cpp), on 2 and
# 3 ranks:
# - alone: the job ends with exit 3 and the failing rank's line, through the unwind watchdog (10 s) and
#   MPI_Abort, instead of waiting forever in MUMPS's collective termination;
# - agreed (inside agreeOn): every rank destroys the solver and reports the agreed error, exit 2,
#   one line, at once.
# Usage: rank_local_error_test.sh <rank_local_error binary>
prog=$1
failures=0
run() { # run <ranks> <mode> <rc> <line> <max seconds>
  local start elapsed rc
  start=$(date +%s)
  timeout -s KILL 60 mpiexec --quiet -n "$1" "$prog" "$2" > out.txt 2> err.txt
  rc=$?
  elapsed=$(($(date +%s) - start))
  if [ $rc = 137 ]; then
    echo "FAIL: $1 ranks, $2: hung (killed after 60 s)"
  elif [ $rc != "$3" ] || ! grep -qF "$4" err.txt || [ "$(grep -c . err.txt)" != 1 ] || [ $elapsed -gt "$5" ]; then
    echo "FAIL: $1 ranks, $2: exit $rc in $elapsed s (want $3 within $5 s, one line '$4'):"
    cat err.txt
  else
    echo "ok: $1 ranks, $2: exit $rc in $elapsed s"
    return
  fi
  failures=$((failures + 1))
}
for ranks in 2 3; do
  run $ranks alone 3 "rank_local_error: error (rank $((ranks - 1))): a failure on the last rank only" 40
  run $ranks agreed 2 "rank_local_error: error: a failure on the last rank only, in an agreed step" 10
done
[ $failures = 0 ]
