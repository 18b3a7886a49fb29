// The stability chart of reference 002 (its figures 1 and 16: eigenvalues of the amplification matrix
// against omega*h): spectral_radius.csv with header `Omega,<scheme>,...` and spectral_radius.png, drawn by
// output/plot_spectral_radius.py with Debian's /usr/bin/python3 + matplotlib when available (a run
// without them still writes the CSV and says the plot was skipped). Rank 0 writes.
#pragma once
#include <mpi.h>

#include <string>
#include <vector>

namespace beam {

struct SpectralRadiusTable {
  std::vector<std::string> schemes;
  std::vector<double> omega;            // Omega = omega * h
  std::vector<std::vector<double>> rho; // rho[i][s]: scheme s at omega[i]
  double xi = 0;                        // damping ratio of the oscillator
};

void writeSpectralRadiusChart(MPI_Comm comm, const SpectralRadiusTable &table, const std::string &dir);

} // namespace beam
