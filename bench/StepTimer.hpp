// Wall time of every step of a time loop, as a monitor, and its median and fastest step.
#pragma once
#include <algorithm>
#include <chrono>
#include <vector>

#include "solvers/Monitor.hpp"

namespace beam::bench {

class StepTimer final : public Monitor {
public:
  using Clock = std::chrono::steady_clock;
  void observe(const StepState &) override { stamps.push_back(Clock::now()); }
  // Seconds between consecutive observations (the first one is the start of the run), sorted.
  std::vector<double> sortedSteps() const {
    std::vector<double> s;
    for (size_t i = 1; i < stamps.size(); ++i) s.push_back(std::chrono::duration<double>(stamps[i] - stamps[i - 1]).count());
    std::sort(s.begin(), s.end());
    return s;
  }
  std::vector<Clock::time_point> stamps;
};

} // namespace beam::bench
