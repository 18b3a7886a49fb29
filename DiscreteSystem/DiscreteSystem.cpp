#include "DiscreteSystem/DiscreteSystem.hpp"

#include "common/Agree.hpp"
#include "common/Hash.hpp"

#include <Eigen/Eigenvalues>
#include <Eigen/SparseCholesky>

#include <cstdint>
#include <cstring>
#include <map>
#include <vector>

#include "DiscreteSystem/MatrixMarketReader.hpp"

namespace beam {
namespace {
// K positive definite to working precision: the Cholesky factorization of D^-1/2 K D^-1/2 (D = diag K,
// so a badly scaled but well-conditioned K passes: 1e-3 and 1e13 on the diagonal, or a beam exported with
// E = 1e15 beside its unit frozen rows) succeeds, with its smallest pivot not below 1e-15 of its largest.
// The pivots lie between the scaled matrix's extreme eigenvalues, so a smaller ratio means a condition
// number above 1e15: a free-free K factored with a round-off pivot and passed as invertible.
bool invertibleToWorkingPrecision(const Eigen::SparseMatrix<double> &K) {
  if (K.rows() == 0) return true;
  const Eigen::VectorXd d = K.diagonal();
  if (!(d.minCoeff() > 0)) return false; // positive semidefinite with a zero diagonal entry: singular
  const Eigen::VectorXd scale = d.cwiseSqrt().cwiseInverse();
  const Eigen::SparseMatrix<double> scaled = scale.asDiagonal() * K * scale.asDiagonal();
  Eigen::SimplicialLLT<Eigen::SparseMatrix<double>> llt(scaled);
  if (llt.info() != Eigen::Success) return false;
  const Eigen::SparseMatrix<double> L = llt.matrixL();
  const Eigen::VectorXd pivots = L.diagonal().cwiseAbs2();
  return pivots.minCoeff() >= 1e-15 * pivots.maxCoeff();
}

using Sparse = Eigen::SparseMatrix<double>;

// Tridiagonal matrix of a fixed-fixed chain: element i couples masses i-1 and i (k[0] ties mass 0 to
// the left wall, k[n] mass n-1 to the right wall).
Sparse chainMatrix(const std::vector<double> &k) {
  const int n = int(k.size()) - 1;
  std::vector<Eigen::Triplet<double>> t;
  for (int i = 0; i < n; ++i) {
    t.emplace_back(i, i, k[size_t(i)] + k[size_t(i) + 1]);
    if (i + 1 < n) {
      t.emplace_back(i, i + 1, -k[size_t(i) + 1]);
      t.emplace_back(i + 1, i, -k[size_t(i) + 1]);
    }
  }
  Sparse A(n, n);
  A.setFromTriplets(t.begin(), t.end());
  return A;
}

Sparse diagonal(const std::vector<double> &d) {
  Sparse A(Eigen::Index(d.size()), Eigen::Index(d.size()));
  for (size_t i = 0; i < d.size(); ++i) A.insert(Eigen::Index(i), Eigen::Index(i)) = d[i];
  A.makeCompressed();
  return A;
}

DiscreteModel chainModel(const std::string &name, const std::vector<double> &m, const std::vector<double> &k,
                         const std::vector<double> &c, const std::vector<double> &f) {
  DiscreteModel model;
  model.name = name;
  model.M = diagonal(m);
  model.K = chainMatrix(k);
  model.C = chainMatrix(c);
  model.F = Eigen::Map<const Eigen::VectorXd>(f.data(), Eigen::Index(f.size()));
  model.q0 = model.v0 = Eigen::VectorXd::Zero(Eigen::Index(m.size()));
  return model;
}

Eigen::VectorXd readColumn(const std::string &path, Eigen::Index n, const std::string &what) {
  const MatrixMarketFile f = readMatrixMarket(path);
  requireSize(f, n, 1, what + " (one value per DOF of M)");
  return f.dense().col(0);
}

} // namespace

DiscreteModel builtinModel(const std::string &name) {
  if (name == "two_dof") // reference 002, eq. (19): m = 0.5 kg, k = 5 N/m, c = 2 kg/s
    return chainModel(name, {0.5, 0.5}, {5, 5, 5}, {2, 2, 2}, {0.5, 2.9});
  if (name == "fifteen_dof") // reference 002, eq. (20) and the values listed with it
    return chainModel(name, {2, 2.1, 1.8, 1.9, 2.5, 2.6, 2.8, 1.5, 2.7, 3, 3.1, 3.2, 3.4, 3.6, 4},
                      std::vector<double>(16, 7.0),
                      {3.5, 3.6, 2.8, 3.9, 4, 4.1, 4.2, 4.3, 3.3, 4.5, 4.8, 5, 5.3, 5.2, 3.5, 5.5},
                      {0.01, 0.05, 0.1, 0.15, 0.2, 0.025, 0.03, 0.035, 0.04, 0.045, 0.05, 0.055, 0.06, 0.065, 0.07});
  throw inputError("-system: unknown system '" + name + "'; accepted: two_dof, fifteen_dof");
}

std::shared_ptr<const LoadHistory> readLoadHistory(const std::string &path, double dt, Eigen::Index n) {
  if (!(dt > 0)) throw inputError("-load_dt: needed with -load_history; accepted: a real > 0 (the sample spacing)");
  const MatrixMarketFile f = readMatrixMarket(path);
  if (f.rows != n)
    throw inputError(f.at(f.size_line) + "the load history has " + std::to_string(f.rows) +
                     " rows; accepted: one row per DOF (" + std::to_string(n) + "), one column per sample");
  if (double(f.rows) * double(f.cols) > 1e8) // held densely: refuse before allocating gigabytes
    throw inputError(f.at(f.size_line) + "the load history has " + std::to_string(f.rows) + " x " +
                     std::to_string(f.cols) + " values; accepted: rows * samples <= 1e8");
  return std::make_shared<const LoadHistory>(f.dense(), dt);
}

DiscreteModel readModel(const DiscreteFiles &files) {
  if (files.M.empty() || files.K.empty()) throw inputError("-M and -K: both needed for a system from files (or give -system)");
  DiscreteModel model;
  model.name = files.M;
  const MatrixMarketFile M = readMatrixMarket(files.M);
  requirePositiveDefinite(M, "M");
  const Eigen::Index n = M.rows;
  const std::string same = "the size of M (" + files.M + ")";
  const MatrixMarketFile K = readMatrixMarket(files.K);
  requireSize(K, n, n, same);
  requirePositiveSemidefinite(K, "K");
  model.M = M.sparse();
  model.K = K.sparse();
  model.stiffness_invertible = invertibleToWorkingPrecision(model.K);
  model.C = Sparse(n, n);
  if (!files.C.empty()) {
    const MatrixMarketFile C = readMatrixMarket(files.C);
    requireSize(C, n, n, same);
    requirePositiveSemidefinite(C, "C");
    model.C = C.sparse();
  }
  model.F = files.F.empty() ? Eigen::VectorXd::Zero(n) : readColumn(files.F, n, same);
  model.q0 = files.q0.empty() ? Eigen::VectorXd::Zero(n) : readColumn(files.q0, n, same);
  model.v0 = files.v0.empty() ? Eigen::VectorXd::Zero(n) : readColumn(files.v0, n, same);
  if (!files.load_history.empty()) {
    if (!files.F.empty()) throw inputError("-F and -load_history both given; accepted: one of them");
    model.history = readLoadHistory(files.load_history, files.load_dt, n);
  }
  return model;
}

SecondOrderSystem toSecondOrderSystem(const DiscreteModel &model, MPI_Comm comm) {
  const PetscInt n = PetscInt(model.size());
  SecondOrderSystem system;
  BEAM_PETSC(VecCreateMPI(comm, PETSC_DECIDE, n, system.load.out()));
  PetscInt r0, r1;
  BEAM_PETSC(VecGetOwnershipRange(system.load, &r0, &r1));

  // The union pattern, diagonal included, row by row.
  using RowSparse = Eigen::SparseMatrix<double, Eigen::RowMajor>;
  const RowSparse Mr = model.M, Kr = model.K, Cr = model.C;
  std::vector<std::vector<PetscInt>> cols(size_t(r1 - r0));
  std::vector<PetscInt> d_nnz(size_t(r1 - r0)), o_nnz(size_t(r1 - r0));
  for (PetscInt i = r0; i < r1; ++i) {
    std::map<PetscInt, bool> row{{i, true}};
    for (const RowSparse *A : {&Mr, &Kr, &Cr})
      for (RowSparse::InnerIterator it(*A, i); it; ++it) row[PetscInt(it.col())] = true;
    auto &c = cols[size_t(i - r0)];
    for (const auto &kv : row) {
      c.push_back(kv.first);
      (kv.first >= r0 && kv.first < r1 ? d_nnz : o_nnz)[size_t(i - r0)]++;
    }
  }
  auto build = [&](const RowSparse &A, bool spd) {
    PMat P;
    BEAM_PETSC(MatCreateAIJ(comm, r1 - r0, r1 - r0, n, n, 0, d_nnz.data(), 0, o_nnz.data(), P.out()));
    for (PetscInt i = r0; i < r1; ++i) {
      std::map<PetscInt, double> values;
      for (RowSparse::InnerIterator it(A, i); it; ++it) values[PetscInt(it.col())] = it.value();
      const auto &c = cols[size_t(i - r0)];
      std::vector<PetscScalar> v(c.size());
      for (size_t k = 0; k < c.size(); ++k) {
        const auto f = values.find(c[k]);
        v[k] = f == values.end() ? 0.0 : f->second;
      }
      BEAM_PETSC(MatSetValues(P, 1, &i, PetscInt(c.size()), c.data(), v.data(), INSERT_VALUES));
    }
    BEAM_PETSC(MatAssemblyBegin(P, MAT_FINAL_ASSEMBLY));
    BEAM_PETSC(MatAssemblyEnd(P, MAT_FINAL_ASSEMBLY));
    BEAM_PETSC(MatSetOption(P, MAT_SYMMETRIC, PETSC_TRUE));
    if (spd) BEAM_PETSC(MatSetOption(P, MAT_SPD, PETSC_TRUE));
    return P;
  };
  system.mass = build(Mr, true);
  system.stiffness = build(Kr, false);
  if (model.damped()) system.damping = build(Cr, false);

  auto fill = [&](Vec v, const Eigen::VectorXd &values) {
    PetscScalar *a;
    BEAM_PETSC(VecGetArray(v, &a));
    for (PetscInt i = r0; i < r1; ++i) a[i - r0] = values(i);
    BEAM_PETSC(VecRestoreArray(v, &a));
  };
  if (model.history) {
    fill(system.load, model.history->largestSample());
    system.load_field = [history = model.history](double t, Vec f) {
      PetscInt b, e;
      BEAM_PETSC(VecGetOwnershipRange(f, &b, &e));
      PetscScalar *a;
      BEAM_PETSC(VecGetArray(f, &a));
      history->evaluate(t, b, e - b, a);
      BEAM_PETSC(VecRestoreArray(f, &a));
    };
  } else {
    fill(system.load, model.F);
    system.load_factor = model.load_factor;
    system.load_factor_bound = model.load_factor_bound;
  }
  return system;
}

PVec toPetscVector(const SecondOrderSystem &system, const Eigen::VectorXd &v) {
  PVec x = system.createVector();
  PetscInt r0, r1;
  BEAM_PETSC(VecGetOwnershipRange(x, &r0, &r1));
  PetscScalar *a;
  BEAM_PETSC(VecGetArray(x, &a));
  for (PetscInt i = r0; i < r1; ++i) a[i - r0] = v(i);
  BEAM_PETSC(VecRestoreArray(x, &a));
  return x;
}

double largestEigenvalue(const DiscreteModel &model) {
  const Eigen::MatrixXd K = Eigen::MatrixXd(model.K), M = Eigen::MatrixXd(model.M);
  Eigen::GeneralizedSelfAdjointEigenSolver<Eigen::MatrixXd> es(K, M, Eigen::EigenvaluesOnly);
  if (es.info() != Eigen::Success) throw runError("eigenvalues of (K, M) did not converge");
  return es.eigenvalues().maxCoeff();
}

namespace {
// FNV-1a over the values of a dense or sparse Eigen object (bit patterns, so any change shows).
template <class Values>
std::uint64_t hashValues(const Values &values, Eigen::Index n, std::uint64_t h) {
  for (Eigen::Index i = 0; i < n; ++i) h = fnv1a(double(values[i]), h);
  return h;
}
std::uint64_t hashSparse(const Eigen::SparseMatrix<double> &A, std::uint64_t h) {
  for (int k = 0; k < A.outerSize(); ++k)
    for (Eigen::SparseMatrix<double>::InnerIterator it(A, k); it; ++it) {
      const double entry[3] = {double(it.row()), double(it.col()), it.value()};
      h = hashValues(entry, 3, h);
    }
  return h;
}
} // namespace

std::uint64_t agreeOnDiscreteData(MPI_Comm comm, const DiscreteModel &model) {
  const std::uint64_t basis = 0xcbf29ce484222325ULL;
  std::uint64_t h = basis;
  // Part by part, so the refusal names the part that differs (it named the system by its M file
  // whichever differed); the whole system's hash continues over the parts as before.
  auto part = [&](const char *what, std::uint64_t part_hash, std::uint64_t whole) {
    agreeOnData(comm, part_hash, "the discrete system '" + model.name + "', its " + what);
    h = whole;
  };
  for (const auto &[what, A] : {std::pair{"M", &model.M}, std::pair{"C", &model.C}, std::pair{"K", &model.K}})
    part(what, hashSparse(*A, basis), hashSparse(*A, h));
  for (const auto &[what, v] : {std::pair{"F", &model.F}, std::pair{"q0", &model.q0}, std::pair{"v0", &model.v0}})
    part(what, hashValues(v->data(), v->size(), basis), hashValues(v->data(), v->size(), h));
  if (model.history) part("load history", model.history->hash(), fnv1a(model.history->hash(), h)); // the sampled load is data too
  return h;
}

DiscreteSystemModel::DiscreteSystemModel(const DiscreteModel &model, MPI_Comm comm, LinearSolverKind solver)
    : LinearModel(toSecondOrderSystem(model, comm), solver) {
  const std::uint64_t h = agreeOnDiscreteData(comm, model);
  // Which load in time (until 2026-11-27 only whether there was one: a restart with another curve,
  // -load_harmonic or history went on with it, exit 0).
  const std::string load = model.history ? "history, hash " + std::to_string(model.history->hash())
                           : model.load_factor ? model.load_identity
                                               : "constant";
  invertible_ = model.stiffness_invertible;
  // The system by its data, not by its file's path (the same file by another path, or from another
  // working directory, was refused on restart: "system was M1.mtx, now ./M1.mtx"; a path with a newline
  // made the checkpoint unreadable).
  const bool builtin = model.name == "two_dof" || model.name == "fifteen_dof";
  identity_ = {{"model", name()}, {"system", builtin ? model.name : "Matrix Market files"}, {"size", std::to_string(model.size())},
               {"data_hash", std::to_string(h)}, {"load", load}};
}

} // namespace beam
