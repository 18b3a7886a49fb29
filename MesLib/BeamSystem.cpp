#include "MesLib/BeamSystem.hpp"

#include "MesLib/MatrixFreeOperator.hpp"

namespace beam {

const char *operatorName(OperatorKind k) { return k == OperatorKind::Assembled ? "assembled" : "matfree"; }

OperatorKind parseOperator(const std::string &name) {
  if (name == "assembled") return OperatorKind::Assembled;
  if (name == "matfree") return OperatorKind::MatrixFree;
  throw inputError("-operator: unknown value '" + name + "'; accepted: assembled, matfree");
}

SecondOrderSystem beamSystem(const Beam &beam, OperatorKind kind) {
  SecondOrderSystem system;
  system.load = beam.load();
  system.diagonal_mass = beam.spec().lumped_mass;
  if (kind == OperatorKind::Assembled) {
    system.mass = beam.mass();
    system.stiffness = beam.stiffness();
  } else {
    system.mass = matrixFreeOperator(beam, 1.0, 0.0);
    system.stiffness = matrixFreeOperator(beam, 0.0, 1.0);
    system.combine = [&beam](double a, double, double c) { return matrixFreeOperator(beam, a, c); };
  }
  return system;
}

void addRayleighDamping(SecondOrderSystem &system, const Beam &beam, double alpha, double beta) {
  if (alpha == 0 && beta == 0) return;
  if (!system.combine) {
    // From the frozen M and S (identity rows there), so the frozen rows and columns of C hold
    // alpha + beta on the diagonal and 0 elsewhere; zeroing them (diagonal 0) decouples them from C.
    BEAM_PETSC(MatDuplicate(system.mass, MAT_COPY_VALUES, system.damping.out()));
    BEAM_PETSC(MatScale(system.damping, alpha));
    BEAM_PETSC(MatAXPY(system.damping, beta, system.stiffness, SUBSET_NONZERO_PATTERN));
    const std::vector<PetscInt> frozen = beam.ownedFrozenDofs();
    BEAM_PETSC(MatZeroRowsColumns(system.damping, PetscInt(frozen.size()), frozen.data(), 0.0, nullptr, nullptr));
    BEAM_PETSC(MatSetOption(system.damping, MAT_SYMMETRIC, PETSC_TRUE));
    return;
  }
  // Matrix-free: C = alpha M + beta S as a composite of the two shells. Its frozen rows hold
  // (alpha + beta) x_i instead of 0, which changes nothing: every scheme keeps x_i = y_i = 0 there.
  Mat parts[2] = {system.mass, system.stiffness};
  BEAM_PETSC(MatCreateComposite(beam.comm(), 2, parts, system.damping.out()));
  const PetscScalar scalings[2] = {alpha, beta};
  BEAM_PETSC(MatCompositeSetScalings(system.damping, scalings));
  // a M + b C + c S = (a + b alpha) M + (c + b beta) S for the schemes' system matrices.
  system.combine = [inner = system.combine, alpha, beta](double a, double b, double c) {
    return inner(a + b * alpha, 0.0, c + b * beta);
  };
}

} // namespace beam
