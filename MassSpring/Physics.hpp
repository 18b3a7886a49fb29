// The forces of a mass-spring network, each formula once: every use (forces, Jacobians, energies,
// dissipation, drawing) calls these functions.
//
// Spring (i = A, j = B), reference 004 eqs. (6)-(8) plus a dashpot along the spring:
//   d = x_B - x_A, l = |d|, u = d / l,   f_A = k (l - l0) u + c ((v_B - v_A) . u) u,   f_B = -f_A.
//   Elastic energy k (l - l0)^2 / 2, dissipated power c ((v_B - v_A) . u)^2.
//   G = df_A/dx_B = k [(1 - l0/l)(I - u u^T) + u u^T] + (c / l) [(w . u) P + u w^T P],
//       with P = I - u u^T, w = v_B - v_A;  df_A/dx_A = -G;  C = df_A/dv_B = c u u^T = -df_A/dv_A.
// Contact with a plane (p, n), reference 004 eqs. (15)-(16) with the damping on the normal velocity:
//   s = (x - p) . n; if s < 0: f = f_n n, f_n = -k_c s - b_c r(s) (v . n)   (clamped at 0 with no_pull),
//   r = 1 (the report's law) or, with a damping depth delta > 0, r = t^2 (3 - 2 t), t = min(1, -s / delta):
//   the damping grows over delta, so f_n and its derivatives are continuous at -s = delta and f_n is
//   continuous where a particle crosses the plane.
//   Energy k_c s^2 / 2; dissipated power -(f_n + k_c s)(v . n), which is b_c r (v . n)^2 while the force
//   is not clamped. df/dx = -k_n n n^T, df/dv = -b_n n n^T while in contact and not clamped, with
//   k_n = -df_n/ds = k_c - b_c (v . n) 6 t (1 - t) / delta and b_n = b_c r.
#pragma once
#include <cmath>

#include "MassSpring/Network.hpp"

namespace beam {

using Mat3 = std::array<double, 9>; // row-major

struct SpringEval {
  Vec3 force_on_a{0, 0, 0};
  double length = 0, tension = 0; // tension = k (l - l0) + c (w . u): > 0 pulls the ends together
  double energy = 0, power = 0;
};

inline SpringEval evalSpring(const Spring &s, const Vec3 &xa, const Vec3 &xb, const Vec3 &va, const Vec3 &vb) {
  SpringEval e;
  const Vec3 d = xb - xa;
  e.length = std::sqrt(dot(d, d));
  const Vec3 u = (1.0 / e.length) * d;
  const double stretch = e.length - s.rest_length, rate = dot(vb - va, u);
  e.tension = s.stiffness * stretch + s.damping * rate;
  e.force_on_a = e.tension * u;
  e.energy = 0.5 * s.stiffness * stretch * stretch;
  e.power = s.damping * rate * rate;
  return e;
}

// G = df_A/dx_B and C = df_A/dv_B (see the header comment).
inline void springJacobian(const Spring &s, const Vec3 &xa, const Vec3 &xb, const Vec3 &va, const Vec3 &vb,
                           Mat3 &G, Mat3 &C) {
  const Vec3 d = xb - xa;
  const double l = std::sqrt(dot(d, d));
  const Vec3 u = (1.0 / l) * d, w = vb - va;
  const double wu = dot(w, u), ratio = s.rest_length / l;
  Vec3 wP; // w^T P = w - (w . u) u
  for (int a = 0; a < 3; ++a) wP[a] = w[a] - wu * u[a];
  for (int a = 0; a < 3; ++a)
    for (int b = 0; b < 3; ++b) {
      const double uu = u[a] * u[b], P = (a == b ? 1.0 : 0.0) - uu;
      G[3 * a + b] = s.stiffness * ((1 - ratio) * P + uu) + s.damping / l * (wu * P + u[a] * wP[b]);
      C[3 * a + b] = s.damping * uu;
    }
}

struct ContactEval {
  bool touching = false; // s < 0
  bool pushing = false;  // the force acts (touching and not clamped): its Jacobian is non-zero
  double normal_force = 0, energy = 0, power = 0;
  double normal_stiffness = 0, normal_damping = 0; // -df_n/ds and -df_n/d(v.n) while pushing
  Vec3 force{0, 0, 0};
};

inline ContactEval evalContact(const Plane &plane, const ContactLaw &law, const Vec3 &x, const Vec3 &v) {
  ContactEval e;
  const double s = dot(x - plane.point, plane.normal);
  if (!(s < 0)) return e;
  const double vn = dot(v, plane.normal);
  // A smooth step, not a linear ramp: with r = t the force had a kink at -s = delta, across which Newton
  // cycled (a dropped particle, delta = 3e-5, 2 of 19 dt values failed).
  const bool ramp = law.damping_depth > 0 && -s < law.damping_depth;
  const double t = ramp ? -s / law.damping_depth : 1.0;
  const double r = t * t * (3 - 2 * t), dr_dt = 6 * t * (1 - t);
  e.touching = true;
  e.normal_force = -law.stiffness * s - law.damping * r * vn;
  if (law.no_pull && e.normal_force < 0) e.normal_force = 0;
  e.pushing = e.normal_force != 0 || !law.no_pull;
  if (e.pushing) {
    e.normal_stiffness = law.stiffness - (ramp ? law.damping * vn * dr_dt / law.damping_depth : 0.0);
    e.normal_damping = law.damping * r;
  }
  e.force = e.normal_force * plane.normal;
  e.energy = 0.5 * law.stiffness * s * s;
  e.power = -(e.normal_force + law.stiffness * s) * vn;
  return e;
}

} // namespace beam
