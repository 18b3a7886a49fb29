// A failure on one MPI rank only, after a direct (MUMPS) factorization: the job must end with the
// documented exit code and one error line, not hang. The failing rank unwinds through the solver's
// destructor; MUMPS's termination is a collective the healthy rank, waiting in a collective of the time
// loop, never joins. Run by rank_local_error_test.sh under mpiexec with a time limit.
#include <petscmat.h>

#include "common/Petsc.hpp"
#include "solvers/LinearSolver.hpp"

int main(int argc, char **argv) {
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
    const beam::LinearSolver solver(A, "shifted_", beam::LinearSolverKind::Direct);
    if (session.rank() == session.size() - 1) throw beam::runError("a failure on the last rank only");
    MPI_Barrier(PETSC_COMM_WORLD); // the healthy ranks wait in a collective the failing rank never reaches
    return 0;
  });
}
