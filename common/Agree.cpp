#include "common/Agree.hpp"

namespace beam {

void agreeOnFailure(MPI_Comm comm, const std::string &error, int exit_code) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  const int mine = error.empty() ? size : rank;
  int first = size;
  MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, comm);
  if (first == size) return;
  std::string message = error;
  int world_rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
  int header[3] = {int(message.size()), exit_code, world_rank};
  MPI_Bcast(header, 3, MPI_INT, first, comm);
  message.resize(size_t(header[0]));
  MPI_Bcast(message.data(), header[0], MPI_CHAR, first, comm);
  // A failure that rank 0 did not meet is one of another rank's own (a file read there by a relative
  // path from its working directory): the line names that rank.
  if (first > 0) message += " (on rank " + std::to_string(header[2]) + ")";
  throw Error(header[1], message);
}

void agreeOnData(MPI_Comm comm, std::uint64_t hash, const std::string &what) {
  std::uint64_t low = hash, high = hash;
  MPI_Allreduce(MPI_IN_PLACE, &low, 1, MPI_UINT64_T, MPI_MIN, comm);
  MPI_Allreduce(MPI_IN_PLACE, &high, 1, MPI_UINT64_T, MPI_MAX, comm);
  if (low != high)
    throw inputError(what + ": the data differ between MPI ranks (each rank read its own copy, and they are not the "
                     "same); accepted: the same input on every rank");
}

} // namespace beam
