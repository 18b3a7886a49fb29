#include "MesLib/MatrixFreeOperator.hpp"

#include <algorithm>
#include <memory>
#include <vector>

namespace beam {
namespace {

// State of one shell operator. The Mat owns it: created by matrixFreeOperator, deleted by the shell's
// MATOP_DESTROY callback.
struct Context {
  ElementMatrix ke{};              // a Me + c Ke at unit thickness
  double frozen_diagonal = 0;      // a + c
  std::vector<PetscInt> dofs;      // per element: 8 indices into the ghosted local vector
  std::vector<PetscInt> rows;      // per element: 8 owned local rows, or -1 (not owned or frozen)
  std::vector<double> thickness;   // per element
  std::vector<char> frozen_local;  // per ghosted local DOF: 1 = frozen (its value counts as 0)
  std::vector<PetscInt> frozen_rows; // owned local rows that are frozen
  PScatter scatter;                // global -> ghosted local
  PVec ghosted;
  PVec diagonal;
};

PetscErrorCode mult(Mat A, Vec x, Vec y) {
  Context *ctx;
  PetscFunctionBeginUser;
  PetscCall(MatShellGetContext(A, &ctx));
  PetscCall(VecScatterBegin(ctx->scatter, x, ctx->ghosted, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecScatterEnd(ctx->scatter, x, ctx->ghosted, INSERT_VALUES, SCATTER_FORWARD));
  const PetscScalar *xl, *xo;
  PetscScalar *yo;
  PetscCall(VecGetArrayRead(ctx->ghosted, &xl));
  PetscCall(VecGetArrayRead(x, &xo));
  PetscCall(VecGetArrayWrite(y, &yo));
  PetscInt n;
  PetscCall(VecGetLocalSize(y, &n));
  std::fill(yo, yo + n, 0.0);
  const size_t elements = ctx->thickness.size();
  const double *ke = ctx->ke.data();
  for (size_t e = 0; e < elements; ++e) {
    const PetscInt *d = &ctx->dofs[8 * e];
    const PetscInt *r = &ctx->rows[8 * e];
    double ue[8];
    for (int j = 0; j < 8; ++j) ue[j] = ctx->frozen_local[size_t(d[j])] ? 0.0 : xl[d[j]];
    const double t = ctx->thickness[e];
    for (int i = 0; i < 8; ++i) {
      if (r[i] < 0) continue;
      double s = 0;
      for (int j = 0; j < 8; ++j) s += ke[i * 8 + j] * ue[j];
      yo[r[i]] += t * s;
    }
  }
  for (PetscInt i : ctx->frozen_rows) yo[i] = ctx->frozen_diagonal * xo[i];
  PetscCall(VecRestoreArrayWrite(y, &yo));
  PetscCall(VecRestoreArrayRead(x, &xo));
  PetscCall(VecRestoreArrayRead(ctx->ghosted, &xl));
  PetscCall(PetscLogFlops(128.0 * double(elements)));
  PetscFunctionReturn(0);
}

PetscErrorCode getDiagonal(Mat A, Vec d) {
  Context *ctx;
  PetscFunctionBeginUser;
  PetscCall(MatShellGetContext(A, &ctx));
  PetscCall(VecCopy(ctx->diagonal, d));
  PetscFunctionReturn(0);
}

PetscErrorCode destroy(Mat A) {
  Context *ctx;
  PetscFunctionBeginUser;
  PetscCall(MatShellGetContext(A, &ctx));
  delete ctx; // NOLINT: the shell owns its context (see Context)
  PetscFunctionReturn(0);
}

} // namespace

PMat matrixFreeOperator(const Beam &beam, double a, double c) {
  auto ctx = std::make_unique<Context>();
  const BeamMesh &mesh = beam.mesh();
  const ElementMatrix me = beam.elementMass(), ks = beam.elementStiffness();
  for (size_t k = 0; k < 64; ++k) ctx->ke[k] = a * me[k] + c * ks[k];
  ctx->frozen_diagonal = a + c;

  const PetscInt row0 = 2 * beam.nodeBegin(), row1 = 2 * beam.nodeEnd();
  const int mx = mesh.mx(), my = mesh.my();
  // Elements touching owned nodes lie in element rows [y_first - 1, y_last] (as in Beam::assemble).
  const int y_first = mesh.nodeXY(beam.nodeBegin())[1], y_last = mesh.nodeXY(beam.nodeEnd() - 1)[1];
  const int ey0 = std::max(0, y_first - 1), ey1 = std::min(my - 1, y_last);
  // Ghosted local numbering: the DOFs of node rows [ey0, ey1 + 1], contiguous in the global numbering.
  const PetscInt g0 = mesh.P(0, ey0, 0), g1 = mesh.P(mx, ey1 + 1, 1) + 1;
  std::vector<char> frozen_global_window(size_t(g1 - g0), 0);
  for (PetscInt f : beam.frozenDofs())
    if (f >= g0 && f < g1) frozen_global_window[size_t(f - g0)] = 1;
  ctx->frozen_local = frozen_global_window;
  for (int ey = ey0; ey <= ey1; ++ey)
    for (int ex = 0; ex < mx; ++ex) {
      const auto dofs = mesh.elementDofs(ex, ey);
      bool touches = false;
      for (PetscInt d : dofs) touches |= (d >= row0 && d < row1);
      if (!touches) continue;
      for (PetscInt d : dofs) {
        ctx->dofs.push_back(d - g0);
        const bool owned = d >= row0 && d < row1 && !frozen_global_window[size_t(d - g0)];
        ctx->rows.push_back(owned ? d - row0 : -1);
      }
      ctx->thickness.push_back(beam.spec().elementThickness(mesh.Q(ex, ey)));
    }
  for (PetscInt f : beam.ownedFrozenDofs()) ctx->frozen_rows.push_back(f - row0);

  PVec x = beam.createVector();
  BEAM_PETSC(VecCreateSeq(PETSC_COMM_SELF, g1 - g0, ctx->ghosted.out()));
  PIS from;
  BEAM_PETSC(ISCreateStride(PETSC_COMM_SELF, g1 - g0, g0, 1, from.out()));
  BEAM_PETSC(VecScatterCreate(x, from, ctx->ghosted, nullptr, ctx->scatter.out()));

  // Diagonal: element diagonals summed into owned rows; a + c at frozen rows.
  ctx->diagonal = beam.createVector();
  {
    PetscScalar *dg;
    BEAM_PETSC(VecGetArray(ctx->diagonal, &dg));
    std::fill(dg, dg + (row1 - row0), 0.0);
    for (size_t e = 0; e < ctx->thickness.size(); ++e)
      for (int i = 0; i < 8; ++i)
        if (ctx->rows[8 * e + size_t(i)] >= 0) dg[ctx->rows[8 * e + size_t(i)]] += ctx->thickness[e] * ctx->ke[size_t(i * 9)];
    for (PetscInt i : ctx->frozen_rows) dg[i] = ctx->frozen_diagonal;
    BEAM_PETSC(VecRestoreArray(ctx->diagonal, &dg));
  }

  PMat A;
  const PetscInt n = row1 - row0;
  BEAM_PETSC(MatCreateShell(beam.comm(), n, n, mesh.dofCount(), mesh.dofCount(), ctx.get(), A.out()));
  ctx.release(); // owned by the shell from here on
  BEAM_PETSC(MatShellSetOperation(A, MATOP_MULT, (void (*)(void))mult));
  BEAM_PETSC(MatShellSetOperation(A, MATOP_GET_DIAGONAL, (void (*)(void))getDiagonal));
  BEAM_PETSC(MatShellSetOperation(A, MATOP_DESTROY, (void (*)(void))destroy));
  BEAM_PETSC(MatSetOption(A, MAT_SYMMETRIC, PETSC_TRUE));
  return A;
}

} // namespace beam
