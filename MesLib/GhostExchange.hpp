// The ghost values of a rank's window of the beam (the DOFs its elements touch, owned by other ranks),
// fetched from their owners by messages in eager pieces (below) whose sends are not waited for.
//
// Why not PETSc's VecScatter: a node row of the beam is 2 (mx + 1) doubles, 32 kB at mx = 2000, above
// OpenMPI's shared-memory eager limit (4 kB), so the scatter sent it by rendezvous, and its End waits for
// the sends as well as the receives: a send completed only once the receiver had entered MPI, so every
// product waited until both ranks had finished their interior rows. On two ranks at 2000 x 50 those
// waits were 6.5 % of the midpoint time loop (-log_view, VecScatterEnd, 2026-11-25). Here the row
// travels in eager pieces and end() waits for the receives only; a send is completed at the next
// begin(), before its buffer is refilled. The values are copied into the send buffer, so the caller may
// change its vector as soon as begin() returns. The ghosts are the scatter's values, to the bit.
#pragma once
#include <mpi.h>
#include <petscsys.h>

#include <functional>
#include <utility>
#include <vector>

namespace beam {

// Messages between ranks in pieces of at most kEagerDoubles values: below OpenMPI's shared-memory eager
// limit (4096 bytes with its header), so a piece is copied out at once and its send completes without
// the receiver; a larger message goes by rendezvous, a handshake that needs both ranks inside MPI.
// Measured at 2000 x 50 on two ranks, midpoint, 200 steps: the eager limit raised above a node row
// (32 kB, `--mca btl_vader_eager_limit 65536`) took the 2-rank speed-up from 1.68x to 1.89x (medians of
// six interleaved runs, 2026-11-25).
inline constexpr PetscInt kEagerDoubles = 480;
// Appends the requests of the pieces of a receive / send of n doubles from or to peer.
void postReceive(MPI_Comm comm, int peer, int tag, double *data, PetscInt n, std::vector<MPI_Request> &requests);
void postSend(MPI_Comm comm, int peer, int tag, const double *data, PetscInt n, std::vector<MPI_Request> &requests);
// send to peer and receive from it, n doubles each way (the 2-rank interface of KroneckerMass).
void swapWithPeer(MPI_Comm comm, int peer, int tag, const double *send, double *receive, PetscInt n);

class GhostExchange {
public:
  using Range = std::pair<PetscInt, PetscInt>; // global DOFs [first, second)
  // Collective. ownership: every rank's first DOF and the total (size + 1 entries, ascending);
  // ghostRanges(q): rank q's ghost DOFs, disjoint ranges in ascending order, none owned by q.
  GhostExchange(MPI_Comm comm, std::vector<PetscInt> ownership,
                const std::function<std::vector<Range>(int rank)> &ghostRanges);
  ~GhostExchange();
  GhostExchange(const GhostExchange &) = delete;
  GhostExchange &operator=(const GhostExchange &) = delete;

  // Posts the receives and sends this rank's values that others hold as ghosts (owned: this rank's
  // array, from its first DOF). Error codes, not exceptions: called from PETSc's MatMult callbacks.
  PetscErrorCode begin(const double *owned);
  // Waits until every ghost value has arrived.
  PetscErrorCode end();
  // The ghost values, in the order of ghostRanges(this rank).
  const double *ghosts() const { return ghosts_.data(); }
  PetscInt ghostCount() const { return PetscInt(ghosts_.size()); }

private:
  struct Message {
    int peer;
    PetscInt offset; // in the ghosts (receives) or this rank's array (sends)
    PetscInt count;
    PetscInt buffer; // sends: offset in the send buffer
    PetscInt global_end; // one past the last global DOF
  };
  MPI_Comm comm_ = MPI_COMM_NULL; // a duplicate, so no other message can match these
  std::vector<Message> receives_, sends_;
  std::vector<double> ghosts_, send_buffer_;
  std::vector<MPI_Request> receive_requests_, send_requests_; // the pieces of the last begin()
  bool begun_ = false; // begin() called, end() not yet
};

} // namespace beam
