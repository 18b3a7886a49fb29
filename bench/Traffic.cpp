#include "bench/Traffic.hpp"

#include <petsclog.h>

#include <algorithm>
#include <utility>

namespace beam::bench {

namespace {

// This rank's count and flops of one event in one stage.
std::pair<double, double> eventInStage(PetscLogStage stage, const char *name) {
  PetscLogEvent event = -1;
  BEAM_PETSC(PetscLogEventGetId(name, &event));
  if (event < 0) return {0.0, 0.0}; // not registered in this PETSc
  PetscEventPerfInfo info;
  BEAM_PETSC(PetscLogEventGetPerfInfo(stage, event, &info));
  return {double(info.count), double(info.flops)};
}

// Vector operations and the passes over n entries each one makes (reads + writes).
constexpr std::pair<const char *, double> kVectorPasses[] = {
    {"VecDot", 2},   {"VecTDot", 2}, {"VecNorm", 1},          {"VecCopy", 2},       {"VecSet", 1},
    {"VecAXPY", 3},  {"VecAYPX", 3}, {"VecAXPBY", 3},         {"VecAXPBYCZ", 4},    {"VecWAXPY", 3},
    {"VecScale", 2}, {"VecSwap", 4}, {"VecPointwiseMult", 3}, {"VecReciprocal", 2},
    // The Kronecker path (MesLib/KroneckerMass.cpp, KroneckerCG.cpp): the mass inverse reads r and writes
    // z, then reads and writes z (its dot variant reads r once more); CG's fused loops read x, p, r, q
    // and write x, r, or read b, q, x and write r, or (a start from zero) read b and write r, x.
    {"KronSweep", 4}, {"KronSweepDot", 5}, {"KronCGUpdate", 6}, {"KronCGResidual", 4}, {"KronCGStart", 3},
    // Its fused iteration on one or two ranks: r -= alpha q with the forward half (reads r, q, writes r, w),
    // then the backward half with the direction and iterate (reads w, p, x, writes p, x).
    {"KronResidualForward", 4}, {"KronDirectionBackward", 5},
    // The stencil's x'Ax without storing Ax (MesLib/MatrixFreeOperator.cpp): reads x once (its ghost
    // rows, two node rows per rank, are left out).
    {"StencilQuadForm", 1},
    // Its y = alpha v + beta A x: the product's passes (as a MatMult is charged below: 4) plus v read.
    {"StencilAffine", 5},
};
// Operations on k vectors at once (KSPGuess Fischer, GMRES): k is read off the logged flops, 2 k n.
// VecMDot reads x and the k vectors (k + 1 passes), VecMAXPY reads y and the k vectors and writes y.
constexpr std::pair<const char *, double> kMultiVectorPasses[] = {{"VecMDot", 1}, {"VecMAXPY", 2}};

} // namespace

StageCounts stageCounts(PetscLogStage stage, PetscInt n) {
  StageCounts c;
  std::tie(c.matmult, c.matmult_flops) = eventInStage(stage, "MatMult");
  c.products = c.matmult + eventInStage(stage, "StencilAffine").first + eventInStage(stage, "StencilQuadForm").first;
  std::tie(c.matsolve, c.matsolve_flops) = eventInStage(stage, "MatSolve");
  c.kspsolve = eventInStage(stage, "KSPSolve").first;
  c.pcapply = eventInStage(stage, "PCApply").first;
  for (const auto &[name, passes] : kVectorPasses) c.vector_passes += passes * eventInStage(stage, name).first;
  for (const auto &[name, extra] : kMultiVectorPasses) {
    const auto [count, flops] = eventInStage(stage, name);
    c.vector_passes += (n > 0 ? flops / (2.0 * double(n)) : 0.0) + extra * count;
  }
  return c;
}

Traffic estimateTraffic(const Beam &beam, const SecondOrderSystem &system, OperatorKind kind,
                        const StageCounts &c) {
  PetscInt n;
  BEAM_PETSC(VecGetLocalSize(system.load, &n));
  const double nd = double(n);
  Traffic t;
  t.vector_bytes = 8.0 * nd * c.vector_passes;
  if (kind == OperatorKind::Assembled) {
    MatInfo info;
    BEAM_PETSC(MatGetInfo(system.stiffness, MAT_LOCAL, &info));
    const double per_product =
        info.nz_used * (8.0 + sizeof(PetscInt)) + (nd + 1) * double(sizeof(PetscInt)) + 16.0 * nd;
    t.product_bytes = c.matmult * per_product;
  } else {
    // The rank's window as MatrixFreeOperator builds it: element rows [ey0, ey1], node rows [ey0, ey1 + 1];
    // the window's DOFs outside the owned rows are the ghosts.
    const BeamMesh &mesh = beam.mesh();
    const int y_first = mesh.nodeXY(beam.nodeBegin())[1], y_last = mesh.nodeXY(beam.nodeEnd() - 1)[1];
    const int ey0 = std::max(0, y_first - 1), ey1 = std::min(mesh.my() - 1, y_last);
    const double elements = double(ey1 - ey0 + 1) * mesh.mx();
    const double ghosts = 2.0 * double(ey1 - ey0 + 2) * (mesh.mx() + 1) - nd;
    const double element_flops = 128.0 * elements, diagonal_flops = nd;
    // matmult = e + d products, matmult_flops = e element_flops + d diagonal_flops.
    const double diagonal_products = std::clamp(
        (c.matmult * element_flops - c.matmult_flops) / (element_flops - diagonal_flops), 0.0, c.matmult);
    const double element_products = c.matmult - diagonal_products;
    const double thickness = beam.spec().element_thickness.empty() ? 0.0 : 8.0 * elements;
    t.product_bytes = element_products * (8.0 * (4 * nd + 2 * ghosts) + thickness) + diagonal_products * 24.0 * nd;
  }
  t.solve_bytes = 4.0 * c.matsolve_flops;
  double mine[3] = {t.vector_bytes, t.product_bytes, t.solve_bytes}, all[3];
  MPI_Allreduce(mine, all, 3, MPI_DOUBLE, MPI_SUM, beam.comm());
  t.vector_bytes = all[0];
  t.product_bytes = all[1];
  t.solve_bytes = all[2];
  t.bytes = all[0] + all[1] + all[2];
  return t;
}

} // namespace beam::bench
