// A network as the CSV files the readers take (Readers.hpp), so a built-in network can be given back
// as -particles/-springs (the cloth benchmark reads its cloths from files; a user can edit one):
//   particles   x,y,z,mass,fixed,vx,vy,vz
//   springs     i,j,stiffness,rest_length,damping
// Reals are written with 17 significant digits, so reading the files gives the same doubles back:
// the network read equals the one written (rest lengths resolved by Network::validate included).
// Gravity, loads and planes are options, not file content: give them again when reading.
#pragma once
#include <string>

#include "MassSpring/Network.hpp"

namespace beam {

std::string particlesCsv(const Network &network);
std::string springsCsv(const Network &network);

} // namespace beam
