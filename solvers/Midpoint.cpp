#include "solvers/Midpoint.hpp"

namespace beam {

void Midpoint::step(double, Vec x, Vec y) {
  BEAM_PETSC(VecAXPY(x, dt_ / 4, y));
  rightHandSide(x, y, b_);
  BEAM_PETSC(VecAXPY(x, dt_ / 4, y));
  solver_->solve(b_, y); // with M + dt^2/4 S
  BEAM_PETSC(VecAXPY(x, dt_ / 2, y));
}

} // namespace beam
