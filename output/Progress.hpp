// A one-line progress display for long runs (step, t/T, steps per second, ETA, energy drift) on rank 0's
// stderr, redrawn at most twice a second. It shows only when stderr is a terminal, so logs and pipes
// stay clean; labs turn it off with -quiet.
#pragma once
#include <chrono>

#include "solvers/Monitor.hpp"

namespace beam {

class Progress final : public Monitor {
public:
  explicit Progress(MPI_Comm comm);
  void observe(const StepState &state) override;
  // A restart counts its rate from the checkpoint's step (it showed 6x the real rate, and a short ETA).
  void resume(const StepState &state) override { first_step_ = state.step; }
  void finish(const RunResult &result) override;
  bool active() const { return active_; }

private:
  using Clock = std::chrono::steady_clock;
  bool active_ = false;
  bool drawn_ = false;
  Clock::time_point start_, last_;
  PetscInt first_step_ = 0; // the step this run started from
};

} // namespace beam
