// Rigid multibody model (issue 11): quaternion kinematics, the mass matrix and velocity term of eq. 7
// against the kinetic energy, constraint gradients and acceleration right-hand sides against finite
// differences, the pendulum's accelerations against the closed form, projection, bad model files.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>

#include "Multibody/Extent.hpp"
#include "Multibody/MultibodyModel.hpp"
#include "MultibodyRun.hpp"
#include "common/Error.hpp"

using namespace beam::multibody;
using Vector = Eigen::VectorXd;
using beam::testing_helpers::runMultibody;

namespace {

std::mt19937 rng(11);
double uniform() { return std::uniform_real_distribution<double>(-1, 1)(rng); }
Quat randomUnit() {
  Quat p(uniform(), uniform(), uniform(), uniform());
  return p.normalized();
}
Vec3 vee(const Mat3 &s) { return Vec3(s(2, 1), s(0, 2), s(1, 0)); }
Mat3 randomInertia() {
  Mat3 a = Mat3::Random();
  return a * a.transpose() + Mat3::Identity();
}

// Finite-difference step for central differences: error ~ h^2 |f'''| + eps |f| / h.
constexpr double kH = 1e-5;

} // namespace

TEST(Quaternion, PhiIdentities) {
  for (int trial = 0; trial < 20; ++trial) {
    const Quat p = randomUnit(), a(uniform(), uniform(), uniform(), uniform()), b(uniform(), uniform(), uniform(), uniform());
    EXPECT_LT((Phi(p) * p).norm(), 1e-15);
    EXPECT_LT((Phi(a) * b + Phi(b) * a).norm(), 1e-15);
    EXPECT_LT((Phi(p) * Phi(p).transpose() - Mat3::Identity()).norm(), 1e-14);
    const Mat3 R = rotation(p);
    EXPECT_LT((R.transpose() * R - Mat3::Identity()).norm(), 1e-14);
    EXPECT_NEAR(R.determinant(), 1, 1e-14);
    const Quat back = fromRotation(R); // +p or -p: the same rotation
    EXPECT_LT(std::min((back - p).norm(), (back + p).norm()), 1e-12);
  }
}

TEST(Quaternion, AngularVelocityAndPointJacobianAgainstFiniteDifferences) {
  for (int trial = 0; trial < 20; ++trial) {
    const Quat p = randomUnit();
    Quat pd(uniform(), uniform(), uniform(), uniform());
    pd -= p.dot(pd) * p; // tangent: |p| stays 1 to first order
    const Mat3 Rdot = (rotation(p + kH * pd) - rotation(p - kH * pd)) / (2 * kH);
    // Rdot = R [Omega]x = [omega]x R.
    const Vec3 Omega = vee(rotation(p).transpose() * Rdot), omega = vee(Rdot * rotation(p).transpose());
    EXPECT_LT((Omega - 2 * Phi(p) * pd).norm(), 1e-8 * Omega.norm());
    EXPECT_LT((omega - 2 * worldPhi(p) * pd).norm(), 1e-8 * omega.norm());
    // D(p, s) = d(R(p) s)/dp for any p (R is a polynomial in p).
    const Quat q(uniform(), uniform(), uniform(), uniform());
    const Vec3 s(uniform(), uniform(), uniform());
    for (int j = 0; j < 4; ++j) {
      const Quat e = Quat::Unit(j);
      const Vec3 fd = (rotation(q + kH * e) * s - rotation(q - kH * e) * s) / (2 * kH);
      EXPECT_LT((fd - pointJacobian(q, s).col(j)).norm(), 1e-9);
    }
    // pdot = 1/2 Gw^T omega inverts omega = 2 Gw pdot on the tangent space.
    EXPECT_LT((0.5 * worldPhi(p).transpose() * omega - pd).norm(), 1e-8 * pd.norm());
  }
}

TEST(Quaternion, MassMatrixGivesRotationalKineticEnergy) {
  for (int trial = 0; trial < 20; ++trial) {
    const Quat p = randomUnit();
    Quat pd(uniform(), uniform(), uniform(), uniform());
    pd -= p.dot(pd) * p;
    const Mat3 I = randomInertia();
    const Mat3 Rdot = (rotation(p + kH * pd) - rotation(p - kH * pd)) / (2 * kH);
    const Vec3 Omega = vee(rotation(p).transpose() * Rdot); // independent of Phi
    const double U = 0.5 * Omega.dot(I * Omega);
    EXPECT_NEAR(0.5 * pd.dot(rotationalMass(p, I) * pd), U, 1e-8 * U);
  }
}

TEST(Quaternion, VelocityTermIsLagrangesEquation) {
  // J = d/dt (dU/dpdot) - dU/dp at pddot = 0, U(p, pdot) = 1/2 pdot^T M(p) pdot (any p, not only unit).
  for (int trial = 0; trial < 20; ++trial) {
    const Quat p = randomUnit() * (1 + 0.1 * uniform()), pd(uniform(), uniform(), uniform(), uniform());
    const Mat3 I = randomInertia();
    auto U = [&](const Quat &pp) { return 0.5 * pd.dot(rotationalMass(pp, I) * pd); };
    const Quat ddt = (rotationalMass(p + kH * pd, I) - rotationalMass(p - kH * pd, I)) * pd / (2 * kH);
    Quat dUdp;
    for (int j = 0; j < 4; ++j) dUdp(j) = (U(p + kH * Quat::Unit(j)) - U(p - kH * Quat::Unit(j))) / (2 * kH);
    const Quat J = rotationalVelocityTerm(p, pd, I);
    EXPECT_LT((J - (ddt - dUdp)).norm(), 1e-7 * (1 + J.norm()));
  }
}

namespace {

// A model with every joint type between moving bodies and the ground, and a spring.
const char *kAllJoints = R"({
  "gravity": [0, 0, -9.81],
  "bodies": [
    {"name": "a", "mass": 1, "inertia": [0.1, 0.2, 0.3], "position": [0, 0, 0]},
    {"name": "b", "mass": 2, "inertia": [[0.3, 0.01, 0], [0.01, 0.2, 0], [0, 0, 0.15]], "position": [1, 0, 0],
     "orientation": [0.9, 0.1, 0.3, 0.3]},
    {"name": "c", "mass": 1.5, "inertia": [0.1, 0.1, 0.1], "position": [1, 1, 0]},
    {"name": "d", "mass": 1, "inertia": [0.2, 0.1, 0.3], "position": [0, 1, 1]},
    {"name": "e", "mass": 1, "inertia": [0.2, 0.1, 0.3], "position": [2, 1, 1]}],
  "joints": [
    {"type": "spherical", "body1": "ground", "body2": "a", "point": [0, 0, 0.5]},
    {"type": "revolute", "body1": "a", "body2": "b", "point": [0.5, 0, 0], "axis": [0, 1, 1]},
    {"type": "prismatic", "body1": "b", "body2": "c", "point": [1, 0.5, 0], "axis": [0, 1, 0]},
    {"type": "fixed", "body1": "c", "body2": "d", "point": [0.5, 1, 0.5]},
    {"type": "distance", "body1": "d", "body2": "e", "point1": [0, 1, 1.2], "point2": [2, 1, 1]},
    {"type": "revolute", "body1": "ground", "body2": "e", "point": [2, 1, 0], "axis": [1, 0, 0]}],
  "springs": [{"body1": "a", "body2": "e", "point1": [0, 0.1, 0], "point2": [2, 1.1, 1], "stiffness": 10,
               "damping": 0.5}]
})";

Vector randomVector(int n) {
  Vector v(n);
  for (int i = 0; i < n; ++i) v(i) = uniform();
  return v;
}

Eigen::MatrixXd denseGradient(const MultibodyModel::ConstraintValues &c, int columns) {
  Eigen::SparseMatrix<double> G(c.g.size(), columns);
  G.setFromTriplets(c.gradient.begin(), c.gradient.end());
  return Eigen::MatrixXd(G);
}

} // namespace

TEST(Constraints, GradientRateAndRightHandSideAgainstFiniteDifferences) {
  const MultibodyModel model(parseModel(kAllJoints, "all_joints"), PETSC_COMM_SELF);
  ASSERT_EQ(model.jointRowCount(), 3 + 5 + 5 + 6 + 1 + 5);
  const int n = 7 * model.bodyCount();
  for (int trial = 0; trial < 3; ++trial) {
    // Away from the constraints, so nothing vanishes by accident.
    const Vector q = model.initialCoordinates() + 0.2 * randomVector(n), qd = randomVector(n), qdd = randomVector(n);
    const auto c = model.constraints(q, qd);
    const Eigen::MatrixXd G = denseGradient(c, n);
    const Vector zero = Vector::Zero(n);
    for (int j = 0; j < n; ++j) {
      const Vector e = Vector::Unit(n, j);
      const Vector fd = (model.constraints(q + kH * e, zero).g - model.constraints(q - kH * e, zero).g) / (2 * kH);
      EXPECT_LT((fd - G.col(j)).lpNorm<Eigen::Infinity>(), 1e-8) << "column " << j;
    }
    EXPECT_LT((G * qd - c.gdot).lpNorm<Eigen::Infinity>(), 1e-13);
    // Along q(t) = q + t qd + t^2/2 qdd: gddot(0) = G qdd - L.
    const double h = 1e-4;
    auto g = [&](double t) { return model.constraints(q + t * qd + 0.5 * t * t * qdd, zero).g; };
    const Vector gdd = (g(h) - 2 * g(0) + g(-h)) / (h * h);
    EXPECT_LT((gdd - (G * qdd - c.rhs)).lpNorm<Eigen::Infinity>(), 1e-5);
  }
}

// A fixed joint takes all six freedoms: its six rows independent (with a wrong third orientation row
// they kept rank 5 and the body spun under a torque), a body fixed to the ground does not move.
TEST(Constraints, FixedJointHoldsEveryFreedom) {
  const MultibodyModel model(parseModel(R"({"bodies": [{"name": "b", "mass": 2, "inertia": [0.1, 0.2, 0.25], "position": [1, 2, 3],
                                              "orientation": [0.9, 0.1, 0.3, 0.3], "angular_velocity": [0, 0, 0]}],
                                            "joints": [{"type": "fixed", "body1": "ground", "body2": "b", "point": [1, 2, 2.5]}],
                                            "torques": [{"body": "b", "torque": [1, -2, 3]}]})", "fixed"),
                             PETSC_COMM_SELF);
  ASSERT_EQ(model.jointRowCount(), 6);
  const Vector q = model.initialCoordinates(), qd = Vector::Zero(7);
  const auto c = model.constraints(q, qd);
  EXPECT_EQ(Eigen::FullPivLU<Eigen::MatrixXd>(denseGradient(c, 7)).rank(), 7); // six joint rows and the norm row
  EXPECT_LT(model.accelerations(0, q, qd).lpNorm<Eigen::Infinity>(), 1e-12);
  for (int trial = 0; trial < 3; ++trial) { // and away from the initial pose
    const Vector moved = q + 0.2 * randomVector(7);
    EXPECT_EQ(Eigen::FullPivLU<Eigen::MatrixXd>(denseGradient(model.constraints(moved, qd), 7)).rank(), 7);
  }
}

TEST(Constraints, JointsHoldAtTheInitialPose) {
  const MultibodyModel model(parseModel(kAllJoints, "all_joints"), PETSC_COMM_SELF);
  const auto c = model.constraints(model.initialCoordinates(), model.initialRates());
  EXPECT_LT(c.g.lpNorm<Eigen::Infinity>(), 1e-14);
}

TEST(Pendulum, AccelerationAgainstClosedForm) {
  // IFToMM A01: 1 kg on a massless 1 m bar. At angle th from the downward vertical with speed u along
  // the circle: radial acceleration u^2/L towards the pivot, tangential -g sin(th).
  const MultibodyModel model(loadModel("pendulum"), PETSC_COMM_SELF);
  const double g = 9.81, L = 1;
  for (double th : {M_PI / 2, 0.3, -1.2, 2.5})
    for (double u : {0.0, 1.5, -3.0}) {
      Vector q = model.initialCoordinates(), qd = Vector::Zero(7);
      const Vec3 radial(std::sin(th), -std::cos(th), 0), tangent(std::cos(th), std::sin(th), 0);
      q.head<3>() = L * radial;
      qd.head<3>() = u * tangent;
      const Vector a = model.accelerations(0, q, qd);
      const Vec3 expected = -u * u / L * radial - g * std::sin(th) * tangent;
      EXPECT_LT((a.head<3>() - expected).norm(), 1e-12 * (1 + u * u)) << "th " << th << " u " << u;
      EXPECT_LT(a.tail<4>().norm(), 1e-12); // the bob's orientation is free and at rest
    }
}

TEST(Pendulum, ReleaseFromHorizontal) {
  const MultibodyModel model(loadModel("pendulum"), PETSC_COMM_SELF);
  const Vector a = model.accelerations(0, model.initialCoordinates(), model.initialRates());
  EXPECT_NEAR(a(0), 0, 1e-14);
  EXPECT_NEAR(a(1), -9.81, 1e-13);
  EXPECT_NEAR(model.potential(model.initialCoordinates()), 0, 1e-15);
}

TEST(Multibody, AccelerationsSatisfyTheAugmentedSystem) {
  // M qdd + G^T lambda = F - J and G qdd = L + W: qdd must make F - J - M qdd a combination of G's rows.
  const MultibodyModel model(parseModel(kAllJoints, "all_joints"), PETSC_COMM_SELF, Baumgarte{1, 5});
  const int n = 7 * model.bodyCount();
  const Vector q = model.initialCoordinates() + 0.01 * randomVector(n), qd = randomVector(n);
  const Vector a = model.accelerations(0, q, qd);
  const auto c = model.constraints(q, qd);
  const Eigen::MatrixXd G = denseGradient(c, n);
  EXPECT_LT((G * a - (c.rhs - 2 * 5 * c.gdot - 25 * c.g)).lpNorm<Eigen::Infinity>(), 1e-9);
  const Vector residual = model.forces(q, qd) - model.massMatrix(q) * a;
  const Vector lambda = G.transpose().colPivHouseholderQr().solve(residual);
  EXPECT_LT((G.transpose() * lambda - residual).norm(), 1e-8 * (1 + residual.norm()));
}

TEST(Multibody, SpringForceIsMinusTheGradientOfItsEnergy) {
  const MultibodyModel model(parseModel(kAllJoints, "all_joints"), PETSC_COMM_SELF);
  const int n = 7 * model.bodyCount();
  const Vector q = model.initialCoordinates() + 0.1 * randomVector(n), zero = Vector::Zero(n);
  const Vector F = model.forces(q, zero); // J = 0 at rest: gravity and springs
  for (int j = 0; j < n; ++j) {
    const Vector e = Vector::Unit(n, j);
    const double dV = (model.potential(q + kH * e) - model.potential(q - kH * e)) / (2 * kH);
    EXPECT_NEAR(F(j), -dV, 1e-7) << "coordinate " << j;
  }
}

TEST(Multibody, TorqueDoesThePowerTorqueDotOmega) {
  // A world torque tau on a body supplies the power tau . omega; omega from finite differences of R.
  const MultibodyModel model(parseModel(R"({"gravity": [0, 0, 0], "bodies": [{"name": "b", "mass": 1,
      "inertia": [1, 2, 3], "position": [0, 0, 0]}], "torques": [{"body": "b", "torque": [0.3, -1, 2]}]})", "torque"),
                             PETSC_COMM_SELF);
  for (int trial = 0; trial < 10; ++trial) {
    Vector q = Vector::Zero(7), qd = Vector::Zero(7);
    const Quat p = randomUnit();
    Quat pd(uniform(), uniform(), uniform(), uniform());
    pd -= p.dot(pd) * p;
    q.tail<4>() = p;
    qd.tail<4>() = pd;
    const Mat3 Rdot = (rotation(p + kH * pd) - rotation(p - kH * pd)) / (2 * kH);
    const Vec3 omega = vee(Rdot * rotation(p).transpose());
    const double power = Vec3(0.3, -1, 2).dot(omega);
    EXPECT_NEAR(model.torqueForces(q).dot(qd), power, 1e-8 * (1 + std::abs(power)));
    EXPECT_LT((model.forces(q, Vector::Zero(7)) - model.torqueForces(q)).norm(), 1e-15); // no gravity, at rest
  }
}

TEST(Multibody, ProjectionRestoresTheConstraints) {
  const MultibodyModel model(parseModel(kAllJoints, "all_joints"), PETSC_COMM_SELF);
  const int n = 7 * model.bodyCount();
  Vector q = model.initialCoordinates() + 1e-3 * randomVector(n), qd = randomVector(n);
  model.project(q, qd);
  const auto c = model.constraints(q, qd);
  EXPECT_LT(c.g.lpNorm<Eigen::Infinity>(), 1e-13);
  EXPECT_LT(c.gdot.lpNorm<Eigen::Infinity>(), 1e-12);
}

TEST(Multibody, RedundantPlanarLoopAndSparseChain) {
  // A02: planar loops of 3D revolute joints are redundant (dependent rows dropped); the chain above the dense
  // limit goes through the sparse LU. Both must meet G qdd = L at a consistent state.
  for (const char *name : {"n_four_bar", "slider_crank", "chain"}) {
    const MultibodyModel model(loadModel(name, 40), PETSC_COMM_SELF);
    const int n = 7 * model.bodyCount();
    Vector q = model.initialCoordinates(), qd = model.initialRates();
    model.project(q, qd);
    const Vector a = model.accelerations(0, q, qd);
    const auto c = model.constraints(q, qd);
    EXPECT_LT((denseGradient(c, n) * a - c.rhs).lpNorm<Eigen::Infinity>(), 1e-8) << name;
  }
}

// Redundant joints above the dense size: three A02 four-bars side by side (225 unknowns, 18 dependent
// rows) went to the sparse LU, which met a zero pivot (exit 3 until 2026-11-28). Now G's dependent rows
// are found (sparse QR) and dropped: each copy moves as the lone four-bar of the dense solve, whose
// accelerations it must match to the round-off of the two solves: eps times the augmented matrix's
// condition on its range (1e3 to 1e4 here, the Andrews test's estimate) times the largest acceleration,
// with a factor 10 for the growth over the elimination. Also tilted (30 degrees about (1, 1, 1), gravity
// too): the loops' dependent rows then give the LU round-off pivots instead of zeros, and a solve that
// waited for a zero pivot diverged in the first step.
TEST(Multibody, RedundantLoopsAboveTheDenseSize) {
  for (const double degrees : {0.0, 30.0}) {
    const Quat turn(std::cos(degrees * M_PI / 360), 0, 0, 0);
    Quat r = turn;
    r.tail<3>() = std::sin(degrees * M_PI / 360) * Vec3(1, 1, 1).normalized();
    const Mat3 R = rotation(r);
    const Description lone = loadModel("n_four_bar");
    auto placed = [&](int copies) { // `copies` four-bars 2 m apart along z, all turned by r
      Description d = lone;
      d.source = "four_bars_" + std::to_string(copies) + "_turned_" + std::to_string(int(degrees));
      d.bodies.clear();
      d.joints.clear();
      d.gravity = R * lone.gravity;
      const int per_copy = static_cast<int>(lone.bodies.size());
      for (int k = 0; k < copies; ++k) {
        const Vec3 shift(0, 0, 2.0 * k);
        for (Body b : lone.bodies) {
          b.name += "_" + std::to_string(k);
          b.position = R * (b.position + shift);
          b.orientation = fromRotation(R * rotation(b.orientation));
          b.velocity = R * b.velocity;
          b.angular_velocity = R * b.angular_velocity;
          d.bodies.push_back(b);
        }
        for (Joint j : lone.joints) {
          for (int *body : {&j.body1, &j.body2})
            if (*body != kGround) *body += k * per_copy;
          j.point = R * (j.point + shift);
          j.axis = R * j.axis;
          d.joints.push_back(j);
        }
      }
      return d;
    };
    const MultibodyModel one(placed(1), PETSC_COMM_SELF), three(placed(3), PETSC_COMM_SELF);
    const int n1 = 7 * one.bodyCount();
    Vector q1 = one.initialCoordinates(), qd1 = one.initialRates();
    one.project(q1, qd1);
    const Vector a1 = one.accelerations(0, q1, qd1);
    Vector q3(3 * n1), qd3(3 * n1);
    for (int k = 0; k < 3; ++k) {
      q3.segment(k * n1, n1) = q1;
      qd3.segment(k * n1, n1) = qd1;
      for (int b = 0; b < one.bodyCount(); ++b) q3.segment<3>(k * n1 + 7 * b) += R * Vec3(0, 0, 2.0 * k);
    }
    ASSERT_FALSE(MultibodyModel::solvesDense(q3.size() + three.constraints(q3, qd3).g.size()));
    testing::internal::CaptureStderr();
    const Vector a3 = three.accelerations(0, q3, qd3);
    const std::string warning = testing::internal::GetCapturedStderr();
    EXPECT_NE(warning.find("redundant constraints (102 of 120 constraint rows independent)"), std::string::npos) << warning;
    const double tol = 10 * 2.2e-16 * 1e4 * a1.lpNorm<Eigen::Infinity>();
    double worst = 0;
    for (int k = 0; k < 3; ++k) worst = std::max(worst, (a3.segment(k * n1, n1) - a1).lpNorm<Eigen::Infinity>());
    std::printf("three four-bars turned %g degrees: largest acceleration %.3g, largest difference from the lone one %.3g "
                "(tolerance %.3g)\n", degrees, a1.lpNorm<Eigen::Infinity>(), worst, tol);
    EXPECT_LT(worst, tol) << degrees << " degrees";
    // A state run away (a quaternion of 1e154, whose velocity terms overflow to inf) after the LU's zero
    // pivot: one error, not a crash (the rank decision was skipped and an empty solution read).
    Vector runaway = q3;
    runaway(3) *= 1e154;
    EXPECT_THROW(three.accelerations(0, runaway, qd3), beam::Error) << degrees << " degrees";
    // The motion: RK4 stages sit off the constraints, where the loops' rows are dependent only to
    // O(dt^2); an LU of all rows then met tiny pivots, not zeros, and the tilted copies' run diverged in
    // its first step. 200 steps (0.2 s, far from the singular configurations at 2.7 s): each copy ends
    // where the lone four-bar does, to the round-off of 800 solves (1e-14 each, measured 1e-13 in all).
    Vector end1, end3;
    runMultibody(one, "rk4", 1e-3, 200, [&](int, double, const Vector &q, const Vector &) { end1 = q; });
    runMultibody(three, "rk4", 1e-3, 200, [&](int, double, const Vector &q, const Vector &) { end3 = q; });
    double apart = 0;
    for (int k = 0; k < 3; ++k)
      for (int b = 0; b < one.bodyCount(); ++b) {
        apart = std::max(apart, (end3.segment<3>(k * n1 + 7 * b) - R * Vec3(0, 0, 2.0 * k) - end1.segment<3>(7 * b)).lpNorm<Eigen::Infinity>());
        apart = std::max(apart, (end3.segment<4>(k * n1 + 7 * b + 3) - end1.segment<4>(7 * b + 3)).lpNorm<Eigen::Infinity>());
      }
    std::printf("  after 200 steps: largest difference of a copy from the lone four-bar %.3g\n", apart);
    EXPECT_LT(apart, 1e-10) << degrees << " degrees";
  }
}

// The rows dropped at one state are tried first at the next (planar loops keep them dependent), and
// taken only if the reduced solution solves the whole system: a 20-link chain pinned at both ends is
// singular stretched straight (a row dropped there), not once it is moved; there its accelerations must
// be those of a model that never dropped a row (with the reduced solution taken unchecked they ignored
// the dropped row's joint: 2 to 16 off, the largest acceleration 60 to 105).
TEST(Multibody, DroppedRowsDoNotOutliveTheirState) {
  Description d = loadModel("chain", 20);
  Joint end;
  end.type = Joint::Type::Spherical;
  end.body1 = 19;
  end.body2 = kGround;
  end.point = Vec3(2.0, 0, 0);
  d.joints.push_back(end);
  const MultibodyModel reused(d, PETSC_COMM_SELF), fresh(d, PETSC_COMM_SELF);
  const int n = 7 * reused.bodyCount();
  ASSERT_FALSE(MultibodyModel::solvesDense(n + reused.jointRowCount() + reused.bodyCount()));
  try {
    reused.accelerations(0, reused.initialCoordinates(), Vector::Zero(n)); // straight: a row dropped
  } catch (const beam::Error &) {
  }
  for (int trial = 0; trial < 3; ++trial) {
    const Vector q = reused.initialCoordinates() + 0.05 * randomVector(n), qd = randomVector(n);
    const Vector expected = fresh.accelerations(0, q, qd), got = reused.accelerations(0, q, qd);
    EXPECT_LT((got - expected).lpNorm<Eigen::Infinity>(), 1e-12 * expected.lpNorm<Eigen::Infinity>()) << "trial " << trial;
  }
}

TEST(Multibody, HeavyTopInitialEnergy) {
  const MultibodyModel model(loadModel("heavy_top"), PETSC_COMM_SELF);
  const Vector q = model.initialCoordinates(), qd = model.initialRates();
  // Spin 50 rad/s about the symmetry axis (I3 = 0.005): T = 1/2 I3 50^2; V = m g z_cm.
  EXPECT_NEAR(model.kinetic(q, qd), 0.5 * 0.005 * 2500, 1e-12);
  EXPECT_NEAR(model.potential(q), 9.81 * 0.3 * std::cos(M_PI / 6), 1e-12);
  EXPECT_LT((model.angularVelocity(q, qd, 0) - 50 * Vec3(0, -0.5, std::cos(M_PI / 6))).norm(), 1e-12);
  // Spinning about its axis through the fixed point, the centre is at rest: L = I3 * 50 along the axis.
  EXPECT_LT((model.angularMomentum(q, qd) - 0.005 * 50 * Vec3(0, -0.5, std::cos(M_PI / 6))).norm(), 1e-12);
}

TEST(Multibody, VecInterfaceMatchesTheArrays) {
  const MultibodyModel model(loadModel("double_pendulum"), PETSC_COMM_WORLD);
  beam::PVec x = model.createVector(), v = model.createVector(), a = model.createVector();
  model.initialState(x, v);
  model.acceleration(0, x, v, a);
  std::vector<double> parts, diag;
  model.storedEnergy(0, x, v, parts);
  model.diagnostics(0, x, v, diag);
  ASSERT_EQ(parts.size(), 2u);
  ASSERT_EQ(diag.size(), 3u);
  EXPECT_NEAR(parts[0], 0, 1e-15);
  EXPECT_NEAR(parts[1], 0, 1e-15);
  EXPECT_LT(diag[0], 1e-15);
  beam::Drawing drawing;
  model.draw(x, v, drawing);
  int rank = 0;
  MPI_Comm_rank(PETSC_COMM_WORLD, &rank);
  if (rank == 0) {
    const Vector expected = model.accelerations(0, model.initialCoordinates(), model.initialRates());
    const PetscScalar *values = nullptr;
    BEAM_PETSC(VecGetArrayRead(a, &values));
    for (int i = 0; i < 14; ++i) EXPECT_NEAR(values[i], expected(i), 1e-14);
    BEAM_PETSC(VecRestoreArrayRead(a, &values));
    EXPECT_EQ(drawing.cell_types.size() + 1, drawing.offsets.size());
    EXPECT_EQ(drawing.cell_data.at(0).values.size(), drawing.cell_types.size());
    EXPECT_EQ(drawing.cell_types.size(), 2u * 6 + 2 * 2); // two boxes, two revolute joints (point + axis)
  }
}

namespace {

void expectRejected(const std::string &json, const std::string &fragment) {
  try {
    parseModel(json, "bad.json");
    ADD_FAILURE() << "accepted: " << json;
  } catch (const beam::Error &e) {
    EXPECT_EQ(e.exitCode(), beam::kExitBadInput);
    EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
    EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos) << e.what();
  }
}

std::string oneBody(const std::string &body, const std::string &joints = "[]") {
  return R"({"bodies": [)" + body + R"(], "joints": )" + joints + "}";
}

const std::string kGood = R"({"name": "b", "mass": 1, "inertia": [1, 1, 1], "position": [0, 0, 0]})";

} // namespace

TEST(ModelFile, BadInputIsOneLineNamingTheProblem) {
  expectRejected("{\"bodies\": [", "malformed JSON");
  expectRejected(oneBody(kGood, R"([{"type": "spherical", "body1": "ground", "body2": "nobody", "point": [0,0,0]}])"),
                 "\"nobody\" is not a body");
  expectRejected(oneBody(R"({"name": "b", "mass": 0, "inertia": [1, 1, 1], "position": [0, 0, 0]})"), "mass 0 is out of range; accepted: a real > 0");
  // Below the smallest double, or above the largest: named with the line (1e-400 read as 0, a position
  // component silently, until 2026-11-30; 1e400 was "malformed JSON").
  expectRejected(oneBody(R"({"name": "b", "mass": 1e-400, "inertia": [1, 1, 1], "position": [0, 0, 0]})"),
                 "model bad.json: line 1: the number '1e-400' underflows a double: its magnitude is below 2.2e-308");
  expectRejected(oneBody(R"({"name": "b", "mass": 1,
      "inertia": [1, 1, 1], "position": [0, -1e-400, 0]})"),
                 "line 2: the number '-1e-400' underflows a double");
  expectRejected(oneBody(R"({"name": "b", "mass": 1E+400, "inertia": [1, 1, 1], "position": [0, 0, 0]})"),
                 "the number '1E+400' overflows a double: its magnitude is above 1.8e308");
  // In a string it is no number; 0e-400 is 0.
  expectRejected(oneBody(R"({"name": "b\\\\1e-400", "mass": 0, "inertia": [1, 1, 1], "position": [0, 0, 0]})"),
                 "mass 0 is out of range; accepted: a real > 0");
  EXPECT_NO_THROW(parseModel(oneBody(R"({"name": "b", "mass": 1, "inertia": [1, 1, 1], "position": [0, 0e-400, 0]})"), "ok.json"));
  expectRejected(oneBody(R"({"name": "b", "mass": -1, "inertia": [1, 1, 1], "position": [0, 0, 0]})"), "mass -1 is out of range; accepted: a real > 0");
  expectRejected(oneBody(R"({"name": "b", "mass": 1, "inertia": [1, -1, 1], "position": [0, 0, 0]})"), "positive definite");
  expectRejected(oneBody(R"({"name": "b", "mass": 1, "inertia": [[1, 2, 0], [2, 1, 0], [0, 0, 1]], "position": [0, 0, 0]})"),
                 "positive definite");
  expectRejected(oneBody(kGood, R"([{"type": "revolute", "body1": "ground", "body2": "b", "point": [0,0,0], "axis": [0,0,0]}])"),
                 "axis must be a non-zero vector");
  expectRejected(oneBody(R"({"name": "b", "mass": 1, "inertia": [1, 1, 1], "position": [0, 0, 0], "orientation": [2, 0, 0, 0]})"),
                 "unit quaternion");
  expectRejected(oneBody(R"({"name": "b", "mass": 1, "inertia": [1, 1, 1], "position": [0, 0, 0], "colour": 1})"),
                 "unknown key \"colour\"");
  expectRejected(oneBody(kGood, R"([{"type": "hinge", "body1": "ground", "body2": "b", "point": [0,0,0]}])"),
                 "type \"hinge\" unknown");
  // A joint without its type, or a type that is no string, named as such (read as type "" until 2026-12-01).
  expectRejected(oneBody(kGood, R"([{"body1": "ground", "body2": "b", "point": [0,0,0]}])"), "no \"type\"; accepted");
  expectRejected(oneBody(kGood, R"([{"type": 3, "body1": "ground", "body2": "b", "point": [0,0,0]}])"), "\"type\" is not a string");
  expectRejected(R"({"bodies": []})", "non-empty");
  // Duplicate keys: nlohmann keeps the last ("gravity" twice ran without gravity, exit 0).
  expectRejected(R"({"gravity": [0, -9.81, 0], "gravity": [0, 0, 0], "bodies": [)" + kGood + "]}",
                 "the key \"gravity\" appears twice in one object");
  expectRejected(oneBody(R"({"name": "b", "mass": 5, "mass": 1, "inertia": [1, 1, 1], "position": [0, 0, 0]})"),
                 "the key \"mass\" appears twice");
  expectRejected(oneBody(R"({"name": "b", "mass": 1, "inertia": [1, 1, 3], "position": [0, 0, 0]})"),
                 "exceeds the sum of the other two");
  expectRejected(oneBody(R"({"name": "b", "mass": 1, "inertia": [1, 1, 1]})"), "missing \"position\"");
  expectRejected(oneBody(R"({"name": "b", "mass": 1, "inertia": [1, 1, 1], "position": [0, "x", 0]})"), "must be a number");
  const std::string torques = R"({"bodies": [)" + kGood + R"(], "torques": )";
  expectRejected(torques + R"([{"body": "ground", "torque": [0, 0, 1]}]})", "torques[0]: body must be a body name");
  expectRejected(torques + R"([{"body": "c", "torque": [0, 0, 1]}]})", "body \"c\" is not a body");
  expectRejected(torques + R"([{"body": "b", "torque": [0, 1]}]})", "torque must be an array of 3 numbers");
  expectRejected(torques + R"([{"body": "b"}]})", "missing \"torque\"");
  expectRejected(torques + R"([{"body": "b", "torque": [0, 0, 1], "frame": "body"}]})", "unknown key \"frame\"");
  expectRejected(torques + R"({"body": "b", "torque": [0, 0, 1]}})", "\"torques\" must be an array");
  // Found by an audit (2026-11-27), each exit 0 before: a non-symmetric inertia at 1e200 or 1e-170 (its
  // norms overflowed or underflowed; the body gained energy), a distance joint whose length squared
  // overflows (NaN violations, gravity ignored), a name that split the -save_final CSV's row, a key of
  // another joint type read by nobody.
  expectRejected(oneBody(R"({"name": "b", "mass": 1, "inertia": [[1e200, 1e200, 0], [0, 1e200, 0], [0, 0, 1e200]], "position": [0, 0, 0]})"),
                 "inertia must be symmetric");
  expectRejected(oneBody(R"({"name": "b", "mass": 1, "inertia": [[1e-170, 1e-170, 0], [0, 1e-170, 0], [0, 0, 1e-170]], "position": [0, 0, 0]})"),
                 "inertia must be symmetric");
  expectRejected(oneBody(kGood, R"([{"type": "distance", "body1": "ground", "body2": "b", "point1": [-1e160, 0, 0], "point2": [1e160, 0, 0]}])"),
                 "point1 and point2 are too far apart; accepted: a length below 1e150");
  for (const char *name : {R"(a,b)", R"(a\"b)", R"(a\nb)", R"(a\u0000b)"}) // JSON escapes
    expectRejected(oneBody(std::string(R"({"name": ")") + name + R"(", "mass": 1, "inertia": [1, 1, 1], "position": [0, 0, 0]})"),
                   "the name has a comma, a quote or a control character");
  expectRejected(oneBody(kGood, R"([{"type": "spherical", "body1": "ground", "body2": "b", "point": [0,0,0], "axis": [0,0,1]}])"),
                 "\"axis\" does not apply to a spherical joint; accepted: point");
  expectRejected(oneBody(kGood, R"([{"type": "distance", "body1": "ground", "body2": "b", "point": [0,0,0], "point1": [0,0,0], "point2": [1,0,0]}])"),
                 "\"point\" does not apply to a distance joint; accepted: point1, point2");
  expectRejected(oneBody(kGood, R"([{"type": "revolute", "body1": "ground", "body2": "b", "point": [0,0,0], "axis": [0,0,1], "point2": [1,0,0]}])"),
                 "\"point2\" does not apply to a revolute joint; accepted: point, axis");
  try {
    loadModel("no_such_model");
    ADD_FAILURE();
  } catch (const beam::Error &e) {
    EXPECT_NE(std::string(e.what()).find("pendulum"), std::string::npos);
  }
  EXPECT_THROW(loadModel("/nonexistent/m.json"), beam::Error);
  EXPECT_THROW(loadModel("/tmp/"), beam::Error);
}

// Each rule of the reader pinned by its own case (a mutation audit, 2026-11-28, removed each check and
// no test failed): springs' signs, a link from a body to itself, names, repeated joints, the quaternion
// and triangle tolerances, shapes, a distance joint of zero length.
TEST(ModelFile, EachRuleRefusesItsCase) {
  const std::string two = R"({"name": "b", "mass": 1, "inertia": [1, 1, 1], "position": [0, 0, 0]},
                             {"name": "c", "mass": 1, "inertia": [1, 1, 1], "position": [1, 0, 0]})";
  auto springs = [&](const std::string &extra) {
    return R"({"bodies": [)" + two + R"(], "springs": [{"body1": "b", "body2": "c", "point1": [0,0,0], "point2": [1,0,0])" +
           extra + "}]}";
  };
  for (const char *key : {"stiffness", "damping", "rest_length"})
    expectRejected(springs(std::string(", \"") + key + "\": -1"), "stiffness, damping and rest_length must be >= 0");
  expectRejected(R"({"bodies": [)" + two + R"(], "springs": [{"body1": "b", "body2": "b", "point1": [0,0,0], "point2": [1,0,0]}]})",
                 "springs[0]: body1 and body2 must differ");
  expectRejected(oneBody(kGood, R"([{"type": "spherical", "body1": "b", "body2": "b", "point": [0,0,0]}])"),
                 "joints[0]: body1 and body2 must differ");
  expectRejected(oneBody(kGood + "," + kGood), "bodies[1]: duplicate body name \"b\"");
  // The same revolute joint again, its bodies swapped and its axis negated.
  expectRejected(R"({"bodies": [)" + two + R"(], "joints": [
                     {"type": "revolute", "body1": "b", "body2": "c", "point": [0.5,0,0], "axis": [0,0,1]},
                     {"type": "revolute", "body1": "c", "body2": "b", "point": [0.5,0,0], "axis": [0,0,-1]}]})",
                 "joints[1]: the same joint as joints[0]");
  // 1e-3 of 1 is normalized, beyond it refused.
  auto oriented = [](const char *q) {
    return oneBody(std::string(R"({"name": "b", "mass": 1, "inertia": [1, 1, 1], "position": [0, 0, 0], "orientation": )") + q + "}");
  };
  expectRejected(oriented("[1.01, 0, 0, 0]"), "unit quaternion");
  EXPECT_NO_THROW(parseModel(oriented("[1.0009, 0, 0, 0]"), "x"));
  // The triangle inequality of principal moments, just beyond the flat body's boundary.
  expectRejected(oneBody(R"({"name": "b", "mass": 1, "inertia": [1, 1, 2.001], "position": [0, 0, 0]})"),
                 "exceeds the sum of the other two");
  auto shaped = [](const char *shape) {
    return oneBody(std::string(R"({"name": "b", "mass": 1, "inertia": [1, 1, 1], "position": [0, 0, 0], "shape": )") + shape + "}");
  };
  expectRejected(shaped(R"({"box": [1, 0, 1]})"), "shape dimensions must be > 0");
  expectRejected(shaped(R"({"sphere": 0})"), "shape dimensions must be > 0");
  expectRejected(shaped(R"({"cylinder": [0.1, 0]})"), "shape dimensions must be > 0");
  expectRejected(shaped(R"({"box": [1, 1, 1], "sphere": 1})"), "shape must have exactly one of box, sphere, cylinder");
  expectRejected(oneBody(kGood, R"([{"type": "distance", "body1": "ground", "body2": "b", "point1": [1,2,3], "point2": [1,2,3]}])"),
                 "point1 and point2 must differ");
}

// What the reader fills in: a spring's rest length is its initial length (no initial force, no
// potential), gravity is -9.81 along z, shapes keep their dimensions.
TEST(ModelFile, DefaultsAreTheDocumentedOnes) {
  const Description d = parseModel(R"({"bodies": [{"name": "b", "mass": 1, "inertia": [1, 1, 1], "position": [0, 0, 0],
                                         "shape": {"cylinder": [0.1, 2]}},
                                        {"name": "c", "mass": 1, "inertia": [1, 1, 1], "position": [3, 4, 0]}],
                                       "springs": [{"body1": "b", "body2": "c", "point1": [0,0,0], "point2": [3,4,0], "stiffness": 10}]})",
                                   "x");
  EXPECT_EQ(d.gravity, Vec3(0, 0, -9.81));
  ASSERT_EQ(d.springs.size(), 1u);
  EXPECT_EQ(d.springs[0].rest_length, 5.0);
  EXPECT_EQ(d.springs[0].damping, 0.0);
  EXPECT_EQ(d.bodies[0].shape.kind, Shape::Kind::Cylinder);
  EXPECT_EQ(d.bodies[0].shape.size, Vec3(0.1, 2, 0));
  const MultibodyModel model(d, PETSC_COMM_SELF);
  EXPECT_EQ(model.potential(model.initialCoordinates()), 0.0); // at the origin's height, the spring at its rest length
}

// The chain's rods: 0.1 kg, 0.1 m, radius 5 mm, a solid cylinder's inertia about the rod's centre.
TEST(ModelFile, ChainRodsAreSolidCylinders) {
  const Description d = loadModel("chain", 3);
  ASSERT_EQ(d.bodies.size(), 3u);
  const double m = 0.1, l = 0.1, r = 0.005;
  for (const Body &b : d.bodies) {
    EXPECT_EQ(b.mass, m);
    EXPECT_NEAR(b.inertia(0, 0), m * (3 * r * r + l * l) / 12, 1e-18);
    EXPECT_NEAR(b.inertia(1, 1), m * (3 * r * r + l * l) / 12, 1e-18);
    EXPECT_NEAR(b.inertia(2, 2), m * r * r / 2, 1e-20);
    EXPECT_EQ(b.shape.kind, Shape::Kind::Cylinder);
  }
  EXPECT_EQ(d.gravity, Vec3(0, 0, -9.81));
  EXPECT_NEAR(d.bodies[2].position.x(), 0.25, 1e-15);
}

// A direction is a direction at any scale: [0, 1e160, 1e160] overflowed its norm, the axis became 0 and
// the joint lost its axis constraint (a redundant-constraint warning, exit 0).
TEST(ModelFile, HugeAndTinyAxesAreDirections) {
  for (const char *axis : {"[0, 1e160, 1e160]", "[0, 1e-300, 1e-300]", "[0, 1, 1]"}) {
    const Description d = parseModel(
        oneBody(kGood, std::string(R"([{"type": "revolute", "body1": "ground", "body2": "b", "point": [0,0,0], "axis": )") + axis + "}]"), "x");
    EXPECT_NEAR(d.joints[0].axis.y(), std::sqrt(0.5), 1e-15) << axis;
    EXPECT_NEAR(d.joints[0].axis.z(), std::sqrt(0.5), 1e-15) << axis;
    EXPECT_EQ(d.joints[0].axis.x(), 0.0) << axis;
  }
  // Flat bodies sit on the boundary: I3 = I1 + I2.
  EXPECT_NO_THROW(parseModel(oneBody(R"({"name": "b", "mass": 1, "inertia": [1, 2, 3], "position": [0, 0, 0]})"), "x"));
}

TEST(ModelFile, NearlyUnitQuaternionIsNormalized) {
  const Description d =
      parseModel(oneBody(R"({"name": "b", "mass": 1, "inertia": [1, 1, 1], "position": [0, 0, 0], "orientation": [0.7071, 0.7071, 0, 0]})"), "x");
  EXPECT_NEAR(d.bodies[0].orientation.norm(), 1, 1e-15);
}

TEST(ModelFile, EveryBuiltInModelLoads) {
  for (const char *name : {"pendulum", "n_four_bar", "andrews", "double_pendulum", "slider_crank", "heavy_top", "free_body", "chain"}) {
    const MultibodyModel model(loadModel(name, 5), PETSC_COMM_SELF);
    const auto c = model.constraints(model.initialCoordinates(), model.initialRates());
    EXPECT_LT(c.g.lpNorm<Eigen::Infinity>(), 1e-9) << name; // joints hold at t = 0 (the files' digits)
  }
}

// The mechanism's extent (its energy scale) without the scan over all pairs: the same double as that
// scan, on a chain-like line, a cube's cloud, a sphere's surface (every point a candidate), coincident
// points, one point and none; and points at 1e160, whose squared distances overflow (the extent was inf).
TEST(Extent, LargestDistanceEqualsTheScanOverAllPairs) {
  auto scan = [](const std::vector<Vec3> &points) {
    double largest = 0;
    for (const auto &p : points)
      for (const auto &q : points) largest = std::max(largest, (p - q).stableNorm());
    return largest;
  };
  std::mt19937 random(7);
  std::uniform_real_distribution<double> uniform(-1, 1);
  std::vector<std::vector<Vec3>> clouds(7);
  for (int k = 0; k < 400; ++k) {
    clouds[0].push_back(Vec3(0.1 * k, -0.05 * k + 1e-3 * uniform(random), 3));
    clouds[1].push_back(Vec3(uniform(random), uniform(random), uniform(random)) * 1e3);
    clouds[2].push_back(Vec3(uniform(random), uniform(random), uniform(random)).normalized() * 1e-4);
    clouds[3].push_back(Vec3(2, -1, 5));
    clouds[6].push_back(Vec3(uniform(random), uniform(random), uniform(random)) * 1e160);
  }
  clouds[4].push_back(Vec3(1, 2, 3));
  for (const auto &points : clouds) EXPECT_EQ(largestDistance(points), scan(points)) << points.size() << " points";
  EXPECT_TRUE(std::isfinite(largestDistance(clouds[6])));
  EXPECT_GT(largestDistance(clouds[6]), 1e160);
}

TEST(Multibody, IdentityTellsTheListsApartAndNotThePaths) {
  // 4 springs and a torque are 48 values, as 12 torques: without the lists' lengths in the data hash
  // the two hashed alike, and a restart continued a run whose model file had been edited so.
  auto identity = [](const Description &d, Baumgarte b = {}) {
    std::map<std::string, std::string> m;
    for (const auto &kv : MultibodyModel(d, PETSC_COMM_SELF, b).identity()) m[kv.first] = kv.second;
    return m;
  };
  Description springs = loadModel("pendulum"), torques = springs;
  springs.springs.assign(4, Spring{0, 0});
  springs.torques.assign(1, Torque{0});
  torques.torques.assign(12, Torque{0});
  EXPECT_NE(identity(springs)["data_hash"], identity(torques)["data_hash"]);
  // The same data from another path is the same run; -0 is 0.
  Description moved = loadModel("pendulum");
  moved.source = "elsewhere/pendulum.json";
  EXPECT_EQ(identity(moved), identity(loadModel("pendulum")));
  EXPECT_EQ(identity(moved, Baumgarte{1, -0.0}), identity(moved, Baumgarte{1, 0.0}));
}
