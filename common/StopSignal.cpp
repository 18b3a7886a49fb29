#include "common/StopSignal.hpp"

#include <pthread.h>

#include <csignal>
#include <cstdio>
#include <cstring>
#include <unistd.h>

namespace beam {
namespace {

// Written by the signal handler, read by the time loop: the one piece of process-wide mutable state,
// as a signal handler can do nothing else safely.
volatile std::sig_atomic_t g_signal = 0;
// Nested handlers (a lab's sweep around its runs' time loops): only the outermost clears the signal, so
// one received while a run ends (its last step, final snapshot, checkpoint) still stops the sweep; it was
// cleared by the next run's handlers and energy_drift went on to its next scheme, exit 0.
int g_depth = 0;

// The farewell lines, made before any signal: a handler may only write() what is already there.
char g_farewell_int[512] = "", g_farewell_term[512] = "";
char g_second_int[512] = "", g_second_term[512] = "";
volatile std::sig_atomic_t g_farewell_fd = STDERR_FILENO;

void sayAndEnd(int sig, const char *line) {
  const size_t length = std::strlen(line); // async-signal-safe (POSIX.1-2016)
  if (length > 0 && ::write(g_farewell_fd, line, length) < 0) {
  }
  std::signal(sig, SIG_DFL);
  std::raise(sig); // the default action: the shell and mpiexec see a process ended by this signal
}

void onSignalOutsideRun(int sig) { sayAndEnd(sig, sig == SIGINT ? g_farewell_int : g_farewell_term); }

// A second signal while the first is honoured ends the process at once (the escape when a step hangs),
// saying so: it ended without a word (exit 130).
void onSecondSignal(int sig) { sayAndEnd(sig, sig == SIGINT ? g_second_int : g_second_term); }

void onSignal(int sig) {
  g_signal = sig;
  std::signal(sig, onSecondSignal);
}

} // namespace

void setFarewellDescriptor(int fd) { g_farewell_fd = fd; }

void installFarewellHandlers(const char *program, int rank, int size) {
  // The lines are rewritten while the handlers of an earlier call may be installed: the two signals wait.
  sigset_t both, before;
  sigemptyset(&both);
  sigaddset(&both, SIGINT);
  sigaddset(&both, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &both, &before);
  for (const int sig : {SIGINT, SIGTERM}) {
    char *line = sig == SIGINT ? g_farewell_int : g_farewell_term;
    line[0] = '\0';
    if (rank == 0 && (sig == SIGINT || size == 1)) // under mpiexec every rank gets the signal: one line
      std::snprintf(line, sizeof g_farewell_int,
                    "%s: stopped by signal %d at a stage that cannot stop cleanly (setup, an analysis or its final "
                    "files): no checkpoint; a file being written at that moment may be incomplete\n",
                    program, sig);
    char *second = sig == SIGINT ? g_second_int : g_second_term;
    second[0] = '\0';
    if (rank == 0 && (sig == SIGINT || size == 1))
      std::snprintf(second, sizeof g_second_int,
                    "%s: a second signal %d: stopped at once, without a checkpoint of this step (an earlier one "
                    "stays); a file being written at that moment may be incomplete\n",
                    program, sig);
    std::signal(sig, onSignalOutsideRun);
  }
  pthread_sigmask(SIG_SETMASK, &before, nullptr);
}

StopHandlers::StopHandlers() {
  if (g_depth++ == 0) g_signal = 0;
  // After a signal, its own handler is already the second signal's (which ends the process): kept.
  installed_ = g_signal == 0;
  if (!installed_) return;
  previous_int_ = std::signal(SIGINT, onSignal);
  previous_term_ = std::signal(SIGTERM, onSignal);
}

StopHandlers::~StopHandlers() {
  --g_depth;
  if (!installed_) return;
  std::signal(SIGINT, previous_int_);
  std::signal(SIGTERM, previous_term_);
}

int stopReceived() { return g_signal; }

bool stopHandlersActive() { return g_depth > 0; }

int stopRequested(MPI_Comm comm) {
  int mine = g_signal, any = 0;
  MPI_Allreduce(&mine, &any, 1, MPI_INT, MPI_MAX, comm);
  return any;
}

} // namespace beam
