// trajectory.csv for models whose state is points in 3D (three entries per point: the mass-spring
// particles): one row per tracked point and step, step,time,particle,x,y,z,vx,vy,vz. Rank 0 gathers the
// tracked entries (one scatter set up once) and writes, flushing every step, so a stopped run leaves
// valid rows. A restarted run keeps the rows up to its checkpoint and appends (refusing, in
// checkResume, a file that stops before it).
#pragma once
#include <string>
#include <vector>

#include "common/Petsc.hpp"
#include "output/CsvLog.hpp"
#include "solvers/Monitor.hpp"

namespace beam {

class PointTrajectory final : public Monitor {
public:
  // `layout`: a vector with the state's layout; `points`: 0-based point indices.
  PointTrajectory(Vec layout, std::vector<PetscInt> points, std::string path);
  void observe(const StepState &state) override;
  void checkResume(const StepState &state) const override;
  void resume(const StepState &state) override;
  void finish(const RunResult &) override { log_.close(); }

private:
  std::vector<PetscInt> points_;
  PScatter scatter_;
  PVec gathered_;
  CsvLog log_;
};

} // namespace beam
