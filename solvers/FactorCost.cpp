#include "solvers/FactorCost.hpp"

#include <algorithm>
#include <vector>

#include "common/Petsc.hpp"

namespace beam {

double choleskyFlops(Mat A) {
  PetscMPIInt size = 1;
  MPI_Comm_size(PetscObjectComm(PetscObject(A)), &size);
  PMat whole; // every rank's own copy of the whole matrix (size 1: A itself)
  Mat seq = A;
  if (size > 1) {
    BEAM_PETSC(MatCreateRedundantMatrix(A, size, MPI_COMM_NULL, MAT_INITIAL_MATRIX, whole.out()));
    seq = whole;
  }
  PIS rows, columns;
  BEAM_PETSC(MatGetOrdering(seq, MATORDERINGND, rows.out(), columns.out()));
  const PetscInt *order = nullptr;
  BEAM_PETSC(ISGetIndices(rows, &order));
  PetscInt n = 0;
  const PetscInt *ia = nullptr, *ja = nullptr;
  PetscBool done = PETSC_FALSE;
  BEAM_PETSC(MatGetRowIJ(seq, 0, PETSC_TRUE, PETSC_FALSE, &n, &ia, &ja, &done));
  double flops = 0;
  if (done) {
    std::vector<PetscInt> position(static_cast<size_t>(n));
    for (PetscInt k = 0; k < n; ++k) position[size_t(order[k])] = k;
    // Column k of L: A's entries below the diagonal in column k, merged with the columns of its children
    // in the elimination tree (each without its own diagonal); column k's parent is its first row below.
    std::vector<std::vector<PetscInt>> column(static_cast<size_t>(n));
    std::vector<std::vector<PetscInt>> children(static_cast<size_t>(n));
    std::vector<PetscInt> mark(static_cast<size_t>(n), -1);
    for (PetscInt k = 0; k < n; ++k) {
      std::vector<PetscInt> &c = column[size_t(k)];
      auto add = [&](PetscInt i) {
        if (i > k && mark[size_t(i)] != k) {
          mark[size_t(i)] = k;
          c.push_back(i);
        }
      };
      const PetscInt old = order[k];
      for (PetscInt e = ia[old]; e < ia[old + 1]; ++e) add(position[size_t(ja[e])]);
      for (PetscInt child : children[size_t(k)]) {
        for (PetscInt i : column[size_t(child)]) add(i);
        std::vector<PetscInt>().swap(column[size_t(child)]); // merged: its memory goes
      }
      if (!c.empty()) children[size_t(*std::min_element(c.begin(), c.end()))].push_back(k);
      const double count = double(c.size());
      flops += count * count + count; // the column's scaling and its rank-1 update of the rest
    }
  }
  BEAM_PETSC(MatRestoreRowIJ(seq, 0, PETSC_TRUE, PETSC_FALSE, &n, &ia, &ja, &done));
  BEAM_PETSC(ISRestoreIndices(rows, &order));
  return flops;
}

} // namespace beam
