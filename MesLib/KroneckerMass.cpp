#include "MesLib/KroneckerMass.hpp"

#include "MesLib/GhostExchange.hpp"

#include <algorithm>
#include <cmath>
#include <set>

namespace beam {
namespace {

// The element mass as m0 [1 rx; rx 1] (x) [1 ry; ry 1] per component, read off ElementMatrices (the one
// place of the formula); false if it is not of that form (lumped).
struct ElementFactors {
  double m0 = 0, rx = 0, ry = 0;
};
bool kroneckerFactors(const ElementMatrix &me, ElementFactors &f) {
  // Local DOF 2a + d of node a: 0 (x, y), 1 (x+1, y), 2 (x+1, y+1), 3 (x, y+1).
  auto at = [&](int a, int da, int b, int db) { return me[size_t((2 * a + da) * 8 + 2 * b + db)]; };
  f.m0 = at(0, 0, 0, 0);
  if (!(f.m0 > 0)) return false;
  f.rx = at(0, 0, 1, 0) / f.m0;
  f.ry = at(0, 0, 3, 0) / f.m0;
  const double tol = 1e-14;
  for (int a = 0; a < 4; ++a)
    for (int b = 0; b < 4; ++b) {
      const bool dx = (a == 0 || a == 3) != (b == 0 || b == 3), dy = (a < 2) != (b < 2);
      const double expect = f.m0 * (dx ? f.rx : 1.0) * (dy ? f.ry : 1.0);
      for (int d = 0; d < 2; ++d) {
        if (std::abs(at(a, d, b, d) - expect) > tol * f.m0) return false;
        if (at(a, d, b, 1 - d) != 0) return false;
      }
    }
  return f.rx != 0 && f.ry != 0;
}

// LDL^T of tridiag(r, d_i, r): 1/D_i and L_{i,i-1} (l[0] unused).
void factorTridiagonal(const std::vector<double> &d, double r, std::vector<double> &inv_d, std::vector<double> &l) {
  const size_t n = d.size();
  inv_d.assign(n, 0.0);
  l.assign(n, 0.0);
  double D = d[0];
  inv_d[0] = 1 / D;
  for (size_t i = 1; i < n; ++i) {
    l[i] = r / D;
    D = d[i] - r * l[i];
    inv_d[i] = 1 / D;
  }
}

// Diagonal of the normalized 1D mass over nodes [a, b] of a line of `last` + 1 nodes: 1 at the line's ends
// (one element), 2 inside (two).
std::vector<double> lineDiagonal(int a, int b, int last) {
  std::vector<double> d;
  for (int i = a; i <= b; ++i) d.push_back(i == 0 || i == last ? 1.0 : 2.0);
  return d;
}

// Solves T z = e_k * r for the block's LDL^T (the spikes).
std::vector<double> solveUnit(const std::vector<double> &inv_d, const std::vector<double> &l, size_t k, double r) {
  const size_t n = inv_d.size();
  std::vector<double> w(n, 0.0);
  w[k] = r;
  for (size_t i = 1; i < n; ++i) w[i] -= l[i] * w[i - 1];
  w[n - 1] *= inv_d[n - 1];
  for (size_t i = n - 1; i-- > 0;) w[i] = w[i] * inv_d[i] - l[i + 1] * w[i + 1];
  return w;
}

// Inverts a small dense matrix (row-major, n x n) by Gauss-Jordan with partial pivoting.
std::vector<double> invertDense(std::vector<double> a, int n) {
  std::vector<double> inv(size_t(n) * size_t(n), 0.0);
  for (int i = 0; i < n; ++i) inv[size_t(i * n + i)] = 1;
  for (int c = 0; c < n; ++c) {
    int p = c;
    for (int i = c + 1; i < n; ++i)
      if (std::abs(a[size_t(i * n + c)]) > std::abs(a[size_t(p * n + c)])) p = i;
    for (int j = 0; j < n; ++j) {
      std::swap(a[size_t(c * n + j)], a[size_t(p * n + j)]);
      std::swap(inv[size_t(c * n + j)], inv[size_t(p * n + j)]);
    }
    const double s = 1 / a[size_t(c * n + c)];
    for (int j = 0; j < n; ++j) {
      a[size_t(c * n + j)] *= s;
      inv[size_t(c * n + j)] *= s;
    }
    for (int i = 0; i < n; ++i) {
      if (i == c) continue;
      const double f = a[size_t(i * n + c)];
      if (f == 0) continue;
      for (int j = 0; j < n; ++j) {
        a[size_t(i * n + j)] -= f * a[size_t(c * n + j)];
        inv[size_t(i * n + j)] -= f * inv[size_t(c * n + j)];
      }
    }
  }
  return inv;
}

// The x solves of NB rows at once, in place (w may be b): L w = b, then D L^T u = w, both components of a
// node sharing Tx. Each row's sweep is a chain of dependent multiply-adds; interleaving the rows' chains
// keeps the core busy instead of waiting on each one's latency (measured: 1.6x faster at 2e6 DOFs).
// With Quad, also each row's b' Tx^{-1} b = sum_i w_i^2 / D_i over the forward elimination's values w, in
// chains of their own beside the recurrences' (quad[j]).
template <int NB, bool Quad = false>
__attribute__((always_inline)) inline void solveRows(const double *__restrict l, const double *__restrict inv_d, PetscInt nodes, const double *const b[],
               double *const w[], double *quad = nullptr) {
  // The recurrences carry their last values in registers (u, v: the two components of each row), not
  // through memory, whose store-to-load forwarding would lengthen every link of the chain.
  double u[NB], v[NB], q[NB];
  for (int j = 0; j < NB; ++j) {
    u[j] = w[j][0] = b[j][0];
    v[j] = w[j][1] = b[j][1];
    if constexpr (Quad) q[j] = (u[j] * u[j] + v[j] * v[j]) * inv_d[0];
  }
  for (PetscInt i = 1; i < nodes; ++i) {
    const double li = l[i];
    for (int j = 0; j < NB; ++j) {
      u[j] = b[j][2 * i] - li * u[j];
      v[j] = b[j][2 * i + 1] - li * v[j];
      w[j][2 * i] = u[j];
      w[j][2 * i + 1] = v[j];
      if constexpr (Quad) q[j] += (u[j] * u[j] + v[j] * v[j]) * inv_d[i];
    }
  }
  if constexpr (Quad)
    for (int j = 0; j < NB; ++j) quad[j] = q[j];
  for (int j = 0; j < NB; ++j) {
    u[j] *= inv_d[nodes - 1];
    v[j] *= inv_d[nodes - 1];
    w[j][2 * nodes - 2] = u[j];
    w[j][2 * nodes - 1] = v[j];
  }
  for (PetscInt i = nodes - 1; i-- > 0;) {
    const double di = inv_d[i], li = l[i + 1];
    for (int j = 0; j < NB; ++j) {
      u[j] = w[j][2 * i] * di - li * u[j];
      v[j] = w[j][2 * i + 1] * di - li * v[j];
      w[j][2 * i] = u[j];
      w[j][2 * i + 1] = v[j];
    }
  }
}

// Rows whose x solves run interleaved.
constexpr int kRowBlock = 4;

// The spikes decay geometrically; below this they change no digit of the result.
constexpr double kSpikeCut = 1e-17;

} // namespace

std::string KroneckerMassInverse::whyNot(const Beam &beam) {
  const BeamSpec &spec = beam.spec();
  if (spec.lumped_mass) return "lumped mass (diagonal already)";
  if (!spec.element_thickness.empty()) {
    const auto [lo, hi] = std::minmax_element(spec.element_thickness.begin(), spec.element_thickness.end());
    if (*lo != *hi) return "per-element thickness (the mass is no Kronecker product)";
  }
  ElementFactors f;
  if (!kroneckerFactors(beam.elementMass(), f)) return "element mass is not a Kronecker product";
  // Frozen DOFs must be whole node columns (both components, every row).
  const BeamMesh &mesh = beam.mesh();
  std::set<int> columns;
  for (PetscInt d : beam.frozenDofs()) columns.insert(mesh.nodeXY(d / 2)[0]);
  if (beam.frozenDofs().size() != columns.size() * size_t(mesh.my() + 1) * 2)
    return std::string("supports ") + supportsName(spec.supports) + " do not freeze whole node columns";
  // ... at the ends, so the free columns are one range.
  int first = 0, last = mesh.mx();
  while (columns.count(first)) ++first;
  while (columns.count(last)) --last;
  if (first > last || int(columns.size()) != mesh.mx() + 1 - (last - first + 1))
    return "frozen node columns inside the beam";
  // Every rank must own whole node rows (Beam's partition does when there are at least as many rows as
  // ranks).
  int whole = (beam.nodeBegin() % (mesh.mx() + 1) == 0 && beam.nodeEnd() % (mesh.mx() + 1) == 0) ? 1 : 0, all = 0;
  MPI_Allreduce(&whole, &all, 1, MPI_INT, MPI_MIN, beam.comm());
  if (!all) return "ranks do not own whole node rows (more ranks than node rows)";
  return "";
}

KroneckerMassInverse::KroneckerMassInverse(const Beam &beam) : comm_(beam.comm()) {
  const std::string why = whyNot(beam);
  if (!why.empty()) throw runError("Kronecker mass inverse: " + why);
  MPI_Comm_rank(comm_, &rank_);
  MPI_Comm_size(comm_, &ranks_);
  const BeamMesh &mesh = beam.mesh();
  const int mx = mesh.mx(), my = mesh.my();
  ElementFactors f;
  kroneckerFactors(beam.elementMass(), f);
  rx_ = f.rx;
  ry_ = f.ry;
  inverse_scale_ = 1 / (f.m0 * beam.spec().elementThickness(0));

  // Free node columns [c0, c1].
  std::set<int> columns;
  for (PetscInt d : beam.frozenDofs()) columns.insert(mesh.nodeXY(d / 2)[0]);
  int c0 = 0, c1 = mx;
  while (columns.count(c0)) ++c0;
  while (columns.count(c1)) --c1;
  row_stride_ = 2 * PetscInt(mx + 1);
  first_free_ = 2 * PetscInt(c0);
  free_width_ = 2 * PetscInt(c1 - c0 + 1);
  factorTridiagonal(lineDiagonal(c0, c1, mx), rx_, x_inv_d_, x_l_);
  row_work_.resize(2 * size_t(free_width_));

  const int y0 = int(beam.nodeBegin() / (mx + 1));
  rows_ = int((beam.nodeEnd() - beam.nodeBegin()) / (mx + 1));
  // On two ranks the upper block is swept from its top row down (its LDL^T of the reversed rows), so on
  // both ranks the sweeps' turning point is the row at the interface (see apply).
  reversed_ = ranks_ == 2 && rank_ == 1;
  std::vector<double> diagonal = lineDiagonal(y0, y0 + rows_ - 1, my);
  if (reversed_) std::reverse(diagonal.begin(), diagonal.end());
  factorTridiagonal(diagonal, ry_, y_inv_d_, y_l_);

  if (ranks_ == 2) {
    // The spike of a block, T^-1 r e_interface, is r / D_last at the interface row; the other block's
    // value completes the 2 x 2 reduced system of every column.
    const double mine = ry_ * y_inv_d_.back();
    MPI_Sendrecv(&mine, 1, MPI_DOUBLE, 1 - rank_, 0, &peer_spike_, 1, MPI_DOUBLE, 1 - rank_, 0, comm_, MPI_STATUS_IGNORE);
    my_spike_ = mine;
    ends_.resize(2 * size_t(free_width_));
  } else if (ranks_ > 2) {
    // Spikes of this block (unscaled: the correction uses scaled interface values, see apply).
    std::vector<double> up(size_t(rows_), 0.0), down(size_t(rows_), 0.0);
    if (rank_ > 0) up = solveUnit(y_inv_d_, y_l_, 0, ry_);
    if (rank_ < ranks_ - 1) down = solveUnit(y_inv_d_, y_l_, size_t(rows_ - 1), ry_);
    // Reduced system: R u = g, u = (F_0, L_0, F_1, L_1, ...), from every block's spike ends.
    const double mine[4] = {up.front(), up.back(), down.front(), down.back()};
    std::vector<double> ends(4 * size_t(ranks_));
    MPI_Allgather(mine, 4, MPI_DOUBLE, ends.data(), 4, MPI_DOUBLE, comm_);
    const int n = 2 * ranks_;
    std::vector<double> R(size_t(n) * size_t(n), 0.0);
    for (int p = 0; p < ranks_; ++p) {
      const double *e = &ends[4 * size_t(p)];
      for (int k = 0; k < 2; ++k) { // k = 0: F_p (first row), 1: L_p (last row)
        const int row = 2 * p + k;
        R[size_t(row * n + row)] += 1;
        if (p > 0) R[size_t(row * n + 2 * (p - 1) + 1)] += e[k];         // v_p[first/last] L_{p-1}
        if (p < ranks_ - 1) R[size_t(row * n + 2 * (p + 1))] += e[2 + k]; // w_p[first/last] F_{p+1}
      }
    }
    reduced_inverse_ = invertDense(R, n);
    // Truncate the spikes where they no longer change a digit.
    size_t up_len = 0, down_len = 0;
    for (size_t k = 0; k < up.size(); ++k)
      if (std::abs(up[k]) > kSpikeCut) up_len = k + 1;
    for (size_t k = down.size(); k-- > 0;)
      if (std::abs(down[k]) > kSpikeCut) down_len = down.size() - k;
    spike_up_.assign(up.begin(), up.begin() + long(up_len));
    spike_down_.assign(down.end() - long(down_len), down.end());
    gathered_.resize(size_t(n) * size_t(free_width_));
    ends_.resize(2 * size_t(free_width_));
  }
}

void KroneckerMassInverse::apply(Vec r, Vec z) const { sweep(r, z, false); }

double KroneckerMassInverse::applyDot(Vec r, Vec z) const {
  if (r == z) throw runError("KroneckerMassInverse::applyDot needs z other than r");
  const double local = sweep(r, z, true);
  double global = 0;
  MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_SUM, comm_);
  return global;
}

double KroneckerMassInverse::residualForward(double alpha, Vec q, Vec r, Vec w) const {
  static PetscLogEvent event = -1;
  BEAM_PETSC(registerLogEvent("KronResidualForward", &event));
  BEAM_PETSC(PetscLogEventBegin(event, r, w, 0, 0));
  const PetscScalar *qv;
  PetscScalar *rv, *wv;
  BEAM_PETSC(VecGetArrayRead(q, &qv));
  BEAM_PETSC(VecGetArray(r, &rv));
  BEAM_PETSC(VecGetArrayWrite(w, &wv));
  const double local = forwardHalf(rv, rv, qv, alpha, wv, true);
  BEAM_PETSC(VecRestoreArrayWrite(w, &wv));
  BEAM_PETSC(VecRestoreArray(r, &rv));
  BEAM_PETSC(VecRestoreArrayRead(q, &qv));
  BEAM_PETSC(PetscLogFlops(8.0 * double(rows_) * double(free_width_)));
  ++applications_;
  BEAM_PETSC(PetscLogEventEnd(event, r, w, 0, 0));
  double global = 0;
  MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_SUM, comm_);
  return global;
}

__attribute__((target_clones("arch=x86-64-v3", "default"))) void KroneckerMassInverse::directionBackward(Vec w, double alpha, double beta, Vec p, Vec x) const {
  if (!fusable()) throw runError("KroneckerMassInverse::directionBackward needs one or two ranks");
  static PetscLogEvent event = -1;
  BEAM_PETSC(registerLogEvent("KronDirectionBackward", &event));
  BEAM_PETSC(PetscLogEventBegin(event, w, p, 0, 0));
  const PetscScalar *wv;
  PetscScalar *pv, *xv;
  BEAM_PETSC(VecGetArrayRead(w, &wv));
  BEAM_PETSC(VecGetArray(p, &pv));
  BEAM_PETSC(VecGetArray(x, &xv));
  const PetscInt W = free_width_, S = row_stride_, ff = first_free_;
  // z of the row below (logical k + 1) and of this row: two rows of work, swapped.
  double *buffers[2] = {row_work_.data(), row_work_.data() + W};
  const double *next = nullptr;
  for (int k = rows_ - 1; k >= 0; --k) {
    const PetscInt at = physicalRow(k) * S;
    const double *wk = wv + at;
    double *pk = pv + at, *xk = xv + at;
    // Frozen DOFs: z = r, which the forward half copied into w.
    for (PetscInt i = 0; i < ff; ++i) {
      xk[i] += alpha * pk[i];
      pk[i] = wk[i] + beta * pk[i];
    }
    for (PetscInt i = ff + W; i < S; ++i) {
      xk[i] += alpha * pk[i];
      pk[i] = wk[i] + beta * pk[i];
    }
    const double *wf = wk + ff;
    double *pf = pk + ff, *xf = xk + ff;
    if (k == rows_ - 1) { // finished by the forward half
      for (PetscInt i = 0; i < W; ++i) {
        xf[i] += alpha * pf[i];
        pf[i] = wf[i] + beta * pf[i];
      }
      next = wf;
      continue;
    }
    double *z = buffers[k % 2];
    const double s = inverse_scale_ * y_inv_d_[size_t(k)], l = y_l_[size_t(k + 1)];
    for (PetscInt i = 0; i < W; ++i) {
      const double zi = wf[i] * s - l * next[i];
      z[i] = zi;
      xf[i] += alpha * pf[i];
      pf[i] = zi + beta * pf[i];
    }
    next = z;
  }
  BEAM_PETSC(VecRestoreArray(x, &xv));
  BEAM_PETSC(VecRestoreArray(p, &pv));
  BEAM_PETSC(VecRestoreArrayRead(w, &wv));
  BEAM_PETSC(PetscLogFlops(7.0 * double(rows_) * double(W)));
  BEAM_PETSC(PetscLogEventEnd(event, w, p, 0, 0));
}

// PETSc log events of the sweeps, so profiles show them and bench/Traffic.cpp can charge their passes.
PetscLogEvent sweepEvent(bool dot) {
  static PetscLogEvent events[2] = {-1, -1};
  BEAM_PETSC(registerLogEvent(dot ? "KronSweepDot" : "KronSweep", &events[dot]));
  return events[dot];
}

__attribute__((target_clones("arch=x86-64-v3", "default"))) double KroneckerMassInverse::forwardHalf(const double *rv, double *r_update, const double *qv, double alpha,
                                         double *zv, bool dot) const {
  if (dot && ranks_ > 2) throw runError("KroneckerMassInverse: the forward half's r'z needs one or two ranks");
  const PetscInt W = free_width_, S = row_stride_, ff = first_free_;
  const double *xl = x_l_.data(), *xd = x_inv_d_.data();
  double *saved = row_work_.data(); // the row before a block, y-eliminated and not yet x-solved: u_{k0-1}
  double rows_sum = 0, frozen_sum = 0; // sum over rows but the last of u_k' Tx^-1 u_k / D_k; r'r on frozen DOFs
  // Over blocks of rows: the y elimination u_k = r_k - l_k u_{k-1} of the block's rows into z (the x and
  // y solves commute), then their x solves in place, interleaved (the rows in cache once written).
  // Frozen DOFs are copied (identity rows of M).
  for (int k0 = 0; k0 < rows_; k0 += kRowBlock) {
    const int nb = std::min(kRowBlock, rows_ - k0);
    double *w[kRowBlock];
    for (int j = 0; j < nb; ++j) {
      const int k = k0 + j;
      const PetscInt at = physicalRow(k) * S;
      const double *rk = rv + at;
      double *zk = zv + at;
      if (r_update) { // CG's r -= alpha q, while the row is read anyway
        double *uk = r_update + at;
        const double *qk = qv + at;
        for (PetscInt i = 0; i < S; ++i) uk[i] = rk[i] - alpha * qk[i];
      }
      if (zk != rk) {
        for (PetscInt i = 0; i < ff; ++i) zk[i] = rk[i];
        for (PetscInt i = ff + W; i < S; ++i) zk[i] = rk[i];
      }
      if (dot) {
        for (PetscInt i = 0; i < ff; ++i) frozen_sum += rk[i] * rk[i];
        for (PetscInt i = ff + W; i < S; ++i) frozen_sum += rk[i] * rk[i];
      }
      const double *rf = rk + ff;
      double *wf = zk + ff;
      if (k == 0) {
        if (wf != rf) std::copy(rf, rf + W, wf);
      } else {
        const double l = y_l_[size_t(k)], *prev = j == 0 ? saved : w[j - 1];
        for (PetscInt i = 0; i < W; ++i) wf[i] = rf[i] - l * prev[i];
      }
      w[j] = wf;
    }
    if (k0 + nb < rows_ || dot) std::copy(w[nb - 1], w[nb - 1] + W, saved); // for the next block; the last row's u
    double quad[kRowBlock];
    if (nb == kRowBlock) {
      if (dot)
        solveRows<kRowBlock, true>(xl, xd, W / 2, w, w, quad);
      else
        solveRows<kRowBlock>(xl, xd, W / 2, w, w);
    } else {
      for (int j = 0; j < nb; ++j)
        if (dot)
          solveRows<1, true>(xl, xd, W / 2, w + j, w + j, quad + j);
        else
          solveRows<1>(xl, xd, W / 2, w + j, w + j);
    }
    if (dot)
      for (int j = 0; j < nb; ++j)
        if (k0 + j < rows_ - 1) rows_sum += quad[j] * y_inv_d_[size_t(k0 + j)];
  }
  // The last logical row's value, scaled by 1 / (m0 t). On two ranks it is the row at the interface:
  // with the other block's, the 2 x 2 reduced system u_m = y_m - e_m u_o, u_o = y_o - e_o u_m (e: the
  // spikes' values there) gives the exact interface value. The backward sweep started from it needs no
  // correction: the spike solves the sweep's homogeneous recurrence (its right-hand side is zero but
  // at the interface), so the recurrence carries the correction along by itself.
  double *w = zv + physicalRow(rows_ - 1) * S + ff;
  const double s = inverse_scale_ * y_inv_d_[size_t(rows_ - 1)];
  for (PetscInt i = 0; i < W; ++i) w[i] *= s;
  if (ranks_ == 2) {
    double *peer = ends_.data();
    swapWithPeer(comm_, 1 - rank_, 1, w, peer, W); // in eager pieces (GhostExchange.hpp)
    const double em = my_spike_, eo = peer_spike_, d = 1 / (1 - em * eo);
    for (PetscInt i = 0; i < W; ++i) w[i] = (w[i] - em * peer[i]) * d;
  }
  if (!dot) return 0;
  double last = 0; // u' z of the last row (saved holds its u)
  for (PetscInt i = 0; i < W; ++i) last += saved[i] * w[i];
  return inverse_scale_ * rows_sum + last + frozen_sum;
}

__attribute__((target_clones("arch=x86-64-v3", "default"))) double KroneckerMassInverse::sweep(Vec r, Vec z, bool dot) const {
  const PetscLogEvent event = sweepEvent(dot);
  BEAM_PETSC(PetscLogEventBegin(event, r, z, 0, 0));
  double rz = 0;
  const PetscScalar *rv;
  PetscScalar *zv;
  BEAM_PETSC(VecGetArrayRead(r, &rv));
  BEAM_PETSC(VecGetArray(z, &zv));
  const PetscInt W = free_width_, S = row_stride_;
  // Logical row j: physical row j, or rows_ - 1 - j on the reversed block.
  auto row = [&](int j) { return zv + physicalRow(j) * S + first_free_; };
  auto input = [&](int j) { return rv + physicalRow(j) * S; };
  forwardHalf(rv, nullptr, nullptr, 0, zv, false);
  // r . z of a finished row, frozen DOFs (z = r) included; for CG's natural norm, while the row is in cache.
  auto rowDot = [&](int j) { // four partial sums: one would wait on the adder's latency every entry
    const double *zr = row(j) - first_free_, *rr = input(j);
    double d[4] = {0, 0, 0, 0};
    PetscInt i = 0;
    for (; i + 4 <= S; i += 4)
      for (int k = 0; k < 4; ++k) d[k] += rr[i + k] * zr[i + k];
    for (; i < S; ++i) d[0] += rr[i] * zr[i];
    return (d[0] + d[1]) + (d[2] + d[3]);
  };
  if (dot && ranks_ <= 2) rz += rowDot(rows_ - 1);
  for (int k = rows_ - 1; k-- > 0;) {
    double *w = row(k);
    const double *next = row(k + 1);
    const double s = inverse_scale_ * y_inv_d_[size_t(k)], l = y_l_[size_t(k + 1)];
    for (PetscInt i = 0; i < W; ++i) w[i] = w[i] * s - l * next[i];
    if (dot && ranks_ <= 2) rz += rowDot(k);
  }
  if (ranks_ > 2) {
    // SPIKE: gather every block's first and last rows, solve the reduced system for the two interface
    // values this block couples to (L_{p-1}, F_{p+1}), and correct near the block's ends.
    const double *first = zv + first_free_, *last = zv + PetscInt(rows_ - 1) * S + first_free_;
    std::copy(first, first + W, ends_.begin());
    std::copy(last, last + W, ends_.begin() + W);
    MPI_Allgather(ends_.data(), int(2 * W), MPI_DOUBLE, gathered_.data(), int(2 * W), MPI_DOUBLE, comm_);
    const int n = 2 * ranks_;
    auto interface = [&](int row, double *out) { // out = (R^{-1} g)_row for every column
      std::fill(out, out + W, 0.0);
      for (int j = 0; j < n; ++j) {
        const double c = reduced_inverse_[size_t(row * n + j)];
        if (c == 0) continue;
        const double *g = &gathered_[size_t(j) * size_t(W)];
        for (PetscInt i = 0; i < W; ++i) out[i] += c * g[i];
      }
    };
    // ends_ is free again: L_{p-1} into its first half, F_{p+1} into the second.
    double *above = ends_.data(), *below = ends_.data() + W;
    if (rank_ > 0) interface(2 * (rank_ - 1) + 1, above);
    if (rank_ < ranks_ - 1) interface(2 * (rank_ + 1), below);
    for (size_t k = 0; k < spike_up_.size(); ++k) {
      double *w = zv + PetscInt(k) * S + first_free_;
      const double v = spike_up_[k];
      for (PetscInt i = 0; i < W; ++i) w[i] -= v * above[i];
    }
    for (size_t j = 0; j < spike_down_.size(); ++j) {
      const int k = rows_ - int(spike_down_.size()) + int(j);
      double *w = zv + PetscInt(k) * S + first_free_;
      const double v = spike_down_[j];
      for (PetscInt i = 0; i < W; ++i) w[i] -= v * below[i];
    }
  }
  if (dot && ranks_ > 2) // the SPIKE correction changed the rows after the sweep: one more pass
    for (int k = 0; k < rows_; ++k) rz += rowDot(k);
  BEAM_PETSC(VecRestoreArray(z, &zv));
  BEAM_PETSC(VecRestoreArrayRead(r, &rv));
  BEAM_PETSC(PetscLogFlops(10.0 * double(rows_) * double(W)));
  ++applications_;
  BEAM_PETSC(PetscLogEventEnd(event, r, z, 0, 0));
  return rz;
}

namespace {

struct ShellContext {
  std::shared_ptr<const KroneckerMassInverse> inverse;
};

PetscErrorCode shellApply(PC pc, Vec r, Vec z) {
  ShellContext *ctx;
  PetscFunctionBeginUser;
  PetscCall(PCShellGetContext(pc, &ctx));
  try {
    ctx->inverse->apply(r, z);
  } catch (const Error &) {
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_LIB, "Kronecker mass inverse failed");
  }
  PetscFunctionReturn(0);
}

PetscErrorCode shellDestroy(PC pc) {
  ShellContext *ctx;
  PetscFunctionBeginUser;
  PetscCall(PCShellGetContext(pc, &ctx));
  delete ctx; // NOLINT: the shell owns its context (created in setMassInversePreconditioner)
  PetscFunctionReturn(0);
}

} // namespace

void setMassInversePreconditioner(PC pc, std::shared_ptr<const KroneckerMassInverse> inverse) {
  BEAM_PETSC(PCSetType(pc, PCSHELL));
  auto ctx = std::make_unique<ShellContext>();
  ctx->inverse = std::move(inverse);
  BEAM_PETSC(PCShellSetContext(pc, ctx.get()));
  ctx.release(); // owned by the shell from here on
  BEAM_PETSC(PCShellSetApply(pc, shellApply));
  BEAM_PETSC(PCShellSetDestroy(pc, shellDestroy));
  BEAM_PETSC(PCShellSetName(pc, "Kronecker consistent-mass inverse (MesLib/KroneckerMass.hpp)"));
}

} // namespace beam
