// Common part of the four schemes of the lab "Równania ruchu" (reference 003): all of them build the
// right-hand side b = M y_n + dt (f - S x) with some x, and solve one linear system per step.
#pragma once
#include <optional>

#include "solvers/TimeScheme.hpp"

namespace beam {

class LabScheme : public TimeScheme {
public:
  void setup(const SecondOrderSystem &system, const SchemeSettings &settings) override;

protected:
  // b = M y + dt (f - S x)
  void rightHandSide(Vec x, Vec y, Vec b) const;
  // The matrix each scheme solves with: M + c dt^2 S, c = shiftFactor() (0 gives M itself).
  virtual double shiftFactor() const = 0;

  const SecondOrderSystem *system_ = nullptr;
  double dt_ = 0;
  PMat shifted_;                     // M + c dt^2 S when c != 0
  std::optional<LinearSolver> solver_;
  PVec b_, r_;                       // work vectors
};

} // namespace beam
