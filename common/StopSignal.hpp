// SIGINT and SIGTERM ask a run to stop cleanly: the handler only records the signal, and the time loop
// polls it after every step (agreeing across ranks), finishes the step, writes a final snapshot and a
// checkpoint, and the lab exits with 128 + the signal number. A second signal of the same kind while
// the loop is still finishing falls back to the default action (the process ends at once).
#pragma once
#include <mpi.h>

namespace beam {

// Installed for the duration of a run that can checkpoint, or of a lab's sweep of runs (RAII; they nest:
// the outermost clears the signal, so a sweep sees one its runs did not act on); the previous handlers
// come back after.
class StopHandlers {
public:
  StopHandlers();
  ~StopHandlers();
  StopHandlers(const StopHandlers &) = delete;
  StopHandlers &operator=(const StopHandlers &) = delete;

private:
  bool installed_ = false;
  void (*previous_int_)(int) = nullptr;
  void (*previous_term_)(int) = nullptr;
};
// The signal received on any rank (collective: call on every rank), 0 if none.
int stopRequested(MPI_Comm comm);
// The signal this process received, 0 if none: not agreed between ranks (for what one rank does alone).
int stopReceived();
// Whether a StopHandlers scope is open (a signal is then recorded for the loop, not fatal): the same on
// every rank, as runs and sweeps open their scopes collectively.
bool stopHandlersActive();

// Outside every StopHandlers scope (setup, an analysis without a time loop, the final files), SIGINT and
// SIGTERM still end the process at once by their default action, but first rank 0 says so on stderr in
// one line ("<program>: stopped by signal N ..."): without it a lab signalled there ended without a word,
// as if it had crashed. Installed once by runMain; StopHandlers restore it when their scope ends. On more
// than one rank SIGTERM stays silent: OpenMPI also sends it to end the other ranks when one calls
// MPI_Abort, after that rank's own error line. (Its mpiexec forwards a user's SIGINT as SIGTERM too, and
// says itself that the ranks were signalled; a SIGINT sent to the ranks gets the line.)
void installFarewellHandlers(const char *program, int rank, int size);
// Where the farewell lines go: stderr, or its saved descriptor while stderr is held back (PETSc's start).
void setFarewellDescriptor(int fd);

} // namespace beam
