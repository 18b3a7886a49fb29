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

} // namespace beam
