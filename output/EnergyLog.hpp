// energy.csv: one row per step with the terms of solvers/Energy.hpp, columns
//   step,time,<the model's stored energies>,[work],total,dissipated,balance_error,drift,
//   <the model's diagnostics>,[newton_its]
// (work when the model has external loads; newton_its for schemes that solve a nonlinear system).
// For the beam: step,time,kinetic,potential,work,total,dissipated,balance_error,drift. A lab may put
// some columns first (`leading`, e.g. the mass-spring lab's kinetic,gravity,elastic,contact,dissipated,
// total); the others follow in the order above.
// Written by rank 0, one write() per row (output/CsvLog.hpp), so a run stopped at any moment leaves
// valid CSV up to the last completed step. A restarted run keeps the rows up to its checkpoint and
// appends, so every step appears exactly once; it refuses (checkResume) a log whose header differs or
// whose rows stop before the checkpoint's step.
#pragma once
#include <string>
#include <vector>

#include "output/CsvLog.hpp"
#include "solvers/Model.hpp"
#include "solvers/Monitor.hpp"

namespace beam {

class EnergyLog final : public Monitor {
public:
  EnergyLog(const Model &model, const std::string &path, bool newton_its = false, std::vector<std::string> leading = {});
  void observe(const StepState &state) override;
  void checkResume(const StepState &state) const override;
  void resume(const StepState &state) override;
  void finish(const RunResult &) override { log_.close(); }

private:
  static std::vector<std::string> columnsOf(const Model &model, bool newton_its, const std::vector<std::string> &leading);

  std::vector<std::string> parts_, diagnostics_, columns_;
  CsvLog log_;
};

// Whether `path` holds the rows 0..step of a CSV log with this header: a regular file, the first column
// the step, exactly rows_per_step rows per step (one per tracked particle in a trajectory), each with the
// header's columns; "" when it does, else what is wrong. Reads only.
std::string csvLogCovers(const std::string &path, const std::string &header, long long step, long long rows_per_step);

} // namespace beam
