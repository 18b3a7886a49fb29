// The Newmark family (newmark, hht, generalized_alpha), mamc, central_difference and rk4, and the lab
// schemes, on damped and loaded discrete systems:
//   - observed order of accuracy of every scheme against the exact solution of a damped, harmonically
//     loaded 3-DOF system (matrix exponential of the first-order form) -- one table row per scheme;
//   - mamc (reference 000's incremental form) equals newmark(1/4, 1/2) to round-off;
//   - energy-conserving schemes balance energy (E = K + P - W) to round-off, with loads in time;
//   - central differences: stable just below 2/omega_max and unstable just above, damped or not, and the
//     limit of the three-level amplification matrix equals 2/omega_max with damping too;
//   - HHT and generalized-alpha spectral radius at Omega -> infinity equal to their parameters;
//   - the 2-DOF example of reference 002 reaches its static limit (0.26, 0.42) with every scheme;
//   - scheme options read strictly, out-of-range parameters rejected with exit code 2;
//   - Rayleigh damping of the beam is alpha M + beta S on free DOFs and zero at frozen ones;
//   - the drift's scale is the larger of |E0| and the model's reference energy, itself 1/2 f'S^-1 f;
//   - each lab and explicit scheme's steps equal its equations written in scalars, with a load that
//     changes within a step (the load's time level);
//   - a damped run's energy balance error falls as dt^2 (trapezoidal work and dissipation).
#include <gtest/gtest.h>

#include "tests/ScopedOptions.hpp"
#include "tests/EigenBridge.hpp"
#include "tests/ScalarSteps.hpp"

#include <Eigen/Dense>
#include <unsupported/Eigen/MatrixFunctions>

#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "labs/BeamLab.hpp"
#include "DiscreteSystem/DiscreteSystem.hpp"
#include "solvers/CentralDifference.hpp"
#include "solvers/GeneralizedAlpha.hpp"
#include "solvers/LinearModel.hpp"
#include "solvers/StepContinuity.hpp"
#include "solvers/TimeLoop.hpp"

using namespace beam;
using beam::testing_helpers::forwardEulerStep;
using beam::testing_helpers::ScalarStep;
using beam::testing_helpers::symplecticEulerStep;

namespace {

using Sparse = Eigen::SparseMatrix<double>;


Sparse sparse(const Eigen::MatrixXd &A) { return A.sparseView(); }

// A 3-DOF chain with non-proportional damping, a harmonic load and a non-zero initial state.
constexpr double kOmegaLoad = 1.3;
DiscreteModel threeDof(bool damped, bool loaded) {
  DiscreteModel m;
  m.name = "three_dof";
  Eigen::MatrixXd M = Eigen::Vector3d(1.0, 2.0, 1.5).asDiagonal();
  Eigen::MatrixXd K(3, 3), C(3, 3);
  K << 7, -3, 0, -3, 8, -5, 0, -5, 7;
  C << 0.4, -0.3, 0, -0.3, 0.35, -0.05, 0, -0.05, 0.25;
  m.M = sparse(M);
  m.K = sparse(K);
  m.C = damped ? sparse(C) : Sparse(3, 3);
  m.F = loaded ? Eigen::Vector3d(1.0, 0.0, -0.5) : Eigen::Vector3d::Zero();
  if (loaded) m.load_factor = [](double t) { return std::sin(kOmegaLoad * t); };
  m.q0 = Eigen::Vector3d(0.1, -0.2, 0.05);
  m.v0 = Eigen::Vector3d(0.0, 0.3, -0.1);
  return m;
}

// Exact (x, v) at T: the first-order form augmented with (sin, cos) of the load, z' = A z, z = e^{AT} z0.
std::pair<Eigen::VectorXd, Eigen::VectorXd> exactSolution(const DiscreteModel &m, double T) {
  const Eigen::MatrixXd M(m.M), K(m.K), C(m.C);
  const Eigen::Index n = M.rows();
  Eigen::MatrixXd A = Eigen::MatrixXd::Zero(2 * n + 2, 2 * n + 2);
  const Eigen::MatrixXd Minv = M.inverse();
  A.block(0, n, n, n).setIdentity();
  A.block(n, 0, n, n) = -Minv * K;
  A.block(n, n, n, n) = -Minv * C;
  A.block(n, 2 * n, n, 1) = Minv * m.F; // f = F sin(w t)
  A(2 * n, 2 * n + 1) = kOmegaLoad;      // s' = w c
  A(2 * n + 1, 2 * n) = -kOmegaLoad;     // c' = -w s
  Eigen::VectorXd z0(2 * n + 2);
  z0 << m.q0, m.v0, 0.0, 1.0;
  const Eigen::VectorXd z = (A * T).exp() * z0;
  return {z.head(n), z.segment(n, n)};
}

struct SchemeRun {
  RunResult result;
  Eigen::VectorXd x, y;
  std::vector<EnergyTerms> energy;
};

struct History final : Monitor {
  void observe(const StepState &s) override { energy.push_back(s.energy); }
  std::vector<EnergyTerms> energy;
};

SchemeRun run(const std::string &scheme_name, const DiscreteModel &model, double dt, double T,
        double divergence_factor = std::numeric_limits<double>::infinity()) {
  const SecondOrderSystem sys = toSecondOrderSystem(model, PETSC_COMM_SELF);
  PVec x = toPetscVector(sys, model.q0), y = toPetscVector(sys, model.v0);
  const auto scheme = makeScheme(scheme_name);
  RunSettings settings;
  settings.dt = dt;
  settings.T = T;
  settings.divergence_factor = divergence_factor;
  History h;
  SchemeRun r;
  r.result = integrate(*scheme, sys, x, y, settings, {&h});
  r.x = toEigen(x);
  r.y = toEigen(y);
  r.energy = h.energy;
  return r;
}

// Observed order of accuracy: log2 of the error ratio between dt and dt/2.
struct OrderRow {
  const char *scheme;
  const char *options;
  double order;
};

// One row per scheme (plus parameter variants). The lab schemes are first order except midpoint (the
// trapezoidal rule with C and f at mid-step, second order); Newmark with gamma > 1/2 drops to first
// order; every generalized-alpha member with its standard gamma is second order; RK4 is fourth order.
const std::vector<OrderRow> kOrders = {
    {"almost_explicit", "", 1},
    {"semi_implicit", "", 1},
    {"fully_implicit", "", 1},
    {"midpoint", "", 2},
    {"newmark", "", 2},
    {"newmark", "-newmark_beta 0 -newmark_gamma 0.5", 2},
    {"newmark", "-newmark_beta 0.3025 -newmark_gamma 0.6", 1},
    {"mamc", "", 2},
    {"central_difference", "", 2},
    {"rk4", "", 4},
    {"hht", "", 2},
    {"hht", "-hht_alpha -0.3333333333333333", 2},
    {"generalized_alpha", "", 2},
    {"generalized_alpha", "-rho_inf 0", 2},
    // The schemes for every model, here on the linear model. Verlet takes the damping at the half-step
    // velocity (explicit), an O(dt^2) local error in v: first order on this damped system (second undamped).
    {"explicit_euler", "", 1},
    {"semi_implicit_euler", "", 1},
    {"forward_euler", "", 1},
    {"verlet", "", 1},
    {"implicit_euler", "", 1},
    {"implicit_midpoint", "", 2},
};

} // namespace

TEST(DampedSchemes, EverySchemeHasATableRow) {
  for (const auto &name : schemeNames()) {
    bool found = false;
    for (const auto &row : kOrders) found = found || name == row.scheme;
    EXPECT_TRUE(found) << name << " has no row in the convergence table";
  }
}

TEST(DampedSchemes, ObservedOrderOfAccuracy) {
  const DiscreteModel model = threeDof(true, true);
  const double T = 2.0;
  const auto [xe, ye] = exactSolution(model, T);
  for (const auto &row : kOrders) {
    const ScopedOptions options(row.options);
    std::vector<double> errors;
    for (double dt : {0.02, 0.01, 0.005}) {
      const SchemeRun r = run(row.scheme, model, dt, T);
      ASSERT_FALSE(r.result.diverged) << row.scheme;
      errors.push_back(std::max((r.x - xe).lpNorm<Eigen::Infinity>(), (r.y - ye).lpNorm<Eigen::Infinity>()));
    }
    const double p1 = std::log2(errors[0] / errors[1]), p2 = std::log2(errors[1] / errors[2]);
    EXPECT_NEAR(p2, row.order, 0.15) << row.scheme << " " << row.options << ": errors " << errors[0] << ", "
                                     << errors[1] << ", " << errors[2] << " (orders " << p1 << ", " << p2 << ")";
  }
}

// Reference 000's incremental form and Newmark's acceleration form are the same scheme.
TEST(DampedSchemes, MamcEqualsNewmarkAverageAcceleration) {
  const DiscreteModel model = threeDof(true, true);
  const SchemeRun a = run("mamc", model, 0.05, 25), b = run("newmark", model, 0.05, 25);
  const double scale = b.x.lpNorm<Eigen::Infinity>() + b.y.lpNorm<Eigen::Infinity>();
  EXPECT_LE((a.x - b.x).lpNorm<Eigen::Infinity>(), 1e-12 * scale);
  EXPECT_LE((a.y - b.y).lpNorm<Eigen::Infinity>(), 1e-12 * scale);
  for (size_t n = 0; n < a.energy.size(); n += 50)
    EXPECT_NEAR(a.energy[n].total(), b.energy[n].total(), 1e-12) << "step " << n;
}

// Undamped: the average-acceleration members keep E = K + P - W exactly (trapezoidal work, any load);
// the lab midpoint needs a load linear in time over each step (it evaluates f at mid-step).
TEST(DampedSchemes, EnergyConservingSchemesBalanceToRoundoff) {
  struct Row {
    const char *scheme, *options;
    bool harmonic;
  };
  const std::vector<Row> rows = {{"newmark", "", true},
                                 {"mamc", "", true},
                                 {"hht", "-hht_alpha 0", true},
                                 {"generalized_alpha", "-rho_inf 1", true},
                                 {"newmark", "", false},
                                 {"midpoint", "", false},
                                 {"implicit_midpoint", "", false}};
  for (const auto &row : rows) {
    const ScopedOptions options(row.options);
    DiscreteModel model = threeDof(false, true);
    if (!row.harmonic) model.load_factor = nullptr; // constant load
    const SchemeRun r = run(row.scheme, model, 0.1, 100); // omega_max dt ~ 0.36, 1000 steps
    double worst = 0, scale = 0;
    for (const auto &e : r.energy) {
      worst = std::max(worst, std::abs(e.balance_error));
      scale = std::max({scale, e.kinetic, e.potential, std::abs(e.work)});
    }
    EXPECT_LE(worst, 1e-12 * scale) << row.scheme << " " << row.options << (row.harmonic ? " harmonic" : " constant");
    EXPECT_GT(scale, 0.01);
  }
}

// One DOF, damped, under a load that changes much within a step (cos 3t at dt = 0.1): every lab scheme
// and explicit scheme against its step written out in scalars from its equations (reference 003's four
// schemes with damping at the time level of the other forces, solvers/LabScheme.hpp; reference 004's
// Euler variants; velocity Verlet), 10 steps, to round-off. A load taken at the wrong time level keeps a
// scheme's order, so the order table cannot see it (fully_implicit and verlet at t_n passed every test).
TEST(DampedSchemes, SchemesTakeTheLoadAtTheirTimeLevel) {
  constexpr double m = 2, c = 0.3, k = 5, F = 1.5, dt = 0.1;
  const auto f = [](double t) { return F * std::cos(3 * t); };
  const auto a = [&](double t, double x, double v) { return (f(t) - k * x - c * v) / m; };
  DiscreteModel model;
  model.name = "one_dof";
  model.M = sparse(Eigen::MatrixXd::Constant(1, 1, m));
  model.K = sparse(Eigen::MatrixXd::Constant(1, 1, k));
  model.C = sparse(Eigen::MatrixXd::Constant(1, 1, c));
  model.F = Eigen::VectorXd::Constant(1, F);
  model.load_factor = [](double t) { return std::cos(3 * t); };
  model.q0 = Eigen::VectorXd::Constant(1, 0.1);
  model.v0 = Eigen::VectorXd::Constant(1, -0.2);
  const std::vector<std::pair<const char *, ScalarStep>> rows = {
      {"almost_explicit", forwardEulerStep(a, dt)},
      {"semi_implicit", symplecticEulerStep(a, dt)},
      {"explicit_euler", symplecticEulerStep(a, dt)},
      {"forward_euler", forwardEulerStep(a, dt)},
      // m (v1 - v) = dt (f(t + dt) - c v1 - k x1), x1 = x + dt v1
      {"fully_implicit", [&](double t, double &x, double &v) {
         const double v1 = (m * v + dt * (f(t + dt) - k * x)) / (m + dt * c + dt * dt * k);
         x += dt * v1;
         v = v1;
       }},
      // m (v1 - v) = dt (f(t + dt/2) - c (v + v1)/2 - k (x + x1)/2), x1 = x + dt (v + v1)/2
      {"midpoint", [&](double t, double &x, double &v) {
         const double v1 = (m * v + dt * (f(t + dt / 2) - c * v / 2 - k * (x + dt * v / 4))) /
                           (m + dt * c / 2 + dt * dt * k / 4);
         x += dt * (v + v1) / 2;
         v = v1;
       }},
      // half kick, drift, half kick with the acceleration at t + dt, taken at the half-step velocity and
      // kept for the next step's first half kick (computed at t only at the start)
      {"verlet", [&, acceleration = 0.0](double t, double &x, double &v) mutable {
         if (t == 0) acceleration = a(t, x, v);
         const double half = v + dt / 2 * acceleration;
         x += dt * half;
         acceleration = a(t + dt, x, half);
         v = half + dt / 2 * acceleration;
       }},
  };
  for (const auto &[name, step] : rows) {
    double x = 0.1, v = -0.2;
    for (int n = 0; n < 10; ++n) step(n * dt, x, v);
    const SchemeRun r = run(name, model, dt, 10 * dt);
    EXPECT_NEAR(r.x(0), x, 1e-13) << name;
    EXPECT_NEAR(r.y(0), v, 1e-13) << name;
  }
}

// Damped and loaded: E = K + P - W + D with the work W and the dissipated energy D by the trapezoidal
// rule, each an O(dt^2) quadrature error over [0, T]; rk4's own error is O(dt^4) and newmark's balance
// defect (dt/4 per step of (dv)'C(dv), dv = O(dt)) is O(dt^2): the balance error at T falls as dt^2. A
// rectangle rule for D (an O(dt) error) passed every other test.
TEST(DampedSchemes, EnergyBalanceOfADampedRunIsSecondOrder) {
  const DiscreteModel model = threeDof(true, true);
  for (const char *scheme : {"rk4", "newmark"}) {
    std::vector<double> errors;
    for (double dt : {0.02, 0.01, 0.005}) {
      const SchemeRun r = run(scheme, model, dt, 2.0);
      ASSERT_FALSE(r.energy.empty());
      EXPECT_GT(r.energy.back().dissipated, 0.01) << scheme; // the dissipation is not negligible
      errors.push_back(std::abs(r.energy.back().balance_error));
    }
    const double p = std::log2(errors[1] / errors[2]);
    EXPECT_NEAR(p, 2.0, 0.15) << scheme << ": balance errors " << errors[0] << ", " << errors[1] << ", " << errors[2];
  }
}

// README, "The verdict": scale = max(|E0|, the model's reference energy), 1 when both are 0 (the sum
// passed every other test).
TEST(DampedSchemes, DriftScaleIsTheLargerOfInitialAndReferenceEnergy) {
  EXPECT_EQ(driftScale(3, 5), 5);
  EXPECT_EQ(driftScale(-7, 5), 7);
  EXPECT_EQ(driftScale(0, 0), 1);
  EXPECT_EQ(modelDriftScale(0, 0), 0);
  EXPECT_EQ(modelDriftScale(-2, 0.5), 2);
}

// The reference energy of a loaded linear system: the static solution's 1/2 f'S^-1 f (times max|g|^2 for
// f = F g(t)), by the direct and the iterative solve.
TEST(DampedSchemes, StaticComplianceIsHalfFTimesTheStaticSolution) {
  DiscreteModel model = threeDof(false, true);
  const Eigen::MatrixXd K(model.K);
  const double expected = 0.5 * model.F.dot(K.ldlt().solve(model.F));
  model.load_factor_bound = 3;
  const SecondOrderSystem sys = toSecondOrderSystem(model, PETSC_COMM_SELF);
  EXPECT_NEAR(staticCompliance(sys, LinearSolverKind::Direct), 9 * expected, 1e-13 * expected);
  EXPECT_NEAR(staticCompliance(sys, LinearSolverKind::CG), 9 * expected, 1e-7 * expected);
}

// f = F g(t): the energy scale is that of the load's largest size, F max|g|, so a load's drift does not
// depend on whether its size sits in F or in g. With F alone a curve g = 1e12 made midpoint, which conserves,
// "diverge" (exit 3), and the same load given as F = 1e12 conserved. Same drifts to round-off.
TEST(DampedSchemes, EnergyScaleTakesTheLoadsLargestSize) {
  constexpr double kSize = 1e12;
  DiscreteModel in_g = threeDof(false, true), in_f = threeDof(false, true);
  in_g.load_factor = [](double t) { return kSize * std::sin(kOmegaLoad * t); };
  in_g.load_factor_bound = kSize;
  in_f.F *= kSize;
  // The labs' default -divergence_factor 1e6.
  const SchemeRun a = run("midpoint", in_g, 0.1, 20, 1e6), b = run("midpoint", in_f, 0.1, 20, 1e6);
  EXPECT_NEAR(a.result.energy_scale / b.result.energy_scale, 1.0, 1e-13);
  EXPECT_NEAR(a.result.max_abs_drift, b.result.max_abs_drift, 1e-12);
  EXPECT_FALSE(a.result.diverged);
}

// The three-level recurrence (B.16) as a map of (q_n, q_{n-1}); its spectral radius.
double rhoB16(const DiscreteModel &m, double h) {
  const Eigen::MatrixXd M(m.M), K(m.K), C(m.C);
  const Eigen::Index n = M.rows();
  const Eigen::MatrixXd Linv = (M / (h * h) + C / (2 * h)).inverse();
  Eigen::MatrixXd A = Eigen::MatrixXd::Zero(2 * n, 2 * n);
  A.topLeftCorner(n, n) = -Linv * (K - 2 * M / (h * h));
  A.topRightCorner(n, n) = -Linv * (M / (h * h) - C / (2 * h));
  A.bottomLeftCorner(n, n).setIdentity();
  return Eigen::EigenSolver<Eigen::MatrixXd>(A, false).eigenvalues().cwiseAbs().maxCoeff();
}

TEST(DampedSchemes, CentralDifferenceStabilityLimit) {
  for (bool damped : {false, true}) {
    const DiscreteModel model = threeDof(damped, true);
    const double hcrit = 2 / std::sqrt(largestEigenvalue(model));
    if (damped) {
      // The damped limit from the amplification matrix (bisection on rho = 1) is 2/omega_max too:
      // rho(A) reaches 1 through lambda = -1, where the C terms cancel.
      double lo = 0.5 * hcrit, hi = 1.5 * hcrit;
      ASSERT_LT(rhoB16(model, lo), 1.0);
      ASSERT_GT(rhoB16(model, hi), 1.0);
      for (int it = 0; it < 60; ++it) (rhoB16(model, 0.5 * (lo + hi)) < 1.0 ? lo : hi) = 0.5 * (lo + hi);
      EXPECT_NEAR(lo, hcrit, 1e-6 * hcrit);
    }
    const SchemeRun stable = run("central_difference", model, 0.98 * hcrit, 3000 * hcrit, 1e6);
    EXPECT_FALSE(stable.result.diverged) << (damped ? "damped" : "undamped");
    EXPECT_LT(stable.x.lpNorm<Eigen::Infinity>(), 10.0);
    const SchemeRun unstable = run("central_difference", model, 1.02 * hcrit, 3000 * hcrit, 1e6);
    EXPECT_TRUE(unstable.result.diverged) << (damped ? "damped" : "undamped");
  }
}

// The velocity handed out with x_{n+1} is what (B.14) gives once x_{n+2} is known.
TEST(DampedSchemes, CentralDifferenceVelocityIsB14) {
  const DiscreteModel model = threeDof(true, true);
  const SecondOrderSystem sys = toSecondOrderSystem(model, PETSC_COMM_SELF);
  const double h = 0.05;
  CentralDifference cd;
  cd.setup(LinearModel(sys, LinearSolverKind::Direct), {h, LinearSolverKind::Direct});
  PVec x = toPetscVector(sys, model.q0), y = toPetscVector(sys, model.v0);
  std::vector<Eigen::VectorXd> xs{toEigen(x)}, ys{toEigen(y)};
  for (int n = 0; n < 6; ++n) {
    cd.step(n * h, x, y);
    xs.push_back(toEigen(x));
    ys.push_back(toEigen(y));
  }
  for (size_t n = 1; n + 1 < xs.size(); ++n)
    EXPECT_LE((ys[n] - (xs[n + 1] - xs[n - 1]) / (2 * h)).lpNorm<Eigen::Infinity>(), 1e-12) << "level " << n;
  // Start-up (B.22): y_0 is reproduced by (B.14) at n = 0 with the fictitious x_{-1}.
}

// Amplification matrix of one generalized-alpha step on m = 1, k = W^2, h = 1 as a map of (x, y, a),
// measured column by column with startFrom().
Eigen::Matrix3d amplification(const GeneralizedAlphaParameters &p, double W) {
  DiscreteModel m;
  m.M = sparse(Eigen::MatrixXd::Constant(1, 1, 1.0));
  m.K = sparse(Eigen::MatrixXd::Constant(1, 1, W * W));
  m.C = Sparse(1, 1);
  m.F = Eigen::VectorXd::Zero(1);
  const SecondOrderSystem sys = toSecondOrderSystem(m, PETSC_COMM_SELF);
  GeneralizedAlpha scheme("test", p);
  scheme.setup(LinearModel(sys, LinearSolverKind::Direct), {1.0, LinearSolverKind::Direct});
  Eigen::Matrix3d A;
  for (int j = 0; j < 3; ++j) {
    const Eigen::Vector3d e = Eigen::Vector3d::Unit(j);
    PVec x = toPetscVector(sys, e.segment(0, 1)), y = toPetscVector(sys, e.segment(1, 1)),
         a = toPetscVector(sys, e.segment(2, 1));
    scheme.startFrom(0.0, x, y, a);
    scheme.step(0.0, x, y);
    // a_{n+1} is internal; recover it from the velocity update y_{n+1} = y_n + h((1-gamma) a_n + gamma a_{n+1}).
    const double x1 = toEigen(x)(0), y1 = toEigen(y)(0);
    const double a1 = (y1 - e(1) - (1 - p.gamma) * e(2)) / p.gamma;
    A.col(j) << x1, y1, a1;
  }
  return A;
}

TEST(DampedSchemes, SpectralRadiusAtInfinity) {
  // Omega = omega h. A finite Omega moves the triple root of generalized-alpha by ~Omega^(-2/3) (a
  // perturbation of order Omega^-2 under a cube root): 1e-4 at Omega = 1e6, 5e-6 at 1e8.
  const double W = 1e8;
  // Balanced by D = diag(1, 1/W, 1/W^2) (x, y/W and a/W^2 are all O(1)): the same eigenvalues, but
  // the triple root -rho_inf of generalized-alpha is then computed to ~eps^(1/3) instead of ~1e-4.
  auto rho = [&](const GeneralizedAlphaParameters &p) {
    const Eigen::Vector3d d(1, 1 / W, 1 / (W * W));
    const Eigen::Matrix3d B = d.asDiagonal() * amplification(p, W) * d.cwiseInverse().asDiagonal();
    return Eigen::EigenSolver<Eigen::Matrix3d>(B, false).eigenvalues().cwiseAbs().maxCoeff();
  };
  for (double alpha : {0.0, -0.05, -0.1, -0.2, -1.0 / 3})
    EXPECT_NEAR(rho(GeneralizedAlpha::hht(alpha)), (1 + alpha) / (1 - alpha), 1e-5) << "hht alpha = " << alpha;
  for (double r : {0.0, 0.3, 0.5, 0.8, 1.0})
    EXPECT_NEAR(rho(GeneralizedAlpha::chungHulbert(r)), r, 1e-5) << "rho_inf = " << r;
  EXPECT_NEAR(rho(GeneralizedAlpha::newmark(0.25, 0.5)), 1.0, 1e-5);
  // Small Omega: every member is accurate, rho close to 1.
  EXPECT_NEAR(Eigen::EigenSolver<Eigen::Matrix3d>(amplification(GeneralizedAlpha::chungHulbert(0.5), 1e-3), false)
                  .eigenvalues().cwiseAbs().maxCoeff(), 1.0, 1e-6);
}

TEST(DampedSchemes, TwoDofReachesStaticLimitWithEveryScheme) {
  const DiscreteModel model = builtinModel("two_dof");
  for (const auto &name : schemeNames()) {
    const SchemeRun r = run(name, model, 0.05, 30);
    ASSERT_FALSE(r.result.diverged) << name;
    EXPECT_NEAR(r.x(0), 0.26, 1e-9) << name;
    EXPECT_NEAR(r.x(1), 0.42, 1e-9) << name;
    // At rest the work 1.348 has gone half into the springs (0.674) and half into the dampers.
    EXPECT_NEAR(r.energy.back().work, 1.348, 1e-8) << name;
    EXPECT_NEAR(r.energy.back().potential, 0.674, 1e-8) << name;
  }
}

TEST(DampedSchemes, SchemeOptionsAreStrict) {
  const DiscreteModel model = threeDof(true, false);
  const SecondOrderSystem sys = toSecondOrderSystem(model, PETSC_COMM_SELF);
  struct Bad {
    const char *scheme, *options, *fragment;
  };
  for (const Bad &b : std::vector<Bad>{{"newmark", "-newmark_gamma 0.4", "accepted: a real in [1/2, 1e6]"},
                                       {"newmark", "-newmark_beta -0.1", "accepted: a real in [0, 1e6]"},
                                       {"newmark", "-newmark_beta 3e15", "accepted: a real in [0, 1e6]"},
                                       {"newmark", "-newmark_gamma 1000001", "accepted: a real in [1/2, 1e6]"},
                                       {"newmark", "-newmark_beta 0.25x", "not a finite real"},
                                       {"hht", "-hht_alpha 0.1", "[-1/3, 0]"},
                                       {"hht", "-hht_alpha -0.5", "[-1/3, 0]"},
                                       {"generalized_alpha", "-rho_inf 1.5", "[0, 1]"},
                                       {"generalized_alpha", "-rho_inf -0.1", "[0, 1]"}}) {
    const ScopedOptions options(b.options);
    const auto scheme = makeScheme(b.scheme);
    try {
      scheme->setup(LinearModel(sys, LinearSolverKind::Direct), {0.01, LinearSolverKind::Direct});
      ADD_FAILURE() << b.options << " was accepted";
    } catch (const Error &e) {
      EXPECT_EQ(e.exitCode(), 2) << b.options;
      EXPECT_NE(std::string(e.what()).find(b.fragment), std::string::npos) << e.what();
    }
  }
  const ScopedOptions options("-hht_alpha -0.1");
  const auto scheme = makeScheme("hht");
  scheme->setup(LinearModel(sys, LinearSolverKind::Direct), {0.01, LinearSolverKind::Direct});
  const auto &p = dynamic_cast<const GeneralizedAlpha &>(*scheme).parameters();
  EXPECT_DOUBLE_EQ(p.alpha_f, 0.1);
  EXPECT_DOUBLE_EQ(p.gamma, 0.6);
  EXPECT_DOUBLE_EQ(p.beta, 0.25 * 1.1 * 1.1);
  try {
    (void)makeScheme("leapfrog");
    ADD_FAILURE() << "unknown scheme accepted";
  } catch (const Error &e) {
    EXPECT_EQ(e.exitCode(), 2);
    EXPECT_NE(std::string(e.what()).find("central_difference"), std::string::npos) << e.what();
  }
}

// Rayleigh damping on the beam: C = alpha M + beta S on free DOFs, zero rows and columns at frozen ones.
TEST(DampedSchemes, BeamRayleighDampingIsAlphaMPlusBetaSAndZeroAtFrozenDofs) {
  BeamLabOptions o;
  o.beam.mx = 4;
  o.beam.my = 2;
  o.rayleigh_alpha = 0.1;
  o.rayleigh_beta = 0.02;
  const Beam beam(o.beam, PETSC_COMM_WORLD);
  const SecondOrderSystem sys = beamSystem(beam, o);
  ASSERT_TRUE(sys.damped());
  PetscInt r0, r1;
  BEAM_PETSC(MatGetOwnershipRange(sys.damping, &r0, &r1));
  const auto &frozen = beam.frozenDofs();
  auto isFrozen = [&](PetscInt i) { return std::binary_search(frozen.begin(), frozen.end(), i); };
  PVec e = sys.createVector(), Ce = sys.createVector(), Me = sys.createVector(), Se = sys.createVector();
  // Frozen (the left edge: DOFs 0, 1, 10, 11, 20, 21) and free columns (only frozen ones until
  // 2026-11-28: C = 1.01 alpha M + beta S passed).
  int free_columns = 0;
  for (PetscInt j : {PetscInt(0), PetscInt(1), PetscInt(11), PetscInt(20), PetscInt(2), PetscInt(13), PetscInt(29)}) {
    free_columns += !isFrozen(j);
    BEAM_PETSC(VecSet(e, 0.0));
    if (j >= r0 && j < r1) BEAM_PETSC(VecSetValue(e, j, 1.0, INSERT_VALUES));
    BEAM_PETSC(VecAssemblyBegin(e));
    BEAM_PETSC(VecAssemblyEnd(e));
    BEAM_PETSC(MatMult(sys.damping, e, Ce));
    BEAM_PETSC(MatMult(sys.mass, e, Me));
    BEAM_PETSC(MatMult(sys.stiffness, e, Se));
    const Eigen::VectorXd c = toEigen(Ce), m = toEigen(Me), s = toEigen(Se);
    for (PetscInt i = r0; i < r1; ++i) {
      const double expected = isFrozen(i) || isFrozen(j) ? 0.0 : 0.1 * m(i - r0) + 0.02 * s(i - r0);
      EXPECT_NEAR(c(i - r0), expected, 1e-12) << "C(" << i << "," << j << ")";
    }
  }
  EXPECT_EQ(free_columns, 3);
}

// StepContinuity (the Newmark family's and central difference's history): a step continues only at the
// time the last one reached (round-off allowed) with exactly the (x, y) it returned; a velocity or a time
// set from outside restarts the scheme (a check that ignored y, or t, passed every scheme test: their
// restarts all change x too).
TEST(DampedSchemes, StepContinuesOnlyFromTheStateItReturned) {
  PVec x, y;
  BEAM_PETSC(VecCreateMPI(PETSC_COMM_WORLD, PETSC_DECIDE, 4, x.out()));
  y = duplicate(x);
  BEAM_PETSC(VecSet(x, 1.0));
  BEAM_PETSC(VecSet(y, -0.5));
  StepContinuity c;
  EXPECT_FALSE(c.continues(0.1, x, y)); // nothing recorded yet
  c.record(0.1, x, y);
  EXPECT_TRUE(c.continues(0.1, x, y));
  EXPECT_TRUE(c.continues(0.1 + 1e-12, x, y)); // t = n dt against a sum of dt's
  EXPECT_FALSE(c.continues(1.0, x, y));        // a jump in time
  BEAM_PETSC(VecSet(y, 0.0));
  EXPECT_FALSE(c.continues(0.1, x, y)); // the velocity set from outside
  BEAM_PETSC(VecSet(y, -0.5));
  BEAM_PETSC(VecSetValue(x, 3, 1.0 + 1e-15, INSERT_VALUES));
  BEAM_PETSC(VecAssemblyBegin(x));
  BEAM_PETSC(VecAssemblyEnd(x));
  EXPECT_FALSE(c.continues(0.1, x, y)); // x changed, however little
  c.record(0.1, x, y);
  c.reset();
  EXPECT_FALSE(c.continues(0.1, x, y));
}
