// Matrix Market writers (NIST format, 1-based indices), gathered to and written by rank 0, atomically.
#pragma once
#include <petscmat.h>

#include <string>
#include <vector>

namespace beam {

// "%%MatrixMarket matrix coordinate real general": every stored entry of A.
void writeMatrixMarket(Mat A, const std::string &path);
// "%%MatrixMarket matrix array real general": the vectors as the columns of an N x k dense matrix.
void writeMatrixMarketArray(const std::vector<Vec> &columns, const std::string &path);
// One 0-based index per line (rank 0 writes; `indices` is the same on every rank).
void writeIndexList(MPI_Comm comm, const std::vector<PetscInt> &indices, const std::string &path);

} // namespace beam
