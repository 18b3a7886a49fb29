// a M + c S of the beam applied element by element, without a global matrix: the course's "multiply
// as a function", as a PETSc MatShell. Frozen DOFs behave as in the assembled matrices (identity rows
// and columns in M and S): the result there is (a + c) x_i and frozen values do not reach other rows.
// MatGetDiagonal is provided, so CG with Jacobi runs on it. When a M + c S is diagonal (the lumped mass
// alone), the product is that diagonal times x.
#pragma once
#include "MesLib/Beam.hpp"

namespace beam {

// The stencil product composes its fused y = A x, x . y (multDot, common/Petsc.hpp).
PMat matrixFreeOperator(const Beam &beam, double a, double c);

} // namespace beam
