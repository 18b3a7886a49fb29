#include "solvers/Linearization.hpp"

namespace beam {

SecondOrderSystem linearization(const Model &model, double t, Vec x, Vec v) {
  if (!model.hasJacobian())
    throw inputError("linearization: the " + model.name() + " model gives no Jacobian; accepted: a model with one");
  SecondOrderSystem s;
  s.mass = model.createJacobian();
  s.stiffness = model.createJacobian();
  model.shiftedJacobian(t, x, v, 1, 0, 0, s.mass);
  model.shiftedJacobian(t, x, v, 0, 0, 1, s.stiffness);
  s.load = model.createVector();
  BEAM_PETSC(VecSet(s.load, 0.0));
  return s;
}

} // namespace beam
