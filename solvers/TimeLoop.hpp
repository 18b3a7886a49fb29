// The time loop: n = ceil(T/dt) steps of one scheme (the last one ends at n*dt >= T), energy measured
// every step, monitors notified, divergence detected.
//
// Divergence: a non-finite energy, or |E - E0| > divergence_factor * scale (default 1e6, scale as in
// energyScale). The run stops after the offending step without notifying monitors of it, so everything
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

// Sets up `scheme` on `system` and integrates from (x, y) at t = 0; x and y hold the final state.
RunResult integrate(TimeScheme &scheme, const SecondOrderSystem &system, Vec x, Vec y,
                    const RunSettings &settings, const std::vector<Monitor *> &monitors);

} // namespace beam
