// The time loop: n = ceil(T/dt) steps of one scheme (the last one ends at n*dt >= T), energy measured
// every step, monitors notified, divergence detected.
//
// Divergence: a non-finite energy, or |E - E0| > divergence_factor * scale (default 1e6, scale as in
// driftScale). The run stops after the offending step without notifying monitors of it, so everything
// they wrote describes finite states.
#pragma once
#include <vector>

#include "solvers/Monitor.hpp"
#include "solvers/TimeScheme.hpp"

namespace beam {

struct RunSettings {
  double T = 1;
  double dt = 0.01;
  double divergence_factor = 1e6;
  LinearSolverKind solver = LinearSolverKind::Direct;
};

PetscInt stepCount(double T, double dt);

class TimeLoop {
public:
  // Sets up the scheme (its factorization) and the static solve of the energy scale: once this returns,
  // every solver has read its options, so unknown options can be rejected before anything is written.
  TimeLoop(TimeScheme &scheme, const SecondOrderSystem &system, const RunSettings &settings);
  PetscInt steps() const { return steps_; }
  // Integrates from (x, y) at t = 0; x and y hold the final state.
  RunResult run(Vec x, Vec y, const std::vector<Monitor *> &monitors);

private:
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
