// Checkpoints of a run: everything needed to continue it bit for bit — x, y, the scheme's history
// (acceleration, previous displacement, ...), the step and time, and the energy accumulators.
//
// One PETSc binary file (global vectors, so a checkpoint written on P ranks loads on any number),
// written to "<path>.tmp" and renamed onto <path>: a run killed at any moment leaves either the
// previous checkpoint or the new one, never a partial file.
#pragma once
#include <string>
#include <vector>

#include "common/Petsc.hpp"

namespace beam {

struct CheckpointHeader {
  std::string scheme;        // must match on restart
  PetscInt size = 0;         // global number of DOFs, must match
  PetscInt step = 0;
  double time = 0;
  double dt = 0;             // must match
  double work = 0, dissipated = 0, total0 = 0; // EnergyMeter accumulators
  double energy_scale = 1, max_abs_drift = 0;  // RunResult so far
  PetscInt history = 0;      // number of scheme history vectors
};

void writeCheckpoint(const std::string &path, const CheckpointHeader &header, Vec x, Vec y,
                     const std::vector<Vec> &history);

// Reads the header only (to validate before setting anything up). Throws an input error naming the
// file when it is missing or not a checkpoint.
CheckpointHeader readCheckpointHeader(MPI_Comm comm, const std::string &path);
// Loads the vectors into x, y and history (sizes must match the header).
void readCheckpointState(const std::string &path, Vec x, Vec y, const std::vector<Vec> &history);

} // namespace beam
