// libFuzzer harness: the -load_history reader of discrete_system (DiscreteSystem/DiscreteSystem.hpp,
// readLoadHistory: a Matrix Market N x S array of load samples) and the history it builds.
//
// The file is read for a model with as many DOFs as it has rows (so the whole path is exercised) and for
// one more (a size mismatch, which must be an input error). An accepted history must give finite loads
// between the smallest and largest sample of each DOF at any time.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "fuzz/FuzzInput.hpp"
#include "DiscreteSystem/DiscreteSystem.hpp"
#include "DiscreteSystem/MatrixMarketReader.hpp"

using namespace beam;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const std::string &path = fuzz::writeInput(data, size);
  MatrixMarketFile f;
  if (!fuzz::acceptsInput([&] { f = readMatrixMarket(path); })) return 0;
  const double dt = 0.25;
  // Known and reported: readLoadHistory expands the file to a dense rows x cols matrix with no bound but
  // the reader's rows * cols <= 1e9, so a two-line coordinate file declaring 2 x 500000000 allocates
  // 8 GB (libFuzzer's malloc limit flags it at once). Skip such inputs until readLoadHistory bounds it.
  if (double(f.rows) * double(f.cols) > 1e6) return 0;

  std::shared_ptr<const LoadHistory> history;
  if (fuzz::acceptsInput([&] { (void)readLoadHistory(path, dt, f.rows + 1); }))
    fuzz::fail("a history with the wrong number of rows was accepted");
  if (!fuzz::acceptsInput([&] { history = readLoadHistory(path, dt, f.rows); })) return 0;

  BEAM_FUZZ_CHECK(history->dofs() == f.rows && history->count() == f.cols);
  const Eigen::MatrixXd samples = f.dense();
  const PetscInt n = PetscInt(std::min<long>(f.rows, 64));
  std::vector<PetscScalar> load(size_t(n), 0.0);
  for (double t : {-1.0, 0.0, 0.1, dt, 1.3 * dt, dt * double(f.cols - 1), dt * double(f.cols) + 7, 1e300}) {
    history->evaluate(t, 0, n, load.data());
    for (PetscInt i = 0; i < n; ++i) {
      BEAM_FUZZ_CHECK(std::isfinite(load[size_t(i)]));
      const double lo = samples.row(i).minCoeff(), hi = samples.row(i).maxCoeff();
      const double slack = 1e-12 * std::max(std::abs(lo), std::abs(hi));
      BEAM_FUZZ_CHECK(load[size_t(i)] >= lo - slack && load[size_t(i)] <= hi + slack);
    }
  }
  const Eigen::VectorXd largest = history->largestSample();
  BEAM_FUZZ_CHECK(largest.size() == f.rows);
  return 0;
}
