#include "solvers/Midpoint.hpp"

namespace beam {

void Midpoint::step(double t, Vec x, Vec y) {
  BEAM_PETSC(VecAXPY(x, dt_ / 2, y)); // xs = x_n + dt/4 y_n + c dt y_n, c = 1/4
  impulse(x, y, t + dt_ / 2);
  addIncrement(y, false); // with M + dt^2/4 S
  BEAM_PETSC(VecAXPY(x, dt_ / 2, y));
}

} // namespace beam
