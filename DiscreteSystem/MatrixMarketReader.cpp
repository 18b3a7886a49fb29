#include "DiscreteSystem/MatrixMarketReader.hpp"
#include "common/Options.hpp"

#include <Eigen/SparseCholesky>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <limits>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>

#include "common/Error.hpp"
#include "common/InputFile.hpp"

namespace beam {
namespace {

std::string lower(std::string s) {
  for (char &c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::vector<std::string> words(const std::string &line) {
  std::istringstream in(line);
  std::vector<std::string> w;
  std::string s;
  while (in >> s) w.push_back(s);
  return w;
}

bool parseLong(const std::string &s, long &v) {
  char *end = nullptr;
  errno = 0;
  v = std::strtol(s.c_str(), &end, 10);
  return !s.empty() && end == s.c_str() + s.size() && errno != ERANGE; // a NUL inside is not a number
}

// `underflow`: the number's magnitude is below the smallest normal double (a subnormal, or 1e-400 read
// as 0).
bool parseDouble(const std::string &s, double &v, bool &underflow) {
  if (hexadecimalNumber(s)) return false; // decimal only, as the message says (0x1p-1 was read as 0.5)
  char *end = nullptr;
  errno = 0;
  v = std::strtod(s.c_str(), &end);
  underflow = std::abs(v) < std::numeric_limits<double>::min() && (v != 0 || errno == ERANGE);
  return !s.empty() && end == s.c_str() + s.size();
}

const char *kAcceptedHeader =
    "accepted: %%MatrixMarket matrix coordinate|array real|integer general|symmetric";

} // namespace

std::string MatrixMarketFile::at(int line) const { return path + ":" + std::to_string(line) + ": "; }

Eigen::MatrixXd MatrixMarketFile::dense() const {
  Eigen::MatrixXd A = Eigen::MatrixXd::Zero(rows, cols);
  for (const auto &e : entries) {
    A(e.row, e.col) = e.value;
    if (symmetric) A(e.col, e.row) = e.value;
  }
  return A;
}

Eigen::SparseMatrix<double> MatrixMarketFile::sparse() const {
  std::vector<Eigen::Triplet<double>> t;
  t.reserve(entries.size() * (symmetric ? 2 : 1));
  for (const auto &e : entries) {
    if (array && e.value == 0) continue;
    t.emplace_back(e.row, e.col, e.value);
    if (symmetric && e.row != e.col) t.emplace_back(e.col, e.row, e.value);
  }
  Eigen::SparseMatrix<double> A(rows, cols);
  A.setFromTriplets(t.begin(), t.end());
  return A;
}

namespace {

// Header: %%MatrixMarket matrix <format> <field> <symmetry> (keywords are case-insensitive). Sets
// f.array and f.symmetric; returns the field ("real" or "integer").
std::string readHeader(std::istream &in, MatrixMarketFile &f) {
  std::string line;
  if (!std::getline(in, line)) throw inputError(f.at(1) + "empty file; " + kAcceptedHeader);
  // A UTF-8 byte order mark, which editors write and a terminal does not show (the header was refused,
  // the mark invisible in the message): skipped, as the CSV readers do.
  dropByteOrderMark(line);
  const auto h = words(line);
  if (h.size() != 5 || lower(h[0]) != "%%matrixmarket" || lower(h[1]) != "matrix")
    throw inputError(f.at(1) + "bad header '" + line + "'; " + kAcceptedHeader);
  const std::string format = lower(h[2]), field = lower(h[3]), symmetry = lower(h[4]);
  if (format != "coordinate" && format != "array")
    throw inputError(f.at(1) + "format '" + h[2] + "' is not supported; " + kAcceptedHeader);
  if (field != "real" && field != "integer")
    throw inputError(f.at(1) + "field '" + h[3] + "' is not supported (pattern and complex matrices carry no real values); " +
                     kAcceptedHeader);
  if (symmetry != "general" && symmetry != "symmetric")
    throw inputError(f.at(1) + "symmetry '" + h[4] + "' is not supported; " + kAcceptedHeader);
  f.array = format == "array";
  f.symmetric = symmetry == "symmetric";
  return field;
}

// Comments ('%') and blank lines, then the size line: sets f.rows, f.cols, f.size_line; returns the
// number of values the file must hold (array: every stored one; coordinate: the declared entries).
long readSizeLine(std::istream &in, MatrixMarketFile &f, int &lineno) {
  std::string line;
  std::vector<std::string> w;
  while (std::getline(in, line)) {
    ++lineno;
    w = words(line);
    if (!w.empty() && w[0][0] != '%') break;
  }
  if (w.empty() || w[0][0] == '%')
    throw inputError(f.at(lineno) + "the file ends before its size line");
  f.size_line = lineno;
  long nnz = 0;
  const size_t expect_words = f.array ? 2 : 3;
  if (w.size() != expect_words || !parseLong(w[0], f.rows) || !parseLong(w[1], f.cols) ||
      (!f.array && !parseLong(w[2], nnz)))
    throw inputError(f.at(lineno) + "bad size line '" + line + "'; accepted: " +
                     (f.array ? "'rows cols'" : "'rows cols entries'") + " as integers");
  if (f.rows < 1 || f.cols < 1 || nnz < 0)
    throw inputError(f.at(lineno) + "bad size line '" + line + "'; accepted: rows, cols >= 1, entries >= 0");
  if (f.symmetric && f.rows != f.cols)
    throw inputError(f.at(lineno) + "a symmetric matrix must be square, got " + std::to_string(f.rows) + " x " +
                     std::to_string(f.cols));
  if (double(f.rows) * double(f.cols) > 1e9)
    throw inputError(f.at(lineno) + "matrix too large; accepted: rows * cols <= 1e9");
  const long stored = f.symmetric ? f.rows * (f.rows + 1) / 2 : f.rows * f.cols;
  const long count = f.array ? stored : nnz;
  if (count > stored)
    throw inputError(f.at(lineno) + std::to_string(nnz) + " entries declared, more than the " + std::to_string(stored) +
                     " a " + std::to_string(f.rows) + " x " + std::to_string(f.cols) +
                     (f.symmetric ? " symmetric" : "") + " matrix can hold");
  return count;
}

// One coordinate line "row col value" into e (indices checked, duplicates refused); returns the value text.
std::string coordinateEntry(const MatrixMarketFile &f, const std::vector<std::string> &w, const std::string &line,
                            int lineno, std::map<std::pair<long, long>, int> &seen, MatrixMarketFile::Entry &e) {
  long i = 0, j = 0;
  if (w.size() != 3 || !parseLong(w[0], i) || !parseLong(w[1], j))
    throw inputError(f.at(lineno) + "expected 'row col value', got '" + line + "'; accepted: two 1-based integer indices and a real");
  if (i < 1 || i > f.rows || j < 1 || j > f.cols)
    throw inputError(f.at(lineno) + "index (" + w[0] + "," + w[1] + ") out of range for a " + std::to_string(f.rows) +
                     " x " + std::to_string(f.cols) + " matrix; accepted: rows 1.." + std::to_string(f.rows) +
                     ", columns 1.." + std::to_string(f.cols));
  if (f.symmetric && j > i)
    throw inputError(f.at(lineno) + "entry (" + w[0] + "," + w[1] +
                     ") lies above the diagonal of a symmetric file; accepted: the lower triangle (row >= col)");
  const auto [it, fresh] = seen.emplace(std::make_pair(i, j), lineno);
  if (!fresh)
    throw inputError(f.at(lineno) + "duplicate entry (" + w[0] + "," + w[1] + "), first given on line " +
                     std::to_string(it->second) + "; accepted: each entry once (Matrix Market does not sum repeats here)");
  e.row = i - 1;
  e.col = j - 1;
  return w[2];
}

// The entries. Array: column-major, a symmetric file giving the lower triangle column by column.
void readEntries(std::istream &in, MatrixMarketFile &f, const std::string &field, long count, int &lineno) {
  f.entries.reserve(size_t(std::min(count, 1L << 16))); // the declared count is not yet backed by the file
  std::map<std::pair<long, long>, int> seen; // coordinate files: (i, j) -> line, for duplicates
  long col = 0, row = 0;
  std::string line;
  while (std::getline(in, line)) {
    ++lineno;
    const std::vector<std::string> w = words(line);
    if (w.empty() || w[0][0] == '%') continue;
    if (long(f.entries.size()) == count)
      throw inputError(f.at(lineno) + "more entries than the " + std::to_string(count) +
                       (f.array ? " values of the size line (line " : " declared on line ") +
                       std::to_string(f.size_line) + (f.array ? ")" : ""));
    MatrixMarketFile::Entry e{0, 0, 0.0, lineno};
    std::string value;
    if (f.array) {
      if (w.size() != 1) throw inputError(f.at(lineno) + "expected one value per line in an array file, got '" + line + "'");
      value = w[0];
      e.row = row;
      e.col = col;
      if (++row == f.rows) { // next column; a symmetric file restarts it at the diagonal
        ++col;
        row = f.symmetric ? col : 0;
      }
    } else {
      value = coordinateEntry(f, w, line, lineno, seen, e);
    }
    bool underflow = false;
    if (!parseDouble(value, e.value, underflow)) throw inputError(f.at(lineno) + "'" + value + "' is not a number; accepted: a decimal real");
    if (!std::isfinite(e.value))
      throw inputError(f.at(lineno) + "value '" + value + "' is not finite; accepted: finite reals");
    // As the options read numbers: a subnormal (1e-320) has lost its digits (it was taken, exit 0), and
    // 1e-400 all of them (read as 0: M's diagonal "not positive definite", K's entry dropped, until
    // 2026-11-30).
    if (underflow)
      throw inputError(f.at(lineno) + "value '" + value + "' underflows a double: its magnitude is below 2.2e-308; accepted: 0 or a magnitude of at least 2.2e-308");
    if (field == "integer" && e.value != std::floor(e.value))
      throw inputError(f.at(lineno) + "value '" + value + "' is not an integer, as the header's field requires");
    f.entries.push_back(e);
  }
  if (long(f.entries.size()) < count)
    throw inputError(f.at(lineno) + "the file ends after " + std::to_string(f.entries.size()) + " of the " +
                     std::to_string(count) + (f.array ? " values" : " entries") + " its size line (line " +
                     std::to_string(f.size_line) + ") declares");
}

} // namespace

MatrixMarketFile readMatrixMarket(const std::string &path) {
  // Errors inside the file name "<file>:<line>:" (line 1 for an empty one); a path that is no file to
  // read (a directory, a FIFO, missing) is named without a line (it read "line 0").
  if (const std::string why = inputFileProblem(path, kMaxInputBytes); !why.empty())
    throw inputError(path + (why == "empty file" ? ":1: " : ": ") + why + "; accepted: a Matrix Market file");
  noteInputFile("a Matrix Market file", path);
  std::ifstream in(path);
  if (!in) throw inputError(path + ": cannot open the file; accepted: a Matrix Market file");
  MatrixMarketFile f;
  f.path = path;
  const std::string field = readHeader(in, f);
  int lineno = 1;
  const long count = readSizeLine(in, f, lineno);
  readEntries(in, f, field, count, lineno);
  return f;
}

void requireSize(const MatrixMarketFile &f, long rows, long cols, const std::string &what) {
  if (f.rows != rows || f.cols != cols)
    throw inputError(f.at(f.size_line) + "the matrix is " + std::to_string(f.rows) + " x " + std::to_string(f.cols) +
                     "; accepted: " + std::to_string(rows) + " x " + std::to_string(cols) + ", " + what);
}

void requireSymmetric(const MatrixMarketFile &f, const std::string &role) {
  if (f.rows != f.cols)
    throw inputError(f.at(f.size_line) + role + " is " + std::to_string(f.rows) + " x " + std::to_string(f.cols) +
                     "; accepted: a square symmetric matrix");
  if (f.symmetric) return;
  std::map<std::pair<long, long>, const MatrixMarketFile::Entry *> at;
  for (const auto &e : f.entries) at[{e.row, e.col}] = &e;
  auto value = [&](long i, long j) {
    const auto it = at.find({i, j});
    return it == at.end() ? 0.0 : it->second->value;
  };
  for (const auto &e : f.entries) {
    if (e.row == e.col) continue;
    const auto it = at.find({e.col, e.row});
    const double mirror = it == at.end() ? 0.0 : it->second->value;
    // Each pair against its own scale: the pair and sqrt(|a_ii a_jj|), which bounds |a_ij| in a
    // semidefinite matrix and covers round-off near zero. The largest entry of the whole matrix hid a
    // (2,3) = 1, (3,2) = -1 beside a penalty 1e11 on the diagonal (the run gained energy, exit 0).
    const double scale = std::max({std::abs(e.value), std::abs(mirror),
                                   std::sqrt(std::abs(value(e.row, e.row)) * std::abs(value(e.col, e.col)))});
    if (std::abs(e.value - mirror) > 1e-10 * scale) {
      // Report the later of the two lines: the one that breaks the symmetry already read.
      const int line = it == at.end() ? e.line : std::max(e.line, it->second->line);
      std::ostringstream msg;
      msg.precision(17);
      msg << role << " is not symmetric: (" << e.row + 1 << "," << e.col + 1 << ") = " << e.value << " but ("
          << e.col + 1 << "," << e.row + 1 << ") = " << mirror << "; accepted: a symmetric " << role;
      throw inputError(f.at(line) + msg.str());
    }
  }
}

void requirePositiveDefinite(const MatrixMarketFile &f, const std::string &role) {
  requireSymmetric(f, role);
  Eigen::SimplicialLLT<Eigen::SparseMatrix<double>> llt(f.sparse());
  if (llt.info() != Eigen::Success)
    throw inputError(f.at(f.size_line) + role +
                     " is not positive definite (its Cholesky factorization fails); accepted: a symmetric positive "
                     "definite " + role);
}

void requirePositiveSemidefinite(const MatrixMarketFile &f, const std::string &role) {
  requireSymmetric(f, role);
  // K + eps D positive definite, D = diag(K), decides it in one Cholesky factorization: no eigenvalue of
  // D^-1/2 K D^-1/2 below -eps (a free-free stiffness, singular but semidefinite, passes). The shift
  // follows each diagonal entry: one of the whole matrix's largest (a penalty 1e11) hid a negative
  // eigenvalue of the rest. A zero diagonal gets a shift far below round-off of the largest entry.
  Eigen::SparseMatrix<double> A = f.sparse();
  double scale = 0;
  for (const auto &e : f.entries) scale = std::max(scale, std::abs(e.value));
  if (scale == 0) return; // a zero matrix (no damping, free masses) is semidefinite
  // The floor is a normal double: 1e-30 x a tiny scale underflowed to 0, and a zero C or K was refused.
  const double floor = std::max(1e-30 * scale, std::numeric_limits<double>::min());
  Eigen::SparseMatrix<double> shift(A.rows(), A.cols());
  shift.setIdentity();
  for (Eigen::Index i = 0; i < A.rows(); ++i) shift.coeffRef(i, i) = std::max(1e-10 * std::abs(A.coeff(i, i)), floor);
  A += shift;
  Eigen::SimplicialLLT<Eigen::SparseMatrix<double>> llt(A);
  if (llt.info() != Eigen::Success)
    throw inputError(f.at(f.size_line) + role +
                     " is indefinite or negative (it has a negative eigenvalue); accepted: a symmetric positive "
                     "semidefinite " + role);
}

} // namespace beam
