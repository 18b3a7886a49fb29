#include "output/DriftTable.hpp"

#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "common/Petsc.hpp"
#include "output/FileUtil.hpp"

namespace beam {

void writeDriftTable(MPI_Comm comm, const std::vector<RunResult> &results, const std::string &dir) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  if (rank != 0) return;
  std::string csv = "scheme,max_abs_rel_drift,final_rel_drift,diverged\n";
  std::string schemes;
  for (const auto &r : results) {
    char line[256];
    std::snprintf(line, sizeof line, "%s,%.17g,%.17g,%d\n", r.scheme.c_str(), r.max_abs_drift, r.final_drift,
                  r.diverged ? 1 : 0);
    csv += line;
    schemes += " " + r.scheme;
  }
  writeFileAtomically(dir + "/energy_drift.csv", csv);
  std::printf("wrote %s/energy_drift.csv\n", dir.c_str());

  const std::string script = BEAM_SCRIPTS_DIR "/plot_energy_drift.py";
  const char *python = "/usr/bin/python3";
  if (!std::filesystem::exists(python) || !std::filesystem::exists(script)) {
    std::printf("plot skipped: %s or %s not found\n", python, script.c_str());
    return;
  }
  const std::string cmd = std::string(python) + " '" + script + "' '" + dir + "'" + schemes;
  if (std::system(cmd.c_str()) != 0) std::printf("plot skipped: %s failed (is python3-matplotlib installed?)\n", script.c_str());
}

} // namespace beam
