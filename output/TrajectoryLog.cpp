#include "output/TrajectoryLog.hpp"

#include <cerrno>
#include <cstring>

namespace beam {

TrajectoryLog::TrajectoryLog(Vec like, const std::string &path, int every) : path_(path), every_(every) {
  if (every < 1) throw inputError("trajectory: every must be >= 1");
  BEAM_PETSC(VecScatterCreateToZero(like, scatter_.out(), whole_.out()));
  int rank = 0;
  MPI_Comm_rank(PetscObjectComm(PetscObject(like)), &rank);
  if (rank != 0) return;
  file_ = std::fopen(path.c_str(), "w");
  if (!file_) throw runError("cannot write '" + path + "': " + std::strerror(errno));
  PetscInt n;
  BEAM_PETSC(VecGetSize(like, &n));
  std::fprintf(file_, "time");
  for (PetscInt i = 1; i <= n; ++i) std::fprintf(file_, ",q%lld", (long long)i);
  std::fprintf(file_, "\n");
}

TrajectoryLog::~TrajectoryLog() {
  if (file_) std::fclose(file_);
}

void TrajectoryLog::observe(const StepState &s) {
  if (s.step % every_ != 0 && !s.last()) return;
  BEAM_PETSC(VecScatterBegin(scatter_, s.x, whole_, INSERT_VALUES, SCATTER_FORWARD));
  BEAM_PETSC(VecScatterEnd(scatter_, s.x, whole_, INSERT_VALUES, SCATTER_FORWARD));
  if (!file_) return;
  PetscInt n;
  BEAM_PETSC(VecGetLocalSize(whole_, &n));
  const PetscScalar *a;
  BEAM_PETSC(VecGetArrayRead(whole_, &a));
  std::fprintf(file_, "%.17g", s.time);
  for (PetscInt i = 0; i < n; ++i) std::fprintf(file_, ",%.17g", PetscRealPart(a[i]));
  std::fprintf(file_, "\n");
  BEAM_PETSC(VecRestoreArrayRead(whole_, &a));
  if (std::fflush(file_) != 0 || std::ferror(file_))
    throw runError("cannot write '" + path_ + "': " + std::strerror(errno));
}

void TrajectoryLog::finish(const RunResult &) {
  if (!file_) return;
  const int rc = std::fclose(file_);
  file_ = nullptr;
  if (rc != 0) throw runError("cannot write '" + path_ + "': " + std::strerror(errno));
}

} // namespace beam
