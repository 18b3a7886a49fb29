#include "output/TrajectoryLog.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>

#include "output/FileUtil.hpp"

namespace beam {

TrajectoryLog::TrajectoryLog(Vec like, const std::string &path, int every) : path_(path), every_(every) {
  if (every < 1) throw inputError("trajectory: every must be >= 1");
  BEAM_PETSC(VecScatterCreateToZero(like, scatter_.out(), whole_.out()));
  int rank = 0;
  MPI_Comm_rank(PetscObjectComm(PetscObject(like)), &rank);
  writer_ = rank == 0;
  PetscInt n;
  BEAM_PETSC(VecGetSize(like, &n));
  header_ = "time";
  for (PetscInt i = 1; i <= n; ++i) header_ += ",q" + std::to_string(i);
  header_ += "\n";
}

void TrajectoryLog::open(const char *mode) {
  file_ = std::fopen(path_.c_str(), mode);
  if (!file_) throw runError("cannot write '" + path_ + "': " + std::strerror(errno));
}

void TrajectoryLog::resume(const StepState &s) {
  if (!writer_) return;
  // Keep the rows up to the checkpoint's time (complete lines only); later ones are written again.
  std::ifstream in(path_);
  if (!in) throw runError("cannot continue '" + path_ + "': it is missing");
  std::string kept = header_, line;
  std::getline(in, line);
  while (std::getline(in, line) && !in.eof()) {
    if (std::strtod(line.c_str(), nullptr) > s.time * (1 + 1e-12)) break;
    kept += line + "\n";
  }
  in.close();
  writeFileAtomically(path_, kept);
  open("a");
}

TrajectoryLog::~TrajectoryLog() {
  if (file_) std::fclose(file_);
}

void TrajectoryLog::observe(const StepState &s) {
  if (s.step % every_ != 0 && !s.last()) return;
  BEAM_PETSC(VecScatterBegin(scatter_, s.x, whole_, INSERT_VALUES, SCATTER_FORWARD));
  BEAM_PETSC(VecScatterEnd(scatter_, s.x, whole_, INSERT_VALUES, SCATTER_FORWARD));
  if (!writer_) return;
  if (!file_) {
    open("w");
    std::fputs(header_.c_str(), file_);
  }
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
