#include "solvers/TimeLoop.hpp"
#include "common/Exact.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <sstream>

#include "common/Agree.hpp"
#include "common/Options.hpp"
#include "common/StopSignal.hpp"
#include "solvers/Energy.hpp"
#include "solvers/LinearModel.hpp"

namespace beam {

PetscInt stepCount(double T, double dt) {
  // Tolerate round-off in T/dt (T = 1, dt = 0.1 is 10 steps, not 11).
  const double n = std::ceil(T / dt * (1 - 1e-12));
  if (!(n <= double(PETSC_MAX_INT) - 1))
    throw inputError("-T / -dt: " + exactDecimal(n) + " steps is too many; accepted: at most " + std::to_string(PETSC_MAX_INT - 1));
  // The steps' times n dt must be numbers: -dt 1e308 -T 1.5e308 reached t = inf at step 2, and a body at
  // rest "diverged" there (the energy is not finite, exit 3).
  if (!std::isfinite(n * dt))
    throw inputError("-T / -dt: the last step ends at " + exactDecimal(n) + " x " + exactDecimal(dt) +
                     ", beyond the largest double; accepted: -T and -dt whose steps end at a finite time");
  return PetscInt(n);
}

struct TimeLoop::Progress {
  explicit Progress(const Model &model) : meter(model) {}
  EnergyMeter meter; // integrates work and dissipation along the run
  StepState state;
  RunResult result;
  double e0 = 0;
  // The model gave no scale (|E0| without offsets and its reference energy both 0: one body or particle
  // falling from rest): the scale is then the energies' own size, the largest sum of |terms| so far. A
  // fixed 1 J made the verdict depend on the units (a 1e26 kg body in free fall "diverged" at step 1 on
  // round-off, a 1 kg one was conserved); the size after the first step alone made a fall's round-off
  // look like a gain (2.4e-8 after 1 s: the energies grow as t^2). The sum includes gravity's potential
  // from the origin, unlike the model's scale: it is what the total's round-off is proportional to, so a
  // scene lifted 1000 m gets a smaller drift, not a false "gains energy" from its early steps' round-off.
  bool scale_follows = false;
  std::optional<StepState> failed; // where a failed run stopped, for the monitors (Monitor::failedAt)
  bool stopped_in_step = false;     // a step given up on a signal (StepInterrupted): the run ends before it
};

namespace {

double magnitude(const EnergyTerms &e) {
  double m = std::abs(e.work) + std::abs(e.dissipated);
  for (double part : e.parts) m += std::abs(part);
  return m;
}

// An initial state whose energy overflows (a velocity of 1e200, a mass of 1e308) is bad input, not a
// divergence: it "diverged at step 1" with exit 3 and a final drift of NaN.
void refuseNonFinite(const Model &model, const EnergyTerms &initial) {
  if (std::isfinite(initial.total())) return;
  std::ostringstream parts;
  const auto names = model.energyNames();
  for (size_t i = 0; i < names.size() && i < initial.parts.size(); ++i) {
    parts << (i ? ", " : "") << names[i] << " ";
    if (std::isnan(initial.parts[i])) parts << "NaN (an overflow inside)"; // "-nan" read as a sign
    else parts << initial.parts[i];
  }
  throw inputError("the initial state's energy is not finite (" + parts.str() +
                   "): an input value overflows; accepted: masses, stiffnesses, positions and velocities whose energies are finite");
}

// A reference energy that overflows (a mechanism spanning 1e160 m, a load curve of 1e308) made every
// drift 0: "conserved", exit 0, while the energy grew 1e64-fold. Refused like a non-finite energy.
void refuseInfiniteScale(const Model &model, double reference) {
  if (std::isfinite(reference)) return;
  throw inputError("the energy scale (the model's reference energy, " + model.referenceEnergyFormula() +
                   ") is not finite: an input value overflows; accepted: loads, sizes, masses and velocities whose "
                   "energies are finite");
}

// A following scale is 0 only while no energy term is: the change is 0 too.
double driftOf(double change, double scale) { return change == 0 ? 0 : change / scale; }

} // namespace

TimeLoop::TimeLoop(TimeScheme &scheme, const Model &model, const RunSettings &settings)
    : scheme_(scheme), model_(model), settings_(settings) {
  if (!(settings.dt > 0) || !std::isfinite(settings.dt)) throw inputError("-dt: must be a real > 0");
  if (!(settings.T >= 0) || !std::isfinite(settings.T)) throw inputError("-T: must be a real >= 0");
  steps_ = stepCount(settings.T, settings.dt);
  SchemeSettings s;
  s.dt = settings.dt;
  s.solver = settings.solver;
  s.newton_prefix = settings.newton_prefix;
  s.newton_hint = settings.newton_hint;
  s.stop_on_signal = !settings.checkpoint_path.empty();
  scheme_.setup(model, s);
  reference_energy_ = model.referenceEnergy();
  // At the set-up, not at the start: a lab that sets its runs up before any starts (energy_drift) refuses
  // before it writes (-top_load 1e308 was refused once the earlier table had gone, until 2026-12-01).
  refuseInfiniteScale(model_, reference_energy_);
}

Identity TimeLoop::identity() const {
  Identity id = settings_.identity;
  for (auto &field : model_.identity()) id.push_back(field);
  id.emplace_back("scheme", scheme_.name());
  for (auto &[k, v] : scheme_.identity()) id.emplace_back("scheme." + k, v);
  id.emplace_back("dt", exactDecimal(settings_.dt));
  id.emplace_back("linear_solver", linearSolverName(settings_.solver));
  // The solvers' own options change results too (-shifted_ksp_type preonly -shifted_pc_type jacobi: a
  // restart with them went on at a drift of 3e-2, exit 0); what only shows or logs does not. Sorted, so
  // the order on the command line does not matter.
  std::vector<std::string> solver_options;
  auto has = [](const std::string &name, const char *part) { // -part... or ..._part...
    const std::string p = part;
    return name.rfind("-" + p, 0) == 0 || name.find("_" + p) != std::string::npos;
  };
  for (const auto &[given_name, value] : databaseOptions()) {
    // PETSc reads names in any case (-MS_SNES_RTOL 0.9 is -ms_snes_rtol 0.9, and a restart with it went on,
    // exit 0, until 2026-12-01): the identity holds them in one.
    const std::string name = lowerCase(given_name);
    const bool solver = has(name, "ksp_") || has(name, "pc_") || has(name, "snes_") || has(name, "eps_") ||
                        has(name, "st_") || has(name, "mat_mumps_") || has(name, "mat_cholmod_");
    const bool shows = name.find("monitor") != std::string::npos || name.find("view") != std::string::npos ||
                       name.find("converged_reason") != std::string::npos || name.find("log") != std::string::npos;
    if (!solver || shows) continue;
    // A number as its value, not its spelling (-shifted_ksp_rtol 1e-3 and 0.001 were two runs), and a
    // PETSc boolean as 1 or 0 (a flag alone, true, yes, on and 1 are one setting).
    const std::optional<bool> truth = petscTruthValue(value);
    const bool yes = value.empty() || truth == true;
    const bool no = truth == false;
    char *end = nullptr;
    const double number = value.empty() ? 0 : std::strtod(value.c_str(), &end);
    const bool numeric = !value.empty() && end == value.c_str() + value.size() && std::isfinite(number);
    solver_options.push_back(name + " " + (yes ? "1" : no ? "0" : numeric ? exactDecimal(number) : value));
  }
  std::sort(solver_options.begin(), solver_options.end());
  std::string text;
  for (const auto &o : solver_options) text += (text.empty() ? "" : " ") + o;
  id.emplace_back("solver_options", text.empty() ? "none" : text);
  return id;
}

void TimeLoop::start(Progress &p, const std::vector<Monitor *> &monitors) {
  p.state.energy = p.meter.start(0.0, p.state.x, p.state.y);
  p.state.newton_its = scheme_.newtonIterations() >= 0 ? 0 : -1;
  const double origin_part = model_.offsetEnergy(0.0, p.state.x, p.state.y);
  refuseNonFinite(model_, p.state.energy);
  const double fixed = settings_.energy_scale > 0 ? settings_.energy_scale
                                                 : modelDriftScale(p.state.energy.total() - origin_part, reference_energy_);
  p.scale_follows = !(fixed > 0);
  p.result.energy_scale = p.scale_follows ? magnitude(p.state.energy) : fixed;
  for (Monitor *m : monitors) m->observe(p.state);
}

void TimeLoop::prepareStart(Vec x, Vec y) {
  if (!settings_.restart_path.empty()) return;
  EnergyMeter meter(model_);
  refuseNonFinite(model_, meter.start(0.0, x, y));
  scheme_.begin(x, y);
}

void TimeLoop::restore(Progress &p, const std::vector<Monitor *> &monitors) {
  const std::string &path = settings_.restart_path;
  const CheckpointHeader h = readCheckpointHeader(model_.comm(), path);
  PetscInt size;
  BEAM_PETSC(VecGetSize(p.state.x, &size));
  checkIdentity(path, h.identity, identity(), [this](const std::string &field, const std::string &then, const std::string &now) {
    return field.rfind("scheme.", 0) == 0 ? scheme_.explainIdentity(field.substr(7), then, now) : std::string();
  });
  if (h.scheme != scheme_.name() || h.size != size || h.dt != settings_.dt)
    throw inputError("-restart: '" + path + "' was written by " + h.scheme + " with " + std::to_string(h.size) +
                     " DOFs and dt = " + exactDecimal(h.dt) + "; accepted: the same scheme, system and dt");
  if (h.step > steps_)
    throw inputError("-restart: the checkpoint is at step " + std::to_string(h.step) + ", beyond the " +
                     std::to_string(steps_) + " steps of T; accepted: a T at least " + exactDecimal(h.time));
  if (std::abs(h.time - double(h.step) * settings_.dt) > 1e-9 * std::max(1.0, h.time))
    throw inputError("-restart: '" + path + "' is corrupted (its step and time disagree); accepted: an intact checkpoint");
  readCheckpointState(path, p.state.x, p.state.y, scheme_.history());
  StepState &s = p.state;
  s.step = h.step;
  s.time = h.time;
  s.energy = p.meter.resume(h.time, s.x, s.y, h.work, h.dissipated, h.total0);
  s.newton_its = scheme_.newtonIterations() >= 0 ? 0 : -1;
  s.resumed_grid = h.series_every;
  s.drift = driftOf(s.energy.total() - h.total0, h.energy_scale);
  p.scale_follows = h.scale_follows;
  // Every monitor checks it can continue its files before any of them changes one.
  agreeOn(model_.comm(), [&] {
    for (const Monitor *m : monitors) m->checkResume(s);
  });
  if (h.continues) scheme_.resume(h.time, s.x, s.y);
  p.result.energy_scale = h.energy_scale;
  p.result.max_abs_drift = h.max_abs_drift;
  p.result.max_drift = h.max_drift;
  p.result.min_drift = h.min_drift;
  p.result.max_drawdown = h.max_drawdown;
  p.result.steps_done = h.step;
  p.result.time = h.time;
  p.result.restarted_from = h.step;
  p.result.final_drift = s.drift;
  for (Monitor *m : monitors) m->resume(s);
}

bool TimeLoop::advance(Progress &p, PetscInt n) {
  const double t = double(n) * settings_.dt;
  std::ostringstream why;
  why << scheme_.name() << " diverged at step " << n << ", t = " << t << ": ";
  bool stepped = false;
  try {
    scheme_.step(p.state.time, p.state.x, p.state.y);
    stepped = true;
    model_.afterStep(t, p.state.x, p.state.y);
  } catch (const StepInterrupted &e) {
    // The last accepted step ends the run, as if the signal had come at its end: it is drawn as the last
    // frame (Monitor::failedAt) and checkpointed (run).
    p.result.interrupted_by = e.signal();
    p.stopped_in_step = true;
    p.failed = p.state;
    p.failed->stopping = true;
    return false;
  } catch (const Error &e) {
    if (e.exitCode() != kExitRunFailed) throw; // bad input stays bad input
    p.result.diverged = true;
    p.result.step_failed = true;
    p.result.divergence = why.str() + e.what();
    if (!stepped && scheme_.failureKeepsState()) p.failed = p.state; // the last accepted state, unchanged
    return false;
  }
  const EnergyTerms e = p.meter.advance(t, p.state.x, p.state.y);
  if (p.scale_follows) p.result.energy_scale = std::max(p.result.energy_scale, magnitude(e));
  const double drift = driftOf(e.total() - p.e0, p.result.energy_scale); // total includes the dissipation
  if (!std::isfinite(drift) || std::abs(drift) > settings_.divergence_factor) {
    if (std::isfinite(drift))
      why << "|E - E0| / scale = " << std::abs(drift) << " exceeds the bound " << settings_.divergence_factor;
    else
      why << "the energy is not finite";
    p.result.diverged = true;
    p.result.divergence = why.str();
    // An energy that is not finite has drifted without bound: inf (a NaN final drift beside a largest
    // |drift| of 0 went into energy_drift.csv).
    p.result.final_drift = std::isfinite(drift) ? drift : HUGE_VAL;
    p.result.max_abs_drift = std::max(p.result.max_abs_drift, std::abs(p.result.final_drift));
    if (std::isfinite(drift)) { // the blow-up itself, for the snapshots (a state that is not finite is not drawn)
      StepState d = p.state;
      d.step = n;
      d.time = t;
      d.energy = e;
      d.drift = drift;
      d.newton_its = scheme_.newtonIterations();
      d.stopping = true;
      p.failed = d;
    }
    return false;
  }
  StepState &s = p.state;
  s.step = n;
  s.time = t;
  s.energy = e;
  s.drift = drift;
  s.newton_its = scheme_.newtonIterations();
  p.result.steps_done = n;
  p.result.time = t;
  p.result.max_abs_drift = std::max(p.result.max_abs_drift, std::abs(drift));
  p.result.max_drawdown = std::max(p.result.max_drawdown, p.result.max_abs_drift - std::abs(drift));
  p.result.max_drift = std::max(p.result.max_drift, drift);
  p.result.min_drift = std::min(p.result.min_drift, drift);
  p.result.final_drift = drift;
  return true;
}

void TimeLoop::checkpoint(const Progress &p) const {
  CheckpointHeader h;
  h.scheme = scheme_.name();
  BEAM_PETSC(VecGetSize(p.state.x, &h.size));
  h.step = p.state.step;
  h.time = p.state.time;
  h.dt = settings_.dt;
  h.work = p.meter.work();
  h.dissipated = p.meter.dissipated();
  h.total0 = p.meter.initialTotal();
  h.energy_scale = p.result.energy_scale;
  h.scale_follows = p.scale_follows;
  h.max_abs_drift = p.result.max_abs_drift;
  h.max_drift = p.result.max_drift;
  h.min_drift = p.result.min_drift;
  h.max_drawdown = p.result.max_drawdown;
  const std::vector<Vec> history = scheme_.history();
  h.history = PetscInt(history.size());
  h.continues = scheme_.continues(p.state.time, p.state.x, p.state.y);
  h.series_every = settings_.series_every;
  h.identity = identity();
  writeCheckpoint(settings_.checkpoint_path, h, p.state.x, p.state.y, history);
}

RunResult TimeLoop::run(Vec x, Vec y, const std::vector<Monitor *> &monitors) {
  Progress p(model_);
  p.state.steps = steps_;
  p.state.x = x;
  p.state.y = y;
  p.result.scheme = scheme_.name();
  p.result.reference_energy = model_.referenceEnergyFormula();
  if (settings_.restart_path.empty())
    start(p, monitors);
  else
    restore(p, monitors);
  p.e0 = p.meter.initialTotal();
  const bool checkpoints = !settings_.checkpoint_path.empty();
  std::optional<StopHandlers> stop_handlers; // SIGINT/SIGTERM stop the run cleanly when it can checkpoint
  if (checkpoints) stop_handlers.emplace();

  if (checkpoints && steps_ == 0) { // T = 0: the end of the run is its start (there was no checkpoint to continue)
    for (Monitor *m : monitors) m->flush();
    checkpoint(p);
  }
  for (PetscInt n = p.state.step + 1; n <= steps_; ++n) {
    if (!advance(p, n)) break;
    // A signal stops the run after this step: monitors see it as the last one (final snapshot).
    p.result.interrupted_by = checkpoints && n < steps_ ? stopRequested(model_.comm()) : 0;
    p.state.stopping = p.result.interrupted_by != 0;
    for (Monitor *m : monitors) m->observe(p.state);
    if (checkpoints && (p.state.last() || (settings_.checkpoint_every > 0 && n % settings_.checkpoint_every == 0))) {
      for (Monitor *m : monitors) m->flush();
      checkpoint(p);
    }
    if (p.state.stopping) break;
  }
  if (p.failed)
    for (Monitor *m : monitors) m->failedAt(*p.failed);
  if (p.stopped_in_step) { // (the scheme gives a step up only when the run checkpoints)
    for (Monitor *m : monitors) m->flush();
    checkpoint(p);
  }
  for (Monitor *m : monitors) m->finish(p.result);
  return p.result;
}

RunResult integrate(TimeScheme &scheme, const Model &model, Vec x, Vec y, const RunSettings &settings,
                    const std::vector<Monitor *> &monitors) {
  TimeLoop loop(scheme, model, settings);
  return loop.run(x, y, monitors);
}

RunResult integrate(TimeScheme &scheme, const SecondOrderSystem &system, Vec x, Vec y, const RunSettings &settings,
                    const std::vector<Monitor *> &monitors) {
  const LinearModel model(system, settings.solver);
  return integrate(scheme, model, x, y, settings, monitors);
}

} // namespace beam
