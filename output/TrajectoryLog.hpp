// trajectory.csv: header time,q1,...,qn and one row of displacements every `every` steps (step 0 and
// the last step always). Rank 0 writes; rows are flushed, so the file is valid up to the last step
// (output/CsvLog.hpp).
#pragma once
#include <string>

#include "output/CsvLog.hpp"
#include "solvers/Monitor.hpp"

namespace beam {

class TrajectoryLog final : public Monitor {
public:
  TrajectoryLog(Vec like, const std::string &path, int every);
  void observe(const StepState &state) override;
  void checkResume(const StepState &state) const override;
  void resume(const StepState &state) override;
  void failedAt(const StepState &state) override; // the row of where a failed run stopped, if missing
  void finish(const RunResult &) override { log_.close(); }

private:
  static std::string header(Vec like);
  int every_;
  PetscInt observed_ = -1; // the step last observed or resumed from
  PScatter scatter_;
  PVec whole_; // the displacements gathered on rank 0
  CsvLog log_;
};

} // namespace beam
