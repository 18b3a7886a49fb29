#include "output/EnergyLog.hpp"

#include <cstdlib>

namespace beam {

EnergyLog::EnergyLog(MPI_Comm comm, const std::string &path)
    : log_(comm, path, "step,time,kinetic,potential,work,total,dissipated,balance_error,drift\n") {}

void EnergyLog::resume(const StepState &s) {
  // Rows the interrupted run wrote after the checkpoint step are written again by this run.
  log_.resume([&](const std::string &row) { return std::atoll(row.c_str()) <= s.step; });
}

void EnergyLog::observe(const StepState &s) {
  if (!log_.writer()) return;
  const auto &e = s.energy;
  std::string row = std::to_string((long long)s.step);
  for (double v : {s.time, e.kinetic, e.potential, e.work, e.total(), e.dissipated, e.balance_error, s.drift})
    appendCsvField(row, v);
  log_.write(row + "\n");
}

} // namespace beam
