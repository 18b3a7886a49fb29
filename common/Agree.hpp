// Collective error agreement: every rank of `comm` calls it with its own error message ("" = fine).
// If any rank failed, every rank throws the same beam::Error (the message and exit code of the lowest
// failing rank, " (on rank N)" added where that is not rank 0), so the ranks stay in step and rank 0
// reports the cause. For checks that only some
// ranks can make (rank 0 reads a file, a rank's piece fails to write) and steps whose failure may
// differ between ranks (option values, files and directories given per rank under mpiexec): a failing
// rank never leaves the others waiting in a later collective, nor waits itself in the collective
// destructors of the objects it unwinds.
#pragma once
#include <mpi.h>

#include <cstdint>
#include <string>

namespace beam {

void agreeOnFailure(MPI_Comm comm, const std::string &error, int exit_code);

// Every rank read the same input (a file by a relative path from per-rank working directories may not
// be): an input error naming `what` on every rank if `hash`, a hash of the data as read, differs
// between the ranks of `comm`. Collective.
void agreeOnData(MPI_Comm comm, std::uint64_t hash, const std::string &what);

// Runs `check` (which may throw on this rank only) and agrees on its outcome with one reduction every
// rank reaches: a beam::Error keeps its exit code, any other exception is a run error (exit 3).
template <class F>
void agreeOn(MPI_Comm comm, F &&check);

} // namespace beam

#include <exception>
#include <new>

#include "common/Error.hpp"

namespace beam {
template <class F>
void agreeOn(MPI_Comm comm, F &&check) {
  std::string error;
  int code = kExitOk;
  try {
    check();
  } catch (const Error &e) {
    error = e.what();
    code = e.exitCode();
  } catch (const std::bad_alloc &) {
    error = "out of memory";
    code = kExitRunFailed;
  } catch (const std::exception &e) {
    error = e.what();
    code = kExitRunFailed;
  }
  if (code != kExitOk && error.empty()) error = "(no message)"; // "" means success to agreeOnFailure
  agreeOnFailure(comm, error, code);
}
} // namespace beam
