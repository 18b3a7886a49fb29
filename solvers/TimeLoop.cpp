#include "solvers/TimeLoop.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace beam {

PetscInt stepCount(double T, double dt) {
  // Tolerate round-off in T/dt (T = 1, dt = 0.1 is 10 steps, not 11).
  return PetscInt(std::ceil(T / dt * (1 - 1e-12)));
}

RunResult integrate(TimeScheme &scheme, const SecondOrderSystem &system, Vec x, Vec y,
                    const RunSettings &settings, const std::vector<Monitor *> &monitors) {
  if (!(settings.dt > 0)) throw inputError("-dt: must be > 0");
  if (!(settings.T >= 0)) throw inputError("-T: must be >= 0");
  scheme.setup(system, {settings.dt, settings.solver});
  const EnergyMeter meter(system);

  StepState state;
  state.steps = stepCount(settings.T, settings.dt);
  state.x = x;
  state.y = y;
  state.energy = meter.measure(x, y);
  const double e0 = state.energy.total();

  RunResult result;
  result.scheme = scheme.name();
  result.energy_scale = energyScale(system, e0, settings.solver);
  for (Monitor *m : monitors) m->observe(state);

  for (PetscInt n = 1; n <= state.steps; ++n) {
    scheme.step(state.time, x, y);
    const EnergyTerms e = meter.measure(x, y);
    const double drift = (e.total() - e0) / result.energy_scale;
    const double t = double(n) * settings.dt;
    if (!std::isfinite(drift) || std::abs(drift) > settings.divergence_factor) {
      std::ostringstream why;
      why << scheme.name() << " diverged at step " << n << ", t = " << t << ": "
          << (std::isfinite(drift) ? "energy drift exceeded the bound" : "energy is not finite");
      if (std::isfinite(drift)) why << " (|E - E0| / scale = " << std::abs(drift) << " > " << settings.divergence_factor << ")";
      result.diverged = true;
      result.divergence = why.str();
      result.final_drift = drift;
      break;
    }
    state.step = n;
    state.time = t;
    state.energy = e;
    state.drift = drift;
    result.steps_done = n;
    result.time = t;
    result.max_abs_drift = std::max(result.max_abs_drift, std::abs(drift));
    result.final_drift = drift;
    for (Monitor *m : monitors) m->observe(state);
  }
  for (Monitor *m : monitors) m->finish(result);
  return result;
}

} // namespace beam
