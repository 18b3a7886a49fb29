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

} // namespace beam
