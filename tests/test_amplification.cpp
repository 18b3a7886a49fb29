// Amplification matrices measured generically (one step of the registered scheme on one oscillator)
// against the closed forms of the lab's four schemes (reference 003), with h = 1, omega = Omega:
//   almost explicit  A = [[1, 1], [-W^2, 1]]                     rho = sqrt(1 + W^2)
//   semi-implicit    A = [[1 - W^2, 1], [-W^2, 1]], det A = 1    rho = 1 for W <= 2,
//                                                                 (W^2 - 2 + W sqrt(W^2 - 4)) / 2 above
//   fully implicit   A = [[1, 1], [-W^2, 1]]^-1 ... det A = 1/(1 + W^2), complex pair: rho = 1/sqrt(1 + W^2)
//   midpoint         Cayley transform of a skew matrix: rho = 1
// and the critical Omega each gives: 0, 2, inf, inf; with damping xi the semi-implicit limit (explicit
// C y_n) is 2 (sqrt(1 + xi^2) - xi) (Jury's conditions on tr A = 2 - W^2 - 2 xi W, det A = 1 - 2 xi W).
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "solvers/Amplification.hpp"
#include "solvers/TimeScheme.hpp"

using namespace beam;

namespace {

std::vector<double> omegas() {
  std::vector<double> w;
  for (int i = 0; i <= 80; ++i) w.push_back(0.05 * i); // 0 .. 4, with 2 exactly
  for (double extra : {1e-3, 1.999, 2.001, 10.0, 100.0}) w.push_back(extra);
  return w;
}

} // namespace

TEST(Amplification, AlmostExplicit) {
  for (double w : omegas()) EXPECT_NEAR(spectralRadius("almost_explicit", w), std::sqrt(1 + w * w), 1e-12) << w;
}

TEST(Amplification, SemiImplicit) {
  for (double w : omegas()) {
    const double rho = spectralRadius("semi_implicit", w);
    if (w <= 2) {
      EXPECT_NEAR(rho, 1.0, 1e-12) << w;
    } else {
      EXPECT_GT(rho, 1.0) << w;
      EXPECT_NEAR(rho, 0.5 * (w * w - 2 + w * std::sqrt(w * w - 4)), 1e-12 * rho) << w;
    }
  }
  const auto A = amplificationMatrix("semi_implicit", 1.5);
  ASSERT_EQ(A.rows(), 2); // no history
  EXPECT_NEAR(A(0, 0), 1 - 2.25, 1e-14);
  EXPECT_NEAR(A(0, 1), 1.0, 1e-14);
  EXPECT_NEAR(A(1, 0), -2.25, 1e-14);
  EXPECT_NEAR(A(1, 1), 1.0, 1e-14);
}

TEST(Amplification, FullyImplicit) {
  for (double w : omegas()) EXPECT_NEAR(spectralRadius("fully_implicit", w), 1 / std::sqrt(1 + w * w), 1e-12) << w;
}

TEST(Amplification, Midpoint) {
  for (double w : omegas()) EXPECT_NEAR(spectralRadius("midpoint", w), 1.0, 1e-12) << w;
}

TEST(Amplification, CriticalOmegaOfTheLabSchemes) {
  EXPECT_EQ(criticalOmega("almost_explicit"), 0.0);
  EXPECT_NEAR(criticalOmega("semi_implicit"), 2.0, 1e-12);
  EXPECT_TRUE(std::isinf(criticalOmega("fully_implicit")));
  EXPECT_TRUE(std::isinf(criticalOmega("midpoint")));
}

TEST(Amplification, DampedSemiImplicitLimit) {
  const double xi = 0.1;
  // Damped, an eigenvalue crosses -1 linearly (rho - 1 ~ (W - W_crit)), so the stability allowance
  // rho <= 1 + 1e-10 moves the limit by ~1e-11; undamped, rho - 1 ~ sqrt(W - 2) moves it by ~1e-20.
  EXPECT_NEAR(criticalOmega("semi_implicit", xi), 2 * (std::sqrt(1 + xi * xi) - xi), 1e-9);
}

TEST(Amplification, EveryRegisteredSchemeHasAChartValue) {
  // The generic measurement needs nothing scheme-specific: every registry entry gives a finite rho.
  for (const auto &name : schemeNames())
    for (double w : {0.0, 0.5, 2.0, 4.0}) EXPECT_TRUE(std::isfinite(spectralRadius(name, w, 0.05))) << name << " " << w;
}

// The matrix is the scheme's own recurrence on its whole state (x, y, history): three steps continued
// from a state with every entry nonzero equal A^3 applied to it, for every registered scheme, undamped
// and damped (verlet, damped, keeps an acceleration that (x, y) do not determine; generalized-alpha and
// HHT always do). Tolerance: A's entries are O(1) at these Omega, so three products carry ~1e-15 of
// round-off; the Newton schemes solve the 1-DOF step to SNES's default rtol 1e-8 from the history's
// initial guess, which bounds their difference instead.
TEST(Amplification, MatrixIsTheContinuedRecurrence) {
  for (const auto &name : schemeNames())
    for (double xi : {0.0, 0.1})
      for (double w : {0.5, 1.5}) {
        const Eigen::MatrixXd A = amplificationMatrix(name, w, xi);
        Eigen::VectorXd s0(A.rows());
        for (Eigen::Index i = 0; i < s0.size(); ++i) s0(i) = 1.0 / double(i + 1) * (i % 2 ? -1 : 1);
        const Eigen::VectorXd expected = A * (A * (A * s0));
        const Eigen::VectorXd got = continuedSteps(name, w, xi, s0, 3);
        // x and y; the history entries an initial guess holds need not agree (the step does not read them).
        EXPECT_NEAR(got(0), expected(0), 1e-8 * std::max(1.0, expected.head(2).cwiseAbs().maxCoeff())) << name << " xi " << xi << " W " << w;
        EXPECT_NEAR(got(1), expected(1), 1e-8 * std::max(1.0, expected.head(2).cwiseAbs().maxCoeff())) << name << " xi " << xi << " W " << w;
      }
}

// Chung-Hulbert's generalized-alpha on the undamped oscillator (h = 1, omega = W), state (x, v, a):
//   x1 = x0 + v0 + (1/2 - beta) a0 + beta a1,   v1 = v0 + (1 - gamma) a0 + gamma a1,
//   (1 - am) a1 + am a0 + W^2 ((1 - af) x1 + af x0) = 0,
// so a1 = -(W^2 x0 + W^2 (1 - af)(v0 + (1/2 - beta) a0) + am a0) / ((1 - am) + W^2 (1 - af) beta).
// rho_inf = 0.8 (the default): am = 0.6/1.8, af = 0.8/1.8, gamma = 1/2 - am + af, beta = (1 - am + af)^2/4.
Eigen::Matrix3d chungHulbert(double w) {
  const double am = 0.6 / 1.8, af = 0.8 / 1.8, gamma = 0.5 - am + af, beta = (1 - am + af) * (1 - am + af) / 4;
  const double d = (1 - am) + w * w * (1 - af) * beta;
  Eigen::Matrix3d A;
  // Row a1 first, then x1 and v1 from it.
  const Eigen::RowVector3d a1(-w * w / d, -w * w * (1 - af) / d, -(w * w * (1 - af) * (0.5 - beta) + am) / d);
  A.row(0) = Eigen::RowVector3d(1, 1, 0.5 - beta) + beta * a1;
  A.row(1) = Eigen::RowVector3d(0, 1, 1 - gamma) + gamma * a1;
  A.row(2) = a1;
  return A;
}

// The measured matrix is that one, and its spectral radius tends to rho_inf as Omega -> infinity (all three
// roots -> -rho_inf; a triple root splits like the cube root of the O(1/W^2) perturbation, so at W = 1e4 it
// is 0.8017), 1 as Omega -> 0, at most 1 between (unconditionally stable). HHT likewise to (1 + alpha)/(1 -
// alpha) = 0.95/1.05 at the default alpha = -0.05. The 2x2 step restarted from (x, y), which the chart
// showed until 2026-11-30, gave 0.985 and 0.965 at Omega = 4 and tends to 1.
TEST(Amplification, GeneralizedAlphaAndHhtReachRhoInfinity) {
  for (double w : {0.5, 1.0, 4.0, 100.0}) {
    const Eigen::MatrixXd A = amplificationMatrix("generalized_alpha", w);
    ASSERT_EQ(A.rows(), 3);
    EXPECT_LT((A - chungHulbert(w)).cwiseAbs().maxCoeff(), 1e-12 * std::max(1.0, w * w)) << "W " << w << "\n" << A;
  }
  EXPECT_NEAR(spectralRadius("generalized_alpha", 1e4), 0.8, 3 * std::cbrt(1e-8));
  EXPECT_NEAR(spectralRadius("hht", 1e4), 0.95 / 1.05, 3 * std::cbrt(1e-8));
  EXPECT_NEAR(spectralRadius("generalized_alpha", 1e12), 0.8, 1e-5);
  for (const char *name : {"generalized_alpha", "hht"}) {
    EXPECT_NEAR(spectralRadius(name, 1e-3), 1.0, 1e-6) << name;
    for (double w : omegas()) EXPECT_LE(spectralRadius(name, w), 1 + 1e-10) << name << " " << w;
    EXPECT_TRUE(std::isinf(criticalOmega(name))) << name;
  }
}

// A zero column or row (an initial guess the step does not read) is removed before the eigenvalues:
// the 3x3 below has eigenvalues 0 and those of [[0, 1], [-1, 0]] (modulus 1).
TEST(Amplification, SpectralRadiusRemovesUnreadEntries) {
  Eigen::MatrixXd A(3, 3);
  A << 0, 0, 1, 5, 0, 7, -1, 0, 0;
  EXPECT_DOUBLE_EQ(spectralRadius(A), 1.0);
  Eigen::MatrixXd B = Eigen::MatrixXd::Zero(3, 3);
  B(0, 0) = 0.5;
  B(1, 1) = -2;
  B(2, 2) = 1.5;
  B(0, 1) = 3;
  EXPECT_NEAR(spectralRadius(B), 2.0, 1e-14);
  EXPECT_TRUE(std::isnan(spectralRadius(Eigen::MatrixXd::Constant(2, 2, NAN))));
  // Why it matters: a defective double root -1 (the central difference at Omega = 2, on (x, x_{n-1}) with
  // y unread) is exact in the closed 2x2 form; a general eigensolver on the 3x3 errs by ~sqrt(eps) = 1e-8,
  // far above criticalOmega's allowance 1e-10.
  const double t = 0.25; // exact in binary, so the closed form sees the double root exactly
  Eigen::MatrixXd J(3, 3);
  J << -1 + t, 0, t, 5, 0, 2, -t, 0, -1 - t;
  EXPECT_NEAR(spectralRadius(J), 1.0, 1e-15);
}

// MAMC is Newmark (1/4, 1/2) in incremental form (reference 000): its recurrence on (x, y, a) also
// carries the out-of-balance r = a + 2 xi W y + W^2 x unchanged (r_{n+1} = r_n: an eigenvalue exactly 1
// at every W), which runs, starting in balance, never excite. The chart's radius leaves it out: MAMC's
// then equals Newmark's to round-off (entries of size W^2: the bound 1e-13 (1 + W^2)); the full matrix
// keeps the 1 (the deflation is not vacuous). Until 2026-12-01 MAMC read 1 at every W with damping.
TEST(Amplification, MamcLeavesOutItsCarriedResidual) {
  for (double xi : {0.0, 0.1, 0.5})
    for (double w : {0.5, 1.0, 3.0, 30.0}) {
      EXPECT_NEAR(spectralRadius("mamc", w, xi), spectralRadius("newmark", w, xi), 1e-13 * (1 + w * w)) << "xi " << xi << " W " << w;
      if (xi > 0) {
        EXPECT_NEAR(spectralRadius(amplificationMatrix("mamc", w, xi)), 1.0, 1e-12 * (1 + w * w)) << "xi " << xi << " W " << w;
        EXPECT_LT(spectralRadius("mamc", w, xi), 0.999) << "xi " << xi << " W " << w;
      }
    }
  // A scheme whose acceleration is not carried that way keeps its matrix (generalized-alpha's 3x3).
  const Eigen::MatrixXd A = amplificationMatrix("generalized_alpha", 4.0, 0.1);
  EXPECT_EQ(withoutCarriedResidual(A, 4.0, 0.1).rows(), A.rows());
}
