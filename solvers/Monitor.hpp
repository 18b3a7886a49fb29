// Monitors observe the time loop (snapshots, energy log, console); the loop itself does no I/O.
#pragma once
#include <petscvec.h>

#include <string>

#include "solvers/Energy.hpp"

namespace beam {

struct StepState {
  PetscInt step = 0;   // 0 = initial state
  PetscInt steps = 0;  // total number of steps of the run
  double time = 0;
  Vec x = nullptr, y = nullptr;
  EnergyTerms energy;
  double drift = 0;    // (E - E0) / scale
  PetscInt newton_its = -1; // Newton iterations of the step (0 at the start), -1 for schemes without
  bool stopping = false; // the run stops here early (a signal): monitors treat it as the last step
  PetscInt resumed_grid = 0; // after a restart: the -snapshot_every of the run that wrote the checkpoint
                             // (the grid its series' entries are on; 0: it wrote none)
  bool last() const { return step == steps || stopping; }
};

struct RunResult {
  std::string scheme;
  PetscInt steps_done = 0;
  double time = 0;
  bool diverged = false;
  std::string divergence; // why, when diverged
  bool step_failed = false; // diverged because a step failed (a solve), not by the energy bound
  double energy_scale = 1;
  std::string reference_energy = "none"; // the model's referenceEnergyFormula(), for the summary
  double max_abs_drift = 0, final_drift = 0;
  double max_drift = 0, min_drift = 0; // the drift's signed extremes: both signs reached, it oscillates
  double max_drawdown = 0;             // the largest fall of |drift| below its largest so far: it came back
  int interrupted_by = 0;      // the signal that stopped the run early (a checkpoint was written), or 0
  PetscInt restarted_from = -1; // the checkpoint step the run continued from, or -1
};

class Monitor {
public:
  virtual ~Monitor() = default;
  // Called for step 0 and after every completed step.
  virtual void observe(const StepState &state) = 0;
  // Called on every monitor before any resume(): throws an input error when the monitor cannot continue
  // its files from this state (a log that ends before the checkpoint's step, a missing series). Must
  // change nothing, so a refused restart leaves the directory as it was.
  virtual void checkResume(const StepState &) const {}
  // Called instead of observe() for the starting state of a run restarted from a checkpoint: what the
  // monitor wrote up to that step is kept (and anything written after it, by the interrupted run,
  // dropped); the state itself was already observed by that run.
  virtual void resume(const StepState &) {}
  // Called when the run stops on a failure, before finish(), with the state it stopped at: the last
  // accepted step's (already observed) when the failing step left x and y as they were, or the finite
  // state a step reached that was judged diverged (its step observed by no monitor, so absent from the
  // logs). A monitor that always shows a run's last state (the snapshots) shows this one. Also called,
  // with stopping set, when a signal stopped the run during a step (the scheme gave it up): the last
  // accepted step's state, already observed, is then the run's last.
  virtual void failedAt(const StepState &) {}
  // Called once when the run ends, normally or by divergence.
  virtual void finish(const RunResult &) {}
  // Called before a checkpoint is written: whatever the monitor still writes in the background must
  // be complete, so a restart from that checkpoint finds it.
  virtual void flush() {}
};

} // namespace beam
