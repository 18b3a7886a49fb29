// Velocity Verlet (Swope, Andersen, Berens & Wilson 1982), beyond reference 004: second order,
// symplectic and time-reversible for position-dependent forces:
//   v_{n+1/2} = v_n + dt/2 a_n,   x_{n+1} = x_n + dt v_{n+1/2},
//   a_{n+1} = M^{-1} F(t_{n+1}, x_{n+1}, v_{n+1/2}),   v_{n+1} = v_{n+1/2} + dt/2 a_{n+1}.
// Velocity-dependent forces (dashpots, contact damping, the multibody J and Baumgarte terms) are taken
// at the half-step velocity, which keeps the scheme explicit; it is then first order in those terms.
// On an undamped linear oscillator it is the central difference: stable for dt omega_max < 2, energy
// error bounded (O(dt^2)), no drift.
// One acceleration per step: a_{n+1} is kept for the next step while the sequence continues
// (StepContinuity) and saved in checkpoints. Two where a model's afterStep moves the state (the
// multibody -projection): a_n is then recomputed at the projected state.
#pragma once
#include "solvers/StepContinuity.hpp"
#include "solvers/TimeScheme.hpp"

namespace beam {

class VelocityVerlet final : public TimeScheme {
public:
  void setup(const Model &model, const SchemeSettings &settings) override;
  void step(double t, Vec x, Vec v) override;
  std::string name() const override { return "verlet"; }
  std::vector<Vec> history() override { return {a_.get()}; }
  bool continues(double t, Vec x, Vec v) const override { return continuity_.continues(t, x, v); }
  void resume(double t, Vec x, Vec v) override { continuity_.record(t, x, v); }

private:
  const Model *model_ = nullptr;
  double dt_ = 0;
  PVec a_;
  StepContinuity continuity_;
};

} // namespace beam
