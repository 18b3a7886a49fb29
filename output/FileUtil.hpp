// File helpers shared by every writer: atomic replacement and output-directory checks.
#pragma once
#include <mpi.h>

#include <functional>
#include <string>
#include <vector>

#include "common/OutputFile.hpp" // openForWriting, writeFileAtomically, commitFile

namespace beam {

// Creates `dir` (and parents) if needed and checks that a file can be written in it; throws an input
// error naming the directory otherwise. Call before a run starts, on every rank of PETSC_COMM_WORLD
// (collective: the ranks agree on the outcome). Also:
// - the directory is locked (an exclusive flock on `dir/.lock` by rank 0, held until the process ends;
//   the system releases it after a crash or SIGKILL too): a second run writing into it at once is
//   refused (two runs mixed their energy.csv lines and snapshots, the survivor exit 0);
// - every rank must see the same directory (a relative path from per-rank working directories, or
//   node-local storage, put each rank's snapshot pieces in its own copy: the .pvd listed pieces that
//   were not beside it, exit 0);
// - a file name as long as the longest the run writes must fit (a path near PATH_MAX passed the
//   old short probe and failed mid-run).
void prepareOutputDirectory(const std::string &dir);
// A file of the whole run written by rank 0 (atomically), agreed on: its failure ends every rank at once.
void writeOnRankZero(MPI_Comm comm, const std::string &path, const std::string &content);
// The same for a directory an option names other than -output_dir (-export_system, -write_network):
// its errors begin with the option.
void prepareOptionDirectory(const std::string &option, const std::string &dir);

// A new run (not a restart) in a directory an earlier run wrote: removes that run's checkpoint,
// trajectory and snapshot series (`<snapshot_name>.pvd` and `<snapshot_name>_*` snapshot files; none
// when snapshot_name is empty), so that a later -restart cannot splice the earlier run into this one
// (a killed second run left the first's checkpoint live: the restart continued run 1 after run 2's
// rows, exit 0) and ParaView does not open a stale series. Rank 0 removes; collective. `run_logs` false:
// the series only (a lab without a checkpoint, as `modes`, must leave another lab's run in the directory).
void clearPreviousRun(const std::string &dir, const std::string &snapshot_name, bool run_logs = true);

// An analysis lab that writes its tables and charts at its end removes an earlier run's `names` in `dir`
// first: stopped (a signal, a failure), it left them beside its own start as if they were its results.
// Regular files only; rank 0 removes; collective.
void removeEarlierResults(const std::string &dir, const std::vector<std::string> &names);

// -save_final must not name one of the run's own files in its output directory (energy.csv, the
// checkpoint, the snapshots, or `extra` names such as the exported system's): the final state replaced
// energy.csv, exit 0. Throws an input error naming both.
void refuseRunFileAsFinalState(const std::string &save_final, const std::string &dir, const std::string &snapshot_name,
                               const std::vector<std::string> &extra = {});
// The output of one run, in this order: -save_final (`save_final`, "" for none) refused when it names
// one of the run's files, or cannot be written (checked once the directory exists when it is in it: it
// was refused as missing when the directory was to be made by the run); `refuse_input`, the lab's last
// checks of its input (a refused run makes no directory); prepareOutputDirectory; for a new run
// (`restart` false), clearPreviousRun. Collective on `comm`.
void prepareRunOutput(MPI_Comm comm, const std::string &dir, const std::string &snapshot_name, const std::string &save_final,
                      bool restart, const std::function<void()> &refuse_input);
// True when `file` is in directory `dir` (both compared as absolute, normalized paths).
bool isInDirectory(const std::string &file, const std::string &dir);

// Checks at the start of a run that `path` can be written when the run ends (its temporary file can be
// created next to it; nothing is left behind); throws an input error naming `option` and the path.
void checkWritableFile(const std::string &option, const std::string &path);

} // namespace beam
