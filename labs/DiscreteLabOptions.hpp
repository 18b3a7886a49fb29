// Options of the discrete systems: the system set (shared by discrete_system and stability) and the
// discrete_system lab's composition of sets (system, load in time, scheme, run, solver, output,
// checkpoints; see solvers/RunOptions.hpp).
#pragma once
#include <functional>
#include <string>

#include "DiscreteSystem/DiscreteSystem.hpp"
#include "solvers/RunOptions.hpp"

namespace beam {

// -system two_dof|fifteen_dof, or the files -M -K [-C -F -q0 -v0]; -load_history FILE -load_dt DT.
struct DiscreteSource {
  std::string system;  // built-in name; empty when files are given
  DiscreteFiles files; // -M -K -C -F -q0 -v0 -load_history -load_dt
  bool given() const;  // -system or any file: a discrete system was asked for
};
// `default_system`: the built-in system used when neither -system nor files are given ("" = none).
// `motion` false: the system's matrices and load only (-system -M -K -C -F), for an analysis: the
// initial state and the load history (-q0 -v0 -load_history -load_dt) are then not read, so the
// unknown-option check refuses them (the stability lab read and ignored them, a missing file unnoticed).
DiscreteSource readDiscreteSourceOptions(MPI_Comm comm, const std::string &default_system, bool motion = true);
// The model the source describes (files read and checked), with load in time `g` when not empty.
DiscreteModel discreteModel(const DiscreteSource &source, const std::function<double(double)> &g);

struct DiscreteLabOptions {
  DiscreteSource source;
  std::function<double(double)> load_factor; // -load_curve / -load_harmonic
  LoadIdentity load_identity;
  std::string scheme = "newmark";
  RunSettings run;          // -dt (0.01), -T (10), -divergence_factor, -linear_solver
  int snapshot_every = 10;  // trajectory.csv every N steps (>= 1; step 0 and the last always)
  std::string output_dir = "out/discrete_system";
  std::string save_final;   // N x 2 Matrix Market array (q, v)
  bool quiet = false;       // -quiet: no progress display
};

// Agreed on by every rank (agreeOn), files included.
DiscreteLabOptions readDiscreteLabOptions(MPI_Comm comm);
// The model the options describe: built in or from files, with its load in time.
DiscreteModel discreteModel(const DiscreteLabOptions &options);

} // namespace beam
