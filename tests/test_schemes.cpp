// The four lab schemes checked against closed-form results: per-step energy factors on a one-DOF
// oscillator, observed orders of accuracy against a modal exact solution, frozen DOFs, one
// factorization per run, the CG switch, the Dynamics facade, scheme lookup and divergence detection.
#include <gtest/gtest.h>

#include "tests/EigenBridge.hpp"

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "tests/GridBeam.hpp"
#include "tests/RunFromRest.hpp"
#include "tests/ScopedOptions.hpp"
#include "MesLib/Beam.hpp"
#include "MesLib/BeamSystem.hpp"
#include "solvers/Dynamics.hpp"
#include "solvers/TimeLoop.hpp"

using namespace beam;

namespace {

// An AIJ matrix holding every entry of the dense A (explicit zeros included, so matrices built by this
// helper from same-size dense matrices share one nonzero pattern). Sequential on PETSC_COMM_SELF.
PMat makeAIJ(const Eigen::MatrixXd &A, bool spd) {
  const PetscInt n = PetscInt(A.rows());
  PMat M;
  BEAM_PETSC(MatCreateSeqAIJ(PETSC_COMM_SELF, n, n, n, nullptr, M.out()));
  std::vector<PetscInt> idx(size_t(n), 0);
  for (PetscInt i = 0; i < n; ++i) idx[size_t(i)] = i;
  for (PetscInt i = 0; i < n; ++i) {
    std::vector<PetscScalar> row(static_cast<size_t>(n));
    for (PetscInt j = 0; j < n; ++j) row[size_t(j)] = A(i, j);
    BEAM_PETSC(MatSetValues(M, 1, &i, n, idx.data(), row.data(), INSERT_VALUES));
  }
  BEAM_PETSC(MatAssemblyBegin(M, MAT_FINAL_ASSEMBLY));
  BEAM_PETSC(MatAssemblyEnd(M, MAT_FINAL_ASSEMBLY));
  BEAM_PETSC(MatSetOption(M, MAT_SYMMETRIC, PETSC_TRUE));
  if (spd) BEAM_PETSC(MatSetOption(M, MAT_SPD, PETSC_TRUE));
  return M;
}

PVec makeVec(const Eigen::VectorXd &v) {
  PVec x;
  BEAM_PETSC(VecCreateSeq(PETSC_COMM_SELF, PetscInt(v.size()), x.out()));
  for (PetscInt i = 0; i < PetscInt(v.size()); ++i) BEAM_PETSC(VecSetValue(x, i, v(i), INSERT_VALUES));
  BEAM_PETSC(VecAssemblyBegin(x));
  BEAM_PETSC(VecAssemblyEnd(x));
  return x;
}

SecondOrderSystem makeSystem(const Eigen::MatrixXd &M, const Eigen::MatrixXd &S, const Eigen::VectorXd &f) {
  SecondOrderSystem sys;
  sys.mass = makeAIJ(M, true);
  sys.stiffness = makeAIJ(S, true);
  sys.load = makeVec(f);
  return sys;
}

// Records the energy terms after every step (index 0 = initial state).
class EnergyHistory : public Monitor {
public:
  void observe(const StepState &s) override { energy.push_back(s.energy); }
  std::vector<EnergyTerms> energy;
};

struct SchemeRun {
  RunResult result;
  std::vector<EnergyTerms> energy;
  Eigen::VectorXd x, y;
};

SchemeRun runScheme(const std::string &name, const SecondOrderSystem &sys, const Eigen::VectorXd &x0,
              const Eigen::VectorXd &y0, PetscInt steps, double dt,
              double divergence_factor = std::numeric_limits<double>::infinity(),
              LinearSolverKind solver = LinearSolverKind::Direct) {
  PVec x = makeVec(x0), y = makeVec(y0);
  const auto scheme = makeScheme(name);
  RunSettings settings;
  settings.dt = dt;
  settings.T = double(steps) * dt;
  settings.divergence_factor = divergence_factor;
  settings.solver = solver;
  EnergyHistory h;
  SchemeRun r;
  r.result = integrate(*scheme, sys, x, y, settings, {&h});
  r.energy = h.energy;
  r.x = toEigen(x);
  r.y = toEigen(y);
  return r;
}

// One-DOF oscillator m x'' = -k x, omega = sqrt(k/m) = 2.
constexpr double kM = 2.0, kK = 8.0;
const double kW = std::sqrt(kK / kM);

SecondOrderSystem oscillator() {
  return makeSystem(Eigen::MatrixXd::Constant(1, 1, kM), Eigen::MatrixXd::Constant(1, 1, kK),
                    Eigen::VectorXd::Zero(1));
}
const Eigen::VectorXd kX0 = Eigen::VectorXd::Constant(1, 1.0), kY0 = Eigen::VectorXd::Zero(1);

// The four schemes of the lab (reference 003), in its order.
const std::vector<std::string> kLabSchemes = {"almost_explicit", "semi_implicit", "fully_implicit", "midpoint"};

// Relative round-off allowed for a few floating-point operations per step on O(1) numbers.
constexpr double kRoundoff = 1e-12;

} // namespace

// Explicit Euler on (x, y): the lab energy E = 1/2 m y^2 + 1/2 k x^2 obeys
// E_{n+1} = (1 + w^2 dt^2) E_n exactly (expand the update; the cross terms cancel since k = m w^2).
TEST(Schemes, AlmostExplicitEnergyGrowsByClosedFormFactor) {
  const SecondOrderSystem sys = oscillator();
  for (double wdt : {0.05, 0.3, 1.0}) {
    const double dt = wdt / kW;
    const SchemeRun r = runScheme("almost_explicit", sys, kX0, kY0, 50, dt);
    ASSERT_EQ(r.energy.size(), 51u);
    const double factor = 1 + wdt * wdt;
    for (size_t n = 0; n + 1 < r.energy.size(); ++n)
      EXPECT_NEAR(r.energy[n + 1].total() / r.energy[n].total(), factor, kRoundoff * factor)
          << "w dt = " << wdt << ", step " << n;
  }
}

// Backward Euler is the inverse of the explicit Euler map with -dt: E_{n+1} = E_n / (1 + w^2 dt^2).
TEST(Schemes, FullyImplicitEnergyDecaysByClosedFormFactor) {
  const SecondOrderSystem sys = oscillator();
  for (double wdt : {0.05, 0.3, 1.0, 5.0}) {
    const double dt = wdt / kW;
    const SchemeRun r = runScheme("fully_implicit", sys, kX0, kY0, 50, dt);
    const double factor = 1 / (1 + wdt * wdt);
    for (size_t n = 0; n + 1 < r.energy.size(); ++n)
      EXPECT_NEAR(r.energy[n + 1].total() / r.energy[n].total(), factor, kRoundoff * factor)
          << "w dt = " << wdt << ", step " << n;
  }
}

// The trapezoidal rule conserves the quadratic energy exactly for every dt: only round-off remains.
TEST(Schemes, MidpointConservesEnergy) {
  const SecondOrderSystem sys = oscillator();
  for (double wdt : {0.05, 1.0, 10.0}) {
    const SchemeRun r = runScheme("midpoint", sys, kX0, kY0, 1000, wdt / kW);
    const double e0 = r.energy.front().total();
    double worst = 0;
    for (const auto &e : r.energy) worst = std::max(worst, std::abs(e.total() - e0) / e0);
    EXPECT_LE(worst, kRoundoff) << "w dt = " << wdt;
  }
}

// Symplectic Euler (y first, then x with the new y) conserves the modified energy
//   H = 1/2 m y^2 + 1/2 k x^2 - 1/2 k dt x y   exactly.
// Since (k dt / 2)|x y| <= (w dt / 2) E (AM-GM), E stays in [H / (1 + w dt/2), H / (1 - w dt/2)] for
// w dt < 2; with x0 = 1, y0 = 0, H = E0. Above w dt = 2 the map has a real eigenvalue
// lambda = (tr - sqrt(tr^2 - 4)) / 2, tr = 2 - (w dt)^2, |lambda| > 1, and E grows by lambda^2 per step.
TEST(Schemes, SemiImplicitBoundedBelowLimitGrowingAbove) {
  const SecondOrderSystem sys = oscillator();
  // Steps whose rotation angle acos(1 - (w dt)^2 / 2) is not a rational multiple of 2 pi with a small
  // denominator, so the discrete orbit sweeps the whole invariant ellipse (w dt = 1 would visit 6 points).
  for (double wdt : {0.1, 0.7, 1.9}) {
    const double dt = wdt / kW;
    const SchemeRun r = runScheme("semi_implicit", sys, kX0, kY0, 2000, dt);
    ASSERT_FALSE(r.result.diverged);
    const double e0 = r.energy.front().total();
    const double lo = e0 / (1 + wdt / 2), hi = e0 / (1 - wdt / 2);
    double emin = e0, emax = e0;
    for (const auto &e : r.energy) {
      emin = std::min(emin, e.total());
      emax = std::max(emax, e.total());
    }
    EXPECT_GE(emin, lo * (1 - kRoundoff)) << "w dt = " << wdt;
    EXPECT_LE(emax, hi * (1 + kRoundoff)) << "w dt = " << wdt;
    // The band is sharp (the invariant ellipse crosses w|x| = |y|, where AM-GM is an equality): the
    // orbit covers at least 90% of the excursion to either end.
    EXPECT_LT(emin, e0 - 0.9 * (e0 - lo)) << "w dt = " << wdt;
    EXPECT_GT(emax, e0 + 0.9 * (hi - e0)) << "w dt = " << wdt;
  }
  // The modified energy itself is invariant (checked on the final state, to round-off accumulated over
  // 2000 steps of a map with bounded powers).
  {
    const double wdt = 0.5, dt = wdt / kW;
    const SchemeRun r = runScheme("semi_implicit", sys, kX0, kY0, 2000, dt);
    const double x = r.x(0), y = r.y(0);
    const double H = 0.5 * kM * y * y + 0.5 * kK * x * x - 0.5 * kK * dt * x * y;
    const double H0 = 0.5 * kK;
    EXPECT_NEAR(H, H0, 1e-11 * H0);
  }
  {
    const double wdt = 2.05, dt = wdt / kW;
    const SchemeRun r = runScheme("semi_implicit", sys, kX0, kY0, 200, dt);
    ASSERT_EQ(r.energy.size(), 201u);
    const double e0 = r.energy.front().total(), e200 = r.energy.back().total();
    EXPECT_GT(e200, 1e3 * e0);
    const double tr = 2 - wdt * wdt;
    const double lambda = (tr - std::sqrt(tr * tr - 4)) / 2;
    // E_n = a lambda^{2n} + b + c lambda^{-2n}: after 199 steps the ratio is lambda^2 to ~lambda^{-398}.
    EXPECT_NEAR(e200 / r.energy[199].total(), lambda * lambda, 1e-10 * lambda * lambda);
    // With the default bound the loop reports the divergence.
    const SchemeRun d = runScheme("semi_implicit", sys, kX0, kY0, 200, dt, 1e6);
    EXPECT_TRUE(d.result.diverged);
  }
}

// Observed order of accuracy against the exact modal solution of a 3-DOF system with a load:
//   x(t) = x_s + Phi [cos(w t) q0 + sin(w t)/w v0],  x_s = S^{-1} f,  q0 = Phi'M(x0 - x_s), v0 = Phi'M y0,
// with S Phi = M Phi W^2 and Phi'M Phi = I. Three Euler-type schemes are first order, midpoint second.
TEST(Schemes, OrderOfAccuracy) {
  Eigen::MatrixXd M = Eigen::MatrixXd::Zero(3, 3), S(3, 3);
  M.diagonal() << 1.0, 2.0, 0.5;
  S << 6, -2, 0, -2, 5, -1, 0, -1, 3;
  Eigen::VectorXd f(3), x0(3), y0(3);
  f << 0.3, -0.2, 0.5;
  x0 << 0.1, 0.2, -0.1;
  y0 << 0.0, 0.3, 0.1;
  Eigen::GeneralizedSelfAdjointEigenSolver<Eigen::MatrixXd> ges(S, M);
  ASSERT_EQ(ges.info(), Eigen::Success);
  const Eigen::VectorXd w = ges.eigenvalues().cwiseSqrt();
  const Eigen::MatrixXd &Phi = ges.eigenvectors(); // M-orthonormal
  // Distinct frequencies, all excited.
  ASSERT_GT(w(1) - w(0), 0.1);
  ASSERT_GT(w(2) - w(1), 0.1);
  const Eigen::VectorXd xs = S.ldlt().solve(f);
  const Eigen::VectorXd q0 = Phi.transpose() * M * (x0 - xs), v0 = Phi.transpose() * M * y0;
  const double T = 1.0;
  Eigen::VectorXd modal(3);
  for (int i = 0; i < 3; ++i) modal(i) = std::cos(w(i) * T) * q0(i) + std::sin(w(i) * T) / w(i) * v0(i);
  const Eigen::VectorXd exact = xs + Phi * modal;

  const SecondOrderSystem sys = makeSystem(M, S, f);
  struct Expect {
    const char *scheme;
    double order;
  };
  for (const Expect e : {Expect{"almost_explicit", 1}, Expect{"semi_implicit", 1}, Expect{"fully_implicit", 1},
                         Expect{"midpoint", 2}}) {
    double err[3];
    int k = 0;
    for (double dt : {0.01, 0.005, 0.0025}) {
      const PetscInt steps = stepCount(T, dt);
      ASSERT_NEAR(double(steps) * dt, T, 1e-12);
      const SchemeRun r = runScheme(e.scheme, sys, x0, y0, steps, dt);
      err[k++] = (r.x - exact).norm();
    }
    const double p1 = std::log2(err[0] / err[1]), p2 = std::log2(err[1] / err[2]);
    EXPECT_GE(p1, e.order - 0.1) << e.scheme << " errors " << err[0] << " " << err[1];
    EXPECT_LE(p1, e.order + 0.1) << e.scheme << " errors " << err[0] << " " << err[1];
    EXPECT_GE(p2, e.order - 0.1) << e.scheme << " errors " << err[1] << " " << err[2];
    EXPECT_LE(p2, e.order + 0.1) << e.scheme << " errors " << err[1] << " " << err[2];
  }
}

// Frozen DOFs: identity rows/columns and zero load keep them exactly zero (not just small).
TEST(Schemes, FrozenDofsStayExactlyZero) {
  BeamSpec spec;
  spec.mx = 8;
  spec.my = 3;
  spec.supports = Supports::ClampedLeft;
  spec.point_loads = {{8, 3, 0.05, -0.2}, {4, 0, 0.0, 0.1}};
  const Beam beam(spec, PETSC_COMM_WORLD);
  const SecondOrderSystem sys = beamSystem(beam);
  const auto owned = beam.ownedFrozenDofs();
  PetscInt lo;
  {
    PVec v = beam.createVector();
    BEAM_PETSC(VecGetOwnershipRange(v, &lo, nullptr));
  }
  for (const auto &name : kLabSchemes)
    for (LinearSolverKind kind : {LinearSolverKind::Direct, LinearSolverKind::CG}) {
      PVec x = beam.createVector(), y = beam.createVector();
      BEAM_PETSC(VecSet(x, 0.0));
      BEAM_PETSC(VecSet(y, 0.0));
      const auto scheme = makeScheme(name);
      RunSettings settings;
      settings.dt = 1e-3; // w_max dt well below the almost-explicit blow-up over 100 steps
      settings.T = 100 * settings.dt;
      settings.solver = kind;
      const RunResult res = integrate(*scheme, sys, x, y, settings, {});
      EXPECT_FALSE(res.diverged) << name;
      EXPECT_EQ(res.steps_done, 100) << name;
      const Eigen::VectorXd xa = toEigen(x), ya = toEigen(y);
      for (PetscInt d : owned) {
        EXPECT_EQ(xa(d - lo), 0.0) << name << " " << linearSolverName(kind) << " x at frozen DOF " << d;
        EXPECT_EQ(ya(d - lo), 0.0) << name << " " << linearSolverName(kind) << " y at frozen DOF " << d;
      }
      // ... while the beam did move.
      PetscReal xn;
      BEAM_PETSC(VecNorm(x, NORM_INFINITY, &xn));
      EXPECT_GT(xn, 0.0) << name;
    }
}

namespace {
int cholFactorCount() {
  PetscLogEvent id;
  BEAM_PETSC(PetscLogEventGetId("MatCholFctrNum", &id));
  PetscEventPerfInfo info;
  BEAM_PETSC(PetscLogEventGetPerfInfo(PETSC_DETERMINE, id, &info));
  return info.count;
}
} // namespace

namespace {
// The numeric Cholesky factorizations of one run of `scheme` from rest on the 10 x 3 beam's `sys`.
int factorizationsOfRun(TimeScheme &scheme, const Beam &beam, const SecondOrderSystem &sys, double dt, PetscInt steps) {
  PVec x = beam.createVector(), y = beam.createVector();
  BEAM_PETSC(VecSet(x, 0.0));
  BEAM_PETSC(VecSet(y, 0.0));
  RunSettings settings;
  settings.dt = dt;
  settings.T = double(steps) * dt;
  const int before = cholFactorCount();
  const RunResult res = integrate(scheme, sys, x, y, settings, {});
  EXPECT_EQ(res.steps_done, steps) << scheme.name();
  return cholFactorCount() - before;
}

BeamSpec smallBeam() { return gridBeam(10, 3); }
} // namespace

// The shifted matrix is factored once per run (at setup), plus once for the static solve of the energy
// scale (1/2 f'S^{-1}f, nonzero load): 2 numeric factorizations per run whatever the number of steps.
TEST(Schemes, DirectFactorizationOncePerRun) {
  BEAM_PETSC(PetscLogDefaultBegin());
  const Beam beam(smallBeam(), PETSC_COMM_WORLD);
  const SecondOrderSystem sys = beamSystem(beam);
  for (PetscInt steps : {10, 50})
    EXPECT_EQ(factorizationsOfRun(*makeScheme("midpoint"), beam, sys, 0.01, steps), 2) << steps << " steps";
}

// The memory check counts the linear solvers a scheme declares (TimeScheme::footprint) plus one (the
// model's mass solver, or the energy scale's static solve with S while the scheme's are set up): on the
// direct path each is a Cholesky factorization, made once. Each scheme on a damped beam (every
// combination formed) makes exactly the solvers it declares, or the model's mass solver if none.
TEST(Schemes, FootprintCountsEveryFactorization) {
  BEAM_PETSC(PetscLogDefaultBegin());
  const Beam beam(smallBeam(), PETSC_COMM_WORLD);
  for (const std::string &name : schemeNames()) {
    SecondOrderSystem sys = beamSystem(beam);
    addRayleighDamping(sys, beam, 0.1, 1e-3);
    const auto scheme = makeScheme(name);
    const int made = factorizationsOfRun(*scheme, beam, sys, 0.001, 5) - 1; // less the energy scale's S
    // The schemes that solve nothing themselves use the model's accelerations: its mass solver.
    EXPECT_EQ(made, std::max(scheme->footprint().solvers, 1)) << name;
  }
}

// Jacobi-CG at relative tolerance 1e-10 against the direct solve. For dt = 0.01 the Jacobi-scaled
// M + dt^2/4 S has condition number below ~9 (Q4 mass pattern 4,2,2,1 over 4: element eigenvalues in
// [1/4, 9/4]; the dt^2/4 S shift is 1e-2 of M's diagonal), so each solve is accurate to ~1e-9 and 10
// steps of the norm-preserving midpoint map stay within 1e-8.
// `scheme` on the beam from rest, 10 steps of dt = 0.01 with `solver`: the final x and y.
std::pair<Eigen::VectorXd, Eigen::VectorXd> tenStepsFromRest(const Beam &beam, const SecondOrderSystem &sys, const char *scheme_name,
                                                             LinearSolverKind solver = LinearSolverKind::Direct) {
  RunSettings settings;
  settings.dt = 0.01;
  settings.T = 0.1;
  settings.solver = solver;
  const FromRest run = runFromRest(beam, sys, scheme_name, settings);
  EXPECT_EQ(run.result.steps_done, 10);
  return {toEigen(run.x), toEigen(run.y)};
}

TEST(Schemes, CgMatchesDirect) {
  const BeamSpec spec; // 20x5
  const Beam beam(spec, PETSC_COMM_WORLD);
  const SecondOrderSystem sys = beamSystem(beam);
  Eigen::VectorXd xs[2], ys[2];
  int k = 0;
  for (LinearSolverKind kind : {LinearSolverKind::Direct, LinearSolverKind::CG}) {
    std::tie(xs[k], ys[k]) = tenStepsFromRest(beam, sys, "midpoint", kind);
    ++k;
  }
  ASSERT_GT(xs[0].norm(), 0.0);
  EXPECT_LE((xs[1] - xs[0]).norm(), 1e-8 * xs[0].norm());
  EXPECT_LE((ys[1] - ys[0]).norm(), 1e-8 * ys[0].norm());
}

// A preconditioner chosen by option alone on the direct path (-shifted_pc_type gamg, -mass_pc_type jacobi
// on a consistent mass) must still solve, by CG: with the path's KSPPREONLY it was applied once per
// solve, and midpoint's drift went from 1e-12 to 1.5e-2 on the default beam. The steps must agree with
// the factorization's to CG's tolerance (1e-10 relative per solve, 10 steps).
TEST(Schemes, PreconditionerOptionAloneStillSolves) {
  const BeamSpec spec; // 20x5
  const Beam beam(spec, PETSC_COMM_WORLD);
  const SecondOrderSystem sys = beamSystem(beam);
  for (const auto &[scheme_name, option] : {std::pair{"midpoint", "-shifted_pc_type gamg"}, std::pair{"semi_implicit", "-mass_pc_type jacobi"}}) {
    Eigen::VectorXd xs[2];
    for (int k = 0; k < 2; ++k) {
      const ScopedOptions options(k == 0 ? "" : option);
      xs[k] = tenStepsFromRest(beam, sys, scheme_name).first;
    }
    ASSERT_GT(xs[0].norm(), 0.0);
    EXPECT_LE((xs[1] - xs[0]).norm(), 1e-8 * xs[0].norm()) << scheme_name << " with " << option;
  }
}

// The lab's raw-array interface runs the same computation as integrate().
TEST(Schemes, DynamicsFacadeMatchesIntegrate) {
  BeamSpec spec;
  spec.mx = 10;
  spec.my = 3;
  const Beam beam(spec, PETSC_COMM_WORLD);
  const SecondOrderSystem sys = beamSystem(beam);
  PVec x = beam.createVector(), y = beam.createVector();
  PetscInt n;
  BEAM_PETSC(VecGetLocalSize(x, &n));
  // A nonzero start (zero at the frozen DOFs, as the schemes require).
  std::vector<double> xa(size_t(n), 0.0), ya(size_t(n), 0.0);
  PetscInt lo;
  BEAM_PETSC(VecGetOwnershipRange(x, &lo, nullptr));
  for (PetscInt i = 0; i < n; ++i) {
    const auto [gx, gy] = beam.mesh().nodeXY((lo + i) / 2);
    if (gx == 0) continue; // clamped left edge
    xa[size_t(i)] = 1e-3 * gx * ((lo + i) % 2 ? -1.0 : 0.3);
    ya[size_t(i)] = 1e-3 * gy;
  }
  for (PetscInt i = 0; i < n; ++i) {
    BEAM_PETSC(VecSetValue(x, lo + i, xa[size_t(i)], INSERT_VALUES));
    BEAM_PETSC(VecSetValue(y, lo + i, ya[size_t(i)], INSERT_VALUES));
  }
  BEAM_PETSC(VecAssemblyBegin(x));
  BEAM_PETSC(VecAssemblyEnd(x));
  BEAM_PETSC(VecAssemblyBegin(y));
  BEAM_PETSC(VecAssemblyEnd(y));

  const double T = 0.2, dt = 0.01;
  Dynamics dyn(sys);
  dyn.DynamicsMidpoint(int(n), xa.data(), ya.data(), T, dt);
  EXPECT_EQ(dyn.lastRun().steps_done, 20);
  EXPECT_FALSE(dyn.lastRun().diverged);

  const auto scheme = makeScheme("midpoint");
  RunSettings settings;
  settings.T = T;
  settings.dt = dt;
  integrate(*scheme, sys, x, y, settings, {});
  const Eigen::VectorXd xi = toEigen(x), yi = toEigen(y);
  const Eigen::VectorXd xd = Eigen::Map<Eigen::VectorXd>(xa.data(), n), yd = Eigen::Map<Eigen::VectorXd>(ya.data(), n);
  // The same operations in the same order: equal up to round-off (bit-identical in practice).
  EXPECT_LE((xd - xi).norm(), 1e-14 * xi.norm());
  EXPECT_LE((yd - yi).norm(), 1e-14 * yi.norm());
  EXPECT_GT(xi.norm(), 0.0);

  // n must be this rank's DOF count.
  try {
    dyn.DynamicsMidpoint(int(n) + 1, xa.data(), ya.data(), T, dt);
    ADD_FAILURE() << "no exception for a wrong n";
  } catch (const Error &e) {
    EXPECT_EQ(e.exitCode(), 2) << e.what();
  }
}

TEST(Schemes, UnknownSchemeListsAllNames) {
  try {
    makeScheme("nope");
    ADD_FAILURE() << "no exception for an unknown scheme";
  } catch (const Error &e) {
    EXPECT_EQ(e.exitCode(), 2);
    const std::string what = e.what();
    EXPECT_NE(what.find("nope"), std::string::npos) << what;
    for (const auto &name : kLabSchemes) EXPECT_NE(what.find(name), std::string::npos) << what;
  }
  // The lab's four come first, in the lab's order; the message lists every registered scheme.
  const auto &names = schemeNames();
  ASSERT_GE(names.size(), 4u);
  EXPECT_EQ(std::vector<std::string>(names.begin(), names.begin() + 4), kLabSchemes);
  try {
    makeScheme("nope");
  } catch (const Error &e) {
    for (const auto &name : names) EXPECT_NE(std::string(e.what()).find(name), std::string::npos) << name;
  }
}

// Almost explicit with a large step: the energy blows up by (1 + w^2 dt^2) per step in the stiffest
// mode, and the loop stops at the first step past the bound, naming it.
TEST(Schemes, DivergenceIsDetected) {
  const BeamSpec spec;
  const Beam beam(spec, PETSC_COMM_WORLD);
  const SecondOrderSystem sys = beamSystem(beam);
  PVec x = beam.createVector(), y = beam.createVector();
  BEAM_PETSC(VecSet(x, 0.0));
  BEAM_PETSC(VecSet(y, 0.0));
  const auto scheme = makeScheme("almost_explicit");
  RunSettings settings;
  settings.dt = 0.05;
  settings.T = 100 * settings.dt;
  EnergyHistory h;
  const RunResult res = integrate(*scheme, sys, x, y, settings, {&h});
  ASSERT_TRUE(res.diverged);
  EXPECT_LT(res.steps_done, 100);
  const std::string step = "step " + std::to_string(res.steps_done + 1);
  EXPECT_NE(res.divergence.find(step), std::string::npos) << res.divergence;
  // Monitors saw only the finite states before the offending step.
  EXPECT_EQ(PetscInt(h.energy.size()), res.steps_done + 1);
}
