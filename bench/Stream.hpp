// STREAM triad (McCalpin), measured inside the benchmark so the bandwidth and the timings it is
// compared with come from the same process, machine and moment:
//   a[i] = b[i] + s * c[i],  counted as 3 x 8 bytes per element (two reads, one write; the
//   write-allocate read is not counted, as in STREAM itself).
// Every rank runs the triad at the same time on its own arrays, so the result is the bandwidth one rank
// gets while the others also stream: what a rank of a parallel run can use.
#pragma once
#include <mpi.h>

#include <cstddef>

namespace beam::bench {

struct StreamResult {
  double rank_gbs = 0;  // this rank's triad bandwidth, GB/s (1e9 bytes/s), best of the repetitions
  double total_gbs = 0; // sum over the ranks of comm
  double min_rank_gbs = 0, max_rank_gbs = 0;
};

// Best of `repetitions` triads over arrays of `elements` doubles each (STREAM's rule: each array at
// least 4x the last-level cache). Collective over comm.
StreamResult streamTriad(MPI_Comm comm, std::size_t elements, int repetitions = 10);

} // namespace beam::bench
