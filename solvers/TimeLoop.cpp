#include "solvers/TimeLoop.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace beam {

PetscInt stepCount(double T, double dt) {
  // Tolerate round-off in T/dt (T = 1, dt = 0.1 is 10 steps, not 11).
  return PetscInt(std::ceil(T / dt * (1 - 1e-12)));
}

TimeLoop::TimeLoop(TimeScheme &scheme, const SecondOrderSystem &system, const RunSettings &settings)
    : scheme_(scheme), system_(system), settings_(settings) {
  if (!(settings.dt > 0) || !std::isfinite(settings.dt)) throw inputError("-dt: must be a real > 0");
  if (!(settings.T >= 0) || !std::isfinite(settings.T)) throw inputError("-T: must be a real >= 0");
  steps_ = stepCount(settings.T, settings.dt);
  scheme_.setup(system, {settings.dt, settings.solver});
  compliance_ = staticCompliance(system, settings.solver);
}

RunResult TimeLoop::run(Vec x, Vec y, const std::vector<Monitor *> &monitors) {
  EnergyMeter meter(system_); // integrates work and dissipation along the run
  StepState state;
  state.steps = steps_;
  state.x = x;
  state.y = y;
  state.energy = meter.start(0.0, x, y);
  const double e0 = state.energy.total();

  RunResult result;
  result.scheme = scheme_.name();
  result.energy_scale = driftScale(e0, compliance_);
  for (Monitor *m : monitors) m->observe(state);

  for (PetscInt n = 1; n <= steps_; ++n) {
    scheme_.step(state.time, x, y);
    const double t = double(n) * settings_.dt;
    const EnergyTerms e = meter.advance(t, x, y);
    const double drift = (e.total() - e0) / result.energy_scale; // total includes the dissipation
    if (!std::isfinite(drift) || std::abs(drift) > settings_.divergence_factor) {
      std::ostringstream why;
      why << scheme_.name() << " diverged at step " << n << ", t = " << t << ": ";
      if (std::isfinite(drift))
        why << "|E - E0| / scale = " << std::abs(drift) << " exceeds the bound " << settings_.divergence_factor;
      else
        why << "the energy is not finite";
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

RunResult integrate(TimeScheme &scheme, const SecondOrderSystem &system, Vec x, Vec y,
                    const RunSettings &settings, const std::vector<Monitor *> &monitors) {
  TimeLoop loop(scheme, system, settings);
  return loop.run(x, y, monitors);
}

} // namespace beam
