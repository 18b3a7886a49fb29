// Central differences in the three-level form of reference 002, Annex B. With the centred differences
//   a_n = (x_{n+1} - 2 x_n + x_{n-1}) / h^2   (B.13),   y_n = (x_{n+1} - x_{n-1}) / (2h)   (B.14)
// the equation of motion at t_n, M a_n + C y_n + S x_n = f(t_n) (B.15), gives one solve per step
//   (M/h^2 + C/(2h)) x_{n+1} = f(t_n) - (S - 2M/h^2) x_n - (M/h^2 - C/(2h)) x_{n-1}    (B.16)
// with the matrix on the left factored once. A multistep scheme: it keeps x_{n-1}.
// Start-up (B.17-B.22): a_0 = M^{-1}(f(0) - C y_0 - S x_0) (B.17), and the fictitious level
//   x_{-1} = x_0 - h y_0 + h^2/2 a_0   (B.22; the paper's left-hand side reads q''_{-1}, a misprint)
// is what makes (B.13)-(B.14) at n = 0 reproduce y_0 and a_0 (B.20, B.21).
//
// The time loop wants y_{n+1} together with x_{n+1}. B.14 gives it only after x_{n+2} is known; writing
// x_{n+2} from (B.16) at n+1 and substituting into (B.14) yields the same value one step ahead:
//   (M/h^2 + C/(2h)) y_{n+1} = M (x_{n+1} - x_n)/h^3 + (f(t_{n+1}) - S x_{n+1})/(2h),
// a second solve with the same factorization. The recurrence itself uses only x (as B.16 is written).
//
// Stability: reference 002 eqs. (15)-(18) for one mode. On M, C, S the iteration matrix has an
// eigenvalue -1 exactly when det(4M/h^2 - S) = 0, whatever C is (put lambda = -1 in
// (M/h^2 + C/2h) lambda^2 + (S - 2M/h^2) lambda + (M/h^2 - C/2h): the C terms cancel), so the limit
// is h < 2/omega_max with omega_max^2 the largest eigenvalue of S phi = omega^2 M phi, with or without
// damping. Same as Newmark beta = 0, gamma = 1/2, of which this is the three-level form.
#pragma once
#include <optional>

#include "solvers/StepContinuity.hpp"
#include "solvers/TimeScheme.hpp"

namespace beam {

class CentralDifference final : public TimeScheme {
public:
  void setup(const Model &model, const SchemeSettings &settings) override;
  void step(double t, Vec x, Vec y) override;
  std::vector<Vec> history() override { return {x_prev_.get()}; }
  bool continues(double t, Vec x, Vec y) const override { return continuity_.continues(t, x, y); }
  void resume(double t, Vec x, Vec y) override { continuity_.record(t, x, y); }
  std::string name() const override { return "central_difference"; }
  Footprint footprint() const override { return {3, 2}; } // lhs_, r1_, r2_; lhs_ and M solved

private:
  const SecondOrderSystem *system_ = nullptr;
  double h_ = 0;
  PMat lhs_, r1_, r2_; // M/h^2 + C/(2h),  S - 2M/h^2,  M/h^2 - C/(2h)
  std::optional<LinearSolver> solver_, mass_solver_;
  PVec x_prev_, x_next_, rhs_, w_;
  StepContinuity continuity_;
};

} // namespace beam
