// Midpoint scheme (reference 003, "W pół kroku"), the trapezoidal rule on (x, y):
//   (M + dt^2/4 S) y_{n+1} = M y_n + dt (f - S (x_n + dt/4 y_n)),   x_{n+1} = x_n + dt (y_n + y_{n+1})/2.
// The lab's step order is x += dt/4 y; b = M y + dt (f - S x); x += dt/4 y; solve (M + dt^2/4 S) y = b;
// x += dt/2 y. Here in increment form (LabScheme.hpp): x += dt/2 y; (M + dt^2/4 S) D = dt (f - S x);
// y += D; x += dt/2 y, the same equations.
// Conserves E = 1/2 y'My + 1/2 x'Sx - f'x exactly (up to the linear solve) for every dt.
#pragma once
#include "solvers/LabScheme.hpp"

namespace beam {

class Midpoint final : public LabScheme {
public:
  void step(double t, Vec x, Vec y) override;
  std::string name() const override { return "midpoint"; }

protected:
  double stiffnessShift() const override { return 0.25; }
  double explicitDamping() const override { return 0.5; }
};

} // namespace beam
