#include "solvers/Midpoint.hpp"

namespace beam {

void Midpoint::step(double t, Vec x, Vec y) {
  BEAM_PETSC(VecAXPY(x, dt_ / 4, y));
  rightHandSide(x, y, t + dt_ / 2, b_);
  BEAM_PETSC(VecAXPY(x, dt_ / 4, y));
  solver_->solve(b_, y); // with M + dt^2/4 S
  BEAM_PETSC(VecAXPY(x, dt_ / 2, y));
}

} // namespace beam
