// CSV readers of a network given by the user:
//   -particles FILE   header x,y,z,mass,fixed, optional vx,vy,vz (columns in any order)
//   -springs FILE     header i,j,stiffness, optional rest_length,damping; i, j 0-based particle indices
// Blank lines and lines starting with '#' are skipped. Every problem is an input error naming the
// option, the file and the line: unknown or missing column, wrong field count, a field that is not a
// finite real, mass <= 0, fixed not 0/1, an index that is not an integer in range, a negative
// stiffness or damping, a rest length <= 0.
#pragma once
#include <string>
#include <vector>

#include "MassSpring/Network.hpp"

namespace beam {

std::vector<Particle> readParticles(const std::string &path);
std::vector<Spring> readSprings(const std::string &path, PetscInt particle_count);

} // namespace beam
