#include "MesLib/KroneckerCG.hpp"

#include "common/LargeVector.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

namespace beam {
namespace {

// x += alpha p, r -= alpha q in one pass.
void updateIterate(double alpha, Vec p, Vec q, Vec x, Vec r) {
  static PetscLogEvent event = -1; // PETSc log events of the fused loops (bench/Traffic.cpp charges them)
  BEAM_PETSC(registerLogEvent("KronCGUpdate", &event));
  BEAM_PETSC(PetscLogEventBegin(event, x, r, 0, 0));
  const PetscScalar *pv, *qv;
  PetscScalar *xv, *rv;
  PetscInt n;
  BEAM_PETSC(VecGetLocalSize(x, &n));
  BEAM_PETSC(VecGetArrayRead(p, &pv));
  BEAM_PETSC(VecGetArrayRead(q, &qv));
  BEAM_PETSC(VecGetArray(x, &xv));
  BEAM_PETSC(VecGetArray(r, &rv));
  for (PetscInt i = 0; i < n; ++i) {
    xv[i] += alpha * pv[i];
    rv[i] -= alpha * qv[i];
  }
  BEAM_PETSC(VecRestoreArray(r, &rv));
  BEAM_PETSC(VecRestoreArray(x, &xv));
  BEAM_PETSC(VecRestoreArrayRead(q, &qv));
  BEAM_PETSC(VecRestoreArrayRead(p, &pv));
  BEAM_PETSC(PetscLogEventEnd(event, x, r, 0, 0));
}

// r = b - q and b . x (global) in one pass.
double residualAndDot(Vec b, Vec q, Vec x, Vec r) {
  static PetscLogEvent event = -1;
  BEAM_PETSC(registerLogEvent("KronCGResidual", &event));
  BEAM_PETSC(PetscLogEventBegin(event, b, r, 0, 0));
  const PetscScalar *bv, *qv, *xv;
  PetscScalar *rv;
  PetscInt n;
  BEAM_PETSC(VecGetLocalSize(x, &n));
  BEAM_PETSC(VecGetArrayRead(b, &bv));
  BEAM_PETSC(VecGetArrayRead(q, &qv));
  BEAM_PETSC(VecGetArrayRead(x, &xv));
  BEAM_PETSC(VecGetArrayWrite(r, &rv));
  double part[4] = {0, 0, 0, 0}; // four partial sums: one would wait on the adder's latency every entry
  PetscInt i = 0;
  for (; i + 4 <= n; i += 4)
    for (int k = 0; k < 4; ++k) {
      rv[i + k] = bv[i + k] - qv[i + k];
      part[k] += bv[i + k] * xv[i + k];
    }
  for (; i < n; ++i) {
    rv[i] = bv[i] - qv[i];
    part[0] += bv[i] * xv[i];
  }
  const double local = (part[0] + part[1]) + (part[2] + part[3]);
  BEAM_PETSC(VecRestoreArrayWrite(r, &rv));
  BEAM_PETSC(VecRestoreArrayRead(x, &xv));
  BEAM_PETSC(VecRestoreArrayRead(q, &qv));
  BEAM_PETSC(VecRestoreArrayRead(b, &bv));
  BEAM_PETSC(PetscLogEventEnd(event, b, r, 0, 0));
  double global = 0;
  MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_SUM, PetscObjectComm(PetscObject(x)));
  return global;
}

// r = b, x = 0 in one pass (the residual of the zero start).
void startFromZero(Vec b, Vec x, Vec r) {
  static PetscLogEvent event = -1;
  BEAM_PETSC(registerLogEvent("KronCGStart", &event));
  BEAM_PETSC(PetscLogEventBegin(event, b, r, 0, 0));
  const PetscScalar *bv;
  PetscScalar *xv, *rv;
  PetscInt n;
  BEAM_PETSC(VecGetLocalSize(x, &n));
  BEAM_PETSC(VecGetArrayRead(b, &bv));
  BEAM_PETSC(VecGetArrayWrite(x, &xv));
  BEAM_PETSC(VecGetArrayWrite(r, &rv));
  for (PetscInt i = 0; i < n; ++i) {
    rv[i] = bv[i];
    xv[i] = 0;
  }
  BEAM_PETSC(VecRestoreArrayWrite(r, &rv));
  BEAM_PETSC(VecRestoreArrayWrite(x, &xv));
  BEAM_PETSC(VecRestoreArrayRead(b, &bv));
  BEAM_PETSC(PetscLogEventEnd(event, b, r, 0, 0));
}

} // namespace

KroneckerCG::KroneckerCG(Mat A, std::shared_ptr<const KroneckerMassInverse> inverse) : inverse_(std::move(inverse)) {
  BEAM_PETSC(PetscObjectReference(PetscObject(A)));
  A_ = PMat(A);
  PetscInt n, N;
  BEAM_PETSC(MatGetLocalSize(A, &n, nullptr));
  BEAM_PETSC(MatGetSize(A, &N, nullptr));
  for (PVec *v : {&r_, &z_, &p_, &q_}) *v = createVectorMPI(PetscObjectComm(PetscObject(A)), n, N); // LargeVector.hpp
  // Logged as PETSc's own events, so profiles and the benchmark's counts (bench/Traffic.hpp) see them.
  BEAM_PETSC(PetscLogEventGetId("KSPSolve", &solve_event_));
  BEAM_PETSC(PetscLogEventGetId("PCApply", &pc_event_));
}

PetscInt KroneckerCG::solve(Vec b, Vec x, double rtol, PetscInt max_it, bool from_zero) {
  if (solve_event_ >= 0) BEAM_PETSC(PetscLogEventBegin(solve_event_, A_.get(), b, x, 0));
  auto precondition = [&](Vec r, Vec z) {
    if (pc_event_ >= 0) BEAM_PETSC(PetscLogEventBegin(pc_event_, 0, r, z, 0));
    const double rz = inverse_->applyDot(r, z);
    if (pc_event_ >= 0) BEAM_PETSC(PetscLogEventEnd(pc_event_, 0, r, z, 0));
    return rz;
  };
  Vec r = r_, q = q_;
  Vec z = z_, p = p_; // swapped, not copied, where p = z
  double bx = 0; // b . x0
  if (from_zero) {
    startFromZero(b, x, r);
  } else {
    BEAM_PETSC(MatMult(A_, x, q));
    bx = residualAndDot(b, q, x, r);
  }
  double rz = precondition(r, z);
  const double tol2 = rtol * rtol * std::max(bx, rz);
  PetscInt its = 0;
  bool converged = rz <= tol2;
  const bool fused = inverse_->fusable();
  std::swap(p, z); // p_0 = z_0
  while (!converged && its < max_it) {
    ++its;
    const double pq = multDot(A_, p, q);
    if (!(pq > 0)) throw runError("Kronecker CG: p'Ap = " + std::to_string(pq) + " (operator not positive definite)");
    const double alpha = rz / pq;
    if (fused) {
      // r -= alpha q with the forward half (z's first stage in z's vector), r'z from it; then, unless
      // converged, x += alpha p and p = z + beta p with the backward half.
      if (pc_event_ >= 0) BEAM_PETSC(PetscLogEventBegin(pc_event_, 0, r, z, 0));
      const double rz_next = inverse_->residualForward(alpha, q, r, z);
      if (pc_event_ >= 0) BEAM_PETSC(PetscLogEventEnd(pc_event_, 0, r, z, 0));
      converged = rz_next <= tol2;
      if (converged) {
        BEAM_PETSC(VecAXPY(x, alpha, p));
        break;
      }
      inverse_->directionBackward(z, alpha, rz_next / rz, p, x);
      rz = rz_next;
      continue;
    }
    updateIterate(alpha, p, q, x, r);
    const double rz_next = precondition(r, z);
    converged = rz_next <= tol2;
    if (converged) break;
    BEAM_PETSC(VecAYPX(p, rz_next / rz, z)); // p = z + beta p
    rz = rz_next;
  }
  if (solve_event_ >= 0) BEAM_PETSC(PetscLogEventEnd(solve_event_, A_.get(), b, x, 0));
  return converged ? its : -its;
}

} // namespace beam
