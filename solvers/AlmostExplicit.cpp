#include "solvers/AlmostExplicit.hpp"

namespace beam {

void AlmostExplicit::step(double t, Vec x, Vec y) {
  impulse(x, y, t);
  BEAM_PETSC(VecAXPY(x, dt_, y)); // x uses the old y
  addIncrement(y, false); // with M
}

} // namespace beam
