#include "solvers/LabScheme.hpp"

namespace beam {

void LabScheme::setup(const Model &model, const SchemeSettings &settings) {
  const SecondOrderSystem &system = requireLinear(model, name());
  if (!(settings.dt > 0)) throw inputError("time step dt must be > 0");
  system_ = &system;
  dt_ = settings.dt;
  b_ = system.createVector();
  r_ = system.createVector();
  const double c = stiffnessShift();
  const double a = system.damped() ? 1.0 - explicitDamping() : 0.0;
  if (c == 0 && a == 0) {
    solver_.emplace(system.massSolver(settings.options_prefix + "mass_", settings.solver));
    return;
  }
  shifted_ = system.combination(1.0, a * dt_, c * dt_ * dt_);
  solver_.emplace(system.shiftedSolver(shifted_, settings.options_prefix + "shifted_", settings.solver));
}

void LabScheme::rightHandSide(Vec x, Vec y, double t_load, Vec b) const {
  system_->netForce(t_load, x, y, explicitDamping(), r_, b); // b is scratch until its final value below
  BEAM_PETSC(MatMult(system_->mass, y, b));
  BEAM_PETSC(VecAXPY(b, dt_, r_)); // b = M y + dt (f - S x - e C y)
}

} // namespace beam
