// Conjugate gradients on a matrix-free beam operator A = a M + b C + c S preconditioned by the exact
// Kronecker inverse of the consistent mass (KroneckerMass.hpp), with the vector work fused: the product
// returns p'Ap from its own pass (multDot). On one or two ranks (KroneckerMassInverse::fusable) the rest of
// an iteration is two passes: r -= alpha q with the inverse's forward half, which also gives r'z, then
// the backward half with x += alpha p and p = z + beta p, z never stored: per iteration the product's 2
// passes over the state plus 4 (read r, q; write r, w) and 5 (read w, p, x; write p, x), against 2 + 14
// unfused (x, r update 6, the inverse with its dot 5, p = z + beta p 3), which more ranks still take.
//
// The iteration is PETSc's KSPCG with the natural norm (LinearSolver's CG): the same recurrences, the
// same test ||r_k||_P = sqrt(r_k'z_k). Its reference differs: PETSc applies the preconditioner to b once
// more per solve for ||b||_P; here it is sqrt(max(b'x0, r0'z0)), which is ||x*||_A up to the error of
// the starting guess (b'x* = ||x*||_A^2, and P = (aM)^-1 is A^-1 to a factor 1 + (c/a) lambda_max(M^-1 S)),
// and ||b||_P itself when x0 = 0.
#pragma once
#include <memory>

#include "MesLib/KroneckerMass.hpp"

namespace beam {

class KroneckerCG {
public:
  KroneckerCG(Mat A, std::shared_ptr<const KroneckerMassInverse> inverse);
  // Solves A x = b from the x given, or from x = 0 (from_zero: x's values are ignored and the start
  // needs no product); returns the iterations, negated when max_it passed unconverged.
  PetscInt solve(Vec b, Vec x, double rtol, PetscInt max_it, bool from_zero);

private:
  PMat A_;
  std::shared_ptr<const KroneckerMassInverse> inverse_;
  PVec r_, z_, p_, q_;
  PetscLogEvent solve_event_ = -1, pc_event_ = -1;
};

} // namespace beam
