// The beam as the operator the time schemes see: M, S and f with frozen DOFs applied, either assembled
// (MATAIJ) or matrix-free (element-by-element shells, see MatrixFreeOperator.hpp).
#pragma once
#include <cstdint>
#include <string>

#include "MesLib/Beam.hpp"
#include "solvers/SecondOrderSystem.hpp"

namespace beam {

enum class OperatorKind { Assembled, MatrixFree };
const char *operatorName(OperatorKind k);
OperatorKind parseOperator(const std::string &name); // "assembled" | "matfree"

// Bytes a run on this beam needs at least (all ranks together): the assembled M and S (18 nonzeros per
// row, value and column index) or none matrix-free, a Cholesky factor for the direct solver (the
// smaller of a band across the short side and nested dissection's fill), and some 16 vectors.
std::uint64_t estimatedRunBytes(const BeamSpec &spec, OperatorKind kind, bool direct_solver);
// Refuses (input error with the estimate) a run that cannot fit in the memory this machine has available.
void checkMemory(const BeamSpec &spec, OperatorKind kind, bool direct_solver);

// The returned system refers to `beam` (matrix-free operators are built from it on demand), so the
// beam must outlive it.
SecondOrderSystem beamSystem(const Beam &beam, OperatorKind kind = OperatorKind::Assembled);

// Rayleigh damping C = alpha M + beta S (alpha, beta >= 0; nothing for 0, 0) added to a beamSystem:
// assembled, C has zero rows and columns at the frozen DOFs; matrix-free, C is the composite
// alpha M + beta S and the system's combinations fold it into M and S.
void addRayleighDamping(SecondOrderSystem &system, const Beam &beam, double alpha, double beta);

} // namespace beam
