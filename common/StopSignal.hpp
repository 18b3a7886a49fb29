// SIGINT and SIGTERM ask a run to stop cleanly: the handler only records the signal, and the time loop
// polls it after every step (agreeing across ranks), finishes the step, writes a final snapshot and a
// checkpoint, and the lab exits with 128 + the signal number. A second signal of the same kind while
// the loop is still finishing falls back to the default action (the process ends at once).
#pragma once
#include <mpi.h>

namespace beam {

// Installed for the duration of a run that can checkpoint (RAII); the previous handlers come back after.
class StopHandlers {
public:
  StopHandlers();
  ~StopHandlers();
  StopHandlers(const StopHandlers &) = delete;
  StopHandlers &operator=(const StopHandlers &) = delete;

private:
  void (*previous_int_)(int);
  void (*previous_term_)(int);
};
// The signal received on any rank (collective: call on every rank), 0 if none.
int stopRequested(MPI_Comm comm);

} // namespace beam
