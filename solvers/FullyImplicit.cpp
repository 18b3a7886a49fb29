#include "solvers/FullyImplicit.hpp"

namespace beam {

void FullyImplicit::step(double t, Vec x, Vec y) {
  rightHandSide(x, y, t + dt_, b_);
  solver_->solve(b_, y); // with M + dt^2 S
  BEAM_PETSC(VecAXPY(x, dt_, y));
}

} // namespace beam
