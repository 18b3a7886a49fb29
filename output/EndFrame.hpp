// The rule both resumable series share (TrajectoryLog's rows, VtkSnapshots' frames): an interrupted run
// writes an entry at the step where it ended (its T, a signal) even off its -snapshot_every grid; an
// uninterrupted run has none there, so a restart that goes on drops it.
#pragma once
#include <cstddef>
#include <vector>

namespace beam {

// `entry_steps`: the series' steps up to the checkpoint, in order; `step` the checkpoint's, `steps` the
// continued run's last. True when the last entry is the checkpoint's, the run goes on, and that step is
// off the interrupted run's grid, read off the two entries before it (the spacing may change between
// runs: judged by the new run's, an entry on the earlier grid went). Fewer than three entries: kept.
inline bool dropEndEntry(const std::vector<long long> &entry_steps, long long step, long long steps) {
  const std::size_t n = entry_steps.size();
  if (step <= 0 || step >= steps || n < 3 || entry_steps[n - 1] != step) return false;
  const long long spacing = entry_steps[n - 2] - entry_steps[n - 3];
  return spacing > 0 && step % spacing != 0;
}

} // namespace beam
