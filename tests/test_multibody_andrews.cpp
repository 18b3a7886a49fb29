// IFToMM A03, Andrews' squeezing mechanism (`-model andrews`, Multibody/models/andrews.json written by
// scripts/andrews_model.py), against the Test Set for IVP Solvers (problem andrews, andrews.f; Hairer &
// Wanner, Solving ODE II, sec. VII.7), whose index-3 formulation in seven angles is a second, independent
// formulation of the same mechanism:
//   at t = 0, the model's bodies sit at the Test Set's consistent angles, and the augmented solve gives
//   its consistent accelerations (beta'' = 14222.44..., theta'' = -10666.83..., the others 0), to the
//   round-off of the solve;
//   at t = 0.03 s, RK4 gives the seven angles of the Test Set's reference solution to within its own
//   error, which the order of RK4 estimates from two runs (dt and dt/2: Richardson).
// The angles come from the body orientations: body k turns about z by its absolute angle a_k, and
// beta = a1, theta = a2 - a1, gamma = a3, phi = a4 - a5, delta = a5, omega = a6 - a7, epsilon = a7.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdio>

#include "MultibodyRun.hpp"

using namespace beam::multibody;
using beam::testing_helpers::runMultibody;
using Vector = Eigen::VectorXd;
using Angles = std::array<double, 7>;

namespace {

const char *const kNames[7] = {"beta", "theta", "gamma", "phi", "delta", "omega", "epsilon"};
// Test Set, subroutine INITIAL: y(1..7) and the consistent accelerations y(15), y(16) (y(17..21) = 0).
const Angles kInitial = {-0.0617138900142764496358948458001, 0.0, 0.455279819163070380255912382449,
                         0.222668390165885884674473185609,   0.487364979543842550225598953530,
                         -0.222668390165885884674473185609,  1.23054744454982119249735015568};
const Angles kInitialAcceleration = {14222.4439199541138705911625887, -10666.8329399655854029433719415, 0, 0, 0, 0, 0};
// Test Set, subroutine SOLN: y(1..7) at t = 0.03 s.
const Angles kReference = {0.1581077119629904e+2, -0.1575637105984298e+2, 0.4082224013073101e-1,
                           -0.5347301163226948e+0, 0.5244099658805304e+0, 0.5347301163226948e+0,
                           0.1048080741042263e+1};

// The Test Set's angles from the bodies' absolute angles.
Angles testSetAngles(const Angles &a) { return {a[0], a[1] - a[0], a[2], a[3] - a[4], a[4], a[5] - a[6], a[6]}; }

// Body b's angle about z from its quaternion (cos a/2, 0, 0, sin a/2), taken within 2 pi of `near`
// (the quaternion repeats every 4 pi of a).
double absoluteAngle(const Vector &q, int b, double near) {
  const double raw = 2 * std::atan2(q(7 * b + 6), q(7 * b + 3));
  return raw + 4 * M_PI * std::round((near - raw) / (4 * M_PI));
}

// The z component of 2 Gw(p) r for body b: the rate of its angle about z when r = pdot, and the
// angular acceleration when r = pddot at rest (omega' = 2 Gw(p) pddot + 2 Gw(pdot) pdot, pdot = 0).
double aboutZ(const Vector &q, const Vector &r, int b) {
  return 2 * (worldPhi(q.segment<4>(7 * b + 3)) * r.segment<4>(7 * b + 3))(2);
}

// RK4 from the model's initial state to t = 0.03 s with the step 0.03 / steps; the seven angles, each body's
// angle followed step by step so that the crank's turns are counted.
Angles anglesAtEnd(const MultibodyModel &model, int steps) {
  Angles a{};
  runMultibody(model, "rk4", 0.03 / steps, steps, [&](int, double, const Vector &q, const Vector &) {
    for (int b = 0; b < 7; ++b) a[b] = absoluteAngle(q, b, a[b]);
  });
  return testSetAngles(a);
}

} // namespace

TEST(Andrews, InitialAnglesAndConsistentAccelerations) {
  const MultibodyModel model(loadModel("andrews"), PETSC_COMM_SELF);
  ASSERT_EQ(model.bodyCount(), 7);
  const Vector q = model.initialCoordinates(), qd = Vector::Zero(q.size());
  Angles a{};
  for (int b = 0; b < 7; ++b) a[b] = absoluteAngle(q, b, 0);
  const Angles angles = testSetAngles(a);
  for (int i = 0; i < 7; ++i) EXPECT_NEAR(angles[i], kInitial[i], 4e-16) << kNames[i]; // digits of the file
  const auto c = model.constraints(q, qd);
  // The Test Set's angles are consistent to 30 digits: joint rows at the round-off of 0.1 m, quaternion
  // norms at that of 1.
  EXPECT_LT(c.g.lpNorm<Eigen::Infinity>(), 4 * 2.2e-16);

  const Vector qdd = model.accelerations(0, q, qd);
  Angles add{};
  for (int b = 0; b < 7; ++b) add[b] = aboutZ(q, qdd, b);
  const Angles acc = testSetAngles(add);
  // Round-off of the solve: eps times the condition number of the augmented matrix on its range (the
  // redundant rows of the three planar loops give it a null space) times the largest acceleration, with
  // a factor 10 for the growth over its hundred unknowns.
  const int n = static_cast<int>(q.size()), m = static_cast<int>(c.g.size());
  Eigen::SparseMatrix<double> G(m, n);
  G.setFromTriplets(c.gradient.begin(), c.gradient.end());
  Eigen::MatrixXd K = Eigen::MatrixXd::Zero(n + m, n + m);
  K.topLeftCorner(n, n) = model.massMatrix(q);
  K.bottomLeftCorner(m, n) = Eigen::MatrixXd(G);
  K.topRightCorner(n, m) = Eigen::MatrixXd(G).transpose();
  const Vector sigma = Eigen::JacobiSVD<Eigen::MatrixXd>(K).singularValues();
  const int rank = static_cast<int>((sigma.array() > 1e-10 * sigma(0)).count());
  EXPECT_EQ(rank, n + m - 9); // 30 out-of-plane rows of ten revolute joints on 21 out-of-plane freedoms
  const double tol = 10 * 2.2e-16 * (sigma(0) / sigma(rank - 1)) * std::abs(kInitialAcceleration[0]);
  for (int i = 0; i < 7; ++i) EXPECT_NEAR(acc[i], kInitialAcceleration[i], tol) << kNames[i];
}

TEST(Andrews, AnglesAtThirtyMillisecondsAgainstTheTestSet) {
  const MultibodyModel model(loadModel("andrews"), PETSC_COMM_SELF);
  const int steps = 1500; // dt = 2e-5 s and 1e-5 s
  const Angles coarse = anglesAtEnd(model, steps), fine = anglesAtEnd(model, 2 * steps);
  const double roundoff = 2 * steps * 2.2e-16 * 16; // 3000 steps on angles of up to 16 rad
  for (int i = 0; i < 7; ++i) {
    // RK4: e(dt) = C dt^4, so coarse - fine = (15/16) e(dt) = 15 e(dt/2): the fine run's error is
    // |fine - coarse| / 15. Twice that plus the round-off bounds its distance to the Test Set (whose 16
    // digits are finer than both).
    const double estimate = std::abs(fine[i] - coarse[i]) / 15;
    const double tol = 2 * estimate + roundoff;
    std::printf("%-8s coarse %.13f fine %.13f reference %.13f  error %.2e  estimate %.2e\n", kNames[i], coarse[i],
                fine[i], kReference[i], fine[i] - kReference[i], estimate);
    EXPECT_NEAR(fine[i], kReference[i], tol) << kNames[i];
    // The estimate is only valid if both runs are in RK4's asymptotic range: the coarse error is 16
    // times the fine one.
    const double e1 = std::abs(coarse[i] - kReference[i]), e2 = std::abs(fine[i] - kReference[i]);
    if (e2 > 1e3 * roundoff) {
      EXPECT_NEAR(std::log2(e1 / e2), 4, 0.3) << kNames[i];
    }
  }
}
