#include "solvers/GeneralizedAlpha.hpp"
#include "common/Exact.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "solvers/SchemeOptions.hpp"

namespace beam {

GeneralizedAlpha::GeneralizedAlpha(std::string name, const GeneralizedAlphaParameters &p)
    : name_(std::move(name)), p_(p) {
  // alpha_m, alpha_f < 1 keep A* positive definite; gamma >= 1/2 and beta >= 0 are the range in which
  // the family is stable at all (gamma < 1/2 amplifies every mode).
  if (!(p.alpha_m < 1 && p.alpha_f < 1 && p.beta >= 0 && p.gamma >= 0.5))
    throw inputError(name_ + ": parameters out of range; accepted: alpha_m < 1, alpha_f < 1, beta >= 0, gamma >= 1/2");
}

namespace {
// The step forms beta a_{n+1} + (1/2 - beta) a_n and gamma a_{n+1} + (1 - gamma) a_n: with beta or gamma
// of 1e6 the cancellation loses 1e6 eps = 2e-10 of the acceleration, so above it the recurrence is
// round-off's (beta 3e15 gave the stability lab a finite critical step, 1e18 zero, 1e22 infinity).
constexpr double newmark_parameter_max = 1e6;
} // namespace

GeneralizedAlphaParameters GeneralizedAlpha::newmark(double beta, double gamma) {
  if (!(gamma >= 0.5 && gamma <= newmark_parameter_max))
    throw inputError("-newmark_gamma: " + exactDecimal(gamma) + " is out of range; accepted: a real in [1/2, 1e6]");
  if (!(beta >= 0 && beta <= newmark_parameter_max))
    throw inputError("-newmark_beta: " + exactDecimal(beta) + " is out of range; accepted: a real in [0, 1e6]");
  return {0.0, 0.0, beta, gamma};
}

GeneralizedAlphaParameters GeneralizedAlpha::hht(double alpha) {
  if (!(alpha >= -1.0 / 3 && alpha <= 0))
    throw inputError("-hht_alpha: " + std::to_string(alpha) + " is out of range; accepted: a real in [-1/3, 0]");
  return {0.0, -alpha, 0.25 * (1 - alpha) * (1 - alpha), 0.5 - alpha};
}

GeneralizedAlphaParameters GeneralizedAlpha::chungHulbert(double rho) {
  if (!(rho >= 0 && rho <= 1))
    throw inputError("-rho_inf: " + std::to_string(rho) + " is out of range; accepted: a real in [0, 1]");
  const double am = (2 * rho - 1) / (rho + 1), af = rho / (rho + 1);
  return {am, af, 0.25 * (1 - am + af) * (1 - am + af), 0.5 - am + af};
}

GeneralizedAlphaParameters Newmark::readParameters(const std::string &prefix) const {
  // Bounds as documented; newmark() repeats the check for programmatic use.
  double beta = 0.25, gamma = 0.5;
  readSchemeParameters("newmark", prefix, [&](OptionReader &r) {
    beta = r.real("-newmark_beta", "Newmark beta", beta,
                  Bounds::between(0, newmark_parameter_max, "a real in [0, 1e6] (0.25: average acceleration)"));
    gamma = r.real("-newmark_gamma", "Newmark gamma", gamma,
                   Bounds::between(0.5, newmark_parameter_max, "a real in [1/2, 1e6] (1/2: second order)"));
  });
  return newmark(beta, gamma);
}

GeneralizedAlphaParameters HhtAlpha::readParameters(const std::string &prefix) const {
  double alpha = -0.05;
  readSchemeParameters("hht", prefix, [&](OptionReader &r) {
    alpha = r.real("-hht_alpha", "HHT alpha", alpha, Bounds::between(-1.0 / 3, 0, "a real in [-1/3, 0]"));
  });
  return hht(alpha);
}

GeneralizedAlphaParameters ChungHulbertAlpha::readParameters(const std::string &prefix) const {
  double rho = 0.8;
  readSchemeParameters("generalized_alpha", prefix, [&](OptionReader &r) {
    rho = r.real("-rho_inf", "Spectral radius at infinite frequency", rho, Bounds::between(0, 1, "a real in [0, 1]"));
  });
  return chungHulbert(rho);
}

std::vector<std::pair<std::string, std::string>> GeneralizedAlpha::identity() const {
  return {{"alpha_m", exactDecimal(p_.alpha_m)}, {"alpha_f", exactDecimal(p_.alpha_f)}, {"beta", exactDecimal(p_.beta)}, {"gamma", exactDecimal(p_.gamma)}};
}

namespace {
// rho recomputed from alpha_m (0.8 came back as 0.80000000000000004): 15 digits, as given.
double roundTo15(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.15g", v);
  return std::strtod(text, nullptr);
}
} // namespace

std::string GeneralizedAlpha::explainIdentity(const std::string &field, const std::string &then,
                                              const std::string &now) const {
  // The identity holds the four parameters; the user set an option of the named variant: it words it.
  char *end = nullptr;
  const double a = std::strtod(then.c_str(), &end), b = std::strtod(now.c_str(), nullptr);
  return end == then.c_str() ? "" : explainParameter(field, a, b);
}

std::string GeneralizedAlpha::optionChange(const char *option, double then, double now) {
  return std::string(option) + " was " + exactDecimal(then) + ", now " + exactDecimal(now); // -0 is 0
}

std::string Newmark::explainParameter(const std::string &field, double then, double now) const {
  if (field == "beta") return optionChange("-newmark_beta", then, now);
  if (field == "gamma") return optionChange("-newmark_gamma", then, now);
  return "";
}

std::string HhtAlpha::explainParameter(const std::string &field, double then, double now) const {
  return field == "alpha_f" ? optionChange("-hht_alpha", -then, -now) : ""; // alpha_f = -alpha
}

std::string ChungHulbertAlpha::explainParameter(const std::string &field, double then, double now) const {
  // alpha_m = (2 rho - 1)/(rho + 1) differs first when rho does.
  auto rho = [](double am) { return roundTo15((1 + am) / (2 - am)); };
  return field == "alpha_m" ? optionChange("-rho_inf", rho(then), rho(now)) : "";
}

void GeneralizedAlpha::setup(const Model &model, const SchemeSettings &settings) {
  const SecondOrderSystem &system = requireLinear(model, name());
  if (!(settings.dt > 0)) throw inputError("time step dt must be > 0");
  if (!settings.options_prefix.empty()) prefix_ = settings.options_prefix; // this instance's own options
  p_ = readParameters(prefix_);
  system_ = &system;
  h_ = settings.dt;
  const double h = h_, af = p_.alpha_f;
  lhs_ = system.combination(1 - p_.alpha_m, (1 - af) * p_.gamma * h, (1 - af) * p_.beta * h * h);
  solver_.emplace(system.shiftedSolver(lhs_, prefix_ + name_ + "_", settings.solver));
  mass_solver_.emplace(system.massSolver(prefix_ + "mass_", settings.solver));
  for (PVec *v : {&a_, &f_, &g_, &xt_, &yt_, &w_, &rhs_}) *v = system.createVector();
  BEAM_PETSC(VecSet(a_, 0.0));
  continuity_.reset();
}

void GeneralizedAlpha::startFrom(double t, Vec x, Vec y, Vec a) {
  if (!system_) throw runError(name_ + ": startFrom() before setup()");
  BEAM_PETSC(VecCopy(a, a_));
  continuity_.record(t, x, y);
}

void GeneralizedAlpha::step(double t, Vec x, Vec y) {
  const SecondOrderSystem &sys = *system_;
  const double h = h_, am = p_.alpha_m, af = p_.alpha_f, beta = p_.beta, gamma = p_.gamma;
  if (!continuity_.continues(t, x, y)) {
    // A new start: a_n from the equation of motion at t, M a = f - C y - S x.
    sys.netForce(t, x, y, 1.0, rhs_, w_);
    mass_solver_->solve(rhs_, a_);
  }
  // Predictors: the Newmark updates without their a_{n+1} terms.
  BEAM_PETSC(VecWAXPY(xt_, h, y, x));
  BEAM_PETSC(VecAXPY(xt_, h * h * (0.5 - beta), a_));
  BEAM_PETSC(VecWAXPY(yt_, h * (1 - gamma), a_, y));
  // rhs = f_{n+1-af} - am M a_n - C y~ - S x~, with z~ = (1 - af) z_pred + af z_n.
  sys.force(t + h, rhs_);
  if (af != 0) {
    BEAM_PETSC(VecScale(rhs_, 1 - af));
    sys.force(t, f_);
    BEAM_PETSC(VecAXPY(rhs_, af, f_));
  }
  if (am != 0) {
    BEAM_PETSC(MatMult(sys.mass, a_, w_));
    BEAM_PETSC(VecAXPY(rhs_, -am, w_));
  }
  if (sys.damped()) {
    BEAM_PETSC(VecAXPBYPCZ(g_, 1 - af, af, 0.0, yt_, y));
    BEAM_PETSC(MatMult(sys.damping, g_, w_));
    BEAM_PETSC(VecAXPY(rhs_, -1.0, w_));
  }
  BEAM_PETSC(VecAXPBYPCZ(g_, 1 - af, af, 0.0, xt_, x));
  BEAM_PETSC(MatMult(sys.stiffness, g_, w_));
  BEAM_PETSC(VecAXPY(rhs_, -1.0, w_));
  // A* a_{n+1} = rhs (a_n is the initial guess of an iterative solver).
  BEAM_PETSC(VecCopy(a_, g_));
  solver_->solve(rhs_, g_);
  BEAM_PETSC(VecWAXPY(x, beta * h * h, g_, xt_));
  BEAM_PETSC(VecWAXPY(y, gamma * h, g_, yt_));
  BEAM_PETSC(VecCopy(g_, a_));
  continuity_.record(t + h, x, y);
}

} // namespace beam
