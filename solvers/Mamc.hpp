// Newmark's constant average acceleration in the incremental form of reference 000 ("Méthode
// Accélération Moyenne Constante", MAMC). Over a step the acceleration is taken constant and equal to
// (a_n + a_{n+1})/2, which gives the increments
//   dA = 4/h^2 dU - 4/h V_n - 2 A_n,   dV = 2/h dU - 2 V_n,
// and the difference of the equations of motion at t_{n+1} and t_n, M dA + C dV + K dU = dP, becomes
//   K* dU = P*,   K* = K + 4/h^2 M + 2/h C,   P* = dP + C* V_n + 2 M A_n,   C* = 2 C + 4/h M,
// solved once per step; then U += dU, V += dV, A += dA (reference 000, the MATLAB function MAMC).
// The reference starts from U = V = A = 0; here A_0 = M^{-1}(f(0) - C V_0 - K U_0), which is the same
// when the start is at rest under no load, and lets a run start anywhere.
// In exact arithmetic this is Newmark with beta = 1/4, gamma = 1/2 (-scheme newmark): both keep the
// equation of motion at every t_n, so their results agree to round-off.
#pragma once
#include <optional>

#include "solvers/StepContinuity.hpp"
#include "solvers/TimeScheme.hpp"

namespace beam {

class Mamc final : public TimeScheme {
public:
  void setup(const Model &model, const SchemeSettings &settings) override;
  void step(double t, Vec x, Vec y) override;
  // dU is the initial guess of an iterative K* solve: part of the state, so a restart stays bitwise.
  std::vector<Vec> history() override { return {a_.get(), du_.get()}; }
  bool continues(double t, Vec x, Vec y) const override { return continuity_.continues(t, x, y); }
  void resume(double t, Vec x, Vec y) override { continuity_.record(t, x, y); }
  std::string name() const override { return "mamc"; }
  Footprint footprint() const override { return {2, 2}; } // K*, C*; K* and M solved

private:
  const SecondOrderSystem *system_ = nullptr;
  double h_ = 0;
  PMat kstar_, cstar_; // K*, C*
  std::optional<LinearSolver> solver_, mass_solver_;
  PVec a_, dp_, du_, da_, dv_, w_;
  StepContinuity continuity_;
};

} // namespace beam
