#include "solvers/TimeLoop.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <sstream>

#include "common/StopSignal.hpp"
#include "solvers/Checkpoint.hpp"

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

void TimeLoop::checkpoint(const StepState &state, const EnergyMeter &meter, const RunResult &result) const {
  CheckpointHeader h;
  h.scheme = scheme_.name();
  BEAM_PETSC(VecGetSize(state.x, &h.size));
  h.step = state.step;
  h.time = state.time;
  h.dt = settings_.dt;
  h.work = meter.work();
  h.dissipated = meter.dissipated();
  h.total0 = meter.initialTotal();
  h.energy_scale = result.energy_scale;
  h.max_abs_drift = result.max_abs_drift;
  const std::vector<Vec> history = scheme_.history();
  h.history = PetscInt(history.size());
  writeCheckpoint(settings_.checkpoint_path, h, state.x, state.y, history);
}

RunResult TimeLoop::run(Vec x, Vec y, const std::vector<Monitor *> &monitors) {
  EnergyMeter meter(system_); // integrates work and dissipation along the run
  StepState state;
  state.steps = steps_;
  state.x = x;
  state.y = y;
  RunResult result;
  result.scheme = scheme_.name();
  MPI_Comm comm = PetscObjectComm(PetscObject(x));

  if (settings_.restart_path.empty()) {
    state.energy = meter.start(0.0, x, y);
    result.energy_scale = driftScale(state.energy.total(), compliance_);
    for (Monitor *m : monitors) m->observe(state);
  } else {
    const std::string &path = settings_.restart_path;
    const CheckpointHeader h = readCheckpointHeader(comm, path);
    PetscInt size;
    BEAM_PETSC(VecGetSize(x, &size));
    if (h.scheme != scheme_.name() || h.size != size || h.dt != settings_.dt)
      throw inputError("-restart: '" + path + "' was written by " + h.scheme + " with " + std::to_string(h.size) +
                       " DOFs and dt = " + std::to_string(h.dt) + "; accepted: the same scheme, system and dt");
    if (h.step > steps_)
      throw inputError("-restart: the checkpoint is at step " + std::to_string(h.step) + ", beyond the " +
                       std::to_string(steps_) + " steps of T; accepted: a T at least " + std::to_string(h.time));
    readCheckpointState(path, x, y, scheme_.history());
    scheme_.resume(h.time, x, y);
    state.step = h.step;
    state.time = h.time;
    state.energy = meter.resume(h.time, x, y, h.work, h.dissipated, h.total0);
    result.energy_scale = h.energy_scale;
    result.max_abs_drift = h.max_abs_drift;
    result.steps_done = h.step;
    result.time = h.time;
    result.restarted_from = h.step;
    state.drift = result.final_drift = (state.energy.total() - h.total0) / h.energy_scale;
    for (Monitor *m : monitors) m->resume(state);
  }
  const double e0 = meter.initialTotal();
  const bool checkpoints = !settings_.checkpoint_path.empty();
  std::optional<StopHandlers> stop_handlers; // SIGINT/SIGTERM stop the run cleanly when it can checkpoint
  if (checkpoints) stop_handlers.emplace();

  for (PetscInt n = state.step + 1; n <= steps_; ++n) {
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
    // A signal stops the run after this step: monitors see it as the last one (final snapshot).
    result.interrupted_by = checkpoints && n < steps_ ? stopRequested(comm) : 0;
    state.stopping = result.interrupted_by != 0;
    for (Monitor *m : monitors) m->observe(state);
    if (checkpoints && (state.last() || (settings_.checkpoint_every > 0 && n % settings_.checkpoint_every == 0)))
      checkpoint(state, meter, result);
    if (state.stopping) break;
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
