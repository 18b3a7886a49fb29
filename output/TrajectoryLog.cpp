#include "output/TrajectoryLog.hpp"

#include <cstdlib>
#include <fstream>

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

void TrajectoryLog::checkResume(const StepState &s) const {
  if (!log_.writer()) return;
  // The rows are at steps 0, every, 2 every, ... (and at the last step of each run): up to the
  // checkpoint's time they must start at 0, leave no gap wider than every steps and reach its last
  // multiple of every. A truncated file would otherwise be continued with a silent gap.
  std::string why = regularFileProblem(log_.path());
  if (why.empty()) {
    std::ifstream in(log_.path());
    std::string line;
    const double dt = s.step > 0 ? s.time / double(s.step) : 0, gap = double(every_) * dt * (1 + 1e-9);
    const double last_due = double(s.step - s.step % every_) * dt * (1 - 1e-9);
    double previous = -1;
    if (!std::getline(in, line) || line + "\n" != log_.header()) why = "its columns differ from this run's";
    while (why.empty() && std::getline(in, line) && !in.eof()) { // a last line counts only if complete
      const double t = std::strtod(line.c_str(), nullptr);
      if (t > s.time * (1 + 1e-12) + 1e-300) break;
      if (previous < 0 ? t != 0 : t - previous > gap) break;
      previous = t;
    }
    if (why.empty() && previous < last_due)
      why = "its rows stop before t = " + std::to_string(s.time) + " of the checkpoint (truncated or edited)";
  }
  if (!why.empty()) throw inputError("-restart: cannot continue '" + log_.path() + "': " + why);
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
