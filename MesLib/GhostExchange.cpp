#include "MesLib/GhostExchange.hpp"

#include <algorithm>
#include <exception>
#include <string>

#include "common/Error.hpp"

namespace beam {
namespace {

void checkMpi(int code, const char *what) {
  if (code != MPI_SUCCESS) throw runError(std::string("ghost exchange: ") + what + " failed");
}

} // namespace

void postReceive(MPI_Comm comm, int peer, int tag, double *data, PetscInt n, std::vector<MPI_Request> &requests) {
  for (PetscInt at = 0; at < n; at += kEagerDoubles) {
    requests.push_back(MPI_REQUEST_NULL);
    checkMpi(MPI_Irecv(data + at, int(std::min(kEagerDoubles, n - at)), MPI_DOUBLE, peer, tag, comm, &requests.back()),
             "MPI_Irecv");
  }
}

void postSend(MPI_Comm comm, int peer, int tag, const double *data, PetscInt n, std::vector<MPI_Request> &requests) {
  for (PetscInt at = 0; at < n; at += kEagerDoubles) {
    requests.push_back(MPI_REQUEST_NULL);
    checkMpi(MPI_Isend(data + at, int(std::min(kEagerDoubles, n - at)), MPI_DOUBLE, peer, tag, comm, &requests.back()),
             "MPI_Isend");
  }
}

void swapWithPeer(MPI_Comm comm, int peer, int tag, const double *send, double *receive, PetscInt n) {
  thread_local std::vector<MPI_Request> requests;
  requests.clear();
  postReceive(comm, peer, tag, receive, n, requests);
  postSend(comm, peer, tag, send, n, requests);
  checkMpi(MPI_Waitall(int(requests.size()), requests.data(), MPI_STATUSES_IGNORE), "MPI_Waitall");
}

GhostExchange::GhostExchange(MPI_Comm comm, std::vector<PetscInt> ownership,
                             const std::function<std::vector<Range>(int rank)> &ghostRanges) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  if (ownership.size() != size_t(size) + 1) throw runError("ghost exchange: ownership needs size + 1 entries");
  const PetscInt first = ownership[size_t(rank)], last = ownership[size_t(rank) + 1];
  // Ownership is contiguous and ascending, so a range meets each owner in one contiguous piece, the pieces
  // in rank order; a rank's ghosts below its DOFs and above them come from different ranks, so one message
  // per peer each way.
  auto pieces = [&](const Range &range, auto &&visit) {
    for (int q = 0; q < size; ++q) {
      const PetscInt lo = std::max(range.first, ownership[size_t(q)]);
      const PetscInt hi = std::min(range.second, ownership[size_t(q) + 1]);
      if (lo < hi) visit(q, lo, hi);
    }
  };
  // Pieces of one peer that continue each other in the global numbering are one message, on both sides
  // alike, so the sends and receives pair up.
  auto add = [](std::vector<Message> &list, int peer, PetscInt global, PetscInt offset, PetscInt count,
                PetscInt buffer) {
    if (!list.empty() && list.back().peer == peer && list.back().global_end == global) {
      list.back().count += count;
      list.back().global_end += count;
    } else {
      list.push_back({peer, offset, count, buffer, global + count});
    }
  };
  PetscInt ghost_count = 0;
  for (const Range &range : ghostRanges(rank))
    pieces(range, [&](int q, PetscInt lo, PetscInt hi) {
      if (q == rank) throw runError("ghost exchange: a ghost range holds owned DOFs");
      add(receives_, q, lo, ghost_count, hi - lo, 0);
      ghost_count += hi - lo;
    });
  // What every other rank receives from this one: its ghost ranges met with this rank's DOFs.
  PetscInt buffered = 0;
  for (int q = 0; q < size; ++q) {
    if (q == rank) continue;
    for (const Range &range : ghostRanges(q)) {
      const PetscInt lo = std::max(range.first, first), hi = std::min(range.second, last);
      if (lo >= hi) continue;
      add(sends_, q, lo, lo - first, hi - lo, buffered);
      buffered += hi - lo;
    }
  }
  ghosts_.assign(size_t(ghost_count), 0.0);
  send_buffer_.assign(size_t(buffered), 0.0);
  // Last, so no throw above can leave the duplicate unfreed (a throwing constructor runs no destructor).
  checkMpi(MPI_Comm_dup(comm, &comm_), "MPI_Comm_dup");
}

GhostExchange::~GhostExchange() {
  // The last sends must end before their buffer goes; their receives are posted by the peers' begin()
  // of the same product (a blocked destroy is ended by PetscSession's watchdog, Petsc.hpp).
  if (!send_requests_.empty()) MPI_Waitall(int(send_requests_.size()), send_requests_.data(), MPI_STATUSES_IGNORE);
  if (!receive_requests_.empty())
    MPI_Waitall(int(receive_requests_.size()), receive_requests_.data(), MPI_STATUSES_IGNORE);
  if (comm_ != MPI_COMM_NULL) MPI_Comm_free(&comm_);
}

// MPI calls through postReceive/postSend throw beam::Error; these run inside PETSc's MatMult callbacks,
// so they return PETSc's error code instead (an MPI error aborts the job first under MPI's default handler).
PetscErrorCode GhostExchange::begin(const double *owned) {
  PetscFunctionBeginUser;
  // A begin() after a begin() without end() (an error return between them) would drop receives still
  // pending, which would then take the next product's messages.
  PetscCheck(!begun_, PETSC_COMM_SELF, PETSC_ERR_ORDER, "ghost exchange: begin() twice without end()");
  begun_ = true;
  try {
    receive_requests_.clear();
    for (const Message &r : receives_) postReceive(comm_, r.peer, 0, ghosts_.data() + r.offset, r.count, receive_requests_);
    // The previous product's sends, eager and so complete, before their buffer is overwritten.
    if (!send_requests_.empty())
      PetscCallMPI(MPI_Waitall(int(send_requests_.size()), send_requests_.data(), MPI_STATUSES_IGNORE));
    send_requests_.clear();
    for (const Message &m : sends_) {
      double *buffer = send_buffer_.data() + m.buffer;
      std::copy(owned + m.offset, owned + m.offset + m.count, buffer);
      postSend(comm_, m.peer, 0, buffer, m.count, send_requests_);
    }
  } catch (const std::exception &e) { // beam::Error from MPI, bad_alloc: not through PETSc's C frames
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_LIB, "%s", e.what());
  }
  PetscFunctionReturn(0);
}

PetscErrorCode GhostExchange::end() {
  PetscFunctionBeginUser;
  if (!receive_requests_.empty())
    PetscCallMPI(MPI_Waitall(int(receive_requests_.size()), receive_requests_.data(), MPI_STATUSES_IGNORE));
  begun_ = false;
  PetscFunctionReturn(0);
}

} // namespace beam
