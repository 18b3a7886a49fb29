// energy.csv: one row per step, header step,time,kinetic,potential,work,total,dissipated,balance_error,drift
// (the terms of solvers/Energy.hpp: total = kinetic + potential - work + dissipated, balance_error =
// total - total at step 0, drift = balance_error / scale, see energyScale; the first six columns keep
// their original order). Written by rank 0, one write() per row (output/CsvLog.hpp), so a run stopped at
// any moment leaves valid CSV up to the last completed step. A restarted run keeps the rows up to its
// checkpoint and appends, so every step appears exactly once.
#pragma once
#include <string>

#include "output/CsvLog.hpp"
#include "solvers/Monitor.hpp"

namespace beam {

class EnergyLog final : public Monitor {
public:
  EnergyLog(MPI_Comm comm, const std::string &path);
  void observe(const StepState &state) override;
  void resume(const StepState &state) override;
  void finish(const RunResult &) override { log_.close(); }

private:
  CsvLog log_;
};

} // namespace beam
