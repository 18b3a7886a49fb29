// The schemes that serve every model, on nonlinear models (reference 004's mass-spring networks and
// reference 001's multibody systems), against results known exactly:
//   free fall: explicit_euler gives p_n = p_0 + n dt v_0 + n(n+1)/2 dt^2 g to round-off;
//   one particle on one spring (a linear oscillator along the spring): each scheme's exact invariant
//   or exact energy factor per step — forward Euler (1 + w^2 dt^2), implicit Euler 1/(1 + w^2 dt^2),
//   RK4 |R(i w dt)|^2, implicit midpoint 1, symplectic Euler's w^2 u^2 + v^2 - dt w^2 u v, velocity
//   Verlet's (1 - dt^2 w^2/4) w^2 u^2 + v^2;
//   Newton (SNES) converges quadratically on a stiff chain; above the direct limit its default inexact
//   solves (GMRES to 1e-3 + GAMG) reach the same step as exact ones; its line search on the step's
//   energy reaches the step that backtracking on |R| reaches, in fewer iterations;
//   a free network without gravity keeps its momentum to round-off with every scheme, and its energy
//   within O(dt^2) with the second-order symplectic schemes;
//   a particle dropped on a plane rebounds with the spring-dashpot restitution exp(-pi z / sqrt(1 - z^2));
//   a force that depends on time (a test-only forced Duffing oscillator) is taken at each scheme's time
//   levels, against the steps written in scalars;
//   a linear-only scheme refuses a nonlinear model with one line; the multibody pendulum shows each
//   scheme's order; the drift of a run does not depend on the scene's height (gravity's zero) or
//   orientation.
#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <csignal>
#include <complex>
#include <cstdio>
#include <memory>
#include <numeric>
#include <tuple>

#include "MassSpring/BuiltinModels.hpp"
#include "MassSpring/MassSpringModel.hpp"
#include "NetworkHelpers.hpp"
#include "tests/ScalarSteps.hpp"
#include "Multibody/MultibodyModel.hpp"
#include "solvers/FactorCost.hpp"
#include "solvers/ImplicitTheta.hpp"
#include "solvers/TimeLoop.hpp"

using namespace beam;
using namespace beam::testing_helpers;

namespace {

// The state after each of `steps` steps (x and v of every particle, gathered), from the model's start.
struct Trajectory {
  std::vector<std::vector<double>> x, v;
};
Trajectory integrate(const Model &model, const std::string &scheme_name, double dt, int steps,
                     const std::function<void(Vec, Vec)> &start, std::unique_ptr<TimeScheme> *keep = nullptr) {
  auto scheme = makeScheme(scheme_name);
  SchemeSettings settings;
  settings.dt = dt;
  scheme->setup(model, settings);
  PVec x = model.createVector(), v = model.createVector();
  start(x, v);
  Trajectory t;
  for (int n = 0; n <= steps; ++n) {
    if (n > 0) scheme->step((n - 1) * dt, x, v);
    t.x.push_back(allValues(x));
    t.v.push_back(allValues(v));
  }
  if (keep) *keep = std::move(scheme);
  return t;
}

// A scheme set up under its own options prefix on a mass-spring model, at the model's start.
struct PrefixedRun {
  std::unique_ptr<TimeScheme> scheme;
  PVec x, v;
};
PrefixedRun startPrefixed(const MassSpringModel &model, const std::string &scheme_name, double dt,
                          const std::string &prefix) {
  PrefixedRun r{makeScheme(scheme_name), model.createVector(), model.createVector()};
  SchemeSettings settings;
  settings.dt = dt;
  settings.options_prefix = prefix;
  r.scheme->setup(model, settings);
  model.initialState(r.x, r.v);
  return r;
}

// |a - b| / |b| in the 2-norm.
double relativeDifference(const std::vector<double> &a, const std::vector<double> &b) {
  double scale = 0, error = 0;
  for (size_t k = 0; k < b.size(); ++k) {
    scale += b[k] * b[k];
    error += (a[k] - b[k]) * (a[k] - b[k]);
  }
  return std::sqrt(error / scale);
}

// A whole run through the time loop from the model's initial state (the drift and its scale).
template <class M> RunResult runFromStart(const M &model, const std::string &scheme_name, double dt, double T) {
  auto scheme = makeScheme(scheme_name);
  RunSettings settings;
  settings.dt = dt;
  settings.T = T;
  PVec x = model.createVector(), v = model.createVector();
  model.initialState(x, v);
  return beam::integrate(*scheme, model, x, v, settings, {});
}

// One free particle of mass m at distance 1 + u0 from a fixed anchor, spring k with rest length 1,
// along x: u'' = -w^2 u with w^2 = k/m while the particle stays on its side (l > 0).
struct Oscillator {
  double m = 0.5, k = 8, u0 = 0.1, v0 = 0.3;
  double w() const { return std::sqrt(k / m); }
  Network network() const {
    Network net;
    net.particles = {particle({0, 0, 0}, 1, {0, 0, 0}, true), particle({1 + u0, 0, 0}, m, {v0, 0, 0})};
    net.springs = {spring(0, 1, k, 1.0)};
    net.gravity = {0, 0, 0};
    net.validate();
    return net;
  }
};

// A nonlinear model whose force depends on time: one DOF (on rank 0), m = 1, F = -x - x^3 + sin(2t + 1),
// with its exact shifted Jacobian J = a + c (1 + 3 x^2). No model of the project has such a force yet
// (their loads are constant, and a linear model takes the implicit schemes' linear path), so a scheme
// taking the nonlinear force at the wrong time passed every other test.
class ForcedDuffing final : public Model {
public:
  static bool onRankZero() {
    int rank = 0;
    MPI_Comm_rank(PETSC_COMM_WORLD, &rank);
    return rank == 0;
  }
  static double F(double t, double x) { return -x - x * x * x + std::sin(2 * t + 1); }
  std::string name() const override { return "forced_duffing"; }
  MPI_Comm comm() const override { return PETSC_COMM_WORLD; }
  PVec createVector() const override {
    PVec v;
    BEAM_PETSC(VecCreateMPI(PETSC_COMM_WORLD, onRankZero() ? 1 : 0, 1, v.out()));
    return v;
  }
  void force(double t, Vec x, Vec, Vec f) const override {
    if (signal_after >= 0 && t > signal_after && ++calls_after == 5 && onRankZero()) std::raise(SIGINT);
    apply(x, f, [t](double xi) { return F(t, xi); });
  }
  // >= 0: SIGINT is raised (on rank 0 only: the ranks agree on it) at the fifth force evaluation past this
  // time: in the step's Newton solve after its first iteration (R(0), the round-off floor's two, R at the
  // guess, R after the first Newton step).
  mutable double signal_after = -1;
  mutable int calls_after = 0;
  void acceleration(double t, Vec x, Vec v, Vec a) const override { force(t, x, v, a); }
  void massMult(Vec, Vec v, Vec Mv) const override { BEAM_PETSC(VecCopy(v, Mv)); }
  bool hasJacobian() const override { return true; }
  PMat createJacobian() const override {
    PMat J;
    const PetscInt n = onRankZero() ? 1 : 0;
    BEAM_PETSC(MatCreateAIJ(PETSC_COMM_WORLD, n, n, 1, 1, 1, nullptr, 0, nullptr, J.out()));
    if (n) BEAM_PETSC(MatSetValue(J, 0, 0, 0.0, INSERT_VALUES)); // the pattern
    BEAM_PETSC(MatAssemblyBegin(J, MAT_FINAL_ASSEMBLY));
    BEAM_PETSC(MatAssemblyEnd(J, MAT_FINAL_ASSEMBLY));
    return J;
  }
  void shiftedJacobian(double, Vec x, Vec, double a, double, double c, Mat J) const override {
    const std::vector<double> xs = allValues(x);
    if (onRankZero()) BEAM_PETSC(MatSetValue(J, 0, 0, a + c * (1 + 3 * xs[0] * xs[0]), INSERT_VALUES));
    BEAM_PETSC(MatAssemblyBegin(J, MAT_FINAL_ASSEMBLY));
    BEAM_PETSC(MatAssemblyEnd(J, MAT_FINAL_ASSEMBLY));
  }
  std::vector<std::string> energyNames() const override { return {"kinetic", "potential"}; }
  void storedEnergy(double, Vec x, Vec v, std::vector<double> &parts) const override {
    const double xi = allValues(x)[0], vi = allValues(v)[0];
    parts = {0.5 * vi * vi, 0.5 * xi * xi + 0.25 * xi * xi * xi * xi};
  }
  void draw(Vec, Vec, Drawing &d) const override { d.clear(); }

private:
  template <class G> static void apply(Vec x, Vec f, const G &g) {
    const PetscScalar *xa = nullptr;
    PetscScalar *fa = nullptr;
    PetscInt n = 0;
    BEAM_PETSC(VecGetLocalSize(x, &n));
    BEAM_PETSC(VecGetArrayRead(x, &xa));
    BEAM_PETSC(VecGetArray(f, &fa));
    for (PetscInt i = 0; i < n; ++i) fa[i] = g(PetscRealPart(xa[i]));
    BEAM_PETSC(VecRestoreArray(f, &fa));
    BEAM_PETSC(VecRestoreArrayRead(x, &xa));
  }
};

} // namespace

TEST(NonlinearSchemes, FreeFallExplicitEulerIsTheClosedForm) {
  Network net;
  const Vec3 p0{0.5, -1, 3}, v0{0.2, 0.1, 1.5};
  net.particles = {particle(p0, 2.0, v0)};
  net.gravity = {0.3, 0, -9.81};
  net.validate();
  const MassSpringModel model(net, PETSC_COMM_WORLD);
  const double dt = 0.01;
  const Trajectory t = integrate(model, "explicit_euler", dt, 200, [&](Vec x, Vec v) { model.initialState(x, v); });
  for (int n = 0; n <= 200; n += 20)
    for (int d = 0; d < 3; ++d) {
      const double exact = p0[size_t(d)] + n * dt * v0[size_t(d)] + 0.5 * n * (n + 1) * dt * dt * net.gravity[size_t(d)];
      EXPECT_NEAR(t.x[size_t(n)][size_t(d)], exact, 1e-13 * (1 + std::abs(exact))) << "step " << n << " axis " << d;
    }
}

TEST(NonlinearSchemes, OneSpringEnergyFactorsAndInvariantsAreExact) {
  const Oscillator o;
  const Network net = o.network();
  const MassSpringModel model(net, PETSC_COMM_WORLD);
  const double h = 0.05, w = o.w(), hw = h * w;
  const std::complex<double> z(0, hw);
  const double rk4 = std::norm(1.0 + z + z * z / 2.0 + z * z * z / 6.0 + z * z * z * z / 24.0);
  struct Row {
    const char *scheme;
    std::function<double(double u, double v)> invariant; // constant, or multiplied by `factor` each step
    double factor;
  };
  const std::vector<Row> rows = {
      {"forward_euler", [&](double u, double v) { return w * w * u * u + v * v; }, 1 + hw * hw},
      {"implicit_euler", [&](double u, double v) { return w * w * u * u + v * v; }, 1 / (1 + hw * hw)},
      {"rk4", [&](double u, double v) { return w * w * u * u + v * v; }, rk4},
      {"implicit_midpoint", [&](double u, double v) { return w * w * u * u + v * v; }, 1},
      {"explicit_euler", [&](double u, double v) { return w * w * u * u + v * v - h * w * w * u * v; }, 1},
      {"semi_implicit_euler", [&](double u, double v) { return w * w * u * u + v * v - h * w * w * u * v; }, 1},
      {"verlet", [&](double u, double v) { return (1 - hw * hw / 4) * w * w * u * u + v * v; }, 1},
  };
  for (const auto &row : rows) {
    const Trajectory t = integrate(model, row.scheme, h, 60, [&](Vec x, Vec v) { model.initialState(x, v); });
    // particle 1's x entry is index 3
    double expected = row.invariant(t.x[0][3] - 1, t.v[0][3]);
    for (size_t n = 1; n < t.x.size(); ++n) {
      expected *= row.factor;
      const double got = row.invariant(t.x[n][3] - 1, t.v[n][3]);
      // Round-off of the updates (and the Newton tolerance, 1e-10 of R(0), for the implicit ones).
      ASSERT_NEAR(got, expected, 1e-11 * std::abs(expected)) << row.scheme << " step " << n;
    }
  }
}

// The schemes serving every model take a time-dependent nonlinear force at their time levels: five steps
// of dt = 0.1 on ForcedDuffing against each scheme's step written in scalars (the implicit ones solved by
// a scalar Newton to round-off). The implicit step's Newton stops at |R| <= 1e-10 |R(0)|, R(0) = dt F =
// O(0.1): dv to about 1e-11 at worst (|dR/d dv| >= 1), so 1e-10; the force at t + dt instead of
// t + dt/2 in implicit_midpoint moves dv by dt (sin(2t + 1.2) - sin(2t + 1.1)), about 0.01.
TEST(NonlinearSchemes, TimeDependentNonlinearForceAtEachSchemesTimeLevel) {
  constexpr double dt = 0.1, x0 = 0.2, v0 = -0.3;
  const auto F = ForcedDuffing::F;
  const auto a = [F](double t, double x, double) { return F(t, x); }; // m = 1
  // m dv = dt F(t + theta dt, x + theta dt (v + theta dv)), x1 = x + dt (v + theta dv), v1 = v + dv
  const auto theta_step = [&](double theta) {
    return [=](double t, double &x, double &v) {
      double dv = 0;
      for (int it = 0; it < 50; ++it) {
        const double xt = x + theta * dt * (v + theta * dv);
        const double r = dv - dt * F(t + theta * dt, xt);
        dv -= r / (1 + dt * theta * theta * dt * (1 + 3 * xt * xt));
      }
      x += dt * (v + theta * dv);
      v += dv;
    };
  };
  const std::vector<std::pair<const char *, ScalarStep>> rows = {
      {"implicit_euler", theta_step(1)},
      {"implicit_midpoint", theta_step(0.5)},
      {"explicit_euler", symplecticEulerStep(a, dt)},
      {"forward_euler", forwardEulerStep(a, dt)},
      {"rk4", rk4Step(a, dt)},
  };
  const ForcedDuffing model;
  for (const auto &[name, step] : rows) {
    double x = x0, v = v0;
    for (int n = 0; n < 5; ++n) step(n * dt, x, v);
    const Trajectory t = integrate(model, name, dt, 5, [&](Vec xv, Vec vv) {
      BEAM_PETSC(VecSet(xv, x0));
      BEAM_PETSC(VecSet(vv, v0));
    });
    const bool implicit = std::string(name).rfind("implicit", 0) == 0;
    EXPECT_NEAR(t.x.back()[0], x, implicit ? 1e-10 : 1e-14) << name;
    EXPECT_NEAR(t.v.back()[0], v, implicit ? 1e-10 : 1e-14) << name;
  }
}

// A signal during a step's Newton solve, in a run that checkpoints: the step is given up at the next
// Newton iteration (not finished first: a folding cloth's step can take minutes), the run ends at the last
// accepted step with its checkpoint, and the restart from it ends bitwise where the uninterrupted run
// does (the step's first Newton guess, part of the checkpoint's history, is put back).
TEST(NonlinearSchemes, SignalDuringANewtonSolveStopsAtTheLastAcceptedStep) {
  int size = 1;
  MPI_Comm_size(PETSC_COMM_WORLD, &size);
  const std::string checkpoint = "signal_in_step_np" + std::to_string(size) + ".chk";
  ForcedDuffing model;
  const auto start = [&](Vec x, Vec v) {
    BEAM_PETSC(VecSet(x, 0.2));
    BEAM_PETSC(VecSet(v, -0.3));
  };
  const Trajectory reference = integrate(model, "implicit_euler", 0.1, 10, start);
  // The signal in step 4 (its force at t = 0.4), in the first step and in the last one: the run ends at
  // the step before (the last step too is given up: its Newton solve may be the long one).
  for (const auto &[signal_after, stopped] : {std::pair{0.35, 3}, std::pair{0.0, 0}, std::pair{0.95, 9}}) {
    SCOPED_TRACE("signal after t = " + std::to_string(signal_after));
    RunSettings settings;
    settings.dt = 0.1;
    settings.T = 1.0;
    settings.checkpoint_path = checkpoint;
    PVec x = model.createVector(), v = model.createVector();
    start(x, v);
    model.signal_after = signal_after; // (after the step's first Newton iteration)
    model.calls_after = 0;
    {
      auto scheme = makeScheme("implicit_euler");
      const RunResult r = beam::integrate(*scheme, model, x, v, settings, {});
      EXPECT_EQ(r.interrupted_by, SIGINT);
      EXPECT_FALSE(r.diverged);
      EXPECT_EQ(r.steps_done, stopped);
      // The next guess is the last accepted step's dv again (0 before the first), not the abandoned
      // solve's iterate (a restart from the same guess is what makes it bitwise; on one DOF Newton reaches
      // the same bits from either).
      const std::vector<double> guess = allValues(scheme->history().at(0));
      EXPECT_NEAR(guess.at(0), stopped > 0 ? reference.v[stopped][0] - reference.v[stopped - 1][0] : 0.0, 1e-15);
    }
    EXPECT_EQ(allValues(x), reference.x[stopped]);
    EXPECT_EQ(allValues(v), reference.v[stopped]);
    model.signal_after = -1;
    settings.restart_path = checkpoint;
    auto scheme = makeScheme("implicit_euler");
    const RunResult r = beam::integrate(*scheme, model, x, v, settings, {});
    EXPECT_EQ(r.restarted_from, stopped);
    EXPECT_EQ(r.interrupted_by, 0);
    EXPECT_EQ(allValues(x), reference.x[10]);
    EXPECT_EQ(allValues(v), reference.v[10]);
    MPI_Barrier(PETSC_COMM_WORLD);
    if (ForcedDuffing::onRankZero()) std::remove(checkpoint.c_str());
  }
}

TEST(NonlinearSchemes, NewtonConvergesQuadratically) {
  // A hanging chain of stiff springs released from the horizontal with a large step: several Newton
  // iterations per step, each squaring the residual (until round-off).
  Network net;
  const int n = 8;
  net.particles.push_back(particle({0, 0, 0}, 0.1, {0, 0, 0}, true));
  for (int i = 1; i <= n; ++i) {
    net.particles.push_back(particle({0.1 * i, 0, 0}, 0.1));
    net.springs.push_back(spring(i - 1, i, 500));
  }
  net.validate();
  const MassSpringModel model(net, PETSC_COMM_WORLD);
  std::unique_ptr<TimeScheme> scheme;
  integrate(model, "implicit_euler", 0.05, 3, [&](Vec x, Vec v) { model.initialState(x, v); }, &scheme);
  const std::vector<double> r = dynamic_cast<const ImplicitTheta &>(*scheme).residualHistory();
  ASSERT_GE(r.size(), 4u) << "expected several Newton iterations";
  for (double x : r) std::printf("newton residual %.3e\n", x);
  int quadratic = 0;
  for (size_t k = 1; k + 1 < r.size(); ++k) {
    if (r[k + 1] < 1e-12 * r[0]) break; // round-off reached
    // e_{k+1} <= C e_k^2: with residuals scaled by r_0, the ratio r_{k+1} r_0 / r_k^2 stays bounded.
    EXPECT_LT(r[k + 1] * r[0] / (r[k] * r[k]), 50.0) << "iteration " << k;
    ++quadratic;
  }
  EXPECT_GE(quadratic, 1);
  EXPECT_LT(r.back(), 1e-10 * r[0]);
}

TEST(NonlinearSchemes, InexactNewtonSolvesReachTheNewtonStep) {
  // The built-in cloth at 82 x 82 (20172 unknowns, above ImplicitTheta::kDirectNewtonLimit), two implicit
  // Euler steps from rest at dt = 0.01: the default linear solves (GMRES to 1e-3 + GAMG) against exact
  // ones (LU). Newton stops when a full step is below 1e-8 |dv|; with a linear tolerance eta = 1e-3 the
  // error left after that step is at most about eta times it, so each step's dv is within ~1e-8 |dv| of
  // the exact Newton solution whatever the linear solver, and the two steps' velocities v = dv_1 + dv_2
  // within 2e-8 |v|: the tolerance 1e-7 |v| leaves a factor 5. (A stopping rule loosened to a step below
  // 1e-3 |dv|, -default_newton_snes_stol 1e-3, fails it.)
  const Network net = squareCloth(82);
  const MassSpringModel model(net, PETSC_COMM_WORLD);
  ASSERT_GT(3 * 82 * 82, ImplicitTheta::kDirectNewtonLimit);
  BEAM_PETSC(PetscOptionsSetValue(nullptr, "-exact_newton_ksp_type", "preonly"));
  BEAM_PETSC(PetscOptionsSetValue(nullptr, "-exact_newton_pc_type", "lu"));
  auto run = [&](const std::string &prefix) {
    PrefixedRun r = startPrefixed(model, "implicit_euler", 0.01, prefix);
    PetscInt krylov = 0;
    for (int n = 0; n < 2; ++n) {
      r.scheme->step(n * 0.01, r.x, r.v);
      krylov += r.scheme->linearIterations();
    }
    std::printf("%s: %d Krylov iterations in 2 steps\n", prefix.c_str(), int(krylov));
    return allValues(r.v);
  };
  const std::vector<double> exact = run("exact_"), inexact = run("default_");
  for (const char *name : {"-exact_newton_ksp_type", "-exact_newton_pc_type"}) BEAM_PETSC(PetscOptionsClearValue(nullptr, name));
  const double difference = relativeDifference(inexact, exact);
  std::printf("|v - v_exact| / |v| = %.2e\n", difference);
  ASSERT_GT(std::sqrt(std::inner_product(exact.begin(), exact.end(), exact.begin(), 0.0)), 0.1); // the cloth falls
  EXPECT_LT(difference, 1e-7);
}

TEST(NonlinearSchemes, FactorizationWorkEstimate) {
  // choleskyFlops on patterns whose elimination is known whatever the ordering: a diagonal matrix has
  // nothing below its diagonal (0); a dense n x n one has n - 1 - k entries in column k of L, so
  // sum_c (c^2 + c) over c = 0 .. n-1 = (n-1) n (2n-1)/6 + n (n-1)/2 (exact: integers in doubles).
  PetscMPIInt rank = 0;
  MPI_Comm_rank(PETSC_COMM_WORLD, &rank);
  const PetscInt n = 30;
  for (const bool dense : {false, true}) {
    PMat A;
    BEAM_PETSC(MatCreateAIJ(PETSC_COMM_WORLD, PETSC_DECIDE, PETSC_DECIDE, n, n, n, nullptr, n, nullptr, A.out()));
    PetscInt first = 0, last = 0;
    BEAM_PETSC(MatGetOwnershipRange(A, &first, &last));
    for (PetscInt i = first; i < last; ++i)
      for (PetscInt j = dense ? 0 : i; j <= (dense ? n - 1 : i); ++j) BEAM_PETSC(MatSetValue(A, i, j, i == j ? n : 1.0, INSERT_VALUES));
    BEAM_PETSC(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
    BEAM_PETSC(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
    const double expected = dense ? double((n - 1) * n * (2 * n - 1) / 6 + n * (n - 1) / 2) : 0.0;
    EXPECT_EQ(choleskyFlops(A), expected) << (dense ? "dense" : "diagonal");
  }
  // Newton's default solver: the direct LU where the factorization's work per nonzero of J is small (a
  // chain: no fill; the report's disk), GMRES + GAMG where it is not (a 16 x 16 cloth: 2.2x faster than
  // the LU over a 0.6 s fall when chosen so); the same choice and the same estimate, to the last bit, on
  // one rank and on all of them (the pattern is gathered in the global numbering).
  for (const auto &[name, size, direct] : {std::tuple{"chain", 2000, true}, std::tuple{"disk", 0, true},
                                           std::tuple{"cloth", 16, false}}) {
    auto params = builtinParameters(name);
    for (auto &p : params)
      if (p.name == "chain_n" || p.name == "cloth_nx" || p.name == "cloth_ny") p.value = size;
    Network net = builtinNetwork(name, params);
    net.validate();
    const MassSpringModel everywhere(net, PETSC_COMM_WORLD), alone(net, PETSC_COMM_SELF);
    const PMat J = everywhere.createJacobian(), J_alone = alone.createJacobian();
    EXPECT_EQ(ImplicitTheta::directNewton(J, "factor_cost_"), direct) << name;
    // A factorization the options choose is the direct path (refactored at every Newton iteration; on
    // the multigrid path it was rebuilt every other one), an iterative one the multigrid path.
    for (const char *exact : {"lu", "cholesky", "redundant"}) {
      BEAM_PETSC(PetscOptionsSetValue(nullptr, "-factor_cost_pc_type", exact));
      EXPECT_TRUE(ImplicitTheta::directNewton(J, "factor_cost_")) << name << " " << exact;
    }
    BEAM_PETSC(PetscOptionsSetValue(nullptr, "-factor_cost_pc_type", "jacobi"));
    EXPECT_FALSE(ImplicitTheta::directNewton(J, "factor_cost_")) << name;
    BEAM_PETSC(PetscOptionsClearValue(nullptr, "-factor_cost_pc_type"));
    // preonly without a preconditioner: the direct solve it meant (it got one V-cycle per Newton iteration)
    BEAM_PETSC(PetscOptionsSetValue(nullptr, "-factor_cost_ksp_type", "preonly"));
    EXPECT_TRUE(ImplicitTheta::directNewton(J, "factor_cost_")) << name;
    BEAM_PETSC(PetscOptionsClearValue(nullptr, "-factor_cost_ksp_type"));
    const double flops = choleskyFlops(J), flops_alone = choleskyFlops(J_alone);
    EXPECT_EQ(flops, flops_alone) << name;
    if (rank == 0) std::printf("%s: %.4g flops\n", name, flops);
  }
}

// The energy the line search minimizes, Phi(dv) = 1/2 dv'M dv + U(x_theta)/theta^2, has Newton's residual
// R(dv) = M dv - dt F(x_theta) as its gradient (d x_theta / d dv = theta^2 dt): on a conservative cloth
// (springs and gravity) moving from a bent state, for theta = 1 and 1/2, the directional derivative of
// Phi by central differences against R'd. The differences' error is h^2/6 times Phi's third derivative
// (h = 1e-3 against |dv| ~ 0.05: 1e-6 relative bounds it) plus the round-off of the two Phi over 2h, far
// below the factor theta that U/theta (in place of U/theta^2) puts on the force part (that passed every
// other test: the converged steps do not depend on the search, and at theta = 1 the two agree).
TEST(NonlinearSchemes, LineSearchEnergyHasTheResidualAsItsGradient) {
  const Network net = squareCloth(6);
  const MassSpringModel model(net, PETSC_COMM_WORLD);
  ASSERT_TRUE(model.conservative());
  PVec x = model.createVector(), v = model.createVector(), dv = model.createVector(), d = model.createVector();
  PVec R = model.createVector(), plus = model.createVector(), minus = model.createVector();
  model.initialState(x, v);
  // A bent, moving state and an arbitrary dv and direction, zero on the fixed corners as Newton's are.
  PetscInt lo = 0, hi = 0;
  BEAM_PETSC(VecGetOwnershipRange(x, &lo, &hi));
  for (PetscInt i = lo; i < hi; ++i) {
    BEAM_PETSC(VecSetValue(x, i, 0.01 * std::sin(1.3 * double(i)), ADD_VALUES));
    BEAM_PETSC(VecSetValue(v, i, 0.2 * std::cos(0.7 * double(i)), INSERT_VALUES));
    BEAM_PETSC(VecSetValue(dv, i, 0.05 * std::sin(2.1 * double(i) + 1), INSERT_VALUES));
    BEAM_PETSC(VecSetValue(d, i, 0.05 * std::cos(3.7 * double(i)), INSERT_VALUES));
  }
  for (Vec w : {x.get(), v.get(), dv.get(), d.get()}) {
    BEAM_PETSC(VecAssemblyBegin(w));
    BEAM_PETSC(VecAssemblyEnd(w));
  }
  const std::vector<PetscInt> fixed = model.fixedDofs();
  const std::vector<PetscScalar> zeros(fixed.size(), 0.0);
  for (Vec w : {v.get(), dv.get(), d.get()}) {
    BEAM_PETSC(VecSetValues(w, PetscInt(fixed.size()), fixed.data(), zeros.data(), INSERT_VALUES));
    BEAM_PETSC(VecAssemblyBegin(w));
    BEAM_PETSC(VecAssemblyEnd(w));
  }
  for (const char *name : {"implicit_euler", "implicit_midpoint"}) {
    auto scheme = makeScheme(name);
    SchemeSettings settings;
    settings.dt = 0.01;
    scheme->setup(model, settings);
    auto &theta = dynamic_cast<ImplicitTheta &>(*scheme);
    theta.stepResidual(0.0, x, v, dv, R);
    PetscScalar slope = 0;
    BEAM_PETSC(VecDot(R, d, &slope));
    const double h = 1e-3;
    BEAM_PETSC(VecWAXPY(plus, h, d, dv));
    BEAM_PETSC(VecWAXPY(minus, -h, d, dv));
    const double e_plus = theta.stepEnergy(0.0, x, v, plus), e_minus = theta.stepEnergy(0.0, x, v, minus);
    const double fd = (e_plus - e_minus) / (2 * h);
    // Round-off: each Phi sums a few hundred terms (particles, springs; gravity's potential from the origin
    // makes |Phi| ~ 10, 40 here), each rounded: 100 eps |Phi| per evaluation (1e-9, against R'd ~ 4e-5).
    const double round_off = 100 * DBL_EPSILON * (std::abs(e_plus) + std::abs(e_minus)) / (2 * h);
    EXPECT_NEAR(fd, PetscRealPart(slope), round_off + 1e-6 * std::abs(PetscRealPart(slope))) << name;
    EXPECT_GT(std::abs(PetscRealPart(slope)), 1e-6) << name; // not a vanishing comparison
  }
}

TEST(NonlinearSchemes, EnergyLineSearchTakesTheStepsBacktrackingOnTheResidualCuts) {
  // The built-in cloth (conservative: no dashpots) at 40 x 40, three implicit Euler steps from rest at
  // dt = 0.05 (omega_max dt ~ 20): Newton's default line search on the step's energy
  // (solvers/EnergyLineSearch.hpp) against PETSc's backtracking on |R|^2 (-..._snes_linesearch_type bt,
  // the default until 2026-11-26), both with exact (LU) linear solves. Both end each step with a full
  // Newton step below 1e-8 |dv|, so each step's dv agrees to ~1e-8 |dv|, and the velocities after three
  // steps to ~3e-8 |v| (implicit Euler does not amplify a difference): the tolerance 1e-7 |v| (7.6e-12
  // when written). The energy search must take fewer iterations (36 against 45 when written; at dt = 0.1,
  // 90 against 180, but there the two searches end at different solutions of R = 0 from the first step
  // on, 3.5e-3 |v| apart: a cloth falling flat can buckle either way).
  const Network net = squareCloth(40);
  const MassSpringModel model(net, PETSC_COMM_WORLD);
  ASSERT_TRUE(model.conservative());
  // Exact linear solves, given: the default chooses GMRES + GAMG for this cloth since 2026-11-28 (its
  // LU's estimated work, ImplicitTheta::directNewton).
  for (const char *prefix : {"-energy_newton_", "-bt_newton_"}) {
    BEAM_PETSC(PetscOptionsSetValue(nullptr, (std::string(prefix) + "ksp_type").c_str(), "preonly"));
    BEAM_PETSC(PetscOptionsSetValue(nullptr, (std::string(prefix) + "pc_type").c_str(), "lu"));
  }
  BEAM_PETSC(PetscOptionsSetValue(nullptr, "-bt_newton_snes_linesearch_type", "bt"));
  const double dt = 0.05;
  auto run = [&](const std::string &prefix, PetscInt &newton) {
    PrefixedRun r = startPrefixed(model, "implicit_euler", dt, prefix);
    newton = 0;
    for (int n = 0; n < 3; ++n) {
      r.scheme->step(n * dt, r.x, r.v);
      newton += r.scheme->newtonIterations();
    }
    return allValues(r.v);
  };
  PetscInt energy_its = 0, bt_its = 0;
  const std::vector<double> energy = run("energy_", energy_its), bt = run("bt_", bt_its);
  BEAM_PETSC(PetscOptionsClearValue(nullptr, "-bt_newton_snes_linesearch_type"));
  for (const char *prefix : {"-energy_newton_", "-bt_newton_"})
    for (const char *what : {"ksp_type", "pc_type"})
      BEAM_PETSC(PetscOptionsClearValue(nullptr, (std::string(prefix) + what).c_str()));
  const double difference = relativeDifference(energy, bt);
  std::printf("Newton iterations: energy search %d, bt %d; |v - v_bt| / |v| = %.2e\n", int(energy_its), int(bt_its), difference);
  EXPECT_LT(difference, 1e-7);
  EXPECT_LT(energy_its, bt_its);
}

TEST(NonlinearSchemes, WeakLinearSolvesDoNotEndNewtonEarly) {
  // Newton's step and stall tests assume the step solved its linear system to a tolerance; a single
  // Jacobi application (-..._ksp_type preonly -..._pc_type jacobi) gives no such step, and Newton must go
  // on to the residual test |R| <= 1e-10 |R(0)|. The built-in chain of 50 (k = 1000, m = 0.02, hanging from
  // the horizontal), five implicit Euler steps at dt = 0.01, against the default (a direct LU). With the
  // residual test met, each dv is within |J^-1| 1e-10 |R(0)| <= 1e-10 |M^-1 R(0)| of Newton's solution
  // (J = M + dt^2 K >= M here: the hanging chain's springs are stretched, K >= 0), and |M^-1 R(0)|, the
  // explicit step, is at most 1 + 4 dt^2 k / m = 21 times |dv|: 2.1e-9 |v| per step, 1.1e-8 after five;
  // the tolerance 2e-8 |v|. Without that rule the stall test accepted the Jacobi iterates after 71 to 117
  // iterations, 4.4e-7 |v| from the solution (5e-11 with it).
  auto params = builtinParameters("chain");
  for (auto &p : params)
    if (p.name == "chain_n") p.value = 50;
  Network net = builtinNetwork("chain", params);
  net.validate();
  const MassSpringModel model(net, PETSC_COMM_WORLD);
  auto run = [&](const std::string &prefix) {
    PrefixedRun r = startPrefixed(model, "implicit_euler", 0.01, prefix);
    for (int n = 0; n < 5; ++n) r.scheme->step(n * 0.01, r.x, r.v);
    return allValues(r.v);
  };
  const std::vector<double> exact = run("lu_");
  // The same for a Krylov solve stopped by its iteration limit (KSP_DIVERGED_ITS) that Newton is told to
  // go on from (-..._snes_max_linear_solve_fail): its step is no more trustworthy than Jacobi's (the
  // step tests once took a diverged solve's step as solved: 4.7e-7 |v| off with one GMRES iteration).
  const std::vector<std::vector<std::pair<std::string, std::string>>> weak = {
      {{"ksp_type", "preonly"}, {"pc_type", "jacobi"}},
      {{"ksp_type", "gmres"}, {"pc_type", "jacobi"}, {"ksp_max_it", "1"}, {"snes_max_linear_solve_fail", "100000"}}};
  for (const auto &options : weak) {
    for (const auto &[name, value] : options) BEAM_PETSC(PetscOptionsSetValue(nullptr, ("-weak_newton_" + name).c_str(), value.c_str()));
    const std::vector<double> solved = run("weak_");
    for (const auto &option : options) BEAM_PETSC(PetscOptionsClearValue(nullptr, ("-weak_newton_" + option.first).c_str()));
    const double difference = relativeDifference(solved, exact);
    std::printf("%s %s: |v - v_lu| / |v| = %.2e\n", options[0].second.c_str(), options[1].second.c_str(), difference);
    EXPECT_LT(difference, 2e-8) << options[0].second;
  }
}

TEST(NonlinearSchemes, FreeNetworkKeepsMomentumAndEnergy) {
  // A triangle spinning and stretching, no gravity, no planes.
  Network net;
  net.particles = {particle({0, 0, 0}, 1.0, {0.3, -0.2, 0.1}), particle({1, 0, 0}, 2.0, {0, 0.5, 0}),
                   particle({0.3, 0.9, 0.2}, 1.5, {-0.4, 0, 0.3})};
  net.springs = {spring(0, 1, 50, 0.9), spring(1, 2, 80, 1.2), spring(2, 0, 60, 0.8)};
  net.gravity = {0, 0, 0};
  net.validate();
  const MassSpringModel model(net, PETSC_COMM_WORLD);
  const double masses[3] = {1.0, 2.0, 1.5};
  auto momentum = [&](const std::vector<double> &v) {
    Vec3 p{0, 0, 0};
    for (int i = 0; i < 3; ++i)
      for (int d = 0; d < 3; ++d) p[size_t(d)] += masses[i] * v[size_t(3 * i + d)];
    return p;
  };
  for (const char *name : {"explicit_euler", "forward_euler", "verlet", "rk4", "implicit_euler", "implicit_midpoint"}) {
    const Trajectory t = integrate(model, name, 1e-3, 400, [&](Vec x, Vec v) { model.initialState(x, v); });
    const Vec3 p0 = momentum(t.v.front()), p1 = momentum(t.v.back());
    // Exact up to round-off for the explicit schemes; the implicit ones keep it up to what Newton leaves
    // in the residual (it stops on a full step below 1e-8 |dv|, ImplicitTheta): 2e-11 after 400 steps.
    const bool newton = std::string(name).rfind("implicit", 0) == 0;
    for (int d = 0; d < 3; ++d) EXPECT_NEAR(p1[size_t(d)], p0[size_t(d)], newton ? 1e-10 : 1e-11) << name;
  }
  // Energy: second-order symplectic schemes keep it to O(dt^2) (here well below 1e-4 relative).
  for (const char *name : {"verlet", "implicit_midpoint"})
    EXPECT_LT(runFromStart(model, name, 1e-3, 0.4).max_abs_drift, 1e-4) << name;
}

// The potential of gravity has its zero at the coordinate origin, so the scene's height changes E0 but
// must not change the drift scale, hence neither the drift nor which runs count as diverging (before
// Model::offsetEnergy, a network lifted by 1000 m drifted 700x less by the lab's measure, and the
// stability lab's measured limits moved by 7 %). A spring pendulum (mass-spring) and the multibody
// pendulum, each run at the origin and 1000 m higher. Tolerances: lifted positions carry round-off
// eps * 1000 m = 2.2e-13 per operation; over 200 steps of a stable oscillator the two trajectories part
// by ~200 times that, 4.4e-11 m, which moves the energy by (k l + m g) 4.4e-11 < 1e-8 J, against a scale
// near 10 J (the weight times the extent): 1e-8 on the drift; the scales, both the weight times the
// initial extent, agree to the extent's round-off, 1e-13 relative.
TEST(NonlinearSchemes, DriftDoesNotDependOnWhereTheSceneSits) {
  auto expectSameDrift = [](const RunResult &low, const RunResult &high, const char *what) {
    EXPECT_NEAR(high.energy_scale, low.energy_scale, 1e-12 * low.energy_scale) << what;
    EXPECT_NEAR(high.max_abs_drift, low.max_abs_drift, 1e-8) << what;
    EXPECT_NEAR(high.final_drift, low.final_drift, 1e-8) << what;
    EXPECT_GT(low.max_abs_drift, 1e-6) << what; // a drift to compare: not round-off
  };
  // One particle on a spring from a fixed anchor, released sideways and stretched: it swings and bounces.
  auto springPendulum = [](double height) {
    Network net;
    net.particles = {particle({0, 0, height}, 1, {0, 0, 0}, true), particle({1.2, 0, height}, 0.5)};
    net.springs = {spring(0, 1, 40, 1.0)};
    net.gravity = {0, 0, -9.81};
    net.validate();
    return net;
  };
  const MassSpringModel low(springPendulum(0), PETSC_COMM_WORLD), high(springPendulum(1000), PETSC_COMM_WORLD);
  for (const char *name : {"verlet", "implicit_euler"})
    expectSameDrift(runFromStart(low, name, 2e-3, 0.4), runFromStart(high, name, 2e-3, 0.4), name);
  // The multibody pendulum (IFToMM A01), its pivot and bob lifted along -g.
  multibody::Description d = multibody::loadModel("pendulum");
  const multibody::MultibodyModel origin(d, PETSC_COMM_WORLD);
  const multibody::Vec3 lift = -1000 * d.gravity.normalized();
  for (auto &b : d.bodies) b.position += lift;
  for (auto &j : d.joints) {
    j.point += lift;
    j.point1 += lift;
    j.point2 += lift;
  }
  const multibody::MultibodyModel lifted(d, PETSC_COMM_WORLD);
  expectSameDrift(runFromStart(origin, "forward_euler", 2e-3, 0.4), runFromStart(lifted, "forward_euler", 2e-3, 0.4),
                  "multibody pendulum");
}

// Nor on the units where the model gives no scale (one particle, or one body without size, falling from
// rest: |E0| without gravity's potential and the reference both 0). The scale was then 1 in the model's
// units: a 1e26 kg particle "diverged" at step 1 on round-off. It now follows the energies' size, so a
// mass of 1 and of 1e26 give one drift: implicit Euler's own (the fall's energy error of a first-order
// scheme, 2.6e-3 here), equal to 1e-9; Verlet's and RK4's, which are exact on a uniform field, at
// round-off: each step's energy is a few terms, each rounded to eps of its size, so after n = 500 steps
// |drift| <= 500 * 4 * eps ~ 4.4e-13.
TEST(NonlinearSchemes, DriftDoesNotDependOnTheUnitsWithoutAModelScale) {
  auto fall = [](double mass) {
    Network net;
    net.particles = {particle({0.5, -1, 3}, mass, {0, 0, 0})};
    net.gravity = {0, 0, -9.81};
    net.validate();
    return net;
  };
  const MassSpringModel light(fall(1), PETSC_COMM_WORLD), heavy(fall(1e26), PETSC_COMM_WORLD);
  for (const char *name : {"verlet", "implicit_euler"}) {
    const RunResult a = runFromStart(light, name, 2e-3, 1.0), b = runFromStart(heavy, name, 2e-3, 1.0);
    EXPECT_FALSE(a.diverged || b.diverged) << name << ": " << a.divergence << b.divergence;
    EXPECT_NEAR(b.max_abs_drift, a.max_abs_drift, 1e-9 * a.max_abs_drift + 500 * 4 * 2.2e-16) << name;
    if (std::string(name) == "verlet") {
      EXPECT_LT(a.max_abs_drift, 500 * 4 * 2.2e-16);
    }
    EXPECT_NEAR(b.energy_scale / a.energy_scale, 1e26, 1e-12 * 1e26) << name;
  }
  // The multibody body: a sphere-like rock on no joint.
  multibody::Description d = multibody::loadModel("pendulum");
  d.joints.clear();
  d.bodies.resize(1);
  d.bodies[0].shape = {};
  const multibody::MultibodyModel one(d, PETSC_COMM_WORLD);
  for (auto &b : d.bodies) {
    b.mass *= 1e26;
    b.inertia *= 1e26;
  }
  const multibody::MultibodyModel heavy_body(d, PETSC_COMM_WORLD);
  const RunResult a = runFromStart(one, "rk4", 2e-3, 1.0), b = runFromStart(heavy_body, "rk4", 2e-3, 1.0);
  EXPECT_FALSE(a.diverged || b.diverged) << a.divergence << b.divergence;
  EXPECT_LT(a.max_abs_drift, 500 * 4 * 2.2e-16);
  EXPECT_LT(b.max_abs_drift, 500 * 4 * 2.2e-16);
}

// Turning a scene about the direction of gravity changes nothing either: the scale's extent is the
// network's size, not its bounding box's diagonal (which a 45-degree turn changed by up to sqrt(2)). A
// triangle of springs hanging from one fixed corner, as built and turned by 45 degrees about z; the
// tolerances as above (turned positions carry round-off eps |x|).
TEST(NonlinearSchemes, DriftDoesNotDependOnTheSceneOrientation) {
  auto triangle = [](double angle) {
    const double c = std::cos(angle), s = std::sin(angle);
    auto turned = [&](double x, double y) { return Vec3{c * x - s * y, s * x + c * y, 0}; };
    Network net;
    net.particles = {particle(turned(0, 0), 1, {0, 0, 0}, true), particle(turned(1.2, 0), 0.5), particle(turned(0, 1.0), 0.7)};
    net.springs = {spring(0, 1, 40, 1.0), spring(0, 2, 30, 0.9), spring(1, 2, 50)};
    net.gravity = {0, 0, -9.81};
    net.validate();
    return net;
  };
  const MassSpringModel straight(triangle(0), PETSC_COMM_WORLD), turned(triangle(M_PI / 4), PETSC_COMM_WORLD);
  const RunResult a = runFromStart(straight, "verlet", 2e-3, 0.4), b = runFromStart(turned, "verlet", 2e-3, 0.4);
  EXPECT_NEAR(b.energy_scale, a.energy_scale, 1e-12 * a.energy_scale);
  EXPECT_NEAR(b.max_abs_drift, a.max_abs_drift, 1e-8);
  EXPECT_GT(a.max_abs_drift, 1e-6);
}

// Parts that do nothing change nothing: an isolated fixed particle 1000 m away (it set the extent: the
// scale was 1000x larger, the verdict "conserved") and a stretched spring between two fixed particles
// (its constant energy was in |E0|). The triangle above with both added, on the same tolerances; the
// anchored spring's energy, 1/2 1e6 0.5^2, dwarfs the triangle's.
TEST(NonlinearSchemes, DriftDoesNotDependOnPartsThatDoNothing) {
  auto triangle = [](bool extras) {
    Network net;
    net.particles = {particle({0, 0, 0}, 1, {0, 0, 0}, true), particle({1.2, 0, 0}, 0.5), particle({0, 1.0, 0}, 0.7)};
    net.springs = {spring(0, 1, 40, 1.0), spring(0, 2, 30, 0.9), spring(1, 2, 50)};
    if (extras) {
      net.particles.push_back(particle({0, 0, 1000}, 1, {0, 0, 0}, true));
      net.particles.push_back(particle({5, 0, 0}, 1, {0, 0, 0}, true));
      net.particles.push_back(particle({6, 0, 0}, 1, {0, 0, 0}, true));
      net.springs.push_back(spring(4, 5, 1e6, 0.5));
    }
    net.gravity = {0, 0, -9.81};
    net.validate();
    return net;
  };
  const MassSpringModel plain(triangle(false), PETSC_COMM_WORLD), extras(triangle(true), PETSC_COMM_WORLD);
  const RunResult a = runFromStart(plain, "verlet", 2e-3, 0.4), b = runFromStart(extras, "verlet", 2e-3, 0.4);
  EXPECT_NEAR(b.energy_scale, a.energy_scale, 1e-12 * a.energy_scale);
  EXPECT_NEAR(b.max_abs_drift, a.max_abs_drift, 1e-8);
  EXPECT_GT(a.max_abs_drift, 1e-6);
}

TEST(NonlinearSchemes, ContactRestitutionOfTheSpringDashpot) {
  // One particle dropped on the plane z = 0, no gravity during the flight (it starts just above the
  // plane with a downward speed), so the contact is exactly a linear spring-dashpot half-cycle and the
  // rebound speed ratio is e = exp(-pi z / sqrt(1 - z^2)), z = b / (2 sqrt(k m)).
  const double m = 0.2, k = 2e4;
  for (double zeta : {0.05, 0.2, 0.5}) {
    Network net;
    net.particles = {particle({0, 0, 1e-6}, m, {0, 0, -1.0})};
    net.gravity = {0, 0, 0};
    net.planes = {Plane{}};
    net.contact.stiffness = k;
    net.contact.damping = 2 * zeta * std::sqrt(k * m);
    net.contact.no_pull = false;
    net.validate();
    const MassSpringModel model(net, PETSC_COMM_WORLD);
    const double period = M_PI / std::sqrt(k / m); // the half-cycle in contact
    const double dt = period / 2000;
    const Trajectory t = integrate(model, "implicit_midpoint", dt, 2400, [&](Vec x, Vec v) { model.initialState(x, v); });
    // The speed when the particle is back above the plane, first time.
    double rebound = 0;
    for (size_t n = 1; n < t.x.size(); ++n)
      if (t.x[n][2] > 1e-6 && t.v[n][2] > 0) {
        rebound = t.v[n][2];
        break;
      }
    const double e = std::exp(-M_PI * zeta / std::sqrt(1 - zeta * zeta));
    std::printf("zeta %g: rebound %.5f, spring-dashpot e %.5f\n", zeta, rebound, e);
    // No gravity, a step of 1/2000 of the contact: the measured value carries only the step's
    // O(dt^2) error (gravity during contact and coarse steps bias it: see contact_study).
    EXPECT_NEAR(rebound, e, 0.005 * e) << "zeta " << zeta;
  }
}

// The report's contact damping switches on in full at touchdown: the implicit step's residual jumps by
// b_c |v.n| there and can jump over zero, leaving Newton no root (README, "Contact"). A damping depth
// (-contact_damping_depth) makes the force continuous: a particle dropped at 3 m/s with zeta = 0.47,
// implicit Euler at dt values where the report's law failed, runs to the end with delta = 1e-4 (a
// hundredth of the penetration v / w = 9.5e-3 m).
TEST(NonlinearSchemes, ContactDampingDepthGivesTheImplicitStepASolution) {
  auto drop = [](double depth) {
    Network net;
    net.particles = {particle({0, 0, 0.01}, 0.1, {0, 0, -3})};
    net.planes = {Plane{}};
    net.contact.stiffness = 1e4;
    net.contact.damping = 30;
    net.contact.damping_depth = depth;
    net.validate();
    return net;
  };
  const MassSpringModel jump(drop(0), PETSC_COMM_WORLD), ramp(drop(1e-4), PETSC_COMM_WORLD);
  int failed_with_jump = 0;
  const std::vector<double> dts = {1.109e-3, 1.511e-3, 1.675e-3, 1.858e-3, 2.807e-3, 3.451e-3, 4.703e-3, 8.737e-3};
  for (double dt : dts) {
    const RunResult a = runFromStart(jump, "implicit_euler", dt, 0.3), b = runFromStart(ramp, "implicit_euler", dt, 0.3);
    std::printf("dt %g: report's law %s, damping depth %s\n", dt, a.diverged ? "failed" : "ran", b.diverged ? "failed" : "ran");
    failed_with_jump += a.diverged;
    EXPECT_FALSE(b.diverged) << "dt " << dt << ": " << b.divergence;
  }
  EXPECT_GE(failed_with_jump, int(dts.size()) / 2); // the case is a hard one for the report's law
}

// As the damping depth shrinks, the restitution returns to the report's law: the ramp leaves out at most
// b_c v_in delta of the dissipated energy (b_c (1 - r) v.n^2 over the depth at entry and at exit, with
// |v.n| <= v_in and the mean of 1 - r over the ramp 1/2), so e^2 rises by at most 2 b_c delta / (m v_in):
// e by at most b_c delta / (m v_in e), and the rise is first order in delta. The setting of
// ContactRestitutionOfTheSpringDashpot, zeta = 0.2.
TEST(NonlinearSchemes, ContactDampingDepthChangesTheRestitutionByItsShare) {
  const double m = 0.2, k = 2e4, zeta = 0.2, b = 2 * zeta * std::sqrt(k * m);
  const double period = M_PI / std::sqrt(k / m), penetration = 1.0 / std::sqrt(k / m);
  auto restitution = [&](double depth) {
    Network net;
    net.particles = {particle({0, 0, 1e-6}, m, {0, 0, -1.0})};
    net.gravity = {0, 0, 0};
    net.planes = {Plane{}};
    net.contact.stiffness = k;
    net.contact.damping = b;
    net.contact.damping_depth = depth;
    net.validate();
    const MassSpringModel model(net, PETSC_COMM_WORLD);
    const Trajectory t = integrate(model, "implicit_midpoint", period / 2000, 2400, [&](Vec x, Vec v) { model.initialState(x, v); });
    for (size_t n = 1; n < t.x.size(); ++n)
      if (t.x[n][2] > 1e-6 && t.v[n][2] > 0) return t.v[n][2];
    return 0.0;
  };
  const double e0 = restitution(0);
  std::vector<double> rises;
  for (double fraction : {0.1, 0.01}) {
    const double depth = fraction * penetration, e = restitution(depth), bound = b * depth / (m * 1.0 * e0);
    std::printf("depth %.3g (penetration / %g): e %.6f, report's law %.6f, rise %.3e, bound %.3e\n", depth,
                1 / fraction, e, e0, e - e0, bound);
    EXPECT_GT(e, e0) << depth;
    EXPECT_LT(e - e0, bound) << depth;
    rises.push_back(e - e0);
  }
  // First order in delta (the next term is relatively O(delta / penetration), 10 % at the larger depth).
  EXPECT_NEAR(rises[0] / rises[1], 10, 1.5);
}

TEST(NonlinearSchemes, LinearOnlySchemesRefuseNonlinearModels) {
  const Oscillator o;
  const MassSpringModel model(o.network(), PETSC_COMM_WORLD);
  for (const char *name : {"midpoint", "newmark", "central_difference", "mamc"}) {
    auto scheme = makeScheme(name);
    try {
      scheme->setup(model, {});
      ADD_FAILURE() << name << " accepted a nonlinear model";
    } catch (const Error &e) {
      EXPECT_EQ(e.exitCode(), 2);
      const std::string what = e.what();
      EXPECT_NE(what.find("mass_spring"), std::string::npos) << what;
      EXPECT_NE(what.find("implicit_euler"), std::string::npos) << what; // the accepted ones are listed
      EXPECT_EQ(what.find('\n'), std::string::npos);
    }
  }
}

TEST(NonlinearSchemes, MultibodyPendulumOrderOfEachScheme) {
  // IFToMM A01 with Baumgarte off: the error at T = 0.5 against a run with dt / 16 of RK4.
  const multibody::Description d = multibody::loadModel("pendulum");
  const multibody::MultibodyModel model(d, PETSC_COMM_WORLD, {1, 0}, false);
  auto finalState = [&](const char *scheme, double dt) {
    const int steps = int(std::lround(0.5 / dt));
    return integrate(model, scheme, dt, steps, [&](Vec x, Vec v) { model.initialState(x, v); }).x.back();
  };
  const std::vector<double> reference = finalState("rk4", 1e-3 / 16);
  auto error = [&](const char *scheme, double dt) {
    const std::vector<double> x = finalState(scheme, dt);
    double e = 0;
    for (size_t i = 0; i < x.size(); ++i) e = std::max(e, std::abs(x[i] - reference[i]));
    return e;
  };
  struct Row {
    const char *scheme;
    double order, dt;
  };
  // Verlet is first order here: the constrained acceleration depends on the velocity (the J term).
  for (const Row &row : {Row{"rk4", 4, 0.02}, Row{"semi_implicit_euler", 1, 0.002}, Row{"verlet", 1, 0.002},
                         Row{"forward_euler", 1, 0.002}}) {
    const double e1 = error(row.scheme, row.dt), e2 = error(row.scheme, row.dt / 2);
    std::printf("%s: errors %.3e %.3e\n", row.scheme, e1, e2);
    if (reference.empty()) continue; // ranks other than 0 hold no state
    EXPECT_NEAR(std::log2(e1 / e2), row.order, 0.25) << row.scheme << ": errors " << e1 << ", " << e2;
  }
}

// Each scheme instance reads its own options under SchemeSettings::options_prefix: two implicit Euler
// instances in one program, one limited to a single Newton iteration, the other untouched.
TEST(NonlinearSchemes, EachInstanceHasItsOwnOptionsPrefix) {
  Network net;
  net.particles.push_back(particle({0, 0, 0}, 0.1, {0, 0, 0}, true));
  for (int i = 1; i <= 6; ++i) {
    net.particles.push_back(particle({0.1 * i, 0, 0}, 0.1));
    net.springs.push_back(spring(i - 1, i, 500));
  }
  net.validate();
  const MassSpringModel model(net, PETSC_COMM_WORLD);
  BEAM_PETSC(PetscOptionsSetValue(nullptr, "-limited_newton_snes_max_it", "1"));
  auto run = [&](const std::string &prefix) {
    PrefixedRun r = startPrefixed(model, "implicit_euler", 0.05, prefix);
    r.scheme->step(0.0, r.x, r.v);
    return r.scheme->newtonIterations();
  };
  EXPECT_GT(run("free_"), 2);
  try {
    run("limited_");
    ADD_FAILURE() << "one Newton iteration was enough";
  } catch (const Error &e) {
    EXPECT_EQ(e.exitCode(), 3);
    EXPECT_NE(std::string(e.what()).find("-limited_newton_snes_monitor"), std::string::npos) << e.what();
  }
  BEAM_PETSC(PetscOptionsClearValue(nullptr, "-limited_newton_snes_max_it"));
}
