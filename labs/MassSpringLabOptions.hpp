// The options of the mass-spring labs, as option sets (common/Options.hpp):
//   network   -model NAME (disk, chain, cloth, beam_lattice) with the model's own size and material
//             options, or -particles FILE -springs FILE; -gravity gx,gy,gz; -plane px,py,pz,nx,ny,nz[,...];
//             -contact_stiffness, -contact_damping, -contact_no_pull
//   run, scheme, output, checkpoints (solvers/RunOptions.hpp); -track i,j,... and -write_network DIR
//   (the mass_spring lab)
#pragma once
#include <string>
#include <vector>

#include "MassSpring/Network.hpp"
#include "solvers/RunOptions.hpp"

namespace beam {

// The network set: a validated network, the same on every rank.
Network readNetworkOptions(MPI_Comm comm, const std::string &default_model);

struct MassSpringLabOptions {
  Network network;
  std::string scheme = "explicit_euler";
  RunSettings run;
  OutputOptions output;
  std::vector<PetscInt> track; // -track: particles whose trajectory goes to trajectory.csv
  std::string write_network;   // -write_network DIR: write the network as CSV files there and stop
};

// Every set of the mass_spring lab, agreed on by every rank.
MassSpringLabOptions readMassSpringLabOptions(MPI_Comm comm);

} // namespace beam
