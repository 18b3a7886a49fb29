// Unit-quaternion kinematics of one rigid body, p = (e0, e) = (w, x, y, z), rotating body axes to world.
//
// Derivation (reference 001, eq. 6-7 and the definitions after eq. 11). With
//     R(p) = (e0^2 - e.e) I + 2 e e^T + 2 e0 [e]x      (a rotation when |p| = 1)
// the body-frame angular velocity is Omega = 2 Phi(p) pdot with
//     Phi(p) = [ -e ,  e0 I - [e]x ]                    (3x4, linear in p)
// and Phi has two identities used below: Phi(p) p = 0 and Phi(a) b = -Phi(b) a.
// Kinetic energy of rotation: U = 1/2 Omega^T I Omega = 1/2 pdot^T (4 Phi(p)^T I Phi(p)) pdot, hence the
// rotational mass block 4 Phi^T I Phi (singular along p: the norm constraint makes the system regular).
// Lagrange: d/dt dU/dpdot = 4 Phi^T I Phi pddot + 4 Phi(pdot)^T I Phi(p) pdot + 4 Phi^T I Phi(pdot) pdot,
// where Phi(pdot) pdot = 0; and since Phi(p) pdot = -Phi(pdot) p is linear in p,
// dU/dp = 4 Phi(pdot)^T I Phi(pdot) p = -4 Phi(pdot)^T I Phi(p) pdot. So
//     d/dt dU/dpdot - dU/dp = 4 Phi^T I Phi pddot + 8 Phi(pdot)^T I Phi(p) pdot,
// the reference's J_k = (0, 8 Phi(pdot)^T I Phi(p) pdot), factors 4 and 8 confirmed.
// World angular velocity: omega = R Omega = 2 Gw(p) pdot with Gw(p) = [ -e , e0 I + [e]x ];
// conversely pdot = 1/2 Gw(p)^T omega for a unit p.
// A body point s (body axes) sits at x + R(p) s; R(p) s is quadratic in p, its derivative
//     D(p, s) = d(R(p) s)/dp = 2 [ e0 s + e x s ,  (e.s) I + e s^T - s e^T - e0 [s]x ]
// is linear in p, so d/dt (R s) = D(p, s) pdot and d2/dt2 (R s) = D(p, s) pddot + D(pdot, s) pdot.
#pragma once
#include <Eigen/Dense>

namespace beam::multibody {

using Vec3 = Eigen::Vector3d;
using Quat = Eigen::Vector4d; // (w, x, y, z)
using Mat3 = Eigen::Matrix3d;
using Mat34 = Eigen::Matrix<double, 3, 4>;

inline Mat3 skew(const Vec3 &a) {
  Mat3 s;
  s << 0, -a.z(), a.y(), a.z(), 0, -a.x(), -a.y(), a.x(), 0;
  return s;
}

// Phi(p): body angular velocity Omega = 2 Phi(p) pdot.
inline Mat34 Phi(const Quat &p) {
  Mat34 m;
  const Vec3 e = p.tail<3>();
  m.col(0) = -e;
  m.rightCols<3>() = p(0) * Mat3::Identity() - skew(e);
  return m;
}

// Gw(p): world angular velocity omega = 2 Gw(p) pdot.
inline Mat34 worldPhi(const Quat &p) {
  Mat34 m;
  const Vec3 e = p.tail<3>();
  m.col(0) = -e;
  m.rightCols<3>() = p(0) * Mat3::Identity() + skew(e);
  return m;
}

// R(p), homogeneous of degree 2 in p (exactly a rotation for |p| = 1).
inline Mat3 rotation(const Quat &p) {
  const double e0 = p(0);
  const Vec3 e = p.tail<3>();
  return (e0 * e0 - e.dot(e)) * Mat3::Identity() + 2 * e * e.transpose() + 2 * e0 * skew(e);
}

// D(p, s) = d(R(p) s)/dp.
inline Mat34 pointJacobian(const Quat &p, const Vec3 &s) {
  const double e0 = p(0);
  const Vec3 e = p.tail<3>();
  Mat34 m;
  m.col(0) = 2 * (e0 * s + e.cross(s));
  m.rightCols<3>() = 2 * (e.dot(s) * Mat3::Identity() + e * s.transpose() - s * e.transpose() - e0 * skew(s));
  return m;
}

// Rotational mass block 4 Phi^T I Phi and velocity term 8 Phi(pdot)^T I Phi(p) pdot (eq. 7).
inline Eigen::Matrix4d rotationalMass(const Quat &p, const Mat3 &inertia) {
  const Mat34 phi = Phi(p);
  return 4 * phi.transpose() * inertia * phi;
}
inline Quat rotationalVelocityTerm(const Quat &p, const Quat &pdot, const Mat3 &inertia) {
  return 8 * Phi(pdot).transpose() * inertia * Phi(p) * pdot;
}

// Quaternion of a rotation matrix (Shepperd's method: the largest of the four squares first).
inline Quat fromRotation(const Mat3 &r) {
  const Eigen::Quaterniond q(r);
  return Quat(q.w(), q.x(), q.y(), q.z());
}

} // namespace beam::multibody
