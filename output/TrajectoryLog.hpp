// trajectory.csv: header time,q1,...,qn and one row of displacements every `every` steps (step 0 and
// the last step always). Rank 0 writes; rows are flushed, so the file is valid up to the last step.
#pragma once
#include <cstdio>
#include <string>

#include "solvers/Monitor.hpp"

namespace beam {

class TrajectoryLog final : public Monitor {
public:
  TrajectoryLog(Vec like, const std::string &path, int every);
  ~TrajectoryLog() override;
  TrajectoryLog(const TrajectoryLog &) = delete;
  TrajectoryLog &operator=(const TrajectoryLog &) = delete;
  void observe(const StepState &state) override;
  void resume(const StepState &state) override;
  void finish(const RunResult &) override;

private:
  std::string path_;
  int every_;
  PScatter scatter_;
  PVec whole_; // the displacements gathered on rank 0
  void open(const char *mode);

  bool writer_ = false;       // rank 0 writes
  std::string header_;
  std::FILE *file_ = nullptr; // opened at the first row (or on resume)
};

} // namespace beam
