// What every time-integration lab does around its TimeLoop, whatever the model: the standard monitors
// (energy.csv, the console energy line, the progress display, VTK snapshots of the model's drawing),
// the run, the summary table and the exit code (0, 3 when the run diverged or a step failed, 128 +
// signal when a signal stopped it after a checkpoint).
#pragma once
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "solvers/Model.hpp"
#include "solvers/Monitor.hpp"
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
  std::function<void()> at_start;          // and what is written then (-export_system's files): never by a refused run
};

// What is done once, when the run starts or resumes: a header line (printed before a refused restart or
// output directory, it read as a run that went on), then `action`, the lab's writes beside the run's own
// (-export_system's files, left by a refused run until 2026-11-30). Put it first among the monitors.
struct RunStart final : Monitor {
  RunStart(MPI_Comm comm, std::string line, std::function<void()> action = {})
      : comm(comm), line(std::move(line)), action(std::move(action)) {}
  void observe(const StepState &) override { start(); }
  void resume(const StepState &) override { start(); }
  void start();
  MPI_Comm comm;
  std::string line;
  std::function<void()> action;
};

// The standard outputs as the output option set gives them (solvers/RunOptions.hpp).
LabOutput labOutput(const OutputOptions &options, std::string snapshot_name, std::vector<std::string> energy_leading);

// Runs `loop` from (x, y) (or its checkpoint) with the standard monitors and `extra` ones.
RunResult runModel(TimeLoop &loop, const Model &model, Vec x, Vec y, const LabOutput &output,
                   const std::vector<Monitor *> &extra = {});

// -save_final after a run: `write` the final state (a complete or interrupted run), or for a diverged
// run none, an earlier run's file at `path` removed (it was left, read as this run's) and the divergence
// message saying so. Collective; nothing when `path` is empty.
void saveFinalState(MPI_Comm comm, const std::string &path, RunResult &result, const std::function<void()> &write);

// Table of results on rank 0: scheme, steps, time, max |drift|, final drift, verdict.
void printSummary(MPI_Comm comm, const std::vector<RunResult> &results);

// The summary, then the exit code: a divergence throws its run error (exit 3); a signal prints how to
// continue (-restart dir) and returns 128 + signal; otherwise 0.
int reportRun(MPI_Comm comm, const RunResult &result, const std::string &dir);
// After a complete run: a signal that came in its last step (its snapshot, checkpoint) is said, and gives
// 128 + the signal (it was swallowed: exit 0, no word); 0 if none. Collective.
int signalAtTheEnd(MPI_Comm comm, const std::string &dir);

} // namespace beam
