#include "output/Progress.hpp"

#include <unistd.h>

#include <cstdio>

namespace beam {

Progress::Progress(MPI_Comm comm) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  active_ = rank == 0 && isatty(STDERR_FILENO);
  start_ = last_ = Clock::now();
}

void Progress::observe(const StepState &s) {
  if (!active_ || s.step == 0) return;
  const auto now = Clock::now();
  if (now - last_ < std::chrono::milliseconds(500) && !s.last()) return;
  last_ = now;
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  const double rate = elapsed > 0 ? double(s.step - first_step_) / elapsed : 0;
  const double eta = rate > 0 ? double(s.steps - s.step) / rate : 0;
  const double end_time = s.step > 0 ? s.time * double(s.steps) / double(s.step) : 0;
  std::fprintf(stderr, "\r  step %lld/%lld  t = %.4g/%.4g  %.0f steps/s  ETA %.0f s  drift % .2e   ",
               (long long)s.step, (long long)s.steps, s.time, end_time, rate, eta, s.drift);
  std::fflush(stderr);
  drawn_ = true;
}

void Progress::finish(const RunResult &) {
  if (drawn_) std::fprintf(stderr, "\n");
}

} // namespace beam
