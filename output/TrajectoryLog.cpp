#include "output/TrajectoryLog.hpp"
#include "output/EndFrame.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <vector>

#include "common/Exact.hpp"

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
  // The rows are every -snapshot_every steps (and at the last step of each run), a spacing that may
  // have changed between runs: up to the checkpoint's time they must start at 0, go forward, have the
  // header's columns, and reach the checkpoint's time within the file's own largest spacing. A
  // truncated file would otherwise be continued with a silent gap.
  std::string why = regularFileProblem(log_.path());
  if (why.empty()) {
    std::ifstream in(log_.path());
    std::string line;
    const auto fields = std::count(log_.header().begin(), log_.header().end(), ',');
    const std::string edited = " before t = " + exactDecimal(s.time) + " of the checkpoint (truncated or edited)";
    double previous = -1, widest = 0;
    bool beyond = false; // a complete row after the checkpoint's time: the file was not cut before it
    if (!std::getline(in, line) || line + "\n" != log_.header()) why = "its columns differ from this run's";
    while (why.empty() && std::getline(in, line) && !in.eof()) { // a last line counts only if complete
      const double t = std::strtod(line.c_str(), nullptr);
      if (t > s.time * (1 + 1e-12) + 1e-300) {
        beyond = true;
        break;
      }
      if (std::count(line.begin(), line.end(), ',') != fields) why = "a row has other columns than its header" + edited;
      else if (const std::string bad = notFiniteField(line); !bad.empty()) why = bad + edited;
      else if (previous < 0 ? t != 0 : !(t > previous)) why = "its times do not start at 0 or do not increase" + edited;
      else if (previous >= 0) widest = std::max(widest, t - previous);
      previous = t;
    }
    // Within the file's largest spacing, or this run's (row 0 alone before the checkpoint has none: a
    // -snapshot_every 5 run checkpointed at step 4 and diverged at 6 was refused on restart).
    const double spacing = std::max(widest, s.step > 0 ? every_ * s.time / double(s.step) : 0.0);
    if (why.empty() && (previous < 0 || (!beyond && previous < s.time - spacing * (1 + 1e-9))))
      why = "its rows stop" + edited;
  }
  if (!why.empty()) throw inputError("-restart: cannot continue '" + log_.path() + "': " + why + "; accepted: the run's own log, as it wrote it up to the checkpoint");
}

void TrajectoryLog::resume(const StepState &s) {
  // Keep the rows up to the checkpoint's time; later ones are written again. A row at the checkpoint
  // that the interrupted run wrote only because it ended there goes too when this run goes on
  // (dropEndEntry; a restart to a larger -T kept an extra row at the first run's end).
  observed_ = s.step;
  bool drop_end_row = false;
  if (log_.writer() && s.step > 0 && s.step < s.steps) {
    const double dt = s.time / double(s.step);
    std::ifstream in(log_.path());
    std::string line;
    std::vector<long long> steps; // of the rows up to the checkpoint
    std::getline(in, line);       // the header
    while (std::getline(in, line)) {
      const double t = std::strtod(line.c_str(), nullptr);
      if (t > s.time * (1 + 1e-12)) break;
      steps.push_back(std::llround(t / dt));
    }
    drop_end_row = dropEndEntry(steps, s.step, s.steps, s.resumed_grid);
  }
  const double keep = drop_end_row ? s.time * (1 - 1e-12) : s.time * (1 + 1e-12);
  double last_kept = -1;
  log_.resume([&](const std::string &row) {
    const double t = std::strtod(row.c_str(), nullptr);
    const bool kept = drop_end_row ? t < keep : t <= keep;
    if (kept) last_kept = t;
    return kept;
  });
  // A restart with no step left (T at the checkpoint's) writes the row an uninterrupted run ends with,
  // if the log lacks it (it was lost, exit 0).
  int end_missing = log_.writer() && s.last() && last_kept < s.time * (1 - 1e-12);
  MPI_Bcast(&end_missing, 1, MPI_INT, 0, PetscObjectComm(PetscObject(s.x)));
  if (end_missing) observe(s);
}

void TrajectoryLog::observe(const StepState &s) {
  observed_ = s.step;
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

// As the snapshots: a failed run's file ends with where it stopped, the last accepted state (observed,
// written if on the grid) or the diverged one (never observed).
void TrajectoryLog::failedAt(const StepState &s) {
  if (s.step == observed_ && s.step % every_ == 0) return;
  StepState end = s;
  end.stopping = true;
  observe(end);
}

} // namespace beam
