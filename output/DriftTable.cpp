#include "output/DriftTable.hpp"

#include <cstdio>

#include "common/Petsc.hpp"
#include "output/FileUtil.hpp"
#include "output/PlotScript.hpp"

namespace beam {

void writeDriftTable(MPI_Comm comm, const std::vector<RunResult> &results, const std::string &dir) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  agreeOn(comm, [&] { // rank 0 writes: its failure ends every rank at once
    if (rank != 0) return;
    std::string csv = "scheme,max_abs_rel_drift,final_rel_drift,diverged\n";
    std::vector<std::string> arguments = {dir};
    for (const auto &r : results) {
      char line[256];
      std::snprintf(line, sizeof line, "%s,%.17g,%.17g,%d\n", r.scheme.c_str(), r.max_abs_drift, r.final_drift,
                    r.diverged ? 1 : 0);
      csv += line;
      arguments.push_back(r.scheme);
    }
    writeFileAtomically(dir + "/energy_drift.csv", csv);
    std::printf("wrote %s/energy_drift.csv\n", dir.c_str());
    runPlotScript("plot_energy_drift.py", arguments);
  });
}

} // namespace beam
