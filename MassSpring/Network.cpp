#include "MassSpring/Network.hpp"

#include <algorithm>
#include <cmath>

#include "common/Error.hpp"

namespace beam {
namespace {

bool finite(const Vec3 &a) { return std::isfinite(a[0]) && std::isfinite(a[1]) && std::isfinite(a[2]); }
std::string str(PetscInt i) { return std::to_string(static_cast<long long>(i)); }

} // namespace

double spread(const std::vector<Particle> &particles) {
  if (particles.empty()) return 0;
  Vec3 low = particles.front().x, high = low;
  for (const auto &q : particles)
    for (int d = 0; d < 3; ++d) {
      low[d] = std::min(low[d], q.x[d]);
      high[d] = std::max(high[d], q.x[d]);
    }
  return std::max({high[0] - low[0], high[1] - low[1], high[2] - low[2]});
}

void Network::validate() {
  const PetscInt n = PetscInt(particles.size());
  if (n == 0) throw inputError("mass-spring network: no particles; accepted: at least one particle");
  for (PetscInt p = 0; p < n; ++p) {
    auto &q = particles[size_t(p)];
    if (!finite(q.x) || !finite(q.v))
      throw inputError("particle " + str(p) + ": position or velocity is not finite; accepted: finite reals");
    if (!(std::isfinite(q.mass) && q.mass > 0))
      throw inputError("particle " + str(p) + ": mass " + std::to_string(q.mass) + " is out of range; accepted: a real > 0");
    if (q.fixed) q.v = {0, 0, 0};
  }
  for (size_t k = 0; k < springs.size(); ++k) {
    auto &s = springs[k];
    const std::string name = "spring " + std::to_string(k) + " (" + str(s.i) + ", " + str(s.j) + ")";
    if (s.i < 0 || s.i >= n || s.j < 0 || s.j >= n)
      throw inputError(name + ": particle index out of range; accepted: 0.." + str(n - 1));
    if (s.i == s.j) throw inputError(name + ": joins a particle to itself; accepted: two different particles");
    if (!(std::isfinite(s.stiffness) && s.stiffness >= 0) || !(std::isfinite(s.damping) && s.damping >= 0))
      throw inputError(name + ": stiffness or damping out of range; accepted: finite reals >= 0");
    const Vec3 d = particles[size_t(s.j)].x - particles[size_t(s.i)].x;
    const double length = std::sqrt(dot(d, d));
    // The model's forces use |d|^2 too: a square that underflows (particles 1e-301 apart) is refused here,
    // and named so (it was "its particles coincide").
    if (!(length > 0))
      throw inputError(name + (d == Vec3{0, 0, 0} ? ": zero length (its particles coincide)"
                                                  : ": zero length (its particles' distance squared underflows)") +
                       "; accepted: distinct positions, at least about 1e-161 apart");
    // Particles 1e300 apart: "rest length out of range; accepted: a real > 0" named no cause.
    if (!std::isfinite(length))
      throw inputError(name + ": its length squared overflows a double (particles too far apart); accepted: "
                              "positions less than about 1e154 apart");
    if (s.rest_length < 0) s.rest_length = length;
    if (!(std::isfinite(s.rest_length) && s.rest_length > 0))
      throw inputError(name + ": rest length out of range; accepted: a real > 0");
  }
  if (!finite(gravity)) throw inputError("-gravity: not finite; accepted: three finite reals gx,gy,gz");
  for (const auto &l : loads) {
    if (l.particle < 0 || l.particle >= n)
      throw inputError("load on particle " + str(l.particle) + ": index out of range; accepted: 0.." + str(n - 1));
    if (!finite(l.force)) throw inputError("load on particle " + str(l.particle) + ": not finite");
  }
  // The network's extent: the length scale two planes' offsets are compared at (below).
  // (A lone particle has no spread: its distance from the origin stands in, so that two planes 1e-300
  // apart under it are one.)
  const Vec3 &first = particles.front().x;
  const double box = spread(particles);
  const double extent = box > 0 ? box : std::max({std::abs(first[0]), std::abs(first[1]), std::abs(first[2])});
  for (size_t k = 0; k < planes.size(); ++k) {
    auto &pl = planes[k];
    // Scaled before its norm is taken: a normal (1e200, 0, 0) or (1e-200, 0, 0) is a direction too.
    const double largest = std::max({std::abs(pl.normal[0]), std::abs(pl.normal[1]), std::abs(pl.normal[2])});
    if (!finite(pl.point) || !finite(pl.normal) || !(largest > 0))
      throw inputError("-plane " + std::to_string(k) + ": point or normal not finite or zero normal; accepted: "
                       "px,py,pz,nx,ny,nz with a non-zero normal");
    pl.normal = (1.0 / largest) * pl.normal;
    pl.normal = (1.0 / std::sqrt(dot(pl.normal, pl.normal))) * pl.normal;
    // The same plane twice counts its contact twice (a repeated -plane doubled k_c, exit 0, until
    // 2026-12-01), as -track, -zetas and -schemes refuse their repeats. Same to round-off: the unit
    // normals within 1e-12, the offsets n.p within 1e-12 of the network's extent, of the larger offset and
    // of the terms |n_i p_i| (n.p's round-off; not the points' size: z = 0 and z = 0.001 given through
    // (1e9, 0, 0.001) were one plane), and finite (offsets of -1e308 and 1e308 overflowed into "the same").
    for (size_t j = 0; j < k; ++j) {
      const Plane &other = planes[j];
      const Vec3 dn = pl.normal - other.normal;
      const double mine = dot(pl.normal, pl.point), theirs = dot(other.normal, other.point);
      const double offset = std::abs(mine - theirs);
      const auto terms = [](const Plane &p) {
        return std::abs(p.normal[0] * p.point[0]) + std::abs(p.normal[1] * p.point[1]) + std::abs(p.normal[2] * p.point[2]);
      };
      const double size = std::max({extent, std::abs(mine), std::abs(theirs), terms(pl), terms(other)});
      if (std::sqrt(dot(dn, dn)) <= 1e-12 && std::isfinite(offset) && offset <= 1e-12 * size)
        throw inputError("-plane " + std::to_string(k) + " is -plane " + std::to_string(j) +
                         " again (its contact would count twice); accepted: distinct planes");
    }
  }
  if (!(std::isfinite(contact.stiffness) && contact.stiffness >= 0))
    throw inputError("-contact_stiffness: " + std::to_string(contact.stiffness) + " is out of range; accepted: a real >= 0");
  if (!(std::isfinite(contact.damping) && contact.damping >= 0))
    throw inputError("-contact_damping: " + std::to_string(contact.damping) + " is out of range; accepted: a real >= 0");
  if (!(std::isfinite(contact.damping_depth) && contact.damping_depth >= 0))
    throw inputError("-contact_damping_depth: " + std::to_string(contact.damping_depth) +
                     " is out of range; accepted: a real >= 0");
}

} // namespace beam
