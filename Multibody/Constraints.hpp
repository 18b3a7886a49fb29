// Joint constraints g(q) = 0 as rows built from body-attached points and vectors. Each row gives its
// value g, its gradient dg/dq (at most two bodies, 7 coordinates each), its rate gdot = G qdot and its
// acceleration right-hand side L with G qddot = L (so that gddot = G qddot - L, reference 001 after
// eq. 12). Quaternion norm rows live in MultibodyModel (one per body, eqs. 9-10).
#pragma once
#include <array>
#include <vector>

#include "Multibody/Description.hpp"

namespace beam::multibody {

using Row7 = Eigen::Matrix<double, 1, 7>;

// A point (x + R(p) s) or a vector (R(p) s) fixed in a body, or a fixed world point/vector (ground).
struct Attachment {
  int body = kGround;
  Vec3 local = Vec3::Zero(); // body axes (world for the ground)
  bool point = true;
};

// Coordinates and rates of all bodies, 7 per body: (x, p) and (xdot, pdot).
struct StateView {
  const double *q, *qd;
  Vec3 x(int b) const { return Eigen::Map<const Vec3>(q + 7 * b); }
  Quat p(int b) const { return Eigen::Map<const Quat>(q + 7 * b + 3); }
  Vec3 xd(int b) const { return Eigen::Map<const Vec3>(qd + 7 * b); }
  Quat pd(int b) const { return Eigen::Map<const Quat>(qd + 7 * b + 3); }
};

// A sum of signed attachments (a point, a difference of points, a vector) and its derivatives.
struct Expr {
  std::array<Attachment, 2> terms{};
  std::array<double, 2> coef{0, 0};
};

struct ExprValue {
  Vec3 value = Vec3::Zero(), rate = Vec3::Zero();
  Vec3 quadratic = Vec3::Zero(); // second derivative at zero accelerations: sum of D(pdot, s) pdot
  std::array<int, 2> body{kGround, kGround};
  std::array<Eigen::Matrix<double, 3, 7>, 2> jacobian{};
};
ExprValue evaluate(const Expr &e, const StateView &s);

struct ConstraintRow {
  enum class Kind { Component, Dot, Distance };
  Kind kind = Kind::Component;
  Expr a, b;
  int component = 0;  // Component: g = a[component]
  double length = 0;  // Distance: g = (a.a - length^2) / (2 length), metres near the constraint
  // Dot: g = a.b (the vectors start orthogonal)
};

struct RowValue {
  double g = 0, gdot = 0, rhs = 0; // rhs = L in G qddot = L
  std::array<int, 4> body{kGround, kGround, kGround, kGround};
  std::array<Row7, 4> gradient{};
};
RowValue evaluate(const ConstraintRow &row, const StateView &s);

// The rows of one joint, from its world description at t = 0 and the bodies' initial poses.
std::vector<ConstraintRow> jointRows(const Joint &joint, const std::vector<Body> &bodies);

// Attachment of a world point / vector at t = 0 to body b.
Attachment attachPoint(int b, const Vec3 &world, const std::vector<Body> &bodies);
Attachment attachVector(int b, const Vec3 &world, const std::vector<Body> &bodies);

} // namespace beam::multibody
