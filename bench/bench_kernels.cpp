// Benchmark of the memory system (not a test): how much faster two ranks stream the kernels a time step
// is made of than one, on vectors allocated as the time loop allocates them (common/LargeVector: huge
// pages from 4 MiB per rank). Issue 13 asks 2 ranks >= 1.7x one at 2e6 DOFs; a step that streams its
// vectors cannot scale beyond what the memory system gives these kernels on the same machine.
// Kernels (bytes counted as moved: reads plus writes, no write-allocate):
//   triad    a = b + s c                     (STREAM's; 3 vectors)
//   update   x += alpha p, r -= alpha q      (Kronecker CG's update; 4 read, 2 written)
//   dot      p . q, reduced over the ranks   (2 read)
// Every rank streams its share of -dofs values; each repetition starts together (a barrier) and is timed
// to the slowest rank's end (a second barrier). One CSV row per kernel:
//   ranks,dofs,kernel,best_s,median_s,gbs      (gbs: the whole job's bytes / best_s)
//
//   bench_kernels -dofs 2040102 -repetitions 40 [-header]
// bench/kernels.sh runs 1 and 2 ranks at 2e5 and 2e6 DOFs and prints the 2-rank speed-up of each.
#include <algorithm>
#include <functional>
#include <string>
#include <vector>

#include "bench/Timing.hpp"
#include "MesLib/BeamSystem.hpp" // memAvailableBytes
#include "common/LargeVector.hpp"
#include "common/Options.hpp"

static const char help[] = "Benchmark: the memory bandwidth of a time step's vector kernels on 1 or more ranks.\n";

namespace {

struct Kernel {
  const char *name;
  int vectors_moved; // per value: reads plus writes
  std::function<double(PetscInt, double *const *)> run;
};

double timeKernel(const Kernel &k, PetscInt n, double *const *v, int repetitions, double &median) {
  std::vector<double> seconds;
  volatile double sink = 0;
  for (int r = 0; r < repetitions; ++r) {
    MPI_Barrier(PETSC_COMM_WORLD);
    const auto t0 = beam::bench::Clock::now();
    sink = sink + k.run(n, v);
    MPI_Barrier(PETSC_COMM_WORLD);
    seconds.push_back(beam::bench::since(t0));
  }
  median = beam::bench::median(seconds);
  return *std::min_element(seconds.begin(), seconds.end());
}

} // namespace

int main(int argc, char **argv) {
  beam::PetscSession session(&argc, &argv, help);
  return beam::runMain(session, "bench_kernels", [&] {
    PetscInt dofs = 2040102, repetitions = 40; // 20000 x 50 elements: the 2e6 beam of issue 13
    bool header = false;
    beam::readOptions(PETSC_COMM_WORLD, "Kernel benchmark", "", [&](beam::OptionReader &r) {
      dofs = r.integer("-dofs", "Values per vector, over all ranks", dofs, 1000);
      repetitions = r.integer("-repetitions", "Timed repetitions of each kernel", repetitions, 3);
      header = r.flag("-header", "Print the CSV header first", header);
    });
    if (beam::finishOptions(PETSC_COMM_WORLD)) return 0;
    // Four vectors of -dofs values on this node: refused when they would not fit (touching them would
    // wake the OOM killer instead of giving an error).
    beam::agreeOn(PETSC_COMM_WORLD, [&] {
      const double need = 4.0 * 8.0 * double(dofs), available = double(beam::memAvailableBytes());
      if (available > 0 && need > 0.8 * available)
        throw beam::inputError("-dofs " + std::to_string(dofs) + ": 4 vectors need " + std::to_string(need / (1 << 30)) +
                               " GiB, this machine has " + std::to_string(available / (1 << 30)) +
                               " GiB available; accepted: fewer values");
    });
    const int ranks = session.size();
    std::vector<beam::PVec> vectors;
    std::vector<double *> v;
    PetscInt n = PETSC_DECIDE;
    BEAM_PETSC(PetscSplitOwnership(PETSC_COMM_WORLD, &n, &dofs));
    for (int k = 0; k < 4; ++k) {
      vectors.push_back(beam::createVectorMPI(PETSC_COMM_WORLD, n, dofs));
      BEAM_PETSC(VecSet(vectors.back(), 1.0 + k)); // first touch by the owning rank
      PetscScalar *a;
      BEAM_PETSC(VecGetArray(vectors.back(), &a));
      v.push_back(a);
    }
    const double alpha = 1e-9;
    const Kernel kernels[] = {
        {"triad", 3,
         [](PetscInt m, double *const *w) {
           for (PetscInt i = 0; i < m; ++i) w[0][i] = w[1][i] + 3.0 * w[2][i];
           return w[0][m / 2];
         }},
        {"update", 6,
         [alpha](PetscInt m, double *const *w) {
           for (PetscInt i = 0; i < m; ++i) {
             w[0][i] += alpha * w[2][i];
             w[1][i] -= alpha * w[3][i];
           }
           return w[0][m / 2];
         }},
        {"dot", 2,
         [](PetscInt m, double *const *w) {
           double part[4] = {0, 0, 0, 0};
           PetscInt i = 0;
           for (; i + 4 <= m; i += 4)
             for (int k = 0; k < 4; ++k) part[k] += w[2][i + k] * w[3][i + k];
           for (; i < m; ++i) part[0] += w[2][i] * w[3][i];
           double local = (part[0] + part[1]) + (part[2] + part[3]), global = 0;
           MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_SUM, PETSC_COMM_WORLD);
           return global;
         }},
    };
    if (header) BEAM_PETSC(PetscPrintf(PETSC_COMM_WORLD, "ranks,dofs,kernel,best_s,median_s,gbs\n"));
    for (const Kernel &k : kernels) {
      double median = 0;
      const double best = timeKernel(k, n, v.data(), int(repetitions), median);
      const double gbs = double(k.vectors_moved) * 8.0 * double(dofs) / best / 1e9;
      BEAM_PETSC(PetscPrintf(PETSC_COMM_WORLD, "%d,%lld,%s,%.6e,%.6e,%.2f\n", ranks, (long long)dofs, k.name, best,
                             median, gbs));
    }
    for (size_t k = 0; k < vectors.size(); ++k) BEAM_PETSC(VecRestoreArray(vectors[k], &v[k]));
    return 0;
  });
}
