#include "solvers/FullyImplicit.hpp"

namespace beam {

void FullyImplicit::step(double, Vec x, Vec y) {
  rightHandSide(x, y, b_);
  solver_->solve(b_, y); // with M + dt^2 S
  BEAM_PETSC(VecAXPY(x, dt_, y));
}

} // namespace beam
