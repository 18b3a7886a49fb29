// energy.csv: one row per step, header step,time,kinetic,potential,work,total,dissipated,balance_error,drift
// (the terms of solvers/Energy.hpp: total = kinetic + potential - work + dissipated, balance_error =
// total - total at step 0, drift = balance_error / scale, see energyScale; the first six columns keep
// their original order). Written by rank 0, one write() per row (flushed every row), so a run stopped at
// any moment leaves valid CSV up to the last completed step (a killed write leaves at most one
// unterminated last line, which a restart drops). A restarted run keeps the rows up to its checkpoint and
// appends, so every step appears exactly once.
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
  void resume(const StepState &state) override;
  void finish(const RunResult &) override;

private:
  std::string path_;
  void open(const char *mode);

  bool writer_ = false;       // rank 0 writes
  std::FILE *file_ = nullptr; // opened at the first row (or on resume)
};

} // namespace beam
