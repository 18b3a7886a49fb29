#include "MassSpring/Writers.hpp"

#include <cstdio>

namespace beam {

std::string particlesCsv(const Network &network) {
  std::string csv = "x,y,z,mass,fixed,vx,vy,vz\n";
  char line[320];
  for (const Particle &p : network.particles) {
    std::snprintf(line, sizeof line, "%.17g,%.17g,%.17g,%.17g,%d,%.17g,%.17g,%.17g\n", p.x[0], p.x[1], p.x[2], p.mass,
                  p.fixed ? 1 : 0, p.v[0], p.v[1], p.v[2]);
    csv += line;
  }
  return csv;
}

std::string springsCsv(const Network &network) {
  std::string csv = "i,j,stiffness,rest_length,damping\n";
  char line[160];
  for (const Spring &s : network.springs) {
    std::snprintf(line, sizeof line, "%lld,%lld,%.17g,%.17g,%.17g\n", (long long)s.i, (long long)s.j, s.stiffness,
                  s.rest_length, s.damping);
    csv += line;
  }
  return csv;
}

} // namespace beam
