// Checkpoints of a run: everything needed to continue it bit for bit — x, y, the scheme's history
// (acceleration, previous displacement, initial guesses of iterative solves), the step and time, and
// the energy accumulators — and everything that defines the run, so a restart can refuse a checkpoint
// that does not belong to it.
//
// One PETSc binary file (global vectors, so a checkpoint written on P ranks loads on any number),
// written to "<path>.tmp" and renamed onto <path>: a run killed at any moment leaves either the
// previous checkpoint or the new one, never a partial file.
//
// Trust nothing read back: the file carries a 64-bit checksum of its header, its identity and every
// vector entry (an order-independent sum of hashed (index, value) pairs, so it does not depend on the
// number of ranks), checked after loading; the header's counts are range-checked before anything is
// allocated; the identity — (field, value) pairs naming the lab, the model and its parameters, the
// scheme and its parameters, dt and the solver settings that change results — must equal the new run's,
// and the first differing field is named.
#pragma once
#include <petscvec.h>

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace beam {

using Identity = std::vector<std::pair<std::string, std::string>>;

struct CheckpointHeader {
  std::string scheme;        // must match on restart
  PetscInt size = 0;         // global number of DOFs, must match
  PetscInt step = 0;
  double time = 0;
  double dt = 0;             // must match
  double work = 0, dissipated = 0, total0 = 0; // EnergyMeter accumulators
  double energy_scale = 1, max_abs_drift = 0;  // RunResult so far
  double max_drift = 0, min_drift = 0;         // the drift's signed extremes so far
  double max_drawdown = 0;                     // the largest fall of |drift| below its running maximum
  PetscInt history = 0;      // number of scheme history vectors
  bool continues = true;     // the history continues (x, y): false after a state changed outside the step
  bool scale_follows = false; // the drift scale follows the energies (the model gave none)
  PetscInt series_every = 0; // the writing run's -snapshot_every: the grid of its series' entries (0: none)
  Identity identity;         // what defines the run
};

void writeCheckpoint(const std::string &path, const CheckpointHeader &header, Vec x, Vec y,
                     const std::vector<Vec> &history);

// Reads and range-checks the header (to validate before setting anything up). Throws an input error
// naming the file when it is missing, not a regular file, or not a checkpoint.
CheckpointHeader readCheckpointHeader(MPI_Comm comm, const std::string &path);
// Refuses (input error) a checkpoint whose identity differs from `expected`, naming the first field.
// `explain(field, then, now)` may word a difference in the user's terms (an option and its value
// rather than an internal parameter); "" keeps "field was then, now now".
using IdentityExplainer = std::function<std::string(const std::string &field, const std::string &then,
                                                    const std::string &now)>;
void checkIdentity(const std::string &path, const Identity &saved, const Identity &expected,
                   const IdentityExplainer &explain = {});
// Loads the vectors into x, y and history (sizes must match the header) and verifies the checksum;
// throws an input error when the file is corrupted.
void readCheckpointState(const std::string &path, Vec x, Vec y, const std::vector<Vec> &history);

} // namespace beam
