#include "solvers/AlmostExplicit.hpp"

namespace beam {

void AlmostExplicit::step(double, Vec x, Vec y) {
  rightHandSide(x, y, b_);
  BEAM_PETSC(VecAXPY(x, dt_, y)); // x uses the old y
  solver_->solve(b_, y);
}

} // namespace beam
