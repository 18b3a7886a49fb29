#include "solvers/StepContinuity.hpp"

#include <algorithm>
#include <cmath>

namespace beam {

bool StepContinuity::continues(double t, Vec x, Vec y) const {
  if (!valid_) return false;
  // The time loop computes t = n dt while a scheme adds dt each step: allow round-off in t.
  if (std::abs(t - t_) > 1e-9 * std::max(1.0, std::abs(t))) return false;
  PetscBool same_x = PETSC_FALSE, same_y = PETSC_FALSE;
  BEAM_PETSC(VecEqual(x, x_, &same_x));
  if (!same_x) return false;
  BEAM_PETSC(VecEqual(y, y_, &same_y));
  return same_y == PETSC_TRUE;
}

void StepContinuity::record(double t, Vec x, Vec y) {
  if (!x_) x_ = duplicate(x);
  if (!y_) y_ = duplicate(y);
  BEAM_PETSC(VecCopy(x, x_));
  BEAM_PETSC(VecCopy(y, y_));
  t_ = t;
  valid_ = true;
}

} // namespace beam
