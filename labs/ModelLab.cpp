#include "labs/ModelLab.hpp"
#include "common/StopSignal.hpp"
#include "common/Warnings.hpp"

#include <sys/stat.h>

#include <cmath>
#include <cstdio>
#include <memory>
#include <utility>

#include "common/Agree.hpp"
#include "common/Exact.hpp"
#include "output/ConsoleEnergy.hpp"
#include "output/EnergyLog.hpp"
#include "output/FileUtil.hpp"
#include "output/Progress.hpp"
#include "output/VtkSnapshots.hpp"

namespace beam {

LabOutput labOutput(const OutputOptions &options, std::string snapshot_name, std::vector<std::string> energy_leading) {
  LabOutput output;
  output.dir = options.dir;
  output.quiet = options.quiet;
  output.console_every = options.console_every;
  output.snapshot_every = options.snapshot_every;
  output.save_final = options.save_final;
  output.snapshot_name = std::move(snapshot_name);
  output.energy_leading = std::move(energy_leading);
  return output;
}

// When the run starts (the first observe, or resume): after every refusal of a restart (the checkpoint's
// identity, the logs, the series), which the time loop makes before either.
void RunStart::start() {
  releaseWarnings(); // (held while the lab set up: common/Warnings.hpp)
  if (!line.empty()) BEAM_PETSC(PetscPrintf(comm, "%s\n", line.c_str()));
  line.clear();
  if (action) std::exchange(action, nullptr)();
}

RunResult runModel(TimeLoop &loop, const Model &model, Vec x, Vec y, const LabOutput &output,
                   const std::vector<Monitor *> &extra) {
  prepareRunOutput(model.comm(), output.dir, output.snapshot_name, output.save_final, loop.restarts(),
                   [&] { loop.prepareStart(x, y); });
  std::vector<std::unique_ptr<Monitor>> owned;
  owned.push_back(std::make_unique<RunStart>(model.comm(), output.header, output.at_start)); // first: before any energy line
  owned.push_back(std::make_unique<EnergyLog>(model, output.dir + "/energy.csv", loop.reportsNewtonIterations(),
                                                output.energy_leading));
  if (output.console && !output.quiet) owned.push_back(std::make_unique<ConsoleEnergy>(model.comm(), output.console_every));
  if (!output.quiet) owned.push_back(std::make_unique<Progress>(model.comm()));
  if (output.snapshot_every > 0)
    owned.push_back(std::make_unique<VtkSnapshots>(model, output.dir, output.snapshot_every, output.snapshot_name));
  else if (loop.restarts())
    owned.push_back(VtkSnapshots::seriesTrimmer(model, output.dir, output.snapshot_name));
  std::vector<Monitor *> monitors;
  for (auto &m : owned) monitors.push_back(m.get());
  monitors.insert(monitors.end(), extra.begin(), extra.end());
  return loop.run(x, y, monitors);
}

void saveFinalState(MPI_Comm comm, const std::string &path, RunResult &result, const std::function<void()> &write) {
  if (path.empty()) return;
  if (!result.diverged) return write();
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  int removed = 0;
  agreeOn(comm, [&] { // a device or FIFO given as the path is left alone; a link goes (not its target), as a
                      // complete run's file replaces the link
    struct stat st {};
    if (rank == 0 && ::lstat(path.c_str(), &st) == 0 && (S_ISREG(st.st_mode) || S_ISLNK(st.st_mode)) &&
        std::remove(path.c_str()) == 0)
      removed = 1;
  });
  MPI_Bcast(&removed, 1, MPI_INT, 0, comm);
  result.divergence += removed ? "; -save_final: no final state written, the earlier '" + path + "' removed"
                               : "; -save_final: no final state written";
}

void printSummary(MPI_Comm comm, const std::vector<RunResult> &results) {
  BEAM_PETSC(PetscPrintf(comm, "\n%-19s %9s %10s %14s %14s  %s\n", "scheme", "steps", "time", "max|drift|",
                         "final drift", "verdict"));
  for (const auto &r : results) {
    // conserved: round-off level. oscillates (bounded): the drift reached both signs, each by at least
    // a tenth of its largest size, or came back — at some step (not only the last) |drift| fell below
    // half its largest size so far. The lab schemes' bounded oscillation was called "loses energy" at
    // T = 5 and "gains energy" at T = 20, by where it happened to end. Otherwise the drift only grew or
    // levelled off, and its sign says which way the energy went (a drift that rises once and stays flat,
    // as a damped run's quadrature error, keeps its sign's word whatever step round-off makes the
    // largest).
    const bool both_signs = r.max_drift >= 0.1 * r.max_abs_drift && -r.min_drift >= 0.1 * r.max_abs_drift;
    const bool came_back = r.max_drawdown >= 0.5 * r.max_abs_drift;
    const char *verdict = r.diverged                         ? "DIVERGED"
                          : r.interrupted_by                 ? "interrupted"
                          : r.max_abs_drift < 1e-8           ? "conserved"
                          : both_signs || came_back          ? "oscillates"
                          : r.final_drift < 0                ? "loses energy"
                                                             : "gains energy";
    BEAM_PETSC(PetscPrintf(comm, "%-19s %9lld %10.5g %14.6e %14.6e  %s\n", r.scheme.c_str(), (long long)r.steps_done,
                           r.time, r.max_abs_drift, r.final_drift, verdict));
  }
  if (results.empty()) return;
  BEAM_PETSC(PetscPrintf(comm, "(drift = (E - E0) / scale, scale = max(|E0| without gravity's potential, the model's reference energy: %s;\n"
                         " if both are 0, the largest sum of |energy terms| so far)\n",
                         results.front().reference_energy.c_str()));
}

int reportRun(MPI_Comm comm, const RunResult &result, const std::string &dir) {
  printSummary(comm, {result});
  if (result.diverged) throw runError(result.divergence);
  if (result.interrupted_by) {
    BEAM_PETSC(PetscPrintf(comm, "stopped by signal %d after step %lld (t = %s); checkpoint %s/checkpoint.bin; continue with -restart %s\n",
                           result.interrupted_by, (long long)result.steps_done, gText(result.time).c_str(), dir.c_str(), dir.c_str()));
    return 128 + result.interrupted_by;
  }
  return signalAtTheEnd(comm, dir);
}

int signalAtTheEnd(MPI_Comm comm, const std::string &dir) {
  const int sig = stopRequested(comm);
  if (sig)
    BEAM_PETSC(PetscPrintf(comm, "signal %d arrived as the run ended: the run is complete (checkpoint %s/checkpoint.bin)\n",
                           sig, dir.c_str()));
  return sig ? 128 + sig : int(kExitOk);
}

} // namespace beam
