// The built-in networks (-model NAME), each with its size and material parameters:
//   disk          the report's falling disk (reference 004, section 4): a centre particle and `rings`
//                 rings of `segments` particles in the vertical x-z plane, radial, ring and diagonal
//                 springs (the diagonals make each ring quad rigid); centre at height disk_height above
//                 the ground plane z = 0.
//   chain         chain_n particles in a row along +x from a fixed particle at the origin, falling and
//                 swinging in the x-z plane.
//   cloth         cloth_nx x cloth_ny grid in the plane z = 0: structural (neighbours), shear (diagonals)
//                 and bend (second neighbours) springs; the two corners at y = max fixed.
//   beam_lattice  the MesLib beam's nodes (BeamMesh numbering) as particles with lumped mass rho t A / 4
//                 per element and node, springs along element edges and both diagonals, left edge fixed,
//                 a point load at the bottom-right node. The stiffnesses reproduce a plane-stress
//                 continuum with uniaxial modulus E and Poisson ratio 1/3 (the only one a square lattice
//                 of central springs can represent).
// Gravity and planes are each model's defaults (beam_lattice: no gravity; disk: the ground plane);
// the options -gravity and -plane override them.
#pragma once
#include <string>
#include <vector>

#include "MassSpring/Network.hpp"

namespace beam {

struct BuiltinParameter {
  std::string name; // the option without its dash: "disk_radius"
  std::string help;
  double value;     // the default, replaced by the user's
  bool integer = false;
  double min = 0;         // accepted: value > min, or value >= min when inclusive (always for integers)
  bool inclusive = false;
};

// The largest value of a size parameter (-disk_rings, -cloth_nx, ...).
inline constexpr double kBuiltinMaxCount = 1e8;

const std::vector<std::string> &builtinModelNames();
// The parameters of `model` with their defaults; an input error listing the models if unknown.
std::vector<BuiltinParameter> builtinParameters(const std::string &model);
// Checks every parameter's range (input error naming the option) and builds the network (not yet
// validated: options may still change gravity and planes).
Network builtinNetwork(const std::string &model, const std::vector<BuiltinParameter> &parameters);

// Refuses (input error) a Newton run of `scheme` (an implicit scheme) on `net` whose Jacobian and solver,
// by the footprints measured on the built-in networks, cannot fit in the memory available; the lab calls
// it once the scheme is known (builtinNetwork checks the cheapest, explicit run's).
void checkNewtonFits(const Network &net, const std::string &scheme, const std::string &option = "-scheme");

} // namespace beam
