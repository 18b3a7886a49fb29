// Test helper: a PETSc vector's local values as an Eigen vector (tests compare against dense Eigen
// computations).
#pragma once
#include <Eigen/Dense>

#include "common/Petsc.hpp"

namespace beam {

inline Eigen::VectorXd toEigen(Vec v) {
  PetscInt n;
  BEAM_PETSC(VecGetLocalSize(v, &n));
  const PetscScalar *a;
  BEAM_PETSC(VecGetArrayRead(v, &a));
  Eigen::VectorXd out(n);
  for (PetscInt i = 0; i < n; ++i) out(i) = PetscRealPart(a[i]);
  BEAM_PETSC(VecRestoreArrayRead(v, &a));
  return out;
}

} // namespace beam
