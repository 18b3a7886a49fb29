#include "MassSpring/BuiltinModels.hpp"

#include <cmath>
#include <limits>
#include <map>
#include <sstream>

#include "MesLib/BeamMesh.hpp"
#include "MesLib/BeamSystem.hpp"
#include "common/Error.hpp"
#include "common/Exact.hpp"

namespace beam {
namespace {

using Params = std::map<std::string, double>;

// A spring with neither stiffness nor damping is left out (-shear_stiffness 0: no shear springs), as the
// springs reader refuses such a row.
void addSpring(Network &net, PetscInt i, PetscInt j, double k, double c) {
  if (k == 0 && c == 0) return;
  Spring s;
  s.i = i;
  s.j = j;
  s.stiffness = k;
  s.damping = c;
  net.springs.push_back(s);
}

Network disk(const Params &p) {
  Network net;
  const int rings = int(p.at("disk_rings")), segments = int(p.at("disk_segments"));
  const double R = p.at("disk_radius"), h = p.at("disk_height"), k = p.at("stiffness"), c = p.at("damping");
  const PetscInt n = 1 + PetscInt(rings) * segments;
  const double m = p.at("mass") / double(n);
  const double pi = std::acos(-1.0);
  auto index = [&](int r, int s) { return r == 0 ? PetscInt(0) : 1 + PetscInt(r - 1) * segments + (s + segments) % segments; };
  net.particles.resize(size_t(n));
  for (auto &q : net.particles) q.mass = m;
  net.particles[0].x = {0, 0, h};
  for (int r = 1; r <= rings; ++r)
    for (int s = 0; s < segments; ++s) {
      const double radius = R * r / rings, theta = 2 * pi * s / segments;
      net.particles[size_t(index(r, s))].x = {radius * std::cos(theta), 0, h + radius * std::sin(theta)};
    }
  // Springs listed by their first particle, so each rank's springs are contiguous.
  for (int s = 0; s < segments; ++s) addSpring(net, 0, index(1, s), k, c);
  for (int r = 1; r <= rings; ++r)
    for (int s = 0; s < segments; ++s) {
      addSpring(net, index(r, s), index(r, s + 1), k, c); // ring
      if (r == rings) continue;
      addSpring(net, index(r, s), index(r + 1, s), k, c);     // radial
      addSpring(net, index(r, s), index(r + 1, s + 1), k, c); // diagonals
      addSpring(net, index(r, s), index(r + 1, s - 1), k, c);
    }
  net.planes = {Plane{{0, 0, 0}, {0, 0, 1}}};
  return net;
}

Network chain(const Params &p) {
  Network net;
  const int n = int(p.at("chain_n"));
  const double spacing = p.at("chain_length") / n, m = p.at("mass") / n;
  net.particles.resize(size_t(n) + 1);
  for (int q = 0; q <= n; ++q) {
    net.particles[size_t(q)].x = {q * spacing, 0, 0};
    net.particles[size_t(q)].mass = m;
  }
  net.particles[0].fixed = true;
  for (int q = 0; q < n; ++q) addSpring(net, q, q + 1, p.at("stiffness"), p.at("damping"));
  return net;
}

Network cloth(const Params &p) {
  Network net;
  const int nx = int(p.at("cloth_nx")), ny = int(p.at("cloth_ny"));
  const double hx = p.at("cloth_width") / (nx - 1), hy = p.at("cloth_depth") / (ny - 1);
  const double k = p.at("stiffness"), ks = p.at("shear_stiffness"), kb = p.at("bend_stiffness"), c = p.at("damping");
  const double m = p.at("mass") / (double(nx) * ny);
  auto index = [&](int x, int y) { return PetscInt(y) * nx + x; };
  net.particles.resize(size_t(nx) * size_t(ny));
  for (int y = 0; y < ny; ++y)
    for (int x = 0; x < nx; ++x) {
      auto &q = net.particles[size_t(index(x, y))];
      q.x = {x * hx, y * hy, 0};
      q.mass = m;
    }
  net.particles[size_t(index(0, ny - 1))].fixed = true;
  net.particles[size_t(index(nx - 1, ny - 1))].fixed = true;
  for (int y = 0; y < ny; ++y)
    for (int x = 0; x < nx; ++x) {
      const PetscInt a = index(x, y);
      if (x + 1 < nx) addSpring(net, a, index(x + 1, y), k, c);                  // structural
      if (y + 1 < ny) addSpring(net, a, index(x, y + 1), k, c);
      if (x + 1 < nx && y + 1 < ny) addSpring(net, a, index(x + 1, y + 1), ks, c); // shear
      if (x > 0 && y + 1 < ny) addSpring(net, a, index(x - 1, y + 1), ks, c);
      if (x + 2 < nx) addSpring(net, a, index(x + 2, y), kb, c);                 // bend
      if (y + 2 < ny) addSpring(net, a, index(x, y + 2), kb, c);
    }
  return net;
}

Network beamLattice(const Params &p) {
  Network net;
  const BeamMesh mesh(int(p.at("beam_mx")), int(p.at("beam_my")), p.at("beam_hx"), p.at("beam_hy"));
  const double hx = mesh.hx(), hy = mesh.hy(), E = p.at("beam_E"), t = p.at("beam_thickness"), c = p.at("damping");
  const double aspect = hx / hy;
  if (!(aspect * aspect > 1.0 / 3 && aspect * aspect < 3))
    throw inputError("-beam_hx/-beam_hy: aspect ratio " + exactDecimal(aspect) +
                     " makes an edge spring negative; accepted: 1/sqrt(3) < hx/hy < sqrt(3)");
  // Per element: stiffnesses matching C11 = C22 = 9E/8, C12 = C66 = 3E/8 (plane stress, nu = 1/3).
  const double L2 = hx * hx + hy * hy;
  const double kd = 3 * E * t / 8 * L2 / (2 * hx * hy);
  const double kh = 9 * E * t / 16 * hy / hx - 3 * E * t / 16 * hx / hy;
  const double kv = 9 * E * t / 16 * hx / hy - 3 * E * t / 16 * hy / hx;
  const double node_mass = p.at("beam_rho") * t * hx * hy / 4;
  const int mx = mesh.mx(), my = mesh.my();
  net.particles.resize(size_t(mesh.nodeCount()));
  for (int y = 0; y <= my; ++y)
    for (int x = 0; x <= mx; ++x) {
      auto &q = net.particles[size_t(mesh.node(x, y))];
      q.x = {x * hx, y * hy, 0};
      q.mass = node_mass * ((x > 0) + (x < mx)) * ((y > 0) + (y < my)); // one quarter per adjacent element
      q.fixed = x == 0;
    }
  for (int y = 0; y <= my; ++y)
    for (int x = 0; x <= mx; ++x) {
      const PetscInt a = mesh.node(x, y);
      if (x < mx) addSpring(net, a, mesh.node(x + 1, y), kh * ((y > 0) + (y < my)), c); // shared by 1 or 2 elements
      if (y < my) addSpring(net, a, mesh.node(x, y + 1), kv * ((x > 0) + (x < mx)), c);
      if (x < mx && y < my) addSpring(net, a, mesh.node(x + 1, y + 1), kd, c);
      if (x > 0 && y < my) addSpring(net, a, mesh.node(x - 1, y + 1), kd, c);
    }
  net.gravity = {0, 0, 0};
  net.loads = {ParticleLoad{mesh.node(mx, 0), {0, p.at("beam_load"), 0}}};
  return net;
}

// Refuses, before anything is allocated, a network whose size overflows PETSc's indices (3 unknowns per
// particle) or that cannot fit in the memory available: -disk_rings 2000000 -disk_segments 2148 wrapped
// the 32-bit particle count and crashed (SIGSEGV), other sizes ended in "vector::_M_default_append" or
// "out of memory" without naming an option. The bound is what the cheapest run takes, an explicit
// scheme's (peak resident memory less the program's 50 MB, 2026-12-01: the chain of 4e6 particles 502
// bytes per particle and spring, the 600 x 600 cloth 386 MB; so about 390 per particle and 115 per
// spring); the implicit schemes take 4 to 10 times more. Until 2026-12-01 it was the particles' and
// springs' structures alone, 4 times too low: -chain_n 100000000 was accepted and took the machine's
// 23 GB before it was killed.
constexpr double kBytesPerParticle = 390, kBytesPerSpring = 115;
// A Newton run's (implicit schemes: the Jacobian, its factorization or multigrid hierarchy, SNES's
// vectors), measured the same way: the chain of 2e6 particles 2080 bytes per particle and spring (LU),
// the 500 x 500 cloth 3720 per particle with its 6 springs (GAMG), the 300-ring disk 3680 with its 4;
// below all three, 1500 per particle and 100 per spring.
constexpr double kNewtonBytesPerParticle = 1500, kNewtonBytesPerSpring = 100;

// In GiB, or MiB below one (a machine with 1 MB available read "fits in the 0 GiB"), rounded up or down.
std::string gibText(double bytes, bool up) {
  const bool gib = bytes >= double(1u << 30);
  const double units = bytes / double(gib ? 1u << 30 : 1u << 20);
  if (!up && units < 1) return "less than 1 MiB";
  return exactDecimal(up ? std::ceil(units) : std::floor(units)) + (gib ? " GiB" : " MiB");
}
void checkSize(const std::string &model, const Params &p) {
  double particles = 0, springs = 0;
  std::string options;
  if (model == "disk") {
    particles = 1 + p.at("disk_rings") * p.at("disk_segments");
    springs = 4 * particles;
    options = "-disk_rings x -disk_segments";
  } else if (model == "chain") {
    particles = p.at("chain_n") + 1;
    springs = particles;
    options = "-chain_n";
  } else if (model == "cloth") {
    particles = p.at("cloth_nx") * p.at("cloth_ny");
    springs = 6 * particles;
    options = "-cloth_nx x -cloth_ny";
  } else {
    particles = (p.at("beam_mx") + 1) * (p.at("beam_my") + 1);
    springs = 4 * particles;
    options = "-beam_mx x -beam_my";
  }
  const double max_particles = double(std::numeric_limits<PetscInt>::max()) / 3;
  if (particles > max_particles)
    throw inputError(options + ": " + exactDecimal(particles) + " particles; accepted: at most " + exactDecimal(std::floor(max_particles)) +
                     " (3 unknowns per particle in PETSc's " + std::to_string(8 * sizeof(PetscInt)) + "-bit indices)");
  const double bytes = particles * kBytesPerParticle + springs * kBytesPerSpring, available = double(memAvailableBytes());
  if (available > 0 && bytes > available)
    throw inputError(options + ": " + exactDecimal(particles) + " particles and about " + exactDecimal(springs) + " springs need " +
                     gibText(bytes, true) + " or more (an explicit scheme's run; an implicit one several times that); accepted: "
                     "a network that fits in the " + gibText(available, false) + " of memory available");
}

} // namespace

void checkNewtonFits(const Network &net, const std::string &scheme, const std::string &option) {
  const double particles = double(net.particles.size()), springs = double(net.springs.size());
  const double bytes = particles * kNewtonBytesPerParticle + springs * kNewtonBytesPerSpring, available = double(memAvailableBytes());
  if (available > 0 && bytes > available)
    throw inputError(option + " " + scheme + ": Newton's solves on " + exactDecimal(particles) + " particles and " + exactDecimal(springs) +
                     " springs need " + gibText(bytes, true) + " or more; accepted: an explicit scheme (about " +
                     gibText(particles * kBytesPerParticle + springs * kBytesPerSpring, true) +
                     "), or a network whose Newton run fits in the " + gibText(available, false) + " of memory available");
}

namespace {

const std::map<std::string, std::vector<BuiltinParameter>> &table() {
  static const std::map<std::string, std::vector<BuiltinParameter>> t = {
      {"disk",
       {{"disk_radius", "Disk radius", 0.5},
        {"disk_rings", "Number of rings around the centre particle", 4, true, 1},
        {"disk_segments", "Particles per ring", 16, true, 3},
        {"disk_height", "Height of the centre above the plane z = 0", 1, false, -HUGE_VAL},
        {"mass", "Total mass", 1},
        {"stiffness", "Stiffness of every spring", 2000},
        {"damping", "Dashpot of every spring", 0, false, 0, true}}},
      {"chain",
       {{"chain_n", "Number of free particles", 10, true, 1},
        {"chain_length", "Chain length", 1},
        {"mass", "Total mass of the free particles (the fixed one has the same mass each)", 1},
        {"stiffness", "Stiffness of every link", 1000},
        {"damping", "Dashpot of every link", 0, false, 0, true}}},
      {"cloth",
       {{"cloth_nx", "Particles along x", 20, true, 2},
        {"cloth_ny", "Particles along y", 20, true, 2},
        {"cloth_width", "Extent along x", 1},
        {"cloth_depth", "Extent along y", 1},
        {"mass", "Total mass", 1},
        {"stiffness", "Stiffness of the structural springs", 1000},
        {"shear_stiffness", "Stiffness of the shear (diagonal) springs", 1000, false, 0, true},
        {"bend_stiffness", "Stiffness of the bend (second-neighbour) springs", 1000, false, 0, true},
        {"damping", "Dashpot of every spring", 0, false, 0, true}}},
      {"beam_lattice",
       {{"beam_mx", "Elements along x (MesLib MX)", 20, true, 1},
        {"beam_my", "Elements along y (MesLib MY)", 5, true, 1},
        {"beam_hx", "Element width", 1},
        {"beam_hy", "Element height", 1},
        {"beam_E", "Young's modulus", 100},
        {"beam_rho", "Density", 1},
        {"beam_thickness", "Thickness", 1},
        {"beam_load", "Vertical force at the bottom-right node", -0.1, false, -HUGE_VAL},
        {"damping", "Dashpot of every spring", 0, false, 0, true}}},
  };
  return t;
}

} // namespace

const std::vector<std::string> &builtinModelNames() {
  static const std::vector<std::string> names = {"disk", "chain", "cloth", "beam_lattice"};
  return names;
}

std::vector<BuiltinParameter> builtinParameters(const std::string &model) {
  const auto it = table().find(model);
  if (it == table().end())
    throw inputError("-model: unknown model '" + model + "'; accepted: disk, chain, cloth, beam_lattice");
  return it->second;
}

Network builtinNetwork(const std::string &model, const std::vector<BuiltinParameter> &parameters) {
  (void)builtinParameters(model); // unknown model -> input error
  Params p;
  for (const auto &q : parameters) {
    const bool ok = std::isfinite(q.value) &&
                    (q.integer ? q.value >= q.min && q.value == std::floor(q.value) && q.value <= kBuiltinMaxCount
                               : (q.inclusive ? q.value >= q.min : q.value > q.min));
    if (!ok)
      throw inputError("-" + q.name + ": " + exactDecimal(q.value) + " is out of range; accepted: " +
                       (q.integer ? "an integer in [" + exactDecimal(q.min) + ", " + exactDecimal(kBuiltinMaxCount) + "]"
                                  : std::string("a real ") + (q.inclusive ? ">= " : "> ") + exactDecimal(q.min)));
    p[q.name] = q.value;
  }
  checkSize(model, p);
  Network net = model == "disk" ? disk(p) : model == "chain" ? chain(p) : model == "cloth" ? cloth(p) : beamLattice(p);
  net.source = model;
  for (const auto &q : parameters) net.parameters.emplace_back(q.name, exactDecimal(q.value));
  return net;
}

} // namespace beam
