#include "MesLib/MatrixFreeOperator.hpp"

#include "MesLib/GhostExchange.hpp"

#include <algorithm>
#include <cstring>
#include <memory>
#include <vector>

namespace beam {
namespace {

// State of one shell operator. The Mat owns it: created by matrixFreeOperator, deleted by the shell's
// MATOP_DESTROY callback.
//
// The mesh is structured, so an element's DOFs follow from its position and need no index arrays. With
// the local DOFs taken in the order (node0, node1, node3, node2) — bottom edge left to right, then top
// edge left to right — an element's 8 DOFs are two runs of 4 consecutive global DOFs:
//   [2 n0, 2 n0 + 4) and [2 n3, 2 n3 + 4),  n0 = node(ex, ey), n3 = node(ex, ey + 1) = n0 + mx + 1,
// and the 8x8 product is 8 columns, each times one element value: 32 products of pairs (SSE2 registers;
// GCC's vector extension, so the baseline x86-64 build vectorizes it without -march flags).
typedef double Pair __attribute__((vector_size(16)));

struct Context {
  double kc[64]{};                 // a Me + c Ke in that order, column-major; times the thickness if uniform
  Pair kp[32]{};                   // the same, as pairs: column j is kp[4 j .. 4 j + 3]
  bool diagonal = false;           // kc is diagonal (lumped mass alone): the product is diagonal .* x
  double frozen_diagonal = 0;      // a + c
  int mx = 0;                      // elements per row
  int ey0 = 0, ey1 = -1;           // element rows that touch owned nodes
  PetscInt node_begin = 0, node_end = 0; // owned nodes
  // The DOFs the rank's elements touch are a window of whole node rows starting at DOF g0; it holds the
  // owned rows [row0, row1) and ghosts below and above them.
  PetscInt g0 = 0, row0 = 0, row1 = 0;
  std::vector<double> thickness;   // per element of rows [ey0, ey1] (row-major); empty = uniform
  std::vector<char> frozen_window; // per window DOF: 1 = frozen (its value counts as 0)
  // Per element row ey0 + k: the elements touching a frozen DOF, ascending; they take the masked path.
  std::vector<std::vector<int>> frozen_elements;
  std::vector<PetscInt> frozen_rows; // owned local rows that are frozen
  std::unique_ptr<GhostExchange> exchange; // ghost DOFs [g0, row0) and [row1, g1), in that order; none on one rank
  PVec diagonal_vec;
  // Node stencil (uniform thickness, frozen DOFs only in whole end columns, ranks owning whole node
  // rows, mx >= 4): the operator summed per node, 9 neighbours x 2x2 blocks, one set per column class
  // (x = 0, 1, inside, mx - 1, mx) and row class (y = 0, inside, my). Per block the pairs (B00, B11) and
  // (B01, B10), so a node's output is 18 products of pairs, its input read from three node rows.
  bool stencil = false;
  int my = 0, y_begin = 0, rows = 0;    // node rows: all, this rank's first, and how many it owns
  Pair st_diag[5][3][9]{}, st_cross[5][3][9]{}; // [column class][row class][(dy + 1) * 3 + dx + 1]
  double last_dot = 0; // this rank's x . y of the last stencil product (multDot)
  std::vector<double> row_buffer; // one node row of A x, for x'Ax without storing A x (quadraticForm)
};

// The window's values: owned DOFs read straight from x, ghosts from their copy.
struct WindowValues {
  const double *x, *ghosts;
  PetscInt g0, row0, row1;
  double operator()(PetscInt d) const {
    return d < row0 ? ghosts[d - g0] : d < row1 ? x[d - row0] : ghosts[(row0 - g0) + (d - row1)];
  }
};

// Local order (node0, node1, node3, node2) -> the element matrices' order (node0, node1, node2, node3).
constexpr int kLocal[8] = {0, 1, 2, 3, 6, 7, 4, 5};

// ye = kc ue, kc column-major (elements on a rank boundary; the interior ones use the pairs).
inline void elementProduct(const double *__restrict kc, const double *__restrict ue, double *__restrict ye) {
  for (int i = 0; i < 8; ++i) ye[i] = kc[i] * ue[0];
  for (int j = 1; j < 8; ++j)
    for (int i = 0; i < 8; ++i) ye[i] += kc[8 * j + i] * ue[j];
}

// Elements ex in [ex_begin, ex_end) of row ey whose four nodes are all owned and none frozen: values
// read straight from x, every product row written; x and y are the owned rows. Compiled twice, for the
// baseline x86-64 and for x86-64-v3 (AVX2, FMA: a quarter faster), chosen when the program loads.
template <bool Uniform>
__attribute__((target_clones("arch=x86-64-v3", "default"))) void
interiorElements(const Context &c, int ey, int ex_begin, int ex_end, const double *__restrict x,
                 double *__restrict y) {
  if (ex_begin >= ex_end) return;
  const PetscInt stride = 2 * PetscInt(c.mx + 1);
  const PetscInt first = 2 * (PetscInt(ey) * (c.mx + 1) + ex_begin) - c.row0; // node (ex_begin, ey)
  const double *xb = x + first, *xt = xb + stride;                            // bottom and top nodes of x ...
  double *yb = y + first, *yt = yb + stride;                                  // ... and of y
  const double *t = Uniform ? nullptr : &c.thickness[size_t(ey - c.ey0) * size_t(c.mx) + size_t(ex_begin)];
  Pair k[32];
  std::copy(c.kp, c.kp + 32, k);
  for (int ex = 0; ex < ex_end - ex_begin; ++ex) {
    const PetscInt i = 2 * PetscInt(ex);
    const double u[8] = {xb[i], xb[i + 1], xb[i + 2], xb[i + 3], xt[i], xt[i + 1], xt[i + 2], xt[i + 3]};
    Pair s0 = k[0] * u[0], s1 = k[1] * u[0], s2 = k[2] * u[0], s3 = k[3] * u[0];
    for (int j = 1; j < 8; ++j) {
      s0 += k[4 * j] * u[j];
      s1 += k[4 * j + 1] * u[j];
      s2 += k[4 * j + 2] * u[j];
      s3 += k[4 * j + 3] * u[j];
    }
    if (!Uniform) {
      s0 *= t[ex];
      s1 *= t[ex];
      s2 *= t[ex];
      s3 *= t[ex];
    }
    Pair y0, y1, y2, y3; // memcpy: y is only 8-byte aligned
    std::memcpy(&y0, yb + i, 16);
    std::memcpy(&y1, yb + i + 2, 16);
    std::memcpy(&y2, yt + i, 16);
    std::memcpy(&y3, yt + i + 2, 16);
    y0 += s0;
    y1 += s1;
    y2 += s2;
    y3 += s3;
    std::memcpy(yb + i, &y0, 16);
    std::memcpy(yb + i + 2, &y1, 16);
    std::memcpy(yt + i, &y2, 16);
    std::memcpy(yt + i + 2, &y3, 16);
  }
}

// An element with a node owned by another rank or a frozen DOF: frozen values count as 0 and only
// owned rows are written.
void maskedElement(const Context &c, int ey, int ex, const WindowValues &xw, double *y) {
  const PetscInt a = 2 * (PetscInt(ey) * (c.mx + 1) + ex), b = a + 2 * PetscInt(c.mx + 1); // global DOFs
  const PetscInt d[8] = {a, a + 1, a + 2, a + 3, b, b + 1, b + 2, b + 3};
  bool touches = false;
  for (PetscInt g : d) touches |= g >= c.row0 && g < c.row1;
  if (!touches) return;
  const double t = c.thickness.empty() ? 1.0 : c.thickness[size_t(ey - c.ey0) * size_t(c.mx) + size_t(ex)];
  double ue[8], ye[8];
  for (int k = 0; k < 8; ++k) ue[k] = c.frozen_window[size_t(d[k] - c.g0)] ? 0.0 : t * xw(d[k]);
  elementProduct(c.kc, ue, ye);
  for (int k = 0; k < 8; ++k)
    if (d[k] >= c.row0 && d[k] < c.row1) y[d[k] - c.row0] += ye[k];
}

// x's owned values and its ghosts (fetched from the other ranks first), and y's values for writing.
PetscErrorCode getArrays(const Context &c, Vec x, Vec y, const PetscScalar **xo, const PetscScalar **xghost,
                         PetscScalar **yo) {
  PetscFunctionBeginUser;
  PetscCall(VecGetArrayRead(x, xo));
  if (c.exchange) {
    PetscCall(c.exchange->begin(*xo));
    PetscCall(c.exchange->end());
    *xghost = c.exchange->ghosts();
  }
  PetscCall(VecGetArrayWrite(y, yo));
  PetscFunctionReturn(0);
}

PetscErrorCode restoreArrays(Vec x, Vec y, const PetscScalar **xo, const PetscScalar **xghost, PetscScalar **yo) {
  PetscFunctionBeginUser;
  PetscCall(VecRestoreArrayWrite(y, yo));
  PetscCall(VecRestoreArrayRead(x, xo));
  *xghost = nullptr;
  PetscFunctionReturn(0);
}

PetscErrorCode mult(Mat A, Vec x, Vec y) {
  Context *ctx;
  PetscFunctionBeginUser;
  PetscCall(MatShellGetContext(A, &ctx));
  const Context &c = *ctx;
  const PetscScalar *xo, *xghost = nullptr;
  PetscScalar *yo;
  PetscCall(getArrays(c, x, y, &xo, &xghost, &yo));
  const WindowValues xw{xo, xghost, c.g0, c.row0, c.row1};
  std::fill(yo, yo + (c.row1 - c.row0), 0.0);
  auto interior = [&](int ey, int from, int to) {
    if (c.thickness.empty())
      interiorElements<true>(c, ey, from, to, xo, yo);
    else
      interiorElements<false>(c, ey, from, to, xo, yo);
  };
  for (int ey = c.ey0; ey <= c.ey1; ++ey) {
    // Element ex has all four nodes owned iff node_begin <= n0 and n0 + mx + 2 < node_end.
    const PetscInt base = PetscInt(ey) * (c.mx + 1);
    const int lo = int(std::clamp<PetscInt>(c.node_begin - base, 0, c.mx));
    const int hi = int(std::clamp<PetscInt>(c.node_end - c.mx - 2 - base, lo, c.mx));
    for (int ex = 0; ex < lo; ++ex) maskedElement(c, ey, ex, xw, yo);
    int from = lo; // the runs between elements with frozen DOFs
    for (int ex : c.frozen_elements[size_t(ey - c.ey0)]) {
      if (ex < lo || ex >= hi) continue;
      interior(ey, from, ex);
      maskedElement(c, ey, ex, xw, yo);
      from = ex + 1;
    }
    interior(ey, from, hi);
    for (int ex = hi; ex < c.mx; ++ex) maskedElement(c, ey, ex, xw, yo);
  }
  for (PetscInt i : c.frozen_rows) yo[i] = c.frozen_diagonal * xo[i];
  PetscCall(restoreArrays(x, y, &xo, &xghost, &yo));
  PetscCall(PetscLogFlops(128.0 * double(c.ey1 - c.ey0 + 1) * c.mx));
  PetscFunctionReturn(0);
}

typedef double Quad __attribute__((vector_size(32)));
inline Pair swapPair(Pair p) { return __builtin_shuffle(p, (__attribute__((vector_size(16))) long){1, 0}); }
// The pair swap of a Quad, (u0, v0, u1, v1) -> (v0, u0, v1, u1), written out where it is used: a function
// returning a 32-byte vector trips GCC's ABI warning for the baseline clone.
typedef long QuadMask __attribute__((vector_size(32)));
constexpr QuadMask kSwapPairs = {1, 0, 3, 2};

// One node row of the stencil product. in[0..2]: node rows y - 1, y, y + 1 (null where there is none,
// the row class then has zero blocks there); out: row y. Columns 0, 1, mx - 1, mx take their own
// classes with bounds checks; the inside runs the class-2 blocks without any. Returns in[1] . out, the
// row's share of x'Ax, which CG needs and gets here without another pass (multDot).
__attribute__((target_clones("arch=x86-64-v3", "default"))) double
stencilRow(const Context &c, int rc, const double *const in[3], double *__restrict out) {
  const int mx = c.mx;
  Pair dot = {0, 0};
  auto node = [&](int x, int cc) {
    Pair acc = {0, 0};
    for (int dy = 0; dy < 3; ++dy) {
      if (!in[dy]) continue;
      for (int dx = -1; dx <= 1; ++dx) {
        const int xx = x + dx;
        if (xx < 0 || xx > mx) continue;
        Pair v;
        std::memcpy(&v, in[dy] + 2 * xx, 16);
        const int k = dy * 3 + dx + 1;
        acc += c.st_diag[cc][rc][k] * v + c.st_cross[cc][rc][k] * swapPair(v);
      }
    }
    std::memcpy(out + 2 * x, &acc, 16);
    Pair centre;
    std::memcpy(&centre, in[1] + 2 * x, 16);
    dot += acc * centre;
  };
  node(0, 0);
  node(1, 1);
  // Inside, two nodes at a time: four values (u, v of nodes x and x + 1) per load, the blocks' pairs
  // repeated, so AVX2 takes them in one instruction.
  Quad dq[9], oq[9];
  for (int k = 0; k < 9; ++k) {
    const Pair dk = c.st_diag[2][rc][k], ok = c.st_cross[2][rc][k];
    dq[k] = Quad{dk[0], dk[1], dk[0], dk[1]};
    oq[k] = Quad{ok[0], ok[1], ok[0], ok[1]};
  }
  Quad dot4 = {0, 0, 0, 0};
  int x = 2;
  for (; x + 1 <= mx - 2; x += 2) {
    Quad acc = {0, 0, 0, 0};
    for (int dy = 0; dy < 3; ++dy) {
      if (!in[dy]) continue;
      const double *r = in[dy] + 2 * (x - 1);
      Quad a, b, e;
      std::memcpy(&a, r, 32);
      std::memcpy(&b, r + 2, 32);
      std::memcpy(&e, r + 4, 32);
      acc += dq[3 * dy] * a + oq[3 * dy] * __builtin_shuffle(a, kSwapPairs);
      acc += dq[3 * dy + 1] * b + oq[3 * dy + 1] * __builtin_shuffle(b, kSwapPairs);
      acc += dq[3 * dy + 2] * e + oq[3 * dy + 2] * __builtin_shuffle(e, kSwapPairs);
    }
    std::memcpy(out + 2 * x, &acc, 32);
    Quad centre;
    std::memcpy(&centre, in[1] + 2 * x, 32);
    dot4 += acc * centre;
  }
  dot += Pair{dot4[0] + dot4[2], dot4[1] + dot4[3]};
  if (x <= mx - 2) node(x, 2); // an odd count leaves one
  node(mx - 1, 3);
  node(mx, 4);
  return dot[0] + dot[1];
}

// y = alpha v + beta A x (v, beta) or y = A x (no v), row by row; returns this rank's share of x'Ax. The
// affine form finishes each row while it is in cache: the impulse f - S x without a second pass over the
// product (multAffine, common/Petsc.hpp). With y null the rows go to a buffer of one row, reused: x'Ax
// without writing Ax (the energy's quadratic forms), one vector read instead of one read and one written.
struct Affine {
  Vec v = nullptr;
  double alpha = 0, beta = 1;
};
PetscErrorCode stencilRows(Context &c, Vec x, Vec y, double *dot_out, const Affine &affine = {}) {
  PetscFunctionBeginUser;
  // On several ranks the ghost rows travel while the rows that do not need them are computed: the wait
  // for them was a sixth of the products' time on two ranks at 2e6 DOFs (-log_view, VecScatterEnd).
  // On one rank every row is of the first kind, in order.
  const PetscScalar *xo, *xghost = nullptr;
  PetscScalar *yo = nullptr;
  const PetscScalar *vo = nullptr;
  PetscCall(VecGetArrayRead(x, &xo));
  if (c.exchange) PetscCall(c.exchange->begin(xo));
  if (y) PetscCall(VecGetArrayWrite(y, &yo));
  if (affine.v) PetscCall(VecGetArrayRead(affine.v, &vo));
  const PetscInt S = 2 * PetscInt(c.mx + 1);
  if (!y) c.row_buffer.resize(size_t(S));
  const bool below = c.y_begin > 0; // the ghosts hold the node row below (if any), then the one above
  auto needsGhosts = [&](int k) {
    const int yg = c.y_begin + k;
    return (k == 0 && yg > 0) || (k + 1 == c.rows && yg < c.my);
  };
  auto row = [&](int k) {
    const int yg = c.y_begin + k;
    const double *in[3];
    in[0] = yg == 0 ? nullptr : k > 0 ? xo + PetscInt(k - 1) * S : xghost;
    in[1] = xo + PetscInt(k) * S;
    in[2] = yg == c.my ? nullptr : k + 1 < c.rows ? xo + PetscInt(k + 1) * S : xghost + (below ? S : 0);
    const int rc = yg == 0 ? 0 : yg == c.my ? 2 : 1;
    double *out = y ? yo + PetscInt(k) * S : c.row_buffer.data();
    const double dot = stencilRow(c, rc, in, out);
    if (vo) { // VecAXPBY's expression, so the result is the same to the bit as MatMult then VecAXPBY
      const double *vk = vo + PetscInt(k) * S, a = affine.alpha, b = affine.beta;
      for (PetscInt i = 0; i < S; ++i) out[i] = a * vk[i] + b * out[i];
    }
    return dot;
  };
  double dot = 0;
  for (int k = 0; k < c.rows; ++k)
    if (!needsGhosts(k)) dot += row(k);
  if (c.exchange) {
    PetscCall(c.exchange->end());
    xghost = c.exchange->ghosts();
    for (int k = 0; k < c.rows; ++k)
      if (needsGhosts(k)) dot += row(k);
  }
  if (affine.v) PetscCall(VecRestoreArrayRead(affine.v, &vo));
  if (y) PetscCall(VecRestoreArrayWrite(y, &yo));
  PetscCall(VecRestoreArrayRead(x, &xo));
  // Logged as the element products it sums (bench/Traffic.cpp tells products apart by their flops).
  PetscCall(PetscLogFlops(128.0 * double(c.ey1 - c.ey0 + 1) * c.mx));
  *dot_out = dot;
  PetscFunctionReturn(0);
}

PetscErrorCode multStencil(Mat A, Vec x, Vec y) {
  Context *ctx;
  PetscFunctionBeginUser;
  PetscCall(MatShellGetContext(A, &ctx));
  PetscCall(stencilRows(*ctx, x, y, &ctx->last_dot));
  PetscFunctionReturn(0);
}

// Lumped mass alone: the operator is its diagonal (a + c at frozen rows, as the element sum gives).
// A plain loop rather than VecPointwiseMult, so profiles count it as the MatMult it is.
PetscErrorCode multDiagonal(Mat A, Vec x, Vec y) {
  Context *ctx;
  PetscFunctionBeginUser;
  PetscCall(MatShellGetContext(A, &ctx));
  const PetscScalar *d, *xo;
  PetscScalar *yo;
  PetscCall(VecGetArrayRead(ctx->diagonal_vec, &d));
  PetscCall(VecGetArrayRead(x, &xo));
  PetscCall(VecGetArrayWrite(y, &yo));
  for (PetscInt i = 0, n = ctx->row1 - ctx->row0; i < n; ++i) yo[i] = d[i] * xo[i];
  PetscCall(VecRestoreArrayWrite(y, &yo));
  PetscCall(VecRestoreArrayRead(x, &xo));
  PetscCall(VecRestoreArrayRead(ctx->diagonal_vec, &d));
  PetscCall(PetscLogFlops(double(ctx->row1 - ctx->row0)));
  PetscFunctionReturn(0);
}

PetscErrorCode getDiagonal(Mat A, Vec d) {
  Context *ctx;
  PetscFunctionBeginUser;
  PetscCall(MatShellGetContext(A, &ctx));
  PetscCall(VecCopy(ctx->diagonal_vec, d));
  PetscFunctionReturn(0);
}

PetscErrorCode destroy(Mat A) {
  Context *ctx;
  PetscFunctionBeginUser;
  PetscCall(MatShellGetContext(A, &ctx));
  delete ctx; // NOLINT: the shell owns its context (see Context)
  PetscFunctionReturn(0);
}

// The stencil blocks (Context::stencil) from the element matrices: the block of node (x, y) and neighbour
// (x + dx, y + dy) sums the element blocks of the up to four elements holding both; frozen DOFs keep
// their identity row (times a + c) and contribute nothing to other rows.
void setupStencil(Context &c, const Beam &beam, const ElementMatrix &me, const ElementMatrix &ks, double a,
                  double cs) {
  const BeamMesh &mesh = beam.mesh();
  const BeamSpec &spec = beam.spec();
  const int mx = mesh.mx(), my = mesh.my();
  if (c.diagonal || !spec.element_thickness.empty() || mx < 4) return;
  // Whole node rows on every rank, or no rank takes the stencil: its reductions (multDot, quadraticForm)
  // are other MPI calls than the element path's, and with more ranks than node rows some ranks may own
  // whole rows and others not (mx = 4, my = 5 on 7 ranks).
  int whole = beam.nodeBegin() % (mx + 1) == 0 && beam.nodeEnd() % (mx + 1) == 0, all = 0;
  MPI_Allreduce(&whole, &all, 1, MPI_INT, MPI_MIN, beam.comm());
  if (!all) return;
  std::vector<char> frozen_column(size_t(mx + 1), 0);
  std::vector<int> frozen_count(size_t(mx + 1), 0);
  for (PetscInt f : beam.frozenDofs()) ++frozen_count[size_t(mesh.nodeXY(f / 2)[0])];
  for (int x = 0; x <= mx; ++x) {
    if (frozen_count[size_t(x)] == 0) continue;
    if (frozen_count[size_t(x)] != 2 * (my + 1) || (x != 0 && x != mx)) return; // not whole end columns
    frozen_column[size_t(x)] = 1;
  }
  c.stencil = true;
  c.my = my;
  c.y_begin = int(beam.nodeBegin() / (mx + 1));
  c.rows = int((beam.nodeEnd() - beam.nodeBegin()) / (mx + 1));
  const double t = spec.thickness;
  // Local node of grid offset (px, py) inside an element: counter-clockwise from the bottom-left.
  auto local = [](int px, int py) { return py == 0 ? px : 3 - px; };
  const int xs[5] = {0, 1, 2, mx - 1, mx}, ys[3] = {0, std::min(1, my), my};
  for (int cc = 0; cc < 5; ++cc)
    for (int rc = 0; rc < 3; ++rc) {
      const int x = xs[cc], y = ys[rc];
      for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) {
          double B[2][2] = {{0, 0}, {0, 0}};
          const int nx = x + dx, ny = y + dy;
          if (frozen_column[size_t(x)]) {
            if (dx == 0 && dy == 0) B[0][0] = B[1][1] = a + cs;
          } else if (nx >= 0 && nx <= mx && ny >= 0 && ny <= my && !frozen_column[size_t(nx)]) {
            for (int ey = y - 1; ey <= y; ++ey)
              for (int ex = x - 1; ex <= x; ++ex) {
                if (ex < 0 || ex >= mx || ey < 0 || ey >= my) continue;
                if (nx < ex || nx > ex + 1 || ny < ey || ny > ey + 1) continue;
                const int i = local(x - ex, y - ey), j = local(nx - ex, ny - ey);
                for (int p = 0; p < 2; ++p)
                  for (int q = 0; q < 2; ++q) {
                    const size_t k = size_t((2 * i + p) * 8 + 2 * j + q);
                    B[p][q] += t * (a * me[k] + cs * ks[k]);
                  }
              }
          }
          const int k = (dy + 1) * 3 + dx + 1;
          c.st_diag[cc][rc][k] = Pair{B[0][0], B[1][1]};
          c.st_cross[cc][rc][k] = Pair{B[0][1], B[1][0]};
        }
    }
}

} // namespace

namespace {

// The combined element matrix a M_e + c S_e (unit thickness, or the uniform one), column-major in the
// shell's local order, and whether it is diagonal (a lumped mass alone).
void setupElementMatrix(Context &ctx, const Beam &beam, const ElementMatrix &me, const ElementMatrix &ks, double a,
                        double c) {
  const BeamSpec &spec = beam.spec();
  const double uniform = spec.element_thickness.empty() ? spec.thickness : 1.0;
  ctx.diagonal = true;
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 8; ++j) {
      const size_t k = size_t(kLocal[i] * 8 + kLocal[j]);
      ctx.kc[8 * j + i] = uniform * (a * me[k] + c * ks[k]);
      if (i != j && ctx.kc[8 * j + i] != 0) ctx.diagonal = false;
    }
  for (int q = 0; q < 32; ++q) ctx.kp[q] = Pair{ctx.kc[2 * q], ctx.kc[2 * q + 1]};
  ctx.frozen_diagonal = a + c;
}

// The window of the nodes [node_begin, node_end): the element rows touching them, [y_first - 1, y_last]
// clipped to the beam (as in Beam::assemble), and the DOFs of node rows [ey0, ey1 + 1], [g0, g1),
// contiguous in the global numbering. For this rank (setupWindow) and every other (setupGhosts).
struct Window {
  int ey0, ey1;
  PetscInt g0, g1;
};
Window windowOf(const BeamMesh &mesh, PetscInt node_begin, PetscInt node_end) {
  const int y_first = mesh.nodeXY(node_begin)[1], y_last = mesh.nodeXY(node_end - 1)[1];
  const int ey0 = std::max(0, y_first - 1), ey1 = std::min(mesh.my() - 1, y_last);
  return {ey0, ey1, mesh.P(0, ey0, 0), mesh.P(mesh.mx(), ey1 + 1, 1) + 1};
}

// This rank's rows, the window of node rows its elements touch, the frozen DOFs and elements in it,
// per-element thicknesses.
void setupWindow(Context &ctx, const Beam &beam) {
  const BeamMesh &mesh = beam.mesh();
  const BeamSpec &spec = beam.spec();
  const int mx = mesh.mx();
  ctx.mx = mx;
  ctx.node_begin = beam.nodeBegin();
  ctx.node_end = beam.nodeEnd();
  ctx.row0 = 2 * beam.nodeBegin();
  ctx.row1 = 2 * beam.nodeEnd();
  const Window window = windowOf(mesh, beam.nodeBegin(), beam.nodeEnd());
  ctx.ey0 = window.ey0;
  ctx.ey1 = window.ey1;
  const PetscInt g0 = window.g0, g1 = window.g1;
  ctx.g0 = g0;
  ctx.frozen_window.assign(size_t(g1 - g0), 0);
  ctx.frozen_elements.resize(size_t(ctx.ey1 - ctx.ey0 + 1));
  for (PetscInt f : beam.frozenDofs()) {
    if (f < g0 || f >= g1) continue;
    ctx.frozen_window[size_t(f - g0)] = 1;
    const auto [nx, ny] = mesh.nodeXY(f / 2); // the up to four elements around the node
    for (int ey = std::max(ny - 1, ctx.ey0); ey <= std::min(ny, ctx.ey1); ++ey)
      for (int ex = std::max(nx - 1, 0); ex <= std::min(nx, mx - 1); ++ex)
        ctx.frozen_elements[size_t(ey - ctx.ey0)].push_back(ex);
  }
  for (auto &row : ctx.frozen_elements) {
    std::sort(row.begin(), row.end());
    row.erase(std::unique(row.begin(), row.end()), row.end());
  }
  if (!spec.element_thickness.empty())
    for (int ey = ctx.ey0; ey <= ctx.ey1; ++ey)
      for (int ex = 0; ex < mx; ++ex) ctx.thickness.push_back(spec.elementThickness(mesh.Q(ex, ey)));
  for (PetscInt f : beam.ownedFrozenDofs()) ctx.frozen_rows.push_back(f - ctx.row0);
}

// Ghosts: the window's DOFs owned by other ranks, below and above this rank's, fetched by GhostExchange
// (MesLib/GhostExchange.hpp). One rank has none. Every rank's window follows from its DOFs as in
// setupWindow, so each rank knows what the others need from it; creating the exchange is collective.
void setupGhosts(Context &ctx, const Beam &beam) {
  int ranks = 1;
  MPI_Comm_size(beam.comm(), &ranks);
  if (ranks == 1 || ctx.diagonal) return; // the lumped mass alone needs no neighbour
  const BeamMesh &mesh = beam.mesh();
  const PVec x = beam.createVector();
  const PetscInt *ranges;
  BEAM_PETSC(VecGetOwnershipRanges(x, &ranges));
  std::vector<PetscInt> ownership(ranges, ranges + ranks + 1);
  auto window = [&](int q) {
    const PetscInt first = ownership[size_t(q)], last = ownership[size_t(q) + 1]; // DOFs, whole nodes
    const Window w = windowOf(mesh, first / 2, last / 2);
    std::vector<GhostExchange::Range> ghosts;
    if (w.g0 < first) ghosts.emplace_back(w.g0, first);
    if (last < w.g1) ghosts.emplace_back(last, w.g1);
    return ghosts;
  };
  ctx.exchange = std::make_unique<GhostExchange>(beam.comm(), ownership, window); // a copy: window reads it
  // The vectors' ownership is the beam's partition, so this rank's ghosts are its window's.
  const Window mine = windowOf(mesh, beam.nodeBegin(), beam.nodeEnd());
  if (ctx.exchange->ghostCount() != (ctx.row0 - mine.g0) + (mine.g1 - ctx.row1))
    throw runError("matrix-free operator: the ghost exchange does not match the window");
}

// Diagonal: element diagonals summed into owned rows; a + c at frozen rows.
void setupDiagonal(Context &ctx, const Beam &beam) {
  const BeamMesh &mesh = beam.mesh();
  ctx.diagonal_vec = beam.createVector();
  PetscScalar *dg;
  BEAM_PETSC(VecGetArray(ctx.diagonal_vec, &dg));
  std::fill(dg, dg + (ctx.row1 - ctx.row0), 0.0);
  for (int ey = ctx.ey0; ey <= ctx.ey1; ++ey)
    for (int ex = 0; ex < ctx.mx; ++ex) {
      const PetscInt a0 = mesh.P(ex, ey, 0), b0 = mesh.P(ex, ey + 1, 0);
      const double t = ctx.thickness.empty() ? 1.0 : ctx.thickness[size_t(ey - ctx.ey0) * size_t(ctx.mx) + size_t(ex)];
      for (int k = 0; k < 8; ++k) {
        const PetscInt d = (k < 4 ? a0 : b0 - 4) + k;
        if (d >= ctx.row0 && d < ctx.row1) dg[d - ctx.row0] += t * ctx.kc[9 * k];
      }
    }
  for (PetscInt i : ctx.frozen_rows) dg[i] = ctx.frozen_diagonal;
  BEAM_PETSC(VecRestoreArray(ctx.diagonal_vec, &dg));
}

// y = A x and x . y for the stencil product, the dot from the product's own pass (multDot, common/Petsc.hpp).
PetscErrorCode multDotStencil(Mat A, Vec x, Vec y, PetscReal *dot) {
  Context *ctx;
  PetscFunctionBeginUser;
  PetscCall(MatMult(A, x, y));
  PetscCall(MatShellGetContext(A, &ctx));
  const double local = ctx->last_dot;
  PetscCallMPI(MPI_Allreduce(&local, dot, 1, MPIU_REAL, MPI_SUM, PetscObjectComm(PetscObject(A))));
  PetscFunctionReturn(0);
}

// y = alpha v + beta A x for the stencil (multAffine, common/Petsc.hpp), under its own log event (not a
// MatMult: bench/Traffic.cpp charges it a product plus one read of v).
PetscErrorCode multAffineStencil(Mat A, Vec x, PetscScalar alpha, PetscScalar beta, Vec v, Vec y) {
  static PetscLogEvent event = -1;
  Context *ctx;
  PetscFunctionBeginUser;
  PetscCall(registerLogEvent("StencilAffine", &event)); // at first use
  PetscCall(MatShellGetContext(A, &ctx));
  if (x == y || v == y) SETERRQ(PETSC_COMM_SELF, PETSC_ERR_ARG_IDN, "multAffine needs y other than x and v");
  PetscCall(PetscLogEventBegin(event, A, x, v, y));
  PetscCall(stencilRows(*ctx, x, y, &ctx->last_dot, Affine{v, alpha, beta}));
  PetscCall(PetscLogEventEnd(event, A, x, v, y));
  PetscFunctionReturn(0);
}

// x'Ax for the stencil, a row at a time (quadraticForm, common/Petsc.hpp). Its own log event: it reads x
// only, where a MatMult also writes (bench/Traffic.cpp charges the two apart).
PetscErrorCode quadraticFormStencil(Mat A, Vec x, PetscReal *value) {
  static PetscLogEvent event = -1;
  Context *ctx;
  PetscFunctionBeginUser;
  PetscCall(registerLogEvent("StencilQuadForm", &event));
  PetscCall(MatShellGetContext(A, &ctx));
  PetscCall(PetscLogEventBegin(event, A, x, 0, 0));
  double local = 0;
  PetscCall(stencilRows(*ctx, x, nullptr, &local));
  PetscCallMPI(MPI_Allreduce(&local, value, 1, MPIU_REAL, MPI_SUM, PetscObjectComm(PetscObject(A))));
  PetscCall(PetscLogEventEnd(event, A, x, 0, 0));
  PetscFunctionReturn(0);
}

} // namespace

PMat matrixFreeOperator(const Beam &beam, double a, double c) {
  auto ctx = std::make_unique<Context>();
  const ElementMatrix me = beam.elementMass(), ks = beam.elementStiffness();
  setupElementMatrix(*ctx, beam, me, ks, a, c);
  setupWindow(*ctx, beam);
  setupGhosts(*ctx, beam);
  setupDiagonal(*ctx, beam);
  setupStencil(*ctx, beam, me, ks, a, c);

  PMat A;
  const PetscInt n = ctx->row1 - ctx->row0, N = beam.mesh().dofCount();
  const bool diagonal = ctx->diagonal, stencil = ctx->stencil;
  BEAM_PETSC(MatCreateShell(beam.comm(), n, n, N, N, ctx.get(), A.out()));
  ctx.release(); // owned by the shell from here on
  BEAM_PETSC(MatShellSetOperation(A, MATOP_MULT, diagonal        ? (void (*)(void))multDiagonal
                                                 : stencil       ? (void (*)(void))multStencil
                                                                 : (void (*)(void))mult));
  BEAM_PETSC(MatShellSetOperation(A, MATOP_GET_DIAGONAL, (void (*)(void))getDiagonal));
  BEAM_PETSC(MatShellSetOperation(A, MATOP_DESTROY, (void (*)(void))destroy));
  if (stencil && !diagonal) {
    BEAM_PETSC(PetscObjectComposeFunction(PetscObject(A.get()), kMultDotFunction, multDotStencil));
    BEAM_PETSC(PetscObjectComposeFunction(PetscObject(A.get()), kQuadraticFormFunction, quadraticFormStencil));
    BEAM_PETSC(PetscObjectComposeFunction(PetscObject(A.get()), kMultAffineFunction, multAffineStencil));
  }
  BEAM_PETSC(MatSetOption(A, MAT_SYMMETRIC, PETSC_TRUE));
  return A;
}

} // namespace beam
