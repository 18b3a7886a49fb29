#include "solvers/SecondOrderSystem.hpp"

#include <cmath>
#include <cstdio>
#include <string>

#include "common/Error.hpp"

namespace beam {

void SecondOrderSystem::netForce(double t, Vec x, Vec y, double c, Vec r, Vec work, double s) const {
  if (load_field) {
    force(t, r);
    BEAM_PETSC(MatMult(stiffness, x, work));
    BEAM_PETSC(VecAXPBY(r, -s, s, work)); // r = s r - s work
  } else {
    // r = s lambda(t) f0 - s S x in one go: the stencil finishes each row of S x in cache (three passes
    // over a vector), any other operator takes MatMult then VecAXPBY (five; there were seven with a copy
    // of f0 and a scratch product). With a constant load the same two products and one sum per entry as
    // before (bitwise); with a load factor (s lambda) f0 where it was s (lambda f0): one rounding.
    const double lambda = load_factor ? load_factor(t) : 1.0;
    multAffine(stiffness, x, s * lambda, -s, load, r);
  }
  if (damped() && c != 0) {
    BEAM_PETSC(MatMult(damping, y, work));
    BEAM_PETSC(VecAXPY(r, -c * s, work));
  }
}

double matrixMagnitude(Mat A) {
  PetscBool has_norm = PETSC_FALSE;
  BEAM_PETSC(MatHasOperation(A, MATOP_NORM, &has_norm));
  PetscReal norm = 0;
  if (has_norm) {
    BEAM_PETSC(MatNorm(A, NORM_INFINITY, &norm));
    return norm;
  }
  // A matrix-free one: |A p| for a probe p of entries 1 to 7 by index (no rigid motion to cancel in).
  PVec p, Ap;
  BEAM_PETSC(MatCreateVecs(A, p.out(), Ap.out()));
  PetscInt lo = 0, hi = 0;
  BEAM_PETSC(VecGetOwnershipRange(p, &lo, &hi));
  PetscScalar *v = nullptr;
  BEAM_PETSC(VecGetArray(p, &v));
  for (PetscInt i = lo; i < hi; ++i) v[i - lo] = 1 + i % 7;
  BEAM_PETSC(VecRestoreArray(p, &v));
  BEAM_PETSC(MatMult(A, p, Ap));
  BEAM_PETSC(VecNorm(Ap, NORM_INFINITY, &norm));
  return norm;
}

PMat SecondOrderSystem::combination(double a, double b, double c) const {
  PMat A;
  if (combine) {
    A = combine(a, b, c);
  } else {
    BEAM_PETSC(MatDuplicate(mass, MAT_COPY_VALUES, A.out()));
    if (a != 1) BEAM_PETSC(MatScale(A, a));
    if (b != 0 && damped()) BEAM_PETSC(MatAXPY(A, b, damping, DIFFERENT_NONZERO_PATTERN));
    if (c != 0) BEAM_PETSC(MatAXPY(A, c, stiffness, DIFFERENT_NONZERO_PATTERN));
  }
  // Coefficients from an enormous -dt (c = dt^2/4 = 2.5e307 at dt = 1e154) overflow the matrix: the
  // schemes that keep energy for every dt "diverged" at step 1 (exit 3), or on the matrix-free path ran
  // on with a beam that did not move (exit 0). Said as the input it is, where M, C and S are finite
  // themselves (an overflowing damping matrix is the damping's: addRayleighDamping).
  if (!std::isfinite(matrixMagnitude(A)) && std::isfinite(matrixMagnitude(mass)) &&
      (!damped() || std::isfinite(matrixMagnitude(damping))) && std::isfinite(matrixMagnitude(stiffness))) {
    char line[256];
    std::snprintf(line, sizeof line, "the step matrix a M + b C + c S overflows (a = %g, b = %g, c = %g, from -dt)", a, b, c);
    throw inputError(std::string(line) + "; accepted: a -dt for which it is finite");
  }
  if (a > 0 && b >= 0 && c >= 0) BEAM_PETSC(MatSetOption(A, MAT_SPD, PETSC_TRUE));
  return A;
}

LinearSolver SecondOrderSystem::massSolver(const std::string &prefix, LinearSolverKind kind) const {
  if (mass_inverse) return LinearSolver(mass, prefix, mass_inverse, true);
  return LinearSolver(mass, prefix, diagonal_mass ? LinearSolverKind::Diagonal : kind);
}

LinearSolver SecondOrderSystem::shiftedSolver(Mat A, const std::string &prefix, LinearSolverKind kind) const {
  if (!mass_inverse) return LinearSolver(A, prefix, kind);
  LinearSolver solver(A, prefix, mass_inverse, false);
  if (fused_solve) solver.overrideSolve(fused_solve(A));
  return solver;
}

} // namespace beam
