// The generalized-alpha family for M x'' + C x' + S x = f(t): Newmark, HHT-alpha and Chung-Hulbert's
// generalized-alpha are one algorithm with four parameters (alpha_m, alpha_f, beta, gamma).
//
// Newmark's updates (reference 002, eq. (1) / (B.9); Newmark 1959):
//   x_{n+1} = x_n + h y_n + h^2 ((1/2 - beta) a_n + beta a_{n+1})
//   y_{n+1} = y_n + h ((1 - gamma) a_n + gamma a_{n+1})
// and the equation of motion at shifted levels (Chung & Hulbert 1993, J. Appl. Mech. 60:371-375):
//   M a_{n+1-am} + C y_{n+1-af} + S x_{n+1-af} = f_{n+1-af},   z_{n+1-a} = (1 - a) z_{n+1} + a z_n.
// The load is averaged like the other forces, f_{n+1-af} = (1 - af) f(t_{n+1}) + af f(t_n) (Chung and
// Hulbert evaluate f(t_{n+1-af}) instead; the two agree for loads linear in t and both keep second
// order). With af = 1/2 the average is the trapezoidal rule, so the undamped scheme balances energy
// with the trapezoidal work of solvers/Energy.hpp exactly, for any load.
// Unknown a_{n+1}: one solve per step with
//   A* = (1 - am) M + (1 - af) gamma h C + (1 - af) beta h^2 S,
// factored once in setup. a_0 = M^{-1}(f(0) - C y_0 - S x_0) (one solve with M, prefix `mass_`).
//
// Parameter choices (each rejects values outside its range instead of clamping):
//   newmark            am = af = 0; -newmark_beta (default 1/4, accepted >= 0), -newmark_gamma (default
//                      1/2, accepted >= 1/2). Second order iff gamma = 1/2; unconditionally stable for
//                      2 beta >= gamma >= 1/2, otherwise for h omega_max < 1/sqrt(gamma/2 - beta);
//                      beta = 0, gamma = 1/2 is the explicit central difference (needs h omega_max < 2).
//   hht                am = 0, af = -alpha, gamma = (1 - 2 alpha)/2, beta = (1 - alpha)^2 / 4 (Hilber,
//                      Hughes & Taylor 1977); -hht_alpha in [-1/3, 0], default -0.05; spectral radius at
//                      h omega -> infinity: (1 + alpha)/(1 - alpha).
//   generalized_alpha  am = (2 rho - 1)/(rho + 1), af = rho/(rho + 1), gamma = 1/2 - am + af,
//                      beta = (1 - am + af)^2 / 4 (Chung & Hulbert 1993: second order, and all three
//                      roots equal to -rho_inf at h omega -> infinity);
//                      -rho_inf in [0, 1], default 0.8: the spectral radius at h omega -> infinity.
#pragma once
#include <optional>

#include "solvers/StepContinuity.hpp"
#include "solvers/TimeScheme.hpp"

namespace beam {

struct GeneralizedAlphaParameters {
  double alpha_m = 0, alpha_f = 0, beta = 0.25, gamma = 0.5;
};

class GeneralizedAlpha : public TimeScheme {
public:
  // Fixed parameters (checked: alpha_m < 1, alpha_f < 1, beta >= 0, gamma >= 1/2).
  GeneralizedAlpha(std::string name, const GeneralizedAlphaParameters &p);

  // The parameter sets of the named schemes; each throws an input error outside its accepted range.
  static GeneralizedAlphaParameters newmark(double beta, double gamma);
  static GeneralizedAlphaParameters hht(double alpha);
  static GeneralizedAlphaParameters chungHulbert(double rho_inf);

  void setup(const Model &model, const SchemeSettings &settings) override;
  void step(double t, Vec x, Vec y) override;
  std::vector<Vec> history() override { return {a_.get()}; }
  bool continues(double t, Vec x, Vec y) const override { return continuity_.continues(t, x, y); }
  void resume(double t, Vec x, Vec y) override { continuity_.record(t, x, y); }
  std::string name() const override { return name_; }
  Footprint footprint() const override { return {1, 2}; } // lhs_; lhs_ and M (the initial acceleration) solved
  std::vector<std::pair<std::string, std::string>> identity() const override;
  std::string explainIdentity(const std::string &field, const std::string &then, const std::string &now) const override;
  const GeneralizedAlphaParameters &parameters() const { return p_; }

  // Options prefix of this instance: its parameters (-<prefix>newmark_beta) and its solvers
  // (<prefix>mass_, <prefix><name>_). "" by default. (To become SchemeSettings::options_prefix.)
  void setOptionsPrefix(const std::string &prefix) { prefix_ = prefix; }
  // The parameters its options give, as setup() will read them (the fixed ones for the base class).
  GeneralizedAlphaParameters optionParameters() const { return readParameters(prefix_); }

  // Continue from a full state (x, y, a) at time t instead of starting from equilibrium: the next
  // step(t, x, y) uses this a_n. For restarts and for measuring the amplification matrix.
  void startFrom(double t, Vec x, Vec y, Vec a);

protected:
  // The named variants read their options here, under `prefix` (called at the start of setup).
  virtual GeneralizedAlphaParameters readParameters(const std::string & /*prefix*/) const { return p_; }
  // A parameter's change in the named variant's option ("" for the base class: the field as it is).
  virtual std::string explainParameter(const std::string & /*field*/, double /*then*/, double /*now*/) const {
    return "";
  }
  static std::string optionChange(const char *option, double then, double now); // "<option> was .., now .."

private:
  std::string name_;
  std::string prefix_;
  GeneralizedAlphaParameters p_;
  const SecondOrderSystem *system_ = nullptr;
  double h_ = 0;
  PMat lhs_; // A*
  std::optional<LinearSolver> solver_, mass_solver_;
  PVec a_, f_, g_, xt_, yt_, w_, rhs_;
  StepContinuity continuity_;
};

// -scheme newmark
class Newmark final : public GeneralizedAlpha {
public:
  Newmark() : GeneralizedAlpha("newmark", newmark(0.25, 0.5)) {}

protected:
  GeneralizedAlphaParameters readParameters(const std::string &prefix) const override;
  std::string explainParameter(const std::string &field, double then, double now) const override;
};

// -scheme hht
class HhtAlpha final : public GeneralizedAlpha {
public:
  HhtAlpha() : GeneralizedAlpha("hht", hht(-0.05)) {}

protected:
  GeneralizedAlphaParameters readParameters(const std::string &prefix) const override;
  std::string explainParameter(const std::string &field, double then, double now) const override;
};

// -scheme generalized_alpha
class ChungHulbertAlpha final : public GeneralizedAlpha {
public:
  ChungHulbertAlpha() : GeneralizedAlpha("generalized_alpha", chungHulbert(0.8)) {}

protected:
  GeneralizedAlphaParameters readParameters(const std::string &prefix) const override;
  std::string explainParameter(const std::string &field, double then, double now) const override;
};

} // namespace beam
