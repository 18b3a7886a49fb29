// What every time-integration lab does around its TimeLoop, whatever the model: the standard monitors
// (energy.csv, the console energy line, the progress display, VTK snapshots of the model's drawing),
// the run, the summary table and the exit code (0, 3 when the run diverged or a step failed, 128 +
// signal when a signal stopped it after a checkpoint).
#pragma once
#include <string>
#include <vector>

#include "solvers/Model.hpp"
#include "solvers/RunOptions.hpp"
#include "solvers/TimeLoop.hpp"

namespace beam {

struct LabOutput {
  std::string dir;                         // created if needed (energy.csv, snapshots)
  bool quiet = false;                      // no console energy lines, no progress display
  bool console = true;                     // print the energy every console_every steps
  int console_every = 10;
  int snapshot_every = 10;                 // 0: no snapshots
  std::string snapshot_name = "snapshot";  // <dir>/<name>_<step>.vt*, <dir>/<name>.pvd
  std::vector<std::string> energy_leading; // energy.csv columns to put first (EnergyLog)
  std::string save_final;                  // -save_final FILE: checked writable before the run starts
  std::string header;                      // a line printed once the output is ready (no refusal after it)
};

// The standard outputs as the output option set gives them (solvers/RunOptions.hpp).
LabOutput labOutput(const OutputOptions &options, std::string snapshot_name, std::vector<std::string> energy_leading);

// Runs `loop` from (x, y) (or its checkpoint) with the standard monitors and `extra` ones.
RunResult runModel(TimeLoop &loop, const Model &model, Vec x, Vec y, const LabOutput &output,
                   const std::vector<Monitor *> &extra = {});

// Table of results on rank 0: scheme, steps, time, max |drift|, final drift, verdict.
void printSummary(MPI_Comm comm, const std::vector<RunResult> &results);

// The summary, then the exit code: a divergence throws its run error (exit 3); a signal prints how to
// continue (-restart dir) and returns 128 + signal; otherwise 0.
int reportRun(MPI_Comm comm, const RunResult &result, const std::string &dir);
// After a complete run: a signal that came in its last step (its snapshot, checkpoint) is said, and gives
// 128 + the signal (it was swallowed: exit 0, no word); 0 if none. Collective.
int signalAtTheEnd(MPI_Comm comm, const std::string &dir);

} // namespace beam
