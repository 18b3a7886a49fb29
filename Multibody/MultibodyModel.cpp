#include "Multibody/MultibodyModel.hpp"
#include "common/Warnings.hpp"

#include <Eigen/LU>
#include <Eigen/QR>
#include <Eigen/SparseQR>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iomanip>
#include <numeric>
#include <set>
#include <sstream>

#include "Multibody/Extent.hpp"
#include "common/Exact.hpp"
#include "common/Hash.hpp"
#include "common/Agree.hpp"
#include "common/Error.hpp"
#include "common/Options.hpp"
#include "common/OutputFile.hpp"

namespace beam::multibody {
namespace {

// Once per model file and process: constraint_drift builds one model per variant from the same file, and
// the same warning five times said nothing more.
bool firstRedundancyWarning(const std::string &source) {
  static std::set<std::string> warned;
  return warned.insert(source).second;
}

// The whole state is on rank 0: a copy of the array there, an empty vector elsewhere.
Eigen::VectorXd toEigen(Vec x) {
  PetscInt n = 0;
  BEAM_PETSC(VecGetLocalSize(x, &n));
  const PetscScalar *a = nullptr;
  BEAM_PETSC(VecGetArrayRead(x, &a));
  Eigen::VectorXd out = n > 0 ? Eigen::VectorXd(Eigen::Map<const Eigen::VectorXd>(a, n)) : Eigen::VectorXd();
  BEAM_PETSC(VecRestoreArrayRead(x, &a));
  return out;
}

void fromEigen(const Eigen::VectorXd &values, Vec x) {
  PetscInt n = 0;
  BEAM_PETSC(VecGetLocalSize(x, &n));
  PetscScalar *a = nullptr;
  BEAM_PETSC(VecGetArray(x, &a));
  for (PetscInt i = 0; i < n; ++i) a[i] = values(i);
  BEAM_PETSC(VecRestoreArray(x, &a));
}

double broadcast(double value, MPI_Comm comm) {
  MPI_Bcast(&value, 1, MPI_DOUBLE, 0, comm);
  return value;
}

StateView view(const Eigen::VectorXd &q, const Eigen::VectorXd &qd) { return StateView{q.data(), qd.data()}; }

// FNV-1a over everything of a description that the run's output depends on, the bodies' names (in
// -save_final's rows) and shapes (drawn) with the motion's data: a restart refuses an edited model file,
// and the ranks check that they read the same one (a renamed body, a 5 m box for a sphere, went on into
// the same series until 2026-11-27).
std::uint64_t hashDescription(const Description &d) {
  std::uint64_t h = 1469598103934665603ULL;
  auto add = [&h](double value) { h = fnv1a(value + 0.0, h); }; // -0 is 0, as in the options
  auto addAll = [&add](const auto &m) {
    for (Eigen::Index i = 0; i < m.size(); ++i) add(m.data()[i]);
  };
  // The lists' lengths first: without them 4 springs and a torque hashed as 12 torques (48 values), and
  // a restart continued a run after its model file had been edited so.
  for (std::size_t n : {d.bodies.size(), d.joints.size(), d.springs.size(), d.torques.size()}) add(double(n));
  addAll(d.gravity);
  for (const Body &b : d.bodies) {
    add(double(b.name.size()));
    h = fnv1a(b.name.data(), b.name.size(), h);
    add(double(b.shape.kind));
    addAll(b.shape.size);
    add(b.mass);
    addAll(b.inertia);
    addAll(b.position);
    addAll(b.orientation);
    addAll(b.velocity);
    addAll(b.angular_velocity);
  }
  for (const Joint &j : d.joints) {
    for (double v : {double(j.type), double(j.body1), double(j.body2)}) add(v);
    for (const Vec3 *v : {&j.point, &j.axis, &j.point1, &j.point2}) addAll(*v);
  }
  for (const Spring &sp : d.springs) {
    for (double v : {double(sp.body1), double(sp.body2), sp.stiffness, sp.damping, sp.rest_length}) add(v);
    addAll(sp.point1);
    addAll(sp.point2);
  }
  for (const Torque &t : d.torques) {
    add(double(t.body));
    addAll(t.torque);
  }
  return h;
}

} // namespace

// The sparse path's LUs: of the whole augmented system (pattern analysed once) and of the system
// without G's dependent rows (solveAugmented; its pattern analysed again when other rows are dropped).
struct MultibodyModel::SparseSolver {
  using LU = Eigen::SparseLU<Eigen::SparseMatrix<double>, Eigen::COLAMDOrdering<int>>;
  LU lu;
  bool analysed = false;
  LU reduced_lu;
  bool reduced_analysed = false;
  std::vector<int> keep;            // the unknowns kept by the last rank decision (empty: all)
  Eigen::SparseMatrix<double> pick; // N x keep.size(): the kept unknowns as columns of the identity
};

MultibodyModel::MultibodyModel(Description description, MPI_Comm comm, Baumgarte baumgarte, bool projection)
    : d_(std::move(description)), comm_(comm), baumgarte_(baumgarte), projection_(projection),
      sparse_(std::make_shared<SparseSolver>()) {
  MPI_Comm_rank(comm_, &rank_);
  data_hash_ = hashDescription(d_);
  agreeOnData(comm_, data_hash_, "the mechanism (" + d_.source + ")");
  if (!(baumgarte_.xi >= 0) || !(baumgarte_.omega >= 0) || !std::isfinite(baumgarte_.xi) || !std::isfinite(baumgarte_.omega))
    throw inputError("-baumgarte_xi and -baumgarte_omega must be finite and >= 0 (0 turns the stabilization off)");
  for (std::size_t j = 0; j < d_.joints.size(); ++j)
    for (const ConstraintRow &r : jointRows(d_.joints[j], d_.bodies)) {
      rows_.push_back(r);
      row_joint_.push_back(static_cast<int>(j));
    }
  for (const Spring &s : d_.springs)
    spring_ends_.push_back({attachPoint(s.body1, s.point1, d_.bodies), attachPoint(s.body2, s.point2, d_.bodies)});
}

PVec MultibodyModel::createVector() const {
  PVec v;
  const PetscInt n = 7 * bodyCount();
  BEAM_PETSC(VecCreateMPI(comm_, rank_ == 0 ? n : 0, n, v.out()));
  return v;
}

// --- plain-array physics ------------------------------------------------------------------------

Eigen::VectorXd MultibodyModel::initialCoordinates() const {
  Vector q(7 * bodyCount());
  for (int b = 0; b < bodyCount(); ++b) q.segment<7>(7 * b) << d_.bodies[b].position, d_.bodies[b].orientation;
  return q;
}

Eigen::VectorXd MultibodyModel::initialRates() const {
  Vector qd(7 * bodyCount());
  for (int b = 0; b < bodyCount(); ++b) {
    const Body &body = d_.bodies[b];
    qd.segment<7>(7 * b) << body.velocity, 0.5 * worldPhi(body.orientation).transpose() * body.angular_velocity;
  }
  return qd;
}

Eigen::MatrixXd MultibodyModel::massMatrix(const Vector &q) const {
  const int n = bodyCount();
  Eigen::MatrixXd M = Eigen::MatrixXd::Zero(7 * n, 7 * n);
  for (int b = 0; b < n; ++b) {
    M.block<3, 3>(7 * b, 7 * b) = d_.bodies[b].mass * Mat3::Identity();
    M.block<4, 4>(7 * b + 3, 7 * b + 3) = rotationalMass(q.segment<4>(7 * b + 3), d_.bodies[b].inertia);
  }
  return M;
}

void MultibodyModel::springForces(const StateView &s, double *F) const {
  for (std::size_t i = 0; i < d_.springs.size(); ++i) {
    const Spring &sp = d_.springs[i];
    Expr e;
    e.terms = {spring_ends_[i].b, spring_ends_[i].a};
    e.coef = {1, -1};
    const ExprValue d = evaluate(e, s); // from end 1 to end 2
    const double l = d.value.norm();
    if (!(l > 0)) continue; // coincident ends: no direction, no force
    const Vec3 n = d.value / l;
    const double tension = sp.stiffness * (l - sp.rest_length) + sp.damping * n.dot(d.rate);
    // Generalized force of the tension: -tension * dl/dq, dl/dq = n^T (J2 - J1).
    for (int slot = 0; slot < 2; ++slot)
      if (d.body[slot] != kGround) {
        Eigen::Map<Eigen::Matrix<double, 7, 1>> f(F + 7 * d.body[slot]);
        f -= tension * d.jacobian[slot].transpose() * n;
      }
  }
}

Eigen::VectorXd MultibodyModel::forces(const Vector &q, const Vector &qd) const {
  Vector F = Vector::Zero(q.size());
  for (int b = 0; b < bodyCount(); ++b) {
    const Body &body = d_.bodies[b];
    F.segment<3>(7 * b) = body.mass * d_.gravity;
    F.segment<4>(7 * b + 3) = -rotationalVelocityTerm(q.segment<4>(7 * b + 3), qd.segment<4>(7 * b + 3), body.inertia);
  }
  springForces(view(q, qd), F.data());
  return F + torqueForces(q);
}

Eigen::VectorXd MultibodyModel::torqueForces(const Vector &q) const {
  // Virtual power tau . omega = tau . 2 Gw(p) pdot.
  Vector F = Vector::Zero(q.size());
  for (const Torque &t : d_.torques)
    F.segment<4>(7 * t.body + 3) += 2 * worldPhi(q.segment<4>(7 * t.body + 3)).transpose() * t.torque;
  return F;
}

MultibodyModel::ConstraintValues MultibodyModel::constraints(const Vector &q, const Vector &qd) const {
  const int n = bodyCount(), m = jointRowCount();
  ConstraintValues c;
  c.g.resize(m + n);
  c.gdot.resize(m + n);
  c.rhs.resize(m + n);
  c.gradient.reserve(14 * m + 4 * n);
  const StateView s = view(q, qd);
  for (int i = 0; i < m; ++i) {
    const RowValue r = evaluate(rows_[i], s);
    c.g(i) = r.g;
    c.gdot(i) = r.gdot;
    c.rhs(i) = r.rhs;
    for (int k = 0; k < 4; ++k)
      if (r.body[k] != kGround)
        for (int j = 0; j < 7; ++j) c.gradient.emplace_back(i, 7 * r.body[k] + j, r.gradient[k](j));
  }
  // Quaternion norms (eqs. 9-10): g = p.p - 1, G = 2 p^T, L = -2 pdot.pdot.
  for (int b = 0; b < n; ++b) {
    const Quat p = s.p(b), pd = s.pd(b);
    c.g(m + b) = p.squaredNorm() - 1;
    c.gdot(m + b) = 2 * p.dot(pd);
    c.rhs(m + b) = -2 * pd.squaredNorm();
    for (int j = 0; j < 4; ++j) c.gradient.emplace_back(m + b, 7 * b + 3 + j, 2 * p(j));
  }
  return c;
}

// The coordinates' part of the solves' scaling: each body's coordinates by 1/sqrt of its mass block's
// largest diagonal entry, so that M's blocks are of order 1 in any units.
Eigen::VectorXd MultibodyModel::coordinateScaling(const Vector &mass_diagonal) const {
  Vector D(mass_diagonal.size());
  auto inverseRoot = [](double v) { return v > 0 ? 1 / std::sqrt(v) : 1.0; };
  for (int b = 0; b < bodyCount(); ++b) {
    D.segment<3>(7 * b).setConstant(inverseRoot(d_.bodies[b].mass));
    D.segment<4>(7 * b + 3).setConstant(inverseRoot(mass_diagonal.segment<4>(7 * b + 3).maxCoeff()));
  }
  return D;
}

// The augmented system's unknowns that stay once G's dependent rows go: every coordinate and the first
// `rank` rows of G in `order` (a rank-revealing QR's column order of G^T). Warns once per model.
std::vector<int> MultibodyModel::independentRows(int nq, int nc, int rank, const Eigen::VectorXi &order) const {
  if (rank < nc && rank_ == 0 && firstRedundancyWarning(d_.source))
    warningLine("warning: " + d_.source + ": redundant constraints (" + std::to_string(rank) + " of " + std::to_string(nc) +
                " constraint rows independent): the dependent rows dropped, accelerations unaffected");
  std::vector<int> keep(nq + rank);
  std::iota(keep.begin(), keep.begin() + nq, 0);
  for (int k = 0; k < rank; ++k) keep[nq + k] = nq + order(k);
  return keep;
}

namespace {
// Each row's largest |entry|: the rank tests scale every constraint row to a largest entry of 1.
Eigen::VectorXd rowMaxima(const Eigen::SparseMatrix<double> &A) {
  Eigen::VectorXd m = Eigen::VectorXd::Zero(A.rows());
  for (int k = 0; k < A.outerSize(); ++k)
    for (Eigen::SparseMatrix<double>::InnerIterator e(A, k); e; ++e) m(e.row()) = std::max(m(e.row()), std::abs(e.value()));
  return m;
}
} // namespace

// G S: the constraint gradient (K's bottom-left block) as the rank tests see it, each body's position
// columns and quaternion columns scaled to a largest |entry| of 1. Redundancy is kinematic: G's rows
// carry lengths in the quaternion columns (a joint's arm) and none in the position columns, so the
// scaling takes the units out, and no mass enters. Until 2026-11-30 the coordinates were scaled by their
// mass blocks (as the dense solve scales them): a body whose inertia is 1e-20 of m r^2 (a point mass at
// the end of a pendulum) got quaternion columns 1e11 times its position columns, its pivot's radial row
// then differed from its quaternion's norm row by 1e-11, below the cut: the row was dropped and the ball
// fell free with its quaternion stretched, exit 0 (a helper's audit).
Eigen::SparseMatrix<double> MultibodyModel::scaledGradient(const Eigen::SparseMatrix<double> &K, int nq, int nc) const {
  const Eigen::SparseMatrix<double> G = K.bottomLeftCorner(nc, nq);
  const Vector column_max = rowMaxima(G.transpose());
  Vector S(nq);
  for (int b = 0; b < bodyCount(); ++b)
    for (const auto &[first, count] : {std::pair{0, 3}, std::pair{3, 4}}) {
      const double largest = column_max.segment(7 * b + first, count).maxCoeff();
      S.segment(7 * b + first, count).setConstant(largest > 0 ? 1 / largest : 1.0);
    }
  return G * S.asDiagonal();
}

// The rank tests' matrix: (G S)^T with each of its columns (G's rows) scaled to a largest |entry| of 1.
Eigen::SparseMatrix<double> MultibodyModel::rankTestMatrix(const Eigen::SparseMatrix<double> &K, int nq, int nc) const {
  const Eigen::SparseMatrix<double> GS = scaledGradient(K, nq, nc);
  const Vector scale = rowMaxima(GS).unaryExpr([](double m) { return m > 0 ? 1 / m : 1.0; });
  Eigen::SparseMatrix<double> Gt = (scale.asDiagonal() * GS).transpose(); // nq x nc
  Gt.makeCompressed();
  return Gt;
}

// Above the dense size: G's rank decided by a sparse QR of G^T (scaled as the dense path's rank test
// scales it, rankTestMatrix; columns of G^T under 1e-10 of the largest column norm are dependent). A zero pivot alone does not tell: planar loops lying
// in a coordinate plane gave exact zero pivots, the same loops tilted gave round-off pivots and a
// "solution" that diverged in the first step. Until 2026-11-28 the sparse path had no rank decision
// (three A02 four-bars side by side, 225 unknowns, could not run).
void MultibodyModel::chooseSparseRows(const Eigen::SparseMatrix<double> &K, int nq, int nc) const {
  const int N = nq + nc;
  const Eigen::SparseMatrix<double> Gt = rankTestMatrix(K, nq, nc);
  double largest = 0;
  for (int r = 0; r < nc; ++r) largest = std::max(largest, Gt.col(r).norm());
  Eigen::SparseQR<Eigen::SparseMatrix<double>, Eigen::COLAMDOrdering<int>> qr;
  qr.setPivotThreshold(kRankThreshold * largest);
  qr.compute(Gt);
  const int rank = qr.info() == Eigen::Success ? static_cast<int>(qr.rank()) : nc;
  keepRows(N, rank < nc ? independentRows(nq, nc, rank, qr.colsPermutation().indices()) : std::vector<int>{});
}

// The unknowns the sparse path's reduced solves keep (empty: all, no reduced solve).
void MultibodyModel::keepRows(int N, std::vector<int> keep) const {
  if (keep == sparse_->keep) return;
  std::vector<Eigen::Triplet<double>> ones;
  for (int k = 0; k < static_cast<int>(keep.size()); ++k) ones.emplace_back(keep[k], k, 1.0);
  sparse_->pick.resize(N, static_cast<Eigen::Index>(keep.size()));
  sparse_->pick.setFromTriplets(ones.begin(), ones.end());
  sparse_->keep = std::move(keep);
  sparse_->reduced_analysed = false;
}

// The augmented solve on all unknowns, or (reduced) on those kept by the last rank decision; false at a
// zero pivot.
bool MultibodyModel::sparseSolve(const Eigen::SparseMatrix<double> &K, const Vector &rhs, Vector &solution, bool reduced) const {
  SparseSolver::LU &lu = reduced ? sparse_->reduced_lu : sparse_->lu;
  bool &analysed = reduced ? sparse_->reduced_analysed : sparse_->analysed;
  Eigen::SparseMatrix<double> A;
  if (reduced) {
    A = sparse_->pick.transpose() * K * sparse_->pick;
    A.makeCompressed();
  }
  const Eigen::SparseMatrix<double> &matrix = reduced ? A : K;
  if (!analysed) {
    lu.analyzePattern(matrix);
    analysed = true;
  }
  lu.factorize(matrix);
  if (lu.info() != Eigen::Success) return false;
  solution = reduced ? Vector(sparse_->pick * Vector(lu.solve(Vector(sparse_->pick.transpose() * rhs)))) : Vector(lu.solve(rhs));
  return true;
}

// Whether the rows dropped by the last rank decision are still implied by the kept ones at this state
// (the reduced LU just factored): G_d^T w, a combination of the dropped rows (each scaled as the QR
// scales it, weights 1 to 2), solved against the reduced system [M G_k^T; G_k 0] [z; mu] = [G_d^T w; 0],
// leaves z = 0 exactly when it lies in the span of the kept rows (z is its part outside, in M^-1's
// metric). Measured in the scaled coordinates against the combination's own size and compared with the
// QR's threshold. Only G is tested, not the right-hand side: dropped rows are dropped, here as after
// a QR (their equations hold only on the constraints, off them by the Baumgarte terms).
bool MultibodyModel::droppedRowsImplied(const Eigen::SparseMatrix<double> &K, int nq, int nc) const {
  const Vector Dc = coordinateScaling(Vector(K.diagonal()).head(nq));
  const Vector row_max = rowMaxima(scaledGradient(K, nq, nc));
  Vector w = Vector::Zero(nc);
  for (int r = 0; r < nc; ++r)
    if (row_max(r) > 0) w(r) = (1 + std::fmod(0.6180339887498949 * (r + 1), 1.0)) / row_max(r);
  for (std::size_t k = nq; k < sparse_->keep.size(); ++k) w(sparse_->keep[k] - nq) = 0; // the kept rows
  Vector v = Vector::Zero(nq + nc);
  v.head(nq) = Eigen::SparseMatrix<double>(K.bottomLeftCorner(nc, nq)).transpose() * w; // G_d^T w
  const double size = v.head(nq).cwiseProduct(Dc).norm();
  if (!(size > 0)) return true; // the dropped rows are zero here
  const Vector z = (sparse_->pick * Vector(sparse_->reduced_lu.solve(Vector(sparse_->pick.transpose() * v)))).head(nq);
  return z.cwiseQuotient(Dc).norm() <= kRankThreshold * size;
}

// Solves [M G^T; G 0] [z; mu] = [top; bottom] and returns z.
Eigen::VectorXd MultibodyModel::solveAugmented(const Vector &q, const ConstraintValues &c, const Vector &bottom_and_top) const {
  const int nq = 7 * bodyCount(), nc = static_cast<int>(c.g.size()), N = nq + nc;
  const Vector &rhs = bottom_and_top;
  std::vector<Eigen::Triplet<double>> t;
  t.reserve(25 * bodyCount() + 2 * c.gradient.size());
  for (int b = 0; b < bodyCount(); ++b) {
    for (int i = 0; i < 3; ++i) t.emplace_back(7 * b + i, 7 * b + i, d_.bodies[b].mass);
    const Eigen::Matrix4d Mr = rotationalMass(q.segment<4>(7 * b + 3), d_.bodies[b].inertia);
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 4; ++j) t.emplace_back(7 * b + 3 + i, 7 * b + 3 + j, Mr(i, j));
  }
  for (const auto &e : c.gradient) {
    t.emplace_back(nq + e.row(), e.col(), e.value());
    t.emplace_back(e.col(), nq + e.row(), e.value());
  }
  Eigen::SparseMatrix<double> K(N, N);
  K.setFromTriplets(t.begin(), t.end());
  Vector solution;
  const auto nonFinite = [&] { return runError("model " + d_.source + ": the augmented solve gave non-finite accelerations"); };
  // A matrix or right-hand side that overflowed (a state run away) has no rank to speak of: refused
  // before any warning about redundant joints. (A right-hand side holding inf after a failed sparse LU
  // skipped the rank decision and left the solution empty: a segmentation fault, found by a helper's
  // audit on 2026-11-28; test Multibody.RedundantLoopsAboveTheDenseSize.)
  if (!std::all_of(K.valuePtr(), K.valuePtr() + K.nonZeros(), [](double a) { return std::isfinite(a); }) || !rhs.allFinite())
    throw nonFinite();
  if (solvesDense(N)) {
    // Redundant joints (planar loops built from 3D revolute joints) make G's rows dependent; the
    // accelerations are still unique, only the multipliers are not. The rank is decided on G alone
    // (pivoted QR of its transpose, scaled by rankTestMatrix as the sparse path's), the dependent rows
    // are dropped, and the remaining system, nonsingular since M is positive definite on G's null space,
    // is solved by LU with no rank cut. A cut on the whole
    // matrix, as until 2026-11-28 (a complete orthogonal decomposition), also cut M's small eigenvalues: a
    // needle-like body (principal moments 1 : 1e-11) was reported as redundant constraints and its spin
    // about its own axis got a least-squares acceleration (test Invariants.NeedleTopIsNoRedundantConstraint).
    // Everything runs on D K D, D diagonal, and x = D y solves K x = rhs from (D K D) y = D rhs.
    // The blocks of K carry different units (kg, kg m^2 for the quaternions, lengths in G), and the rank
    // cut is relative: in millimetres the double pendulum's quaternion-norm rows fell below it (rank 22
    // < 26 reported, the norms drifted to |p|^2 - 1 = 0.99, exit 0). D first scales each body's
    // coordinates by its mass block (1/sqrt of its largest diagonal entry, so M's blocks become of order
    // 1) and then each constraint row of G D to a largest entry of 1; Ruiz's symmetric equilibration
    // (every row's largest entry towards 1) follows. Ruiz alone is not enough: where G's entries dwarf
    // the inertias (a heavy top in km and tonnes, 1e-11 t km^2 beside 1e-4 km) it scales M's rows by G's
    // size and the cut fell on a real row (the top's quaternion ended 0.85 off, exit 0). Test
    // Invariants.MotionDoesNotDependOnTheUnits.
    Eigen::MatrixXd A(K);
    Vector D(N);
    D.head(nq) = coordinateScaling(A.topLeftCorner(nq, nq).diagonal());
    for (int r = nq; r < N; ++r) {
      const double row_max = A.row(r).head(nq).cwiseProduct(D.head(nq).transpose()).cwiseAbs().maxCoeff();
      D(r) = row_max > 0 ? 1 / row_max : 1.0;
    }
    A = D.asDiagonal() * A * D.asDiagonal();
    for (int sweep = 0; sweep < kEquilibrationSweeps; ++sweep) {
      const Vector row_max = A.cwiseAbs().rowwise().maxCoeff();
      const Vector s = row_max.unaryExpr([](double r) { return r > 0 ? 1 / std::sqrt(r) : 1.0; });
      A = s.asDiagonal() * A * s.asDiagonal();
      D = D.cwiseProduct(s);
    }
    Eigen::ColPivHouseholderQR<Eigen::MatrixXd> rows{Eigen::MatrixXd(rankTestMatrix(K, nq, nc))};
    rows.setThreshold(kRankThreshold);
    const std::vector<int> kept = independentRows(nq, nc, static_cast<int>(rows.rank()), rows.colsPermutation().indices());
    const Eigen::VectorXi keep = Eigen::Map<const Eigen::VectorXi>(kept.data(), static_cast<Eigen::Index>(kept.size()));
    const Vector y = Eigen::PartialPivLU<Eigen::MatrixXd>(A(keep, keep)).solve(Vector(D(keep).cwiseProduct(rhs(keep))));
    solution = Vector::Zero(N);
    solution(keep) = D(keep).cwiseProduct(y);
  } else {
    K.makeCompressed();
    // Rows dropped at an earlier state are tried first (planar loops' rows stay dependent as they move:
    // a QR at every solve made three four-bars 2.2 to 2.8 times slower). The reduced solution is taken if
    // the kept rows are still independent (the reduced LU factors with a trusted residual) and still
    // imply the dropped ones (droppedRowsImplied): the same solution as a new decision choosing these
    // rows. Otherwise (a dropped row become independent, the kept ones singular) the decision is taken
    // again below.
    if (!sparse_->keep.empty() && sparseSolve(K, rhs, solution, true) &&
        Vector(sparse_->pick.transpose() * (K * solution - rhs)).lpNorm<Eigen::Infinity>() <= kResidualTrust * rhs.lpNorm<Eigen::Infinity>() &&
        droppedRowsImplied(K, nq, nc))
      return solution.head(nq);
    const bool factored = sparseSolve(K, rhs, solution, false);
    // Dependent rows give the LU a zero pivot, or (off the constraints, at RK4's stages) a round-off one
    // and a residual 1e16 times the right-hand side (tilted four-bars; 1e-15 to 1e-14 on chains): G's
    // rank is then decided at this state (a sparse QR: 0.15 s for a 300-link chain's G, 160 s for 3000
    // links, so never on a solve that passes), as the dense path decides it at every solve. A choice
    // kept for the rest of the run, as on 2026-11-28 for a few hours, outlived the singular
    // configuration it was made at (a chain stretched taut between two fixed points: a quaternion's norm
    // drifted to 1.25, exit 0).
    const double residual = factored ? (K * solution - rhs).lpNorm<Eigen::Infinity>() : HUGE_VAL;
    if (!factored || !(residual <= kResidualTrust * rhs.lpNorm<Eigen::Infinity>())) {
      chooseSparseRows(K, nq, nc);
      // Independent rows: a zero pivot is a singular configuration; a factorization with a large
      // residual, an ill-conditioned system whose solution stands.
      if (sparse_->keep.empty() ? !factored : !sparseSolve(K, rhs, solution, true))
        throw runError("model " + d_.source + ": singular augmented matrix (a singular configuration, or a body "
                       "whose mass matrix is singular along its constraints)");
    } else {
      keepRows(N, {}); // the whole system solves here: no rows to try first at the next solve
    }
  }
  if (solution.size() != N || !solution.allFinite()) throw nonFinite();
  return solution.head(nq);
}

Eigen::VectorXd MultibodyModel::accelerations(double /*t*/, const Vector &q, const Vector &qd) const {
  const ConstraintValues c = constraints(q, qd);
  const double xi = baumgarte_.xi, w = baumgarte_.omega;
  Vector rhs(q.size() + c.g.size());
  rhs << forces(q, qd), c.rhs - 2 * xi * w * c.gdot - w * w * c.g; // L + W (eq. 12)
  return solveAugmented(q, c, rhs);
}

double MultibodyModel::kinetic(const Vector &q, const Vector &qd) const {
  double T = 0;
  for (int b = 0; b < bodyCount(); ++b) {
    const Quat pd = qd.segment<4>(7 * b + 3);
    T += 0.5 * d_.bodies[b].mass * qd.segment<3>(7 * b).squaredNorm() +
         0.5 * pd.dot(rotationalMass(q.segment<4>(7 * b + 3), d_.bodies[b].inertia) * pd);
  }
  return T;
}

double MultibodyModel::gravityPotential(const Vector &q) const {
  double V = 0;
  for (int b = 0; b < bodyCount(); ++b) V -= d_.bodies[b].mass * d_.gravity.dot(q.segment<3>(7 * b));
  return V;
}

double MultibodyModel::potential(const Vector &q) const {
  double V = gravityPotential(q);
  const Vector zero = Vector::Zero(q.size());
  const StateView s = view(q, zero);
  for (std::size_t i = 0; i < d_.springs.size(); ++i) {
    const double l = (evaluate(Expr{{spring_ends_[i].b, spring_ends_[i].a}, {1, -1}}, s).value).norm();
    V += 0.5 * d_.springs[i].stiffness * std::pow(l - d_.springs[i].rest_length, 2);
  }
  return V;
}

void MultibodyModel::project(Vector &q, Vector &qd) const {
  const Vector zero = Vector::Zero(q.size());
  for (int iter = 0; iter < 8; ++iter) {
    const ConstraintValues c = constraints(q, zero);
    if (c.g.lpNorm<Eigen::Infinity>() < 1e-14) break;
    Vector rhs(q.size() + c.g.size());
    rhs << zero, -c.g;
    q += solveAugmented(q, c, rhs);
  }
  const ConstraintValues c = constraints(q, qd);
  Vector rhs(q.size() + c.g.size());
  rhs << zero, -c.gdot;
  qd += solveAugmented(q, c, rhs);
}

Vec3 MultibodyModel::angularVelocity(const Vector &q, const Vector &qd, int b) const {
  return 2 * worldPhi(q.segment<4>(7 * b + 3)) * qd.segment<4>(7 * b + 3);
}

Vec3 MultibodyModel::angularMomentum(const Vector &q, const Vector &qd) const {
  Vec3 L = Vec3::Zero();
  for (int b = 0; b < bodyCount(); ++b) {
    const Quat p = q.segment<4>(7 * b + 3);
    const Vec3 Omega = 2 * Phi(p) * qd.segment<4>(7 * b + 3); // body axes
    L += d_.bodies[b].mass * Vec3(q.segment<3>(7 * b)).cross(Vec3(qd.segment<3>(7 * b))) +
         rotation(p) * d_.bodies[b].inertia * Omega;
  }
  return L;
}

// --- the Model interface ------------------------------------------------------------------------

void MultibodyModel::force(double /*t*/, Vec x, Vec v, Vec F) const {
  if (rank_ == 0) fromEigen(forces(toEigen(x), toEigen(v)), F);
}

// The calls that solve the augmented system, which can fail (a singular or non-finite one): on rank 0
// only, so agreed on, or the other ranks went on into the next step's collectives while rank 0 reported
// the divergence (2 ranks hung, where 1 rank exited 3).
void MultibodyModel::acceleration(double t, Vec x, Vec v, Vec a) const {
  agreeOn(comm_, [&] {
    if (rank_ == 0) fromEigen(accelerations(t, toEigen(x), toEigen(v)), a);
  });
}

void MultibodyModel::externalForce(double /*t*/, Vec x, Vec f) const {
  if (rank_ == 0) fromEigen(torqueForces(toEigen(x)), f);
}

void MultibodyModel::massMult(Vec x, Vec v, Vec Mv) const {
  if (rank_ != 0) return;
  const Vector q = toEigen(x), w = toEigen(v);
  Vector out(q.size());
  for (int b = 0; b < bodyCount(); ++b) {
    out.segment<3>(7 * b) = d_.bodies[b].mass * w.segment<3>(7 * b);
    out.segment<4>(7 * b + 3) = rotationalMass(q.segment<4>(7 * b + 3), d_.bodies[b].inertia) * w.segment<4>(7 * b + 3);
  }
  fromEigen(out, Mv);
}

void MultibodyModel::storedEnergy(double /*t*/, Vec x, Vec v, std::vector<double> &parts) const {
  double T = 0, V = 0;
  if (rank_ == 0) {
    const Vector q = toEigen(x), qd = toEigen(v);
    T = kinetic(q, qd);
    V = potential(q);
  }
  parts = {broadcast(T, comm_), broadcast(V, comm_)};
}

double MultibodyModel::offsetEnergy(double /*t*/, Vec x, Vec /*v*/) const {
  double V = 0;
  if (rank_ == 0) V = gravityPotential(toEigen(x));
  return broadcast(V, comm_);
}

double MultibodyModel::dissipationRate(double /*t*/, Vec x, Vec v) const {
  double P = 0;
  if (rank_ == 0 && !d_.springs.empty()) {
    const Vector q = toEigen(x), qd = toEigen(v);
    for (std::size_t i = 0; i < d_.springs.size(); ++i) {
      const ExprValue d = evaluate(Expr{{spring_ends_[i].b, spring_ends_[i].a}, {1, -1}}, view(q, qd));
      const double l = d.value.norm();
      if (l > 0) P += d_.springs[i].damping * std::pow(d.value.dot(d.rate) / l, 2);
    }
  }
  return broadcast(P, comm_);
}

void MultibodyModel::diagnostics(double /*t*/, Vec x, Vec v, std::vector<double> &values) const {
  double pos = 0, vel = 0, quat = 0;
  if (rank_ == 0) {
    const ConstraintValues c = constraints(toEigen(x), toEigen(v));
    const int m = jointRowCount();
    if (m > 0) pos = c.g.head(m).lpNorm<Eigen::Infinity>();
    vel = c.gdot.lpNorm<Eigen::Infinity>();
    quat = c.g.tail(bodyCount()).lpNorm<Eigen::Infinity>();
  }
  values = {broadcast(pos, comm_), broadcast(vel, comm_), broadcast(quat, comm_)};
}

std::vector<std::pair<std::string, std::string>> MultibodyModel::identity() const {
  // The mechanism by its data (a model file by another path is the same run); numbers as exactDecimal
  // (-0 is 0).
  return {{"model", name()},
          {"bodies", std::to_string(bodyCount())},
          {"constraint_rows", std::to_string(jointRowCount())},
          {"data_hash", [this] {
             std::ostringstream hex;
             hex << std::hex << data_hash_;
             return hex.str();
           }()},
          {"baumgarte_xi", exactDecimal(baumgarte_.xi)},
          {"baumgarte_omega", exactDecimal(baumgarte_.omega)},
          {"projection", projection_ ? "1" : "0"}};
}

void MultibodyModel::afterStep(double /*t*/, Vec x, Vec v) const {
  if (!projection_) return;
  agreeOn(comm_, [&] { // project() solves the augmented system (acceleration() above)
    if (rank_ != 0) return;
    Vector q = toEigen(x), qd = toEigen(v);
    project(q, qd);
    fromEigen(q, x);
    fromEigen(qd, v);
  });
}

void MultibodyModel::initialState(Vec x, Vec v) const {
  agreeOn(comm_, [&] {
    if (rank_ != 0) return;
    Vector q = initialCoordinates(), qd = initialRates();
    if (jointRowCount() > 0 || bodyCount() > 0) project(q, qd); // positions already consistent: velocities only move
    fromEigen(q, x);
    fromEigen(qd, v);
  });
}

void MultibodyModel::saveFinal(Vec x, Vec v, const std::string &path) const {
  agreeOn(comm_, [&] { // rank 0 writes; a device or FIFO in its place is written in place, never waited on
    if (rank_ != 0) return;
    const Vector q = toEigen(x), qd = toEigen(v);
    std::ostringstream out;
    out << "body,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz\n" << std::setprecision(17);
    for (int b = 0; b < bodyCount(); ++b) {
      out << d_.bodies[b].name;
      for (int i = 0; i < 7; ++i) out << ',' << q(7 * b + i);
      for (int i = 0; i < 3; ++i) out << ',' << qd(7 * b + i);
      const Vec3 w = angularVelocity(q, qd, b);
      for (int i = 0; i < 3; ++i) out << ',' << w(i);
      out << '\n';
    }
    writeFileAtomically(path, out.str());
  });
}

// --- drawing ------------------------------------------------------------------------------------

namespace {

constexpr std::uint8_t kVertex = 1, kLine = 3, kPolygon = 7;

// A shape's surface in body axes: points and polygons.
struct Surface {
  std::vector<Vec3> points;
  std::vector<std::vector<int>> polygons;
};

Surface surface(const Shape &shape) {
  Surface s;
  switch (shape.kind) {
  case Shape::Kind::None: break;
  case Shape::Kind::Box: {
    const Vec3 h = 0.5 * shape.size;
    for (int i = 0; i < 8; ++i) s.points.emplace_back((i & 1 ? 1 : -1) * h.x(), (i & 2 ? 1 : -1) * h.y(), (i & 4 ? 1 : -1) * h.z());
    s.polygons = {{0, 2, 3, 1}, {4, 5, 7, 6}, {0, 1, 5, 4}, {2, 6, 7, 3}, {0, 4, 6, 2}, {1, 3, 7, 5}};
    break;
  }
  case Shape::Kind::Sphere: {
    const double r = shape.size(0);
    const int nlat = 8, nlon = 16;
    s.points.emplace_back(0, 0, -r);
    for (int i = 1; i < nlat; ++i) {
      const double th = M_PI * i / nlat;
      for (int j = 0; j < nlon; ++j) {
        const double ph = 2 * M_PI * j / nlon;
        s.points.emplace_back(r * std::sin(th) * std::cos(ph), r * std::sin(th) * std::sin(ph), -r * std::cos(th));
      }
    }
    s.points.emplace_back(0, 0, r);
    const int top = static_cast<int>(s.points.size()) - 1;
    auto ring = [&](int i, int j) { return 1 + (i - 1) * nlon + (j % nlon); };
    for (int j = 0; j < nlon; ++j) {
      s.polygons.push_back({0, ring(1, j + 1), ring(1, j)});
      s.polygons.push_back({top, ring(nlat - 1, j), ring(nlat - 1, j + 1)});
      for (int i = 1; i + 1 < nlat; ++i) s.polygons.push_back({ring(i, j), ring(i, j + 1), ring(i + 1, j + 1), ring(i + 1, j)});
    }
    break;
  }
  case Shape::Kind::Cylinder: {
    const double r = shape.size(0), h = shape.size(1);
    const int n = 16;
    for (int k = 0; k < 2; ++k)
      for (int j = 0; j < n; ++j)
        s.points.emplace_back(r * std::cos(2 * M_PI * j / n), r * std::sin(2 * M_PI * j / n), (k - 0.5) * h);
    std::vector<int> bottom, top;
    for (int j = 0; j < n; ++j) {
      s.polygons.push_back({j, (j + 1) % n, n + (j + 1) % n, n + j});
      bottom.push_back(n - 1 - j);
      top.push_back(n + j);
    }
    s.polygons.push_back(bottom);
    s.polygons.push_back(top);
    break;
  }
  }
  return s;
}

} // namespace

void MultibodyModel::draw(Vec x, Vec v, Drawing &drawing) const {
  drawing.clear();
  drawing.kind = Drawing::Kind::PolyData;
  if (rank_ != 0) {
    drawing.cell_data.push_back({"body", 1, {}});
    return;
  }
  const Vector q = toEigen(x), qd = toEigen(v);
  std::vector<double> body_of_cell;
  auto addPoint = [&](const Vec3 &p) {
    drawing.points.push_back({p.x(), p.y(), p.z()});
    return static_cast<std::int64_t>(drawing.points.size()) - 1;
  };
  for (int b = 0; b < bodyCount(); ++b) {
    const Vec3 c = q.segment<3>(7 * b);
    const Quat p = q.segment<4>(7 * b + 3);
    const Mat3 R = rotation(p) / p.squaredNorm();
    const Surface s = surface(d_.bodies[b].shape);
    if (s.points.empty()) {
      drawing.addCell(kVertex, {addPoint(c)});
      body_of_cell.push_back(b);
      continue;
    }
    const std::int64_t first = static_cast<std::int64_t>(drawing.points.size());
    for (const Vec3 &local : s.points) addPoint(c + R * local);
    for (const auto &poly : s.polygons) {
      drawing.cell_types.push_back(kPolygon);
      for (int i : poly) drawing.connectivity.push_back(first + i);
      drawing.offsets.push_back(static_cast<std::int64_t>(drawing.connectivity.size()));
      body_of_cell.push_back(b);
    }
  }
  // Joints: a vertex at the joint point (or a line between the ends of a distance joint), plus a
  // 0.1 m line along the axis of revolute and prismatic joints; springs: a line. Body -1 / -2.
  const StateView s = view(q, qd);
  auto where = [&](const Attachment &a) { return evaluate(Expr{{a, Attachment{}}, {1, 0}}, s).value; };
  for (const Joint &j : d_.joints) {
    if (j.type == Joint::Type::Distance) {
      drawing.addCell(kLine, {addPoint(where(attachPoint(j.body1, j.point1, d_.bodies))),
                              addPoint(where(attachPoint(j.body2, j.point2, d_.bodies)))});
      body_of_cell.push_back(-1);
      continue;
    }
    const Vec3 at = where(attachPoint(j.body2, j.point, d_.bodies));
    drawing.addCell(kVertex, {addPoint(at)});
    body_of_cell.push_back(-1);
    if (j.type == Joint::Type::Revolute || j.type == Joint::Type::Prismatic) {
      const Vec3 axis = where(attachVector(j.body1, j.axis, d_.bodies)).normalized();
      drawing.addCell(kLine, {addPoint(at - 0.05 * axis), addPoint(at + 0.05 * axis)});
      body_of_cell.push_back(-1);
    }
  }
  for (const SpringEnds &e : spring_ends_) {
    drawing.addCell(kLine, {addPoint(where(e.a)), addPoint(where(e.b))});
    body_of_cell.push_back(-2);
  }
  drawing.cell_data.push_back({"body", 1, body_of_cell});
}

double MultibodyModel::referenceEnergy() const {
  // The extent: the largest distance between two of the bodies' centres and the joints' points (a
  // distance joint's two ends, the others' point), at least the largest body's shape. Unlike the
  // bounding box's diagonal with a 1 m floor (before 2026-11-26) it does not change when the mechanism
  // is moved, turned or measured in other units, and a distance joint's unused `point` (the origin) no
  // longer enters it.
  std::vector<Vec3> points;
  double weight = 0, extent = 0;
  for (const auto &b : d_.bodies) {
    points.push_back(b.position);
    weight += b.mass * d_.gravity.norm();
    extent = std::max(extent, b.shape.size.norm());
  }
  for (const auto &j : d_.joints) {
    if (j.type == Joint::Type::Distance) {
      points.push_back(j.point1);
      points.push_back(j.point2);
    } else {
      points.push_back(j.point);
    }
  }
  extent = std::max(extent, largestDistance(points));
  const Vector q = initialCoordinates(), qd = initialRates();
  return weight * extent + kinetic(q, qd);
}

} // namespace beam::multibody
