// A mass-spring network as plain data: particles, springs, gravity, constant point loads and contact
// planes. Built from CSV files (Readers.hpp) or by a built-in model (BuiltinModels.hpp), validated once,
// then handed to MassSpringModel, which distributes it over the ranks.
#pragma once
#include <petscsys.h>

#include <array>
#include <string>
#include <utility>
#include <vector>

namespace beam {

using Vec3 = std::array<double, 3>;

struct Particle {
  Vec3 x{0, 0, 0}, v{0, 0, 0};
  double mass = 1;
  bool fixed = false; // a fixed particle never moves: no force, zero velocity
};

struct Spring {
  PetscInt i = 0, j = 0; // 0-based particle indices; the force on i is k (l - l0) d, d from i to j
  double stiffness = 0;
  double rest_length = -1; // < 0: the initial distance (resolved by Network::validate)
  double damping = 0;      // dashpot along the spring
};

// A rigid plane through `point` with unit normal `normal`; particles on the side the normal points to
// are free, the others are pushed back by the penalty force.
struct Plane {
  Vec3 point{0, 0, 0}, normal{0, 0, 1};
};

// The contact law of every plane: penalty stiffness k_c, damping b_c on the normal velocity, the depth
// over which the damping grows (0: in full at s < 0, the report's law), the clamp at zero.
struct ContactLaw {
  double stiffness = 1e4; // k_c
  double damping = 0;     // b_c, on the normal velocity
  double damping_depth = 0;
  bool no_pull = false;
};

// A constant force on one particle (the beam lattice's tip load).
struct ParticleLoad {
  PetscInt particle = 0;
  Vec3 force{0, 0, 0};
};

struct Network {
  std::vector<Particle> particles;
  std::vector<Spring> springs;
  Vec3 gravity{0, 0, -9.81};
  std::vector<ParticleLoad> loads;
  std::vector<Plane> planes;
  ContactLaw contact;
  // How the network was made ("disk", "files", ...) and its parameters, for identity() and messages.
  std::string source = "files";
  std::vector<std::pair<std::string, std::string>> parameters;

  // Checks every value (finite, mass > 0, indices in range, no zero-length spring, unit normals after
  // normalizing a non-zero one, ...), resolves default rest lengths, zeroes the velocity of fixed
  // particles. Throws an input error naming the first offending item.
  void validate();
};

// Vector helpers used by the physics (one definition each).
inline Vec3 operator-(const Vec3 &a, const Vec3 &b) { return {a[0] - b[0], a[1] - b[1], a[2] - b[2]}; }
inline Vec3 operator+(const Vec3 &a, const Vec3 &b) { return {a[0] + b[0], a[1] + b[1], a[2] + b[2]}; }
inline Vec3 operator*(double s, const Vec3 &a) { return {s * a[0], s * a[1], s * a[2]}; }
inline double dot(const Vec3 &a, const Vec3 &b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
// The longest side of the particles' bounding box (0 for one particle); the length scale the planes'
// checks compare with (Network::validate, the lab's flipped-plane warning).
double spread(const std::vector<Particle> &particles);

} // namespace beam
