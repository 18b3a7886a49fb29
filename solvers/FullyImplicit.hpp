// Fully implicit scheme (reference 003, "Schemat niejawny"), backward Euler:
//   (M + dt^2 S) y_{n+1} = M y_n + dt (f - S x_n),   x_{n+1} = x_n + dt y_{n+1}.
// Unconditionally stable; the energy of a mode decays by 1/(1 + w^2 dt^2) per step.
#pragma once
#include "solvers/LabScheme.hpp"

namespace beam {

class FullyImplicit final : public LabScheme {
public:
  void step(double t, Vec x, Vec y) override;
  std::string name() const override { return "fully_implicit"; }
  // y_n - y_{n-1}, the start of the next iterative solve.
  std::vector<Vec> history() override { return {increment_.get()}; }

protected:
  double stiffnessShift() const override { return 1.0; }
  double explicitDamping() const override { return 0.0; }
};

} // namespace beam
