#include "output/PointTrajectory.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>

#include "output/FileUtil.hpp"

namespace beam {

namespace {
constexpr const char *kHeader = "step,time,particle,x,y,z,vx,vy,vz\n";
}

PointTrajectory::PointTrajectory(Vec layout, std::vector<PetscInt> points, std::string path)
    : points_(std::move(points)), path_(std::move(path)) {
  MPI_Comm comm = PetscObjectComm(PetscObject(layout));
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  writer_ = rank == 0;
  // Rank 0 receives x, y, z of every tracked point; the others receive nothing.
  std::vector<PetscInt> entries;
  if (writer_)
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
  if (!writer_) return;
  if (!file_) {
    file_.reset(std::fopen(path_.c_str(), "w"));
    if (!file_ || std::fputs(kHeader, file_.get()) < 0) throw runError("cannot write '" + path_ + "': " + std::strerror(errno));
  }
  std::string rows;
  char line[320];
  for (size_t i = 0; i < points_.size(); ++i) {
    std::snprintf(line, sizeof line, "%lld,%.17g,%lld,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g\n", (long long)s.step, s.time,
                  (long long)points_[i], values[0][3 * i], values[0][3 * i + 1], values[0][3 * i + 2], values[1][3 * i],
                  values[1][3 * i + 1], values[1][3 * i + 2]);
    rows += line;
  }
  if (std::fputs(rows.c_str(), file_.get()) < 0 || std::fflush(file_.get()) != 0)
    throw runError("cannot write '" + path_ + "': " + std::strerror(errno));
}

void PointTrajectory::checkResume(const StepState &s) const {
  if (!writer_) return;
  std::ifstream in(path_);
  std::string line;
  if (!in || !std::getline(in, line) || line + "\n" != kHeader)
    throw inputError("-restart: cannot continue '" + path_ + "': missing or not a trajectory of this lab");
  long long last = -1;
  while (std::getline(in, line) && !in.eof()) {
    const long long step = std::atoll(line.c_str());
    last = step;
    if (step >= s.step) break;
  }
  if (last < s.step)
    throw inputError("-restart: cannot continue '" + path_ + "': its rows stop before step " + std::to_string(s.step) +
                     " of the checkpoint");
}

void PointTrajectory::resume(const StepState &s) {
  if (!writer_) return;
  std::ifstream in(path_);
  std::string kept = kHeader, line;
  std::getline(in, line);
  while (std::getline(in, line) && !in.eof()) {
    if (std::atoll(line.c_str()) > s.step) break;
    kept += line + "\n";
  }
  in.close();
  writeFileAtomically(path_, kept);
  file_.reset(std::fopen(path_.c_str(), "a"));
  if (!file_) throw runError("cannot write '" + path_ + "': " + std::strerror(errno));
}

void PointTrajectory::finish(const RunResult &) {
  if (file_ && std::fclose(file_.release()) != 0) throw runError("cannot write '" + path_ + "': " + std::strerror(errno));
}

} // namespace beam
