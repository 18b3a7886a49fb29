// The classical fourth-order Runge-Kutta method (reference 002, Annex C) on the first-order form of
// M x'' + C x' + S x = f(t):
//   z = (x, y),   z' = F(t, z) = (y, M^{-1}(f(t) - C y - S x)),
//   k1 = h F(t_n, z_n),  k2 = h F(t_n + h/2, z_n + k1/2),  k3 = h F(t_n + h/2, z_n + k2/2),
//   k4 = h F(t_n + h, z_n + k3),   z_{n+1} = z_n + (k1 + 2 k2 + 2 k3 + k4)/6
// ((C.2) prints the weight as 1/2; the method, and its order 4, need 1/6).
// Written with the model's accelerations alone, so it serves every model (a linear model answers with
// one solve with M, prefix `mass_`, factored once: four per step). Explicit: on an undamped mode it is stable
// for h omega < 2 sqrt(2) and slowly loses energy below that.
#pragma once
#include <optional>

#include "solvers/TimeScheme.hpp"

namespace beam {

class Rk4 final : public TimeScheme {
public:
  void setup(const Model &model, const SchemeSettings &settings) override;
  void step(double t, Vec x, Vec y) override;
  std::string name() const override { return "rk4"; }
  // The last stage's acceleration: only the initial guess of an iterative mass solve, but a restart
  // without it was not bitwise (discrete_system -linear_solver cg).
  std::vector<Vec> history() override { return {a_.get()}; }

private:
  // (dx, dy) = h F(t, (x, y))
  void slope(double t, Vec x, Vec y, Vec dx, Vec dy);

  const Model *model_ = nullptr;
  double h_ = 0;
  PVec kx_[4], ky_[4], xs_, ys_, a_; // a_: the last stage's acceleration (the next solve's guess)
};

} // namespace beam
