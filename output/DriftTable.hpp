// energy_drift.csv (scheme,max_abs_rel_drift,final_rel_drift,diverged) and its plot energy_drift.png,
// drawn by output/plot_energy_drift.py with Debian's /usr/bin/python3 + matplotlib when available
// (a run without them still writes every CSV and says the plot was skipped).
#pragma once
#include <string>
#include <vector>

#include "solvers/Monitor.hpp"

namespace beam {

void writeDriftTable(MPI_Comm comm, const std::vector<RunResult> &results, const std::string &dir);

} // namespace beam
