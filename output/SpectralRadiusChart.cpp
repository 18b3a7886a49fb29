#include "output/SpectralRadiusChart.hpp"

#include <cstdio>
#include <cstdlib>

#include "common/Agree.hpp"
#include "common/Error.hpp"
#include "output/FileUtil.hpp"
#include "output/PlotScript.hpp"

namespace beam {

void writeSpectralRadiusChart(MPI_Comm comm, const SpectralRadiusTable &table, const std::string &dir) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  agreeOn(comm, [&] { // rank 0 writes: its failure ends every rank at once
    if (rank != 0) return;
    std::string csv = "Omega";
    for (const auto &s : table.schemes) csv += "," + s;
    csv += "\n";
    for (size_t i = 0; i < table.omega.size(); ++i) {
      char field[32];
      std::snprintf(field, sizeof field, "%.17g", table.omega[i]);
      csv += field;
      for (double r : table.rho[i]) {
        std::snprintf(field, sizeof field, ",%.17g", r);
        csv += field;
      }
      csv += "\n";
    }
    writeFileAtomically(dir + "/spectral_radius.csv", csv);
    std::printf("wrote %s/spectral_radius.csv\n", dir.c_str());

    char xi[32];
    std::snprintf(xi, sizeof xi, "%.17g", table.xi);
    runPlotScript("plot_spectral_radius.py", {dir, xi});
  });
}

} // namespace beam
