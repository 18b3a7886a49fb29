// Collective error agreement: every rank of `comm` calls it with its own error message ("" = fine).
// If any rank failed, every rank throws the same beam::Error (the message and exit code of the lowest
// failing rank), so the ranks stay in step and rank 0 reports the cause. For checks that only some
// ranks can make (rank 0 reads a file, a rank's piece fails to write).
#pragma once
#include <mpi.h>

#include <string>

namespace beam {

void agreeOnFailure(MPI_Comm comm, const std::string &error, int exit_code);

// Runs `check` (which may throw beam::Error on this rank only) and agrees on its outcome.
template <class F>
void agreeOn(MPI_Comm comm, F &&check);

} // namespace beam

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
  }
  agreeOnFailure(comm, error, code);
}
} // namespace beam
