#include "common/StopSignal.hpp"

#include <csignal>

namespace beam {
namespace {

// Written by the signal handler, read by the time loop: the one piece of process-wide mutable state,
// as a signal handler can do nothing else safely.
volatile std::sig_atomic_t g_signal = 0;

void onSignal(int sig) {
  g_signal = sig;
  std::signal(sig, SIG_DFL); // a second one ends the process at once
}

} // namespace

StopHandlers::StopHandlers() {
  g_signal = 0;
  previous_int_ = std::signal(SIGINT, onSignal);
  previous_term_ = std::signal(SIGTERM, onSignal);
}

StopHandlers::~StopHandlers() {
  std::signal(SIGINT, previous_int_);
  std::signal(SIGTERM, previous_term_);
}

int stopRequested(MPI_Comm comm) {
  int mine = g_signal, any = 0;
  MPI_Allreduce(&mine, &any, 1, MPI_INT, MPI_MAX, comm);
  return any;
}

} // namespace beam
