#include "output/TrajectoryLog.hpp"

#include <cstdlib>

namespace beam {

std::string TrajectoryLog::header(Vec like) {
  PetscInt n;
  BEAM_PETSC(VecGetSize(like, &n));
  std::string h = "time";
  for (PetscInt i = 1; i <= n; ++i) h += ",q" + std::to_string(i);
  return h + "\n";
}

TrajectoryLog::TrajectoryLog(Vec like, const std::string &path, int every)
    : every_(every), log_(PetscObjectComm(PetscObject(like)), path, header(like)) {
  if (every < 1) throw inputError("trajectory: every must be >= 1");
  BEAM_PETSC(VecScatterCreateToZero(like, scatter_.out(), whole_.out()));
}

void TrajectoryLog::resume(const StepState &s) {
  // Keep the rows up to the checkpoint's time; later ones are written again.
  log_.resume([&](const std::string &row) { return std::strtod(row.c_str(), nullptr) <= s.time * (1 + 1e-12); });
}

void TrajectoryLog::observe(const StepState &s) {
  if (s.step % every_ != 0 && !s.last()) return;
  BEAM_PETSC(VecScatterBegin(scatter_, s.x, whole_, INSERT_VALUES, SCATTER_FORWARD));
  BEAM_PETSC(VecScatterEnd(scatter_, s.x, whole_, INSERT_VALUES, SCATTER_FORWARD));
  if (!log_.writer()) return log_.write(""); // the other ranks agree on rank 0's write
  PetscInt n;
  BEAM_PETSC(VecGetLocalSize(whole_, &n));
  const PetscScalar *a;
  BEAM_PETSC(VecGetArrayRead(whole_, &a));
  std::string row;
  appendCsvField(row, s.time);
  for (PetscInt i = 0; i < n; ++i) appendCsvField(row, PetscRealPart(a[i]));
  BEAM_PETSC(VecRestoreArrayRead(whole_, &a));
  log_.write(row + "\n");
}

} // namespace beam
