// Semi-implicit scheme (reference 003, "Schemat pół niejawny"):
//   M y_{n+1} = M y_n + dt (f - S x_n),   x_{n+1} = x_n + dt y_{n+1}.
// Step: solve M D = dt (f - S x); y += D; x += dt y (the increment form of LabScheme.hpp).
// Symplectic Euler: stable (bounded energy oscillation) for dt < 2 / w_max, growing above.
#pragma once
#include "solvers/LabScheme.hpp"

namespace beam {

class SemiImplicit final : public LabScheme {
public:
  void step(double t, Vec x, Vec y) override;
  std::string name() const override { return "semi_implicit"; }

protected:
  double stiffnessShift() const override { return 0.0; }
  double explicitDamping() const override { return 1.0; }
};

} // namespace beam
