// libFuzzer harness: the Matrix Market reader (DiscreteSystem/MatrixMarketReader.hpp), its expansion to dense
// and sparse matrices, and the checks of a use (size, symmetry, positive definiteness).
//
// An accepted file must describe what it claims: 1 <= rows, cols; rows * cols <= 1e9; entries inside
// the matrix, finite, in the lower triangle of a symmetric file; an array file holds every value.
#include <cstddef>
#include <cstdint>

#include "fuzz/FuzzInput.hpp"
#include "DiscreteSystem/MatrixMarketReader.hpp"

using namespace beam;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const std::string &path = fuzz::writeInput(data, size);
  MatrixMarketFile f;
  if (!fuzz::acceptsInput([&] { f = readMatrixMarket(path); })) return 0;

  BEAM_FUZZ_CHECK(f.rows >= 1 && f.cols >= 1);
  BEAM_FUZZ_CHECK(double(f.rows) * double(f.cols) <= 1e9);
  BEAM_FUZZ_CHECK(!f.symmetric || f.rows == f.cols);
  for (const auto &e : f.entries) {
    BEAM_FUZZ_CHECK(e.row >= 0 && e.row < f.rows && e.col >= 0 && e.col < f.cols);
    BEAM_FUZZ_CHECK(std::isfinite(e.value));
    BEAM_FUZZ_CHECK(!f.symmetric || e.row >= e.col);
    BEAM_FUZZ_CHECK(e.line > f.size_line);
  }
  if (f.array) {
    const long stored = f.symmetric ? f.rows * (f.rows + 1) / 2 : f.rows * f.cols;
    BEAM_FUZZ_CHECK(long(f.entries.size()) == stored);
  }

  // The uses: expansion and the checks of discrete_system (-M, -K, -C, -F, -q0, -v0). Keep the work per
  // input small: the sizes a few hundred bytes can declare are not the point here.
  if (double(f.rows) * double(f.cols) <= 1e5) {
    const Eigen::MatrixXd A = f.dense();
    const Eigen::SparseMatrix<double> S = f.sparse();
    BEAM_FUZZ_CHECK(A.rows() == f.rows && A.cols() == f.cols);
    BEAM_FUZZ_CHECK(S.rows() == f.rows && S.cols() == f.cols);
    BEAM_FUZZ_CHECK((Eigen::MatrixXd(S) - A).cwiseAbs().maxCoeff() == 0);
    fuzz::acceptsInput([&] { requireSize(f, f.rows, 1, "a column"); });
    if (f.rows == f.cols && f.rows <= 300) {
      if (fuzz::acceptsInput([&] { requireSymmetric(f, "K"); }))
        BEAM_FUZZ_CHECK((A - A.transpose()).cwiseAbs().maxCoeff() <= 1e-10 * A.cwiseAbs().maxCoeff());
      if (fuzz::acceptsInput([&] { requirePositiveDefinite(f, "M"); }))
        BEAM_FUZZ_CHECK(A.diagonal().minCoeff() > 0);
    }
  }
  return 0;
}
