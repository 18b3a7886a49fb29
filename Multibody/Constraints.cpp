#include "Multibody/Constraints.hpp"

namespace beam::multibody {
namespace {

// Value, rate, quadratic term and Jacobian of one attachment.
void addAttachment(const Attachment &a, double c, const StateView &s, ExprValue &out, int slot) {
  if (a.body == kGround) {
    out.value += c * a.local; // a fixed point; a fixed vector likewise
    return;
  }
  const Quat p = s.p(a.body), pd = s.pd(a.body);
  const Mat34 D = pointJacobian(p, a.local);
  out.value += c * (rotation(p) * a.local);
  out.rate += c * (D * pd);
  out.quadratic += c * (pointJacobian(pd, a.local) * pd);
  Eigen::Matrix<double, 3, 7> J = Eigen::Matrix<double, 3, 7>::Zero();
  if (a.point) {
    out.value += c * s.x(a.body);
    out.rate += c * s.xd(a.body);
    J.leftCols<3>().setIdentity();
  }
  J.rightCols<4>() = D;
  out.jacobian[slot] += c * J;
  out.body[slot] = a.body;
}

// Adds a 1x7 gradient for `body` to a row, merging with an entry already there.
void addGradient(RowValue &r, int body, const Row7 &g) {
  if (body == kGround) return;
  for (int i = 0; i < 4; ++i) {
    if (r.body[i] == body) {
      r.gradient[i] += g;
      return;
    }
    if (r.body[i] == kGround) {
      r.body[i] = body;
      r.gradient[i] = g;
      return;
    }
  }
}

Vec3 perpendicular(const Vec3 &a) {
  Eigen::Index i;
  a.cwiseAbs().minCoeff(&i);
  return a.cross(Vec3::Unit(i)).normalized();
}

Expr single(const Attachment &a) { return Expr{{a, Attachment{}}, {1, 0}}; }
Expr difference(const Attachment &a, const Attachment &b) { return Expr{{a, b}, {1, -1}}; }

ConstraintRow dot(const Attachment &u, const Expr &v) {
  ConstraintRow r;
  r.kind = ConstraintRow::Kind::Dot;
  r.a = single(u);
  r.b = v;
  return r;
}

} // namespace

ExprValue evaluate(const Expr &e, const StateView &s) {
  ExprValue out;
  out.jacobian[0].setZero();
  out.jacobian[1].setZero();
  for (int i = 0; i < 2; ++i)
    if (e.coef[i] != 0) {
      // Two terms on the same body share a slot.
      const int slot = (i == 1 && e.terms[1].body == e.terms[0].body) ? 0 : i;
      addAttachment(e.terms[i], e.coef[i], s, out, slot);
    }
  return out;
}

RowValue evaluate(const ConstraintRow &row, const StateView &s) {
  RowValue r;
  const ExprValue a = evaluate(row.a, s);
  switch (row.kind) {
  case ConstraintRow::Kind::Component: {
    const int k = row.component;
    r.g = a.value(k);
    r.gdot = a.rate(k);
    r.rhs = -a.quadratic(k);
    for (int i = 0; i < 2; ++i) addGradient(r, a.body[i], a.jacobian[i].row(k));
    break;
  }
  case ConstraintRow::Kind::Dot: {
    // g = a.b: gddot = a.bddot + b.addot + 2 adot.bdot.
    const ExprValue b = evaluate(row.b, s);
    r.g = a.value.dot(b.value);
    r.gdot = a.value.dot(b.rate) + b.value.dot(a.rate);
    r.rhs = -(a.value.dot(b.quadratic) + b.value.dot(a.quadratic) + 2 * a.rate.dot(b.rate));
    for (int i = 0; i < 2; ++i) {
      addGradient(r, a.body[i], b.value.transpose() * a.jacobian[i]);
      addGradient(r, b.body[i], a.value.transpose() * b.jacobian[i]);
    }
    break;
  }
  case ConstraintRow::Kind::Distance: {
    // g = (a.a - l^2) / (2 l): gddot = (a.addot + adot.adot) / l.
    const double l = row.length;
    r.g = (a.value.squaredNorm() - l * l) / (2 * l);
    r.gdot = a.value.dot(a.rate) / l;
    r.rhs = -(a.value.dot(a.quadratic) + a.rate.squaredNorm()) / l;
    for (int i = 0; i < 2; ++i) addGradient(r, a.body[i], a.value.transpose() * a.jacobian[i] / l);
    break;
  }
  }
  return r;
}

Attachment attachPoint(int b, const Vec3 &world, const std::vector<Body> &bodies) {
  if (b == kGround) return Attachment{kGround, world, true};
  const Body &body = bodies[b];
  return Attachment{b, rotation(body.orientation).transpose() * (world - body.position), true};
}

Attachment attachVector(int b, const Vec3 &world, const std::vector<Body> &bodies) {
  if (b == kGround) return Attachment{kGround, world, false};
  return Attachment{b, rotation(bodies[b].orientation).transpose() * world, false};
}

std::vector<ConstraintRow> jointRows(const Joint &j, const std::vector<Body> &bodies) {
  std::vector<ConstraintRow> rows;
  const int b1 = j.body1, b2 = j.body2;
  auto coincide = [&] { // the joint point of body 1 on the joint point of body 2: 3 rows
    const Expr e = difference(attachPoint(b1, j.point, bodies), attachPoint(b2, j.point, bodies));
    for (int k = 0; k < 3; ++k) {
      ConstraintRow r;
      r.a = e;
      r.component = k;
      rows.push_back(r);
    }
  };
  // An orthonormal triad (a, b, c) at t = 0, a along the axis; body 1 keeps a, body 2 keeps b and c.
  const Vec3 a = j.type == Joint::Type::Fixed ? Vec3::UnitX() : j.axis;
  const Vec3 b = j.type == Joint::Type::Fixed ? Vec3::UnitY() : perpendicular(a), c = a.cross(b);
  auto keepAxis = [&] { // a of body 1 stays orthogonal to b and c of body 2: 2 rows
    rows.push_back(dot(attachVector(b1, a, bodies), single(attachVector(b2, b, bodies))));
    rows.push_back(dot(attachVector(b1, a, bodies), single(attachVector(b2, c, bodies))));
  };
  switch (j.type) {
  case Joint::Type::Spherical: coincide(); break;
  case Joint::Type::Revolute:
    coincide();
    keepAxis();
    break;
  case Joint::Type::Fixed:
    coincide();
    keepAxis();
    rows.push_back(dot(attachVector(b1, b, bodies), single(attachVector(b2, c, bodies))));
    break;
  case Joint::Type::Prismatic: {
    keepAxis();
    rows.push_back(dot(attachVector(b1, b, bodies), single(attachVector(b2, c, bodies)))); // no spin
    // The joint point of body 2 stays on body 1's axis line: orthogonal to b and c of body 1.
    const Expr offset = difference(attachPoint(b2, j.point, bodies), attachPoint(b1, j.point, bodies));
    rows.push_back(dot(attachVector(b1, b, bodies), offset));
    rows.push_back(dot(attachVector(b1, c, bodies), offset));
    break;
  }
  case Joint::Type::Distance: {
    ConstraintRow r;
    r.kind = ConstraintRow::Kind::Distance;
    r.a = difference(attachPoint(b1, j.point1, bodies), attachPoint(b2, j.point2, bodies));
    r.length = (j.point1 - j.point2).norm();
    rows.push_back(r);
    break;
  }
  }
  return rows;
}

} // namespace beam::multibody
