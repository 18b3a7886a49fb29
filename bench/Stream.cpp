#include "bench/Stream.hpp"

#include <algorithm>
#include <chrono>
#include <memory>

namespace beam::bench {

namespace {
// The triad kernel, out of line so the compiler cannot fold repetitions together.
__attribute__((noinline)) void triad(double *__restrict a, const double *__restrict b, const double *__restrict c,
                                     double s, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) a[i] = b[i] + s * c[i];
}
} // namespace

StreamResult streamTriad(MPI_Comm comm, std::size_t elements, int repetitions) {
  // new double[] without value-initialization; first touch below, by the rank that uses the pages.
  std::unique_ptr<double[]> a(new double[elements]), b(new double[elements]), c(new double[elements]);
  for (std::size_t i = 0; i < elements; ++i) {
    a[i] = 1.0;
    b[i] = 2.0;
    c[i] = 0.5;
  }
  double best = 1e300;
  for (int r = 0; r < repetitions; ++r) {
    MPI_Barrier(comm); // all ranks stream together
    const auto t0 = std::chrono::steady_clock::now();
    triad(a.get(), b.get(), c.get(), 3.0, elements);
    const double t = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    best = std::min(best, t);
  }
  // Keep the result alive: a value the compiler must compute.
  volatile double sink = a[elements / 2];
  (void)sink;
  StreamResult out;
  out.rank_gbs = 3.0 * 8.0 * double(elements) / best / 1e9;
  MPI_Allreduce(&out.rank_gbs, &out.total_gbs, 1, MPI_DOUBLE, MPI_SUM, comm);
  MPI_Allreduce(&out.rank_gbs, &out.min_rank_gbs, 1, MPI_DOUBLE, MPI_MIN, comm);
  MPI_Allreduce(&out.rank_gbs, &out.max_rank_gbs, 1, MPI_DOUBLE, MPI_MAX, comm);
  return out;
}

} // namespace beam::bench
