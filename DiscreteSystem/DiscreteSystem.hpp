// A linear discrete system M q'' + C q' + K q = f(t), given by Matrix Market files or built in, and its
// conversion to the SecondOrderSystem the schemes see.
//
// Built in (reference 002, section 3):
//   two_dof      m1 = m2 = 0.5 kg between three springs k = 5 N/m and three dampers c = 2 kg/s
//                (eq. (19): K = k [[2,-1],[-1,2]], C = c [[2,-1],[-1,2]]), f = (0.5, 2.9) N constant,
//                at rest at t = 0. Static limit K^{-1} f = (0.26, 0.42) m.
//   fifteen_dof  a fixed-fixed chain of 15 masses (2, 2.1, 1.8, 1.9, 2.5, 2.6, 2.8, 1.5, 2.7, 3, 3.1,
//                3.2, 3.4, 3.6, 4 kg), 16 springs k = 7 N/m and 16 dampers c = (3.5, 3.6, 2.8, 3.9, 4, 4.1,
//                4.2, 4.3, 3.3, 4.5, 4.8, 5, 5.3, 5.2, 3.5, 5.5) kg/s (eq. (20), tridiagonal K and C),
//                f = (0.01, 0.05, 0.1, 0.15, 0.2, 0.025, 0.03, ..., 0.07) N constant, at rest.
// From files: M and K required (symmetric, M positive definite), C optional (symmetric: the direct
// solvers are Cholesky factorizations), F, q0, v0 optional N x 1 (default 0); a load history replaces
// F g(t).
#pragma once
#include <Eigen/Dense>
#include <Eigen/Sparse>

#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "solvers/LoadInTime.hpp"
#include "solvers/LinearModel.hpp"
#include "solvers/SecondOrderSystem.hpp"

namespace beam {

struct DiscreteModel {
  std::string name;
  Eigen::SparseMatrix<double> M, K, C; // C has no entries when undamped
  Eigen::VectorXd F, q0, v0;
  std::function<double(double)> load_factor;  // f = F g(t); empty = constant
  std::shared_ptr<const LoadHistory> history; // replaces F g(t) when set
  std::string load_identity = "no";           // of load_factor (LoadIdentity::text)
  double load_factor_bound = 1;               // max |g| (LoadIdentity::bound)
  // K is positive definite to working precision (false for a semidefinite K, e.g. free-free: no static
  // solution f = K x, and for a condition number above about 1e15).
  bool stiffness_invertible = true;

  Eigen::Index size() const { return M.rows(); }
  bool damped() const { return C.nonZeros() > 0; }
};

// The paper's examples by name ("two_dof", "fifteen_dof"); input error listing them otherwise.
DiscreteModel builtinModel(const std::string &name);

struct DiscreteFiles {
  std::string M, K, C, F, q0, v0, load_history;
  double load_dt = 0;
};
// Reads and validates the files (exit 2 with "<file>:<line>: <problem>").
DiscreteModel readModel(const DiscreteFiles &files);
// A history file checked against the model's size.
std::shared_ptr<const LoadHistory> readLoadHistory(const std::string &path, double dt, Eigen::Index n);

// Every rank of `comm` read the same system (files by relative paths from per-rank working directories
// may differ): an input error naming the part that differs, otherwise the system's data hash.
// Collective.
std::uint64_t agreeOnDiscreteData(MPI_Comm comm, const DiscreteModel &model);
// PETSc matrices over `comm`. M, K and C are stored with one common nonzero pattern (the union of
// theirs, explicit zeros included), which the schemes' matrix sums a M + b C + c K rely on.
SecondOrderSystem toSecondOrderSystem(const DiscreteModel &model, MPI_Comm comm);
// A PETSc vector with the system's layout holding v.
PVec toPetscVector(const SecondOrderSystem &system, const Eigen::VectorXd &v);

// The discrete system as a Model: a LinearModel over its matrices (drawn as a row of DOFs), named
// "discrete" and identified for checkpoints by its name and a hash of M, C, K, F, q0, v0 and its load.
class DiscreteSystemModel final : public LinearModel {
public:
  DiscreteSystemModel(const DiscreteModel &model, MPI_Comm comm, LinearSolverKind solver);
  std::string name() const override { return "discrete"; }
  std::vector<std::pair<std::string, std::string>> identity() const override { return identity_; }
  // A singular K has no 1/2 f'K^-1 f (its Cholesky factorization failed, exit 3): no reference then.
  double referenceEnergy() const override { return invertible_ ? LinearModel::referenceEnergy() : 0; }
  std::string referenceEnergyFormula() const override {
    return invertible_ ? LinearModel::referenceEnergyFormula() : "none, K is singular";
  }

private:
  std::vector<std::pair<std::string, std::string>> identity_;
  bool invertible_ = true;
};

// omega_max^2: the largest eigenvalue of K phi = omega^2 M phi (dense, for small systems).
double largestEigenvalue(const DiscreteModel &model);

} // namespace beam
