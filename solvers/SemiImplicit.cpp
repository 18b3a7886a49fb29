#include "solvers/SemiImplicit.hpp"

namespace beam {

void SemiImplicit::step(double t, Vec x, Vec y) {
  impulse(x, y, t);
  addIncrement(y, false); // with M
  BEAM_PETSC(VecAXPY(x, dt_, y)); // x uses the new y
}

} // namespace beam
