// The time loop: n = ceil(T/dt) steps of one scheme on one model (the last one ends at n*dt >= T),
// energy measured every step, monitors notified, divergence detected.
//
// Divergence: a non-finite energy, or |E - E0| > divergence_factor * scale (default 1e6, scale as in
// driftScale, or following the energies where the model gives none: TimeLoop.cpp), or a step that fails (a Newton solve that does not converge: a run error from the
// scheme). The run stops after the offending step without notifying monitors of it, so everything they
// wrote describes finite states; RunResult says why.
//
// After every accepted step the model may correct the state (Model::afterStep, e.g. the multibody
// projection onto the constraints).
//
// Checkpoints and restart (see Checkpoint.hpp): with checkpoint_path set, the full state is saved every
// checkpoint_every steps, at the end, and when SIGINT/SIGTERM stops the run (after finishing the step and
// letting monitors write a final snapshot). A run with restart_path continues from that checkpoint; the
// checkpoint's identity (the run's, see identity()) must match, its checksum must hold, and every
// monitor must accept to continue its files (Monitor::checkResume) before any of them changes a file,
// so a refused restart leaves the directory as it was. On one rank it ends in exactly the state of an
// uninterrupted run.
#pragma once
#include <string>
#include <vector>

#include "solvers/Checkpoint.hpp"
#include "solvers/Monitor.hpp"
#include "solvers/TimeScheme.hpp"

namespace beam {

struct RunSettings {
  double T = 1;
  double dt = 0.01;
  double divergence_factor = 1e6;
  LinearSolverKind solver = LinearSolverKind::Direct;
  std::string newton_prefix = "newton_"; // options prefix of nonlinear solves (SchemeSettings)
  std::string newton_hint;               // a failed Newton solve's advice (SchemeSettings)
  PetscInt checkpoint_every = 0; // write a checkpoint every N steps (and at the end); 0 = only on a signal
  std::string checkpoint_path;   // where checkpoints go; empty = none, not even on a signal
  std::string restart_path;      // continue from this checkpoint instead of starting at t = 0
  PetscInt series_every = 0;     // the run's -snapshot_every, kept in its checkpoints: a restart then knows
                                 // which entry of a series (a frame, a trajectory row) was off that grid
  Identity identity;             // the lab's part of the run's identity (lab name, its own options)
  // > 0: the drift's scale, in place of the model's (a stability trial measures growth against its own
  // perturbation's energy, not against a prestressed network's stored energy). Not in the identity:
  // for runs without checkpoints.
  double energy_scale = 0;
};

PetscInt stepCount(double T, double dt);

class TimeLoop {
public:
  // Sets up the scheme (its factorization) and the model's reference energy: once this returns, every
  // solver has read its options, so unknown options can be rejected before anything is written.
  TimeLoop(TimeScheme &scheme, const Model &model, const RunSettings &settings);
  PetscInt steps() const { return steps_; }
  // The scheme solves a nonlinear system each step (StepState::newton_its is then >= 0).
  bool reportsNewtonIterations() const { return scheme_.newtonIterations() >= 0; }
  // Everything that defines the run, as checkpoints record it: the lab's identity, the model's, the
  // scheme with its parameters, dt, the solver kind.
  Identity identity() const;
  // Refuses (input error) an initial state whose energy is not finite (a velocity of 1e200, an inertia
  // of 1e308), what run() does first, and lets the scheme set up what depends on the initial state
  // (TimeScheme::begin): callable before anything is created for the run. Nothing to do for a restart
  // (the checkpoint's state was finite when written). Collective.
  void prepareStart(Vec x, Vec y);
  // The run continues a checkpoint (settings.restart_path) rather than starting at t = 0.
  bool restarts() const { return !settings_.restart_path.empty(); }
  // Integrates from (x, y) at t = 0 — or, with settings.restart_path, from the checkpoint (x and y are
  // then overwritten with its state); x and y hold the final state.
  RunResult run(Vec x, Vec y, const std::vector<Monitor *> &monitors);

private:
  struct Progress; // the run's state between steps (TimeLoop.cpp)
  void start(Progress &p, const std::vector<Monitor *> &monitors);
  void restore(Progress &p, const std::vector<Monitor *> &monitors);
  // One step; false when the run must stop there (divergence or a failed step).
  bool advance(Progress &p, PetscInt n);
  void checkpoint(const Progress &p) const;

  TimeScheme &scheme_;
  const Model &model_;
  RunSettings settings_;
  PetscInt steps_;
  double reference_energy_;
};

// TimeLoop(scheme, model, settings).run(x, y, monitors)
RunResult integrate(TimeScheme &scheme, const Model &model, Vec x, Vec y, const RunSettings &settings,
                    const std::vector<Monitor *> &monitors);
// The same for a linear system M x'' + C x' + S x = f(t) (a LinearModel over it for the run).
RunResult integrate(TimeScheme &scheme, const SecondOrderSystem &system, Vec x, Vec y, const RunSettings &settings,
                    const std::vector<Monitor *> &monitors);

} // namespace beam
