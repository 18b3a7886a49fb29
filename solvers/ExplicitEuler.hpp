// The explicit Euler family for M(x) x'' = F(t, x, v), written with the model's accelerations alone, so
// it serves every model. With a_n = M^{-1} F(t_n, x_n, v_n):
//   explicit_euler, semi_implicit_euler (reference 004, section 2, "Euler explicite"):
//       v_{n+1} = v_n + dt a_n,   x_{n+1} = x_n + dt v_{n+1}
//     The new velocity moves the point: this is in fact the semi-implicit (symplectic) Euler method,
//     first order, stable for dt omega_max < 2 on undamped springs and with bounded energy error there.
//     `semi_implicit_euler` is the same method under the name the multibody literature uses.
//   forward_euler (the truly explicit one):
//       x_{n+1} = x_n + dt v_n,   v_{n+1} = v_n + dt a_n
//     first order, unstable on every undamped oscillation (|amplification| = sqrt(1 + omega^2 dt^2)).
#pragma once
#include "solvers/TimeScheme.hpp"

namespace beam {

class ExplicitEuler final : public TimeScheme {
public:
  // symplectic: the new velocity moves the point (explicit_euler); otherwise the old one (forward_euler).
  ExplicitEuler(std::string name, bool symplectic) : name_(std::move(name)), symplectic_(symplectic) {}
  void setup(const Model &model, const SchemeSettings &settings) override;
  void step(double t, Vec x, Vec v) override;
  std::string name() const override { return name_; }
  // a_n is only the initial guess of an iterative mass solve, but a restart without it was not bitwise.
  std::vector<Vec> history() override { return {a_.get()}; }

private:
  std::string name_;
  bool symplectic_;
  const Model *model_ = nullptr;
  double dt_ = 0;
  PVec a_; // a_n; also the initial guess of an iterative mass solve
};

} // namespace beam
