// Almost explicit scheme (reference 003, "Schemat prawie jawny"):
//   M y_{n+1} = M y_n + dt (f - S x_n),   x_{n+1} = x_n + dt y_n.
// Step order as in the lab, in increment form (LabScheme.hpp): the impulse dt (f - S x); x += dt y;
// solve M D = impulse; y += D.
// Unstable for every dt on an undamped system: the energy of a mode of frequency w grows by the factor
// (1 + w^2 dt^2) per step (the amplification matrix has |lambda|^2 = 1 + w^2 dt^2).
#pragma once
#include "solvers/LabScheme.hpp"

namespace beam {

class AlmostExplicit final : public LabScheme {
public:
  void step(double t, Vec x, Vec y) override;
  std::string name() const override { return "almost_explicit"; }

protected:
  double stiffnessShift() const override { return 0.0; }
  double explicitDamping() const override { return 1.0; }
};

} // namespace beam
