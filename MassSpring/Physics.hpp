// The forces of a mass-spring network, each formula once: every use (forces, Jacobians, energies,
// dissipation, drawing) calls these functions.
//
// Spring (i = A, j = B), reference 004 eqs. (6)-(8) plus a dashpot along the spring:
//   d = x_B - x_A, l = |d|, u = d / l,   f_A = k (l - l0) u + c ((v_B - v_A) . u) u,   f_B = -f_A.
//   Elastic energy k (l - l0)^2 / 2, dissipated power c ((v_B - v_A) . u)^2.
//   G = df_A/dx_B = k [(1 - l0/l)(I - u u^T) + u u^T] + (c / l) [(w . u) P + u w^T P],
//       with P = I - u u^T, w = v_B - v_A;  df_A/dx_A = -G;  C = df_A/dv_B = c u u^T = -df_A/dv_A.
// Contact with a plane (p, n), reference 004 eqs. (15)-(16) with the damping on the normal velocity:
//   s = (x - p) . n; if s < 0: f = f_n n, f_n = -k_c s - b_c (v . n)   (clamped at 0 with no_pull).
//   Energy k_c s^2 / 2; dissipated power -(f_n + k_c s)(v . n), which is b_c (v . n)^2 while the force
//   is not clamped. df/dx = -k_c n n^T, df/dv = -b_c n n^T while in contact and not clamped.
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
  Vec3 force{0, 0, 0};
};

inline ContactEval evalContact(const Plane &plane, double kc, double bc, bool no_pull, const Vec3 &x, const Vec3 &v) {
  ContactEval e;
  const double s = dot(x - plane.point, plane.normal);
  if (!(s < 0)) return e;
  const double vn = dot(v, plane.normal);
  e.touching = true;
  e.normal_force = -kc * s - bc * vn;
  if (no_pull && e.normal_force < 0) e.normal_force = 0;
  e.pushing = e.normal_force != 0 || !no_pull;
  e.force = e.normal_force * plane.normal;
  e.energy = 0.5 * kc * s * s;
  e.power = -(e.normal_force + kc * s) * vn;
  return e;
}

} // namespace beam
