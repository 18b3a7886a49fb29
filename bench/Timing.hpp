// What the benchmarks measure the same way: wall time, the time of every step of a time loop, and the
// process's peak resident memory.
#pragma once
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

#include "solvers/Monitor.hpp"

namespace beam::bench {

using Clock = std::chrono::steady_clock;
inline double since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// Records the wall time at which every step completes (the initial state counts as step 0).
class StepTimer : public Monitor {
public:
  void observe(const StepState &) override { stamps.push_back(Clock::now()); }
  // Seconds of each step: the time between consecutive observations.
  std::vector<double> stepSeconds() const {
    std::vector<double> seconds;
    for (size_t i = 1; i < stamps.size(); ++i) seconds.push_back(std::chrono::duration<double>(stamps[i] - stamps[i - 1]).count());
    return seconds;
  }
  std::vector<Clock::time_point> stamps;
};

// Why a -path label cannot be a CSV row's field ("" when it can): a comma added a column.
inline std::string csvLabelProblem(const std::string &label) {
  if (label.find_first_of(",\n\r\"") == std::string::npos) return "";
  return "-path: '" + label + "' would break the CSV row; accepted: a label without commas, quotes or line breaks";
}

// The upper median (the middle element of an odd count), as the benchmark tables report.
inline double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values.empty() ? 0.0 : values[values.size() / 2];
}

// Peak resident memory of this process (getrusage; kB on Linux), reading of the input included.
inline double peakMemoryMiB() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return double(usage.ru_maxrss) / 1024.0;
}

} // namespace beam::bench
