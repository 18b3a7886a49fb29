// energy.csv: one row per step, header step,time,kinetic,potential,work,total,dissipated,balance_error,drift
// (the terms of solvers/Energy.hpp: total = kinetic + potential - work + dissipated, balance_error =
// total - total at step 0, drift = balance_error / scale, see energyScale; the first six columns keep
// their original order). Written by rank 0, flushed every row so the file is
// valid CSV up to the last completed step even if the run stops.
#pragma once
#include <cstdio>
#include <string>

#include "solvers/Monitor.hpp"

namespace beam {

class EnergyLog final : public Monitor {
public:
  EnergyLog(MPI_Comm comm, const std::string &path);
  ~EnergyLog() override;
  EnergyLog(const EnergyLog &) = delete;
  EnergyLog &operator=(const EnergyLog &) = delete;
  void observe(const StepState &state) override;
  void finish(const RunResult &) override;

private:
  std::string path_;
  std::FILE *file_ = nullptr; // rank 0 only
};

} // namespace beam
