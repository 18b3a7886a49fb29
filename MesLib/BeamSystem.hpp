// The beam as the operator the time schemes see: M, S and f with frozen DOFs applied, either assembled
// (MATAIJ) or matrix-free (element-by-element shells, see MatrixFreeOperator.hpp).
#pragma once
#include <string>

#include "MesLib/Beam.hpp"
#include "solvers/SecondOrderSystem.hpp"

namespace beam {

enum class OperatorKind { Assembled, MatrixFree };
const char *operatorName(OperatorKind k);
OperatorKind parseOperator(const std::string &name); // "assembled" | "matfree"

// The returned system refers to `beam` (matrix-free operators are built from it on demand), so the
// beam must outlive it.
SecondOrderSystem beamSystem(const Beam &beam, OperatorKind kind = OperatorKind::Assembled);

// Rayleigh damping C = alpha M + beta S (alpha, beta >= 0; nothing for 0, 0) added to a beamSystem:
// assembled, C has zero rows and columns at the frozen DOFs; matrix-free, C is the composite
// alpha M + beta S and the system's combinations fold it into M and S.
void addRayleighDamping(SecondOrderSystem &system, const Beam &beam, double alpha, double beta);

} // namespace beam
