#include "solvers/AlmostExplicit.hpp"

namespace beam {

void AlmostExplicit::step(double t, Vec x, Vec y) {
  rightHandSide(x, y, t, b_);
  BEAM_PETSC(VecAXPY(x, dt_, y)); // x uses the old y
  solver_->solve(b_, y);
}

} // namespace beam
