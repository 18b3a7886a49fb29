#include "output/PointTrajectory.hpp"

#include <cstdlib>
#include <fstream>

#include "output/EnergyLog.hpp"

namespace beam {

namespace {
constexpr const char *kHeader = "step,time,particle,x,y,z,vx,vy,vz\n";
}

PointTrajectory::PointTrajectory(Vec layout, std::vector<PetscInt> points, std::string path)
    : points_(std::move(points)), log_(PetscObjectComm(PetscObject(layout)), std::move(path), kHeader) {
  // Rank 0 receives x, y, z of every tracked point; the others receive nothing.
  std::vector<PetscInt> entries;
  if (log_.writer())
    for (PetscInt p : points_)
      for (PetscInt d = 0; d < 3; ++d) entries.push_back(3 * p + d);
  PIS from;
  BEAM_PETSC(ISCreateGeneral(PETSC_COMM_SELF, PetscInt(entries.size()), entries.data(), PETSC_COPY_VALUES, from.out()));
  BEAM_PETSC(VecCreateSeq(PETSC_COMM_SELF, PetscInt(entries.size()), gathered_.out()));
  BEAM_PETSC(VecScatterCreate(layout, from, gathered_, nullptr, scatter_.out()));
}

void PointTrajectory::observe(const StepState &s) {
  std::vector<double> values[2];
  for (int k = 0; k < 2; ++k) {
    Vec from = k == 0 ? s.x : s.y;
    BEAM_PETSC(VecScatterBegin(scatter_, from, gathered_, INSERT_VALUES, SCATTER_FORWARD));
    BEAM_PETSC(VecScatterEnd(scatter_, from, gathered_, INSERT_VALUES, SCATTER_FORWARD));
    const PetscScalar *a;
    PetscInt n;
    BEAM_PETSC(VecGetLocalSize(gathered_, &n));
    BEAM_PETSC(VecGetArrayRead(gathered_, &a));
    for (PetscInt i = 0; i < n; ++i) values[k].push_back(PetscRealPart(a[i]));
    BEAM_PETSC(VecRestoreArrayRead(gathered_, &a));
  }
  if (!log_.writer()) return log_.write(""); // the other ranks agree on rank 0's write
  std::string rows;
  for (size_t i = 0; i < points_.size(); ++i) {
    std::string row = std::to_string((long long)s.step);
    appendCsvField(row, s.time);
    row += "," + std::to_string((long long)points_[i]);
    for (int k = 0; k < 2; ++k)
      for (int d = 0; d < 3; ++d) appendCsvField(row, values[k][3 * i + size_t(d)]);
    rows += row + "\n";
  }
  log_.write(rows);
}

void PointTrajectory::checkResume(const StepState &s) const {
  if (!log_.writer()) return;
  // Another -track list: the rows of the checkpoint's step name the file's points (-track 0,1 continued
  // as -track 2,3 switched the file's particles at the restart, exit 0; another number of points was
  // blamed on the file, "rows skip or repeat a step"). A file without that step is csvLogCovers's case.
  std::ifstream in(log_.path());
  std::string row, before, previous, now;
  const std::string step = std::to_string((long long)s.step) + ",";
  const std::string step_before = std::to_string((long long)s.step - 1) + ",";
  auto particleOf = [](const std::string &r) {
    const size_t first = r.find(','), second = r.find(',', first + 1);
    return r.substr(second + 1, r.find(',', second + 1) - second - 1);
  };
  while (std::getline(in, row)) {
    if (row.compare(0, step.size(), step) == 0) before += (before.empty() ? "" : ",") + particleOf(row);
    if (s.step > 0 && row.compare(0, step_before.size(), step_before) == 0)
      previous += (previous.empty() ? "" : ",") + particleOf(row);
  }
  for (PetscInt p : points_) now += (now.empty() ? "" : ",") + std::to_string((long long)p);
  // The file's list is the step before the checkpoint's, whole: the checkpoint's own step may be cut
  // short (its last rows missing, csvLogCovers's case: "its rows stop before"), which is not another
  // list (-track 0 continued as -track 0,3 is: both were once taken for the other).
  const std::string file_list = previous.empty() ? before : previous;
  const bool cut_short = !previous.empty() && previous == now && now.compare(0, before.size() + 1, before + ",") == 0;
  if (!before.empty() && before != now && !cut_short && file_list == now) // a row repeated or lost, same list
    throw inputError("-restart: cannot continue '" + log_.path() + "': its rows of step " + std::to_string((long long)s.step) +
                     " are for particles " + before + ", not the -track list " + now + " once each; accepted: the file as the run wrote it");
  if (!before.empty() && before != now && !cut_short)
    throw inputError("-restart: cannot continue '" + log_.path() + "': it tracks particles " + file_list + ", the run -track " + now +
                     "; accepted: the -track list of the run it continues");
  const std::string why = csvLogCovers(log_.path(), kHeader, s.step, (long long)points_.size());
  if (!why.empty()) throw inputError("-restart: cannot continue '" + log_.path() + "': " + why + "; accepted: the run's own log, as it wrote it up to the checkpoint");
}

void PointTrajectory::resume(const StepState &s) {
  log_.resume([&](const std::string &row) { return std::atoll(row.c_str()) <= s.step; });
}

} // namespace beam
