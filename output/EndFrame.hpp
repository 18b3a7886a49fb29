// The rule both resumable series share (TrajectoryLog's rows, VtkSnapshots' frames): an interrupted run
// writes an entry at the step where it ended (its T, a signal) even off its -snapshot_every grid; an
// uninterrupted run has none there, so a restart that goes on drops it.
#pragma once
#include <vector>

namespace beam {

// `entry_steps`: the series' steps up to the checkpoint, in order; `step` the checkpoint's, `steps` the
// continued run's last; `grid` the -snapshot_every of the run that wrote the checkpoint (the checkpoint
// keeps it: StepState::resumed_grid; 0 when that run wrote no series). True when the last entry is the
// checkpoint's, the run goes on, and that step is off the grid. (Read off the entries before it, the
// grid was wrong after chained restarts that each ended off it.)
inline bool dropEndEntry(const std::vector<long long> &entry_steps, long long step, long long steps, long long grid) {
  if (step <= 0 || step >= steps || grid <= 0 || entry_steps.empty() || entry_steps.back() != step) return false;
  return step % grid != 0;
}

} // namespace beam
