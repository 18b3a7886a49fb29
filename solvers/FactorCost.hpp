// What a direct factorization of a sparse matrix would cost, estimated from its pattern alone: the
// floating-point work of a Cholesky factorization of the pattern under PETSc's nested dissection
// ordering (the LU of a structurally symmetric matrix does twice that). The pattern is taken as
// symmetric (MatGetRowIJ mirrors the lower triangle), as a Jacobian of springs is. Newton's default
// linear solver (ImplicitTheta) compares it with the matrix's size to choose between a direct LU and
// GMRES with multigrid: the LU's fill grows with the network's dimension (a chain has none, a cloth
// much), so a count of unknowns alone chose an LU 8x slower than multigrid on a 64x64 cloth.
#pragma once
#include <petscmat.h>

namespace beam {

// Collective on A's communicator. The whole pattern is gathered on every rank and ordered there, in
// the global numbering, so every rank count gets the same number (a choice made from it does not
// depend on the partition). Meant for matrices of at most tens of thousands of rows.
double choleskyFlops(Mat A);

} // namespace beam
