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
  int header[2] = {int(message.size()), exit_code};
  MPI_Bcast(header, 2, MPI_INT, first, comm);
  message.resize(size_t(header[0]));
  MPI_Bcast(message.data(), header[0], MPI_CHAR, first, comm);
  throw Error(header[1], message);
}

} // namespace beam
