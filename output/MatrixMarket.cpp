#include "output/MatrixMarket.hpp"

#include <cstdio>

#include "common/Petsc.hpp"
#include "output/FileUtil.hpp"

namespace beam {
namespace {

int rankOf(MPI_Comm comm) {
  int r = 0;
  MPI_Comm_rank(comm, &r);
  return r;
}

// Concatenates every rank's text on rank 0, in rank order.
std::string gatherText(MPI_Comm comm, const std::string &mine) {
  int size = 1;
  MPI_Comm_size(comm, &size);
  const int n = int(mine.size());
  std::vector<int> counts(static_cast<size_t>(size)), displs(static_cast<size_t>(size));
  MPI_Gather(&n, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, comm);
  std::string all;
  if (rankOf(comm) == 0) {
    long total = 0;
    for (int i = 0; i < size; ++i) {
      displs[size_t(i)] = int(total);
      total += counts[size_t(i)];
    }
    all.resize(size_t(total));
  }
  MPI_Gatherv(mine.data(), n, MPI_CHAR, all.data(), counts.data(), displs.data(), MPI_CHAR, 0, comm);
  return all;
}

void appendf(std::string &s, const char *fmt, long long a, long long b, double v) {
  char buf[96];
  const int k = std::snprintf(buf, sizeof buf, fmt, a, b, v);
  s.append(buf, size_t(k));
}

} // namespace

void writeMatrixMarket(Mat A, const std::string &path) {
  MPI_Comm comm = PetscObjectComm(PetscObject(A));
  PetscInt m, n, r0, r1;
  BEAM_PETSC(MatGetSize(A, &m, &n));
  BEAM_PETSC(MatGetOwnershipRange(A, &r0, &r1));
  std::string body;
  long long count = 0;
  for (PetscInt i = r0; i < r1; ++i) {
    PetscInt nc;
    const PetscInt *cols;
    const PetscScalar *vals;
    BEAM_PETSC(MatGetRow(A, i, &nc, &cols, &vals));
    for (PetscInt k = 0; k < nc; ++k) appendf(body, "%lld %lld %.17g\n", i + 1, cols[k] + 1, PetscRealPart(vals[k]));
    count += nc;
    BEAM_PETSC(MatRestoreRow(A, i, &nc, &cols, &vals));
  }
  long long total = 0;
  MPI_Reduce(&count, &total, 1, MPI_LONG_LONG, MPI_SUM, 0, comm);
  const std::string all = gatherText(comm, body);
  agreeOn(comm, [&] { // rank 0 writes: its failure ends every rank at once
    if (rankOf(comm) != 0) return;
    char head[160];
    std::snprintf(head, sizeof head, "%%%%MatrixMarket matrix coordinate real general\n%lld %lld %lld\n",
                  (long long)m, (long long)n, total);
    writeFileAtomically(path, head + all);
  });
}

void writeMatrixMarketArray(const std::vector<Vec> &columns, const std::string &path) {
  if (columns.empty()) return;
  MPI_Comm comm = PetscObjectComm(PetscObject(columns[0]));
  PetscInt n;
  BEAM_PETSC(VecGetSize(columns[0], &n));
  std::string body;
  for (Vec v : columns) {
    PScatter scatter;
    PVec whole;
    BEAM_PETSC(VecScatterCreateToZero(v, scatter.out(), whole.out()));
    BEAM_PETSC(VecScatterBegin(scatter, v, whole, INSERT_VALUES, SCATTER_FORWARD));
    BEAM_PETSC(VecScatterEnd(scatter, v, whole, INSERT_VALUES, SCATTER_FORWARD));
    if (rankOf(comm) == 0) {
      const PetscScalar *a;
      BEAM_PETSC(VecGetArrayRead(whole, &a));
      char buf[40];
      for (PetscInt i = 0; i < n; ++i) {
        const int k = std::snprintf(buf, sizeof buf, "%.17g\n", PetscRealPart(a[i]));
        body.append(buf, size_t(k));
      }
      BEAM_PETSC(VecRestoreArrayRead(whole, &a));
    }
  }
  agreeOn(comm, [&] {
    if (rankOf(comm) != 0) return;
    char head[128];
    std::snprintf(head, sizeof head, "%%%%MatrixMarket matrix array real general\n%lld %zu\n", (long long)n,
                  columns.size());
    writeFileAtomically(path, head + body);
  });
}

void writeIndexList(MPI_Comm comm, const std::vector<PetscInt> &indices, const std::string &path) {
  agreeOn(comm, [&] {
    if (rankOf(comm) != 0) return;
    std::string body;
    for (PetscInt i : indices) body += std::to_string(i) + "\n";
    writeFileAtomically(path, body);
  });
}

} // namespace beam
