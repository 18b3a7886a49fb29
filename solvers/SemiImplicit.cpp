#include "solvers/SemiImplicit.hpp"

namespace beam {

void SemiImplicit::step(double t, Vec x, Vec y) {
  rightHandSide(x, y, t, b_);
  solver_->solve(b_, y);
  BEAM_PETSC(VecAXPY(x, dt_, y)); // x uses the new y
}

} // namespace beam
