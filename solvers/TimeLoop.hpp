// The time loop: n = ceil(T/dt) steps of one scheme (the last one ends at n*dt >= T), energy measured
// every step, monitors notified, divergence detected.
//
// Divergence: a non-finite energy, or |E - E0| > divergence_factor * scale (default 1e6, scale as in
// driftScale). The run stops after the offending step without notifying monitors of it, so everything
// they wrote describes finite states.
//
// Checkpoints and restart (see Checkpoint.hpp): with checkpoint_path set, the full state is saved every
// checkpoint_every steps, at the end, and when SIGINT/SIGTERM stops the run (after finishing the step and
// letting monitors write a final snapshot). A run with restart_path continues from that checkpoint: same
// scheme, system size and dt (checked); T may be larger. On one rank it ends in exactly the state of an
// uninterrupted run.
#pragma once
#include <string>
#include <vector>

#include "solvers/Monitor.hpp"
#include "solvers/TimeScheme.hpp"

namespace beam {

struct RunSettings {
  double T = 1;
  double dt = 0.01;
  double divergence_factor = 1e6;
  LinearSolverKind solver = LinearSolverKind::Direct;
  PetscInt checkpoint_every = 0; // write a checkpoint every N steps (and at the end); 0 = only on a signal
  std::string checkpoint_path;   // where checkpoints go; empty = none, not even on a signal
  std::string restart_path;      // continue from this checkpoint instead of starting at t = 0
};

PetscInt stepCount(double T, double dt);

class TimeLoop {
public:
  // Sets up the scheme (its factorization) and the static solve of the energy scale: once this returns,
  // every solver has read its options, so unknown options can be rejected before anything is written.
  TimeLoop(TimeScheme &scheme, const SecondOrderSystem &system, const RunSettings &settings);
  PetscInt steps() const { return steps_; }
  // Integrates from (x, y) at t = 0 — or, with settings.restart_path, from the checkpoint (x and y are
  // then overwritten with its state); x and y hold the final state.
  RunResult run(Vec x, Vec y, const std::vector<Monitor *> &monitors);

private:
  void checkpoint(const StepState &state, const EnergyMeter &meter, const RunResult &result) const;

  TimeScheme &scheme_;
  const SecondOrderSystem &system_;
  RunSettings settings_;
  PetscInt steps_;
  double compliance_;
};

// TimeLoop(scheme, system, settings).run(x, y, monitors)
RunResult integrate(TimeScheme &scheme, const SecondOrderSystem &system, Vec x, Vec y,
                    const RunSettings &settings, const std::vector<Monitor *> &monitors);

} // namespace beam
