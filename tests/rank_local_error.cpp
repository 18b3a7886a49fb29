// A failure on one MPI rank only while a direct (MUMPS) factorization is alive: the job must end with the
// documented exit code and one error line, not hang. The failing rank unwinds through the solver's
// destructor, and MUMPS's termination is collective. Run by rank_local_error_test.sh under mpiexec with
// a time limit, in two modes:
//   alone   the last rank fails and the others wait in a collective (as in the time loop) that it never
//           reaches: its destroy cannot complete, the watchdog ends the job (exit 3, its line);
//   agreed  the last rank fails inside a step run under agreeOn, whose end the others reach: they
//           destroy the same solver, and every rank reports the agreed error (exit 2, one line).
#include <petscmat.h>

#include <cstring>

#include "common/Petsc.hpp"
#include "solvers/LinearSolver.hpp"

int main(int argc, char **argv) {
  // The mode is the first argument, taken off before the session checks the command line.
  const bool agreed = argc > 1 && std::strcmp(argv[1], "agreed") == 0;
  if (argc > 1) {
    argv[1] = argv[0];
    --argc;
    ++argv;
  }
  beam::PetscSession session(&argc, &argv, nullptr);
  return beam::runMain(session, "rank_local_error", [&] {
    const PetscInt n = 64; // a 1D Laplacian, SPD: factored by MUMPS on several ranks
    beam::PMat A;
    BEAM_PETSC(MatCreateAIJ(PETSC_COMM_WORLD, PETSC_DECIDE, PETSC_DECIDE, n, n, 3, nullptr, 2, nullptr, A.out()));
    PetscInt lo, hi;
    BEAM_PETSC(MatGetOwnershipRange(A, &lo, &hi));
    for (PetscInt i = lo; i < hi; ++i) {
      BEAM_PETSC(MatSetValue(A, i, i, 2.0, INSERT_VALUES));
      if (i > 0) BEAM_PETSC(MatSetValue(A, i, i - 1, -1.0, INSERT_VALUES));
      if (i + 1 < n) BEAM_PETSC(MatSetValue(A, i, i + 1, -1.0, INSERT_VALUES));
    }
    BEAM_PETSC(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
    BEAM_PETSC(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
    BEAM_PETSC(MatSetOption(A, MAT_SPD, PETSC_TRUE));
    const bool last = session.rank() == session.size() - 1;
    if (agreed) {
      beam::agreeOn(PETSC_COMM_WORLD, [&] {
        const beam::LinearSolver solver(A, "shifted_", beam::LinearSolverKind::Direct);
        if (last) throw beam::inputError("a failure on the last rank only, in an agreed step");
      });
      return 0;
    }
    const beam::LinearSolver solver(A, "shifted_", beam::LinearSolverKind::Direct);
    if (last) throw beam::runError("a failure on the last rank only");
    MPI_Barrier(PETSC_COMM_WORLD); // the healthy ranks wait in a collective the failing rank never reaches
    return 0;
  });
}
