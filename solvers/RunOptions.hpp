// The option sets every time-integration lab shares: the run, the scheme(s), the output and the
// checkpoints. Each reads its own options in its own PETSc block (common/Options.hpp), so `-help` lists
// exactly the sets a lab takes, and an option of a set the lab does not take stays unread and is
// refused by finishOptions().
//
// A lab composes them in its options function, one call per set, in this order (the checkpoint set
// needs the output directory):
//
//   RunSettings run;  run.dt = 0.01;  run.T = 10;        // the lab's defaults
//   OutputOptions out;  out.dir = "out/mass_spring";
//   readRunOptions(comm, run);                           // -dt -T -divergence_factor
//   readLinearSolverOption(comm, run);                   // -linear_solver
//   const std::string scheme = readSchemeOption(comm, "newmark");                // -scheme
//   readOutputOptions(comm, out, {"Write a row every N steps (>= 1)", 1, false}); // -output_dir ...
//   readCheckpointOptions(comm, run, out, true);         // -checkpoint_every -restart
//   ... the lab's own sets ...
//   // then build the model, the scheme and the TimeLoop (every solver reads its options), and
//   if (finishOptions(comm)) return 0;                   // unknown options refused; -help stops here
//
// Wrap the reading in agreeOn(comm, ...) so a value bad on one MPI rank only ends every rank.
// Option names and defaults are the README's; errors are one line, exit 2.
#pragma once
#include <petscsys.h>

#include <string>
#include <vector>

#include "solvers/TimeLoop.hpp"

namespace beam {

// -dt (> 0), -T (>= 0, at most 1e9 steps), -divergence_factor (> 0). Defaults: the values in `run`.
void readRunOptions(MPI_Comm comm, RunSettings &run);
// -linear_solver direct|cg (default: run.solver).
void readLinearSolverOption(MPI_Comm comm, RunSettings &run);

// -scheme NAME (one of schemeNames()); an unknown name's message lists `accepted` when not empty (the
// schemes a lab's model takes), all the schemes otherwise.
std::string readSchemeOption(MPI_Comm comm, const std::string &default_scheme, const std::vector<std::string> &accepted = {});
// -schemes a,b,... (default: `defaults`); unknown names and empty items are refused.
std::vector<std::string> readSchemeListOption(MPI_Comm comm, const std::vector<std::string> &defaults = schemeNames());

struct OutputOptions {
  std::string dir;         // -output_dir (the lab's default, usually out/<lab>); never empty
  bool dir_given = false;  // -output_dir was on the command line
  bool quiet = false;      // -quiet: no console energy lines, no progress display
  std::string save_final;  // -save_final FILE: the final state as an N x 2 Matrix Market array
  int snapshot_every = 10; // -snapshot_every N
  int console_every = 10;  // -console_every N (labs that print the energy)
};
// What a lab's output set holds besides -output_dir, -quiet and -save_final.
struct OutputChoices {
  const char *snapshot_help; // what -snapshot_every writes; nullptr: a lab writing no time history,
                             // which takes -output_dir alone
  int snapshot_min;          // 0 when snapshots can be turned off
  bool console;              // read -console_every
};
void readOutputOptions(MPI_Comm comm, OutputOptions &output, const OutputChoices &choices);

// -checkpoint_every N (>= 0) and, when `restart` (single-run labs), -restart DIR: DIR becomes the
// output directory (another -output_dir is refused). Checkpoints go to <output dir>/checkpoint.bin.
void readCheckpointOptions(MPI_Comm comm, RunSettings &run, OutputOptions &output, bool restart);

// The sets of a one-scheme lab on any model, in order: run, [linear solver], scheme, output (snapshots of
// the model's drawing, 0 = none), checkpoints with -restart. Returns the scheme's name.
// `accepted`: the schemes the lab's model takes (schemesServing), listed by -help and in an unknown name's
// message; a known scheme outside it is returned for the model's refusal, which says why.
std::string readModelRunOptions(MPI_Comm comm, RunSettings &run, OutputOptions &output, const std::string &default_scheme,
                                bool linear_solver, const std::vector<std::string> &accepted = {});

} // namespace beam
