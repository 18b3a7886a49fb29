// Matrix Market reader (NIST format, as written by SciPy's mmwrite, MATLAB/Octave's mmwrite.m and
// output/MatrixMarket.hpp): "matrix coordinate|array real|integer general|symmetric".
//
// Everything is validated while reading; a problem is an input error (exit 2) with one line
// "<file>:<line>: <problem>", the line being the one at fault (the size line for whole-matrix
// properties): a bad header, a malformed size line, too few or too many entries, an index out of range,
// a duplicate coordinate entry, an entry above the diagonal of a symmetric file, a value that is not a
// finite real. requireSize / requireSymmetric / requirePositiveDefinite add the checks of a use.
#pragma once
#include <Eigen/Dense>
#include <Eigen/Sparse>

#include <string>
#include <vector>

namespace beam {

struct MatrixMarketFile {
  struct Entry {
    long row, col; // 0-based
    double value;
    int line;
  };
  std::string path;
  bool array = false;     // array (dense, column-major) or coordinate
  bool symmetric = false; // only the lower triangle is stored
  long rows = 0, cols = 0;
  int size_line = 0;
  std::vector<Entry> entries; // as stored (a symmetric file: lower triangle only)

  // "<path>:<line>: " for messages.
  std::string at(int line) const;
  // The full matrix (symmetric files expanded).
  Eigen::MatrixXd dense() const;
  // The full matrix; exact zeros of array files are left out.
  Eigen::SparseMatrix<double> sparse() const;
};

MatrixMarketFile readMatrixMarket(const std::string &path);

// Input error unless the file is rows x cols; `what` says what the size must match, e.g.
// "the same size as M (M.mtx)".
void requireSize(const MatrixMarketFile &f, long rows, long cols, const std::string &what);
// Input error unless square and symmetric: a symmetric file is; a general one must have
// |a_ij - a_ji| <= 1e-10 max|a| (the tolerance absorbs printing a symmetric matrix with fewer digits).
// `role` names the matrix in the message ("K", "M").
void requireSymmetric(const MatrixMarketFile &f, const std::string &role);
// Input error unless the (symmetric) matrix is positive definite: a sparse Cholesky factorization
// (Eigen's SimplicialLLT) must succeed.
void requirePositiveDefinite(const MatrixMarketFile &f, const std::string &role);
// Symmetric with no eigenvalue below -1e-10 max|entry| (stiffness and damping may be singular); input
// error naming the file otherwise.
void requirePositiveSemidefinite(const MatrixMarketFile &f, const std::string &role);

} // namespace beam
