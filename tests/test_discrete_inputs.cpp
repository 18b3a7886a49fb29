// Inputs of the discrete_system lab: the Matrix Market reader (good files in every layout the common
// writers produce, and a table of bad files with the line and message fragment each must report),
// load curves and load histories. Every bad input is a beam::Error with exit code 2 and a message
// "<file>:<line>: <problem>".
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <string>
#include <vector>

#include "DiscreteSystem/DiscreteSystem.hpp"
#include "solvers/LoadInTime.hpp"
#include "DiscreteSystem/MatrixMarketReader.hpp"

using namespace beam;

namespace {

std::string writeFile(const std::string &name, const std::string &text) {
  const std::string path = testing::TempDir() + "discrete_inputs_" + name;
  std::ofstream(path) << text;
  return path;
}

const std::string kM = "%%MatrixMarket matrix coordinate real symmetric\n2 2 2\n1 1 0.5\n2 2 0.5\n";
const std::string kK = "%%MatrixMarket matrix coordinate real symmetric\n2 2 3\n1 1 10\n2 1 -5\n2 2 10\n";

// Expects an input error whose message starts with "<path>:<line>: " and contains `fragment`.
template <class F>
void expectInputError(F &&f, const std::string &path, int line, const std::string &fragment) {
  try {
    f();
    ADD_FAILURE() << path << ": accepted, expected '" << fragment << "'";
  } catch (const Error &e) {
    const std::string what = e.what();
    EXPECT_EQ(e.exitCode(), 2) << what;
    // Line 0: a path that is no file to read, named without a line.
    EXPECT_EQ(what.rfind(path + (line > 0 ? ":" + std::to_string(line) : std::string()) + ": ", 0), 0u) << what;
    EXPECT_NE(what.find(fragment), std::string::npos) << what;
  }
}

} // namespace

TEST(MatrixMarketReader, ReadsTheCommonLayouts) {
  const Eigen::MatrixXd K = (Eigen::MatrixXd(2, 2) << 10, -5, -5, 10).finished();
  const std::vector<std::string> files = {
      kK, // SciPy: coordinate symmetric, lower triangle
      "%%MatrixMarket matrix coordinate real general\n% a comment\n2 2 4\n1 1 10\n1 2 -5\n2 1 -5\n2 2 10\n",
      "%%MatrixMarket matrix array real general\n2 2\n10\n-5\n-5\n10\n", // MATLAB/Octave mmwrite, column-major
      "%%MatrixMarket matrix array real symmetric\n2 2\n10\n-5\n10\n",
      "%%matrixmarket MATRIX Coordinate INTEGER Symmetric\n\n2 2 3\n1 1 10\n2 1 -5\n2 2 10\r\n",
  };
  for (size_t i = 0; i < files.size(); ++i) {
    const MatrixMarketFile f = readMatrixMarket(writeFile("good" + std::to_string(i), files[i]));
    EXPECT_EQ((f.dense() - K).norm(), 0.0) << files[i];
    EXPECT_EQ((Eigen::MatrixXd(f.sparse()) - K).norm(), 0.0) << files[i];
    requirePositiveDefinite(f, "K");
  }
}

TEST(MatrixMarketReader, BadFilesNameTheLine) {
  struct Bad {
    const char *name, *text;
    int line;
    const char *fragment;
  };
  const std::vector<Bad> table = {
      {"not_mm", "hello world\n", 1, "bad header"},
      {"empty", "", 1, "empty file"},
      {"format", "%%MatrixMarket matrix sparse real general\n2 2 0\n", 1, "format 'sparse'"},
      {"pattern", "%%MatrixMarket matrix coordinate pattern general\n2 2 1\n1 1\n", 1, "field 'pattern'"},
      {"complex", "%%MatrixMarket matrix coordinate complex general\n2 2 0\n", 1, "field 'complex'"},
      {"skew", "%%MatrixMarket matrix coordinate real skew-symmetric\n2 2 0\n", 1, "symmetry 'skew-symmetric'"},
      {"no_size", "%%MatrixMarket matrix coordinate real general\n% only comments\n", 2, "ends before its size line"},
      {"size_words", "%%MatrixMarket matrix coordinate real general\n2 2\n1 1 1\n", 2, "bad size line"},
      {"size_text", "%%MatrixMarket matrix array real general\ntwo 2\n", 2, "bad size line"},
      {"size_zero", "%%MatrixMarket matrix array real general\n0 2\n", 2, "rows, cols >= 1"},
      {"sym_rect", "%%MatrixMarket matrix coordinate real symmetric\n2 3 0\n", 2, "must be square"},
      {"too_many_nnz", "%%MatrixMarket matrix coordinate real general\n2 2 5\n", 2, "more than the 4"},
      {"hex_value", "%%MatrixMarket matrix array real general\n2 1\n0x1\n2\n", 3, "is not a number; accepted: a decimal real"},
      {"too_few", "%%MatrixMarket matrix coordinate real general\n2 2 2\n1 1 1\n", 3, "ends after 1 of the 2 entries"},
      {"too_many", "%%MatrixMarket matrix coordinate real general\n2 2 1\n1 1 1\n2 2 1\n", 4, "more entries than the 1"},
      {"array_few", "%%MatrixMarket matrix array real general\n2 1\n1\n", 3, "ends after 1 of the 2 values"},
      {"array_many", "%%MatrixMarket matrix array real general\n1 1\n1\n2\n", 4, "more entries than the 1"},
      {"array_two", "%%MatrixMarket matrix array real general\n2 1\n1 2\n", 3, "one value per line"},
      {"entry_words", "%%MatrixMarket matrix coordinate real general\n2 2 1\n1 1\n", 3, "expected 'row col value'"},
      {"row_range", "%%MatrixMarket matrix coordinate real general\n2 2 2\n1 1 1\n3 1 1\n", 4, "index (3,1) out of range"},
      {"col_zero", "%%MatrixMarket matrix coordinate real general\n2 2 1\n1 0 1\n", 3, "out of range"},
      {"nan", "%%MatrixMarket matrix coordinate real general\n2 2 1\n1 1 nan\n", 3, "not finite"},
      {"inf", "%%MatrixMarket matrix array real general\n2 1\n1\n-inf\n", 4, "not finite"},
      {"text_value", "%%MatrixMarket matrix array real general\n1 1\n1.5e\n", 3, "is not a number"},
      {"integer_field", "%%MatrixMarket matrix array integer general\n1 1\n1.5\n", 3, "not an integer"},
      {"duplicate", "%%MatrixMarket matrix coordinate real general\n2 2 2\n1 2 1\n1 2 1\n", 4, "first given on line 3"},
      {"upper", "%%MatrixMarket matrix coordinate real symmetric\n2 2 1\n1 2 1\n", 3, "above the diagonal"},
  };
  for (const Bad &b : table) {
    const std::string path = writeFile(b.name, b.text);
    expectInputError([&] { readMatrixMarket(path); }, path, b.line, b.fragment);
  }
  expectInputError([] { readMatrixMarket("/nonexistent/M.mtx"); }, "/nonexistent/M.mtx", 0, "cannot open");
}

TEST(MatrixMarketReader, UseChecks) {
  // Non-symmetric K (general file): reported on the later line of the mismatched pair.
  const std::string k = writeFile("k_nonsym", "%%MatrixMarket matrix coordinate real general\n2 2 4\n1 1 10\n1 2 -5\n"
                                              "2 1 -4\n2 2 10\n");
  expectInputError([&] { requireSymmetric(readMatrixMarket(k), "K"); }, k, 5, "K is not symmetric");
  // A one-sided off-diagonal entry is a mismatch against an implicit 0.
  const std::string k1 = writeFile("k_onesided", "%%MatrixMarket matrix coordinate real general\n2 2 1\n2 1 -5\n");
  expectInputError([&] { requireSymmetric(readMatrixMarket(k1), "K"); }, k1, 3, "(1,2) = 0");
  // Each pair against its own scale: a penalty 1e11 on the diagonal hid (2,3) = 1, (3,2) = -1 (the
  // global tolerance 1e-10 x 1e11 = 10), and, in the semidefinite check, the block [1 2; 2 1]'s eigenvalue
  // -1 (the shift 1e-10 x 1e11). Round-off of the pair's size still passes.
  const std::string kp = writeFile("k_penalty_skew", "%%MatrixMarket matrix coordinate real general\n3 3 5\n1 1 1e11\n"
                                                     "2 2 2\n3 3 2\n2 3 1\n3 2 -1\n");
  expectInputError([&] { requireSymmetric(readMatrixMarket(kp), "K"); }, kp, 7, "K is not symmetric: (2,3) = 1");
  const std::string kr = writeFile("k_penalty_roundoff", "%%MatrixMarket matrix coordinate real general\n3 3 5\n"
                                                         "1 1 1e11\n2 2 2\n3 3 2\n2 3 1\n3 2 1.00000000000001\n");
  EXPECT_NO_THROW(requirePositiveSemidefinite(readMatrixMarket(kr), "K"));
  const std::string ki = writeFile("k_penalty_indef", "%%MatrixMarket matrix coordinate real symmetric\n3 3 4\n"
                                                      "1 1 1e11\n2 2 1\n3 3 1\n3 2 2\n");
  expectInputError([&] { requirePositiveSemidefinite(readMatrixMarket(ki), "K"); }, ki, 2, "K is indefinite");
  // A singular semidefinite K (a free-free spring) passes beside the penalty.
  const std::string ks = writeFile("k_penalty_free", "%%MatrixMarket matrix coordinate real symmetric\n3 3 4\n"
                                                     "1 1 1e11\n2 2 1\n3 3 1\n3 2 -1\n");
  EXPECT_NO_THROW(requirePositiveSemidefinite(readMatrixMarket(ks), "K"));
  // A zero matrix (no damping; free masses) and a tiny one are semidefinite: the zero diagonal's shift
  // underflowed to 0 and they were refused as indefinite.
  const std::string z = writeFile("c_zero", "%%MatrixMarket matrix coordinate real symmetric\n2 2 0\n");
  EXPECT_NO_THROW(requirePositiveSemidefinite(readMatrixMarket(z), "C"));
  const std::string z2 = writeFile("c_zeros", "%%MatrixMarket matrix array real symmetric\n2 2\n0\n0\n0\n");
  EXPECT_NO_THROW(requirePositiveSemidefinite(readMatrixMarket(z2), "C"));
  const std::string tiny = writeFile("k_tiny", "%%MatrixMarket matrix coordinate real symmetric\n2 2 1\n1 1 1e-300\n");
  EXPECT_NO_THROW(requirePositiveSemidefinite(readMatrixMarket(tiny), "K"));
  // M indefinite or singular: reported on the size line.
  const std::string m = writeFile("m_indef", "%%MatrixMarket matrix array real symmetric\n2 2\n1\n2\n1\n");
  expectInputError([&] { requirePositiveDefinite(readMatrixMarket(m), "M"); }, m, 2, "M is not positive definite");
  const std::string m0 = writeFile("m_zero", "%%MatrixMarket matrix coordinate real symmetric\n2 2 1\n1 1 1\n");
  expectInputError([&] { requirePositiveDefinite(readMatrixMarket(m0), "M"); }, m0, 2, "not positive definite");

  // Whole models: mismatched sizes and missing files.
  DiscreteFiles files;
  files.M = writeFile("M.mtx", kM);
  files.K = writeFile("K3.mtx", "%%MatrixMarket matrix array real symmetric\n3 3\n1\n0\n0\n1\n0\n1\n");
  expectInputError([&] { readModel(files); }, files.K, 2, "accepted: 2 x 2, the size of M");
  files.K = writeFile("K.mtx", kK);
  files.F = writeFile("F3.mtx", "%%MatrixMarket matrix array real general\n3 1\n1\n2\n3\n");
  expectInputError([&] { readModel(files); }, files.F, 2, "accepted: 2 x 1");
  files.F = writeFile("F.mtx", "%%MatrixMarket matrix array real general\n2 1\n0.5\n2.9\n");
  files.C = writeFile("C.mtx", "%%MatrixMarket matrix coordinate real symmetric\n2 2 3\n1 1 4\n2 1 -2\n2 2 4\n");
  const DiscreteModel model = readModel(files), builtin = builtinModel("two_dof");
  EXPECT_EQ((Eigen::MatrixXd(model.M) - Eigen::MatrixXd(builtin.M)).norm(), 0.0);
  EXPECT_EQ((Eigen::MatrixXd(model.K) - Eigen::MatrixXd(builtin.K)).norm(), 0.0);
  EXPECT_EQ((Eigen::MatrixXd(model.C) - Eigen::MatrixXd(builtin.C)).norm(), 0.0);
  EXPECT_EQ((model.F - builtin.F).norm(), 0.0);
  files.load_history = writeFile("P3.mtx", "%%MatrixMarket matrix array real general\n3 2\n0\n0\n0\n1\n1\n1\n");
  files.load_dt = 0.1;
  files.F.clear();
  expectInputError([&] { readModel(files); }, files.load_history, 2, "one row per DOF (2)");
  try {
    (void)builtinModel("three_dof");
    ADD_FAILURE();
  } catch (const Error &e) {
    EXPECT_EQ(e.exitCode(), 2);
    EXPECT_NE(std::string(e.what()).find("two_dof, fifteen_dof"), std::string::npos);
  }
}

// The use checks' tolerances from both sides, and the model's own rules (a fifth mutation audit,
// 2026-11-28: each changed passed every test). Symmetry is compared at 1e-10 of each pair's scale:
// -1 against -1.000000001 (5e-10) is refused, 1e-17 against -1e-17 beside a diagonal of 1 accepted; an
// eigenvalue of -1e-6 is indefinite; a negative entry count is a bad size line.
TEST(MatrixMarketReader, TolerancesFromBothSides) {
  const std::string head = "%%MatrixMarket matrix coordinate real ";
  const std::string d2 = writeFile("tol_skew", head + "general\n2 2 4\n1 1 2\n1 2 -1\n2 1 -1.000000001\n2 2 2\n");
  expectInputError([&] { requireSymmetric(readMatrixMarket(d2), "K"); }, d2, 5, "K is not symmetric");
  const std::string d3 = writeFile("tol_noise", head + "general\n2 2 4\n1 1 1\n1 2 1e-17\n2 1 -1e-17\n2 2 1\n");
  EXPECT_NO_THROW(requireSymmetric(readMatrixMarket(d3), "K"));
  const std::string d4 = writeFile("tol_indef", head + "symmetric\n2 2 3\n1 1 1\n2 1 1.000001\n2 2 1\n");
  try {
    requirePositiveSemidefinite(readMatrixMarket(d4), "K");
    ADD_FAILURE() << "an eigenvalue of -1e-6 accepted";
  } catch (const Error &e) {
    EXPECT_NE(std::string(e.what()).find("indefinite"), std::string::npos) << e.what();
  }
  const std::string d6 = writeFile("count_negative", head + "general\n2 2 -1\n1 1 1\n");
  expectInputError([&] { readMatrixMarket(d6); }, d6, 2, "bad size line");
}

// fifteen_dof's damping is reference 002's chain of dashpots c_1..c_16: C(i,i) = c_i + c_(i+1),
// C(i,i+1) = -c_(i+1), exactly as written.
TEST(DiscreteModel, FifteenDofDampingIsTheChainOfReference002) {
  const std::vector<double> c = {3.5, 3.6, 2.8, 3.9, 4, 4.1, 4.2, 4.3, 3.3, 4.5, 4.8, 5, 5.3, 5.2, 3.5, 5.5};
  const DiscreteModel f = builtinModel("fifteen_dof");
  for (int i = 0; i < 15; ++i) {
    EXPECT_EQ(f.C.coeff(i, i), c[size_t(i)] + c[size_t(i) + 1]) << i;
    if (i < 14) {
      EXPECT_EQ(f.C.coeff(i, i + 1), -c[size_t(i) + 1]) << i;
    }
  }
}

// A free-free chain's K is singular although its LU's last pivot is round-off (springs 6.2 and 9.6:
// 1.1e-16 of the largest): reported not invertible. -F and -load_history together are refused.
TEST(DiscreteModel, SingularStiffnessAndTwoLoadsAreSaid) {
  char diagonal[64];
  std::snprintf(diagonal, sizeof diagonal, "%.17g", 6.2 + 9.6);
  const std::string head = "%%MatrixMarket matrix coordinate real symmetric\n";
  DiscreteFiles files;
  files.M = writeFile("ff_M.mtx", head + "3 3 3\n1 1 1\n2 2 1\n3 3 1\n");
  files.K = writeFile("ff_K.mtx", head + "3 3 5\n1 1 6.2\n2 1 -6.2\n2 2 " + diagonal + "\n3 2 -9.6\n3 3 9.6\n");
  EXPECT_FALSE(readModel(files).stiffness_invertible);
  DiscreteFiles both;
  both.M = writeFile("both_M.mtx", head + "2 2 2\n1 1 1\n2 2 1\n");
  both.K = writeFile("both_K.mtx", head + "2 2 2\n1 1 1\n2 2 1\n");
  both.F = writeFile("both_F.mtx", "%%MatrixMarket matrix array real general\n2 1\n1\n0\n");
  both.load_history = writeFile("both_H.mtx", "%%MatrixMarket matrix array real general\n2 2\n0\n0\n0\n0\n");
  both.load_dt = 1;
  try {
    readModel(both);
    ADD_FAILURE() << "-F and -load_history both accepted";
  } catch (const Error &e) {
    EXPECT_NE(std::string(e.what()).find("both given"), std::string::npos) << e.what();
  }
}

TEST(LoadInTime, CurveInterpolatesAndHoldsTheEnds) {
  const std::string path = writeFile("curve.csv", " T , G \n# ramp then hold\n0,0\n1, 2\n3,2\n\n4,-1\n");
  const LoadCurve g = LoadCurve::read(path);
  EXPECT_DOUBLE_EQ(g(-1), 0);
  EXPECT_DOUBLE_EQ(g(0.25), 0.5);
  EXPECT_DOUBLE_EQ(g(2), 2);
  EXPECT_DOUBLE_EQ(g(3.5), 0.5);
  EXPECT_DOUBLE_EQ(g(10), -1); // constant beyond the last time
  EXPECT_NEAR(harmonicLoad(2, 3)(0.5), 2 * std::sin(1.5), 1e-15);
}

TEST(LoadInTime, BadCurvesNameTheLine) {
  struct Bad {
    const char *name, *text;
    int line;
    const char *fragment;
  };
  const std::vector<Bad> table = {
      {"c_order", "0,0\n1,1\n1,2\n", 3, "strictly increasing"},
      {"c_back", "t,g\n0,0\n2,1\n1,2\n", 4, "does not exceed the previous t = 2"},
      {"c_fields", "0,0\n1,1,1\n", 2, "got 3 fields"},
      {"c_one", "0,0\n1\n", 2, "got 1 fields"},
      {"c_text", "0,0\n1,abc\n", 2, "is not two numbers"},
      {"c_nan", "0,0\n1,nan\n", 2, "non-finite"},
      {"c_empty", "t,g\n", 1, "no t,g rows"},
      {"c_trailing", "0,0\n1,\n", 2, "is not two numbers"},
      {"c_hex", "0,0\n1,0x1p-1\n", 2, "is not two numbers"}, // strtod read 0.5 (exit 0)
      // A header is t,g: "g,t" was taken as a header and read as t,g, the columns swapped (exit 0).
      {"c_swapped", "g,t\n0,0\n1,2\n", 1, "header 'g,t'; accepted: the header t,g"},
      {"c_named", "time,load\n0,0\n1,2\n", 1, "header 'time,load'; accepted: the header t,g"},
  };
  for (const Bad &b : table) {
    const std::string path = writeFile(b.name, b.text);
    expectInputError([&] { LoadCurve::read(path); }, path, b.line, b.fragment);
  }
}

TEST(LoadInTime, HistoryInterpolatesLinearly) {
  Eigen::MatrixXd P(2, 3);
  P << 0, 1, 3, 0, -2, -2;
  const LoadHistory h(P, 0.5);
  PetscScalar f[2];
  h.evaluate(0.25, 0, 2, f);
  EXPECT_DOUBLE_EQ(PetscRealPart(f[0]), 0.5);
  EXPECT_DOUBLE_EQ(PetscRealPart(f[1]), -1);
  h.evaluate(0.75, 1, 1, f);
  EXPECT_DOUBLE_EQ(PetscRealPart(f[0]), -2);
  h.evaluate(7, 0, 2, f); // held after the last sample
  EXPECT_DOUBLE_EQ(PetscRealPart(f[0]), 3);
}
