#include "solvers/Dynamics.hpp"

#include <algorithm>

namespace beam {

void Dynamics::run(const char *scheme_name, int n, double *x, double *y, double T, double dt) {
  PVec xv = system_.createVector(), yv = system_.createVector();
  PetscInt local;
  BEAM_PETSC(VecGetLocalSize(xv, &local));
  if (n != local)
    throw inputError("Dynamics: n = " + std::to_string(n) + " does not match the " + std::to_string(local) +
                     " DOFs this rank owns");
  PetscScalar *a;
  BEAM_PETSC(VecGetArray(xv, &a));
  std::copy(x, x + n, a);
  BEAM_PETSC(VecRestoreArray(xv, &a));
  BEAM_PETSC(VecGetArray(yv, &a));
  std::copy(y, y + n, a);
  BEAM_PETSC(VecRestoreArray(yv, &a));

  const auto scheme = makeScheme(scheme_name);
  RunSettings settings;
  settings.T = T;
  settings.dt = dt;
  settings.solver = solver_;
  last_ = integrate(*scheme, system_, xv, yv, settings, monitors_);

  const PetscScalar *c;
  BEAM_PETSC(VecGetArrayRead(xv, &c));
  std::copy(c, c + n, x);
  BEAM_PETSC(VecRestoreArrayRead(xv, &c));
  BEAM_PETSC(VecGetArrayRead(yv, &c));
  std::copy(c, c + n, y);
  BEAM_PETSC(VecRestoreArrayRead(yv, &c));
}

} // namespace beam
