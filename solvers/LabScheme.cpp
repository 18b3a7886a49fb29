#include "solvers/LabScheme.hpp"

namespace beam {

void LabScheme::setup(const Model &model, const SchemeSettings &settings) {
  const SecondOrderSystem &system = requireLinear(model, name());
  if (!(settings.dt > 0)) throw inputError("time step dt must be > 0");
  system_ = &system;
  dt_ = settings.dt;
  for (PVec *v : {&impulse_, &increment_, &work_}) *v = system.createVector();
  BEAM_PETSC(VecSet(increment_, 0.0));
  const double c = stiffnessShift();
  const double a = system.damped() ? 1.0 - explicitDamping() : 0.0;
  if (c == 0 && a == 0) {
    solver_.emplace(system.massSolver(settings.options_prefix + "mass_", settings.solver));
  } else {
    shifted_ = system.combination(1.0, a * dt_, c * dt_ * dt_);
    solver_.emplace(system.shiftedSolver(shifted_, settings.options_prefix + "shifted_", settings.solver));
  }
  KSP ksp = solver_->ksp();
  PetscBool cg = PETSC_FALSE;
  BEAM_PETSC(PetscObjectTypeCompare(PetscObject(ksp), KSPCG, &cg));
  if (cg) { // the increment's tolerance, then the options again: -<prefix>ksp_rtol still decides
    PetscReal rtol, abstol, dtol;
    PetscInt max_it;
    BEAM_PETSC(KSPGetTolerances(ksp, &rtol, &abstol, &dtol, &max_it));
    BEAM_PETSC(KSPSetTolerances(ksp, kIncrementRtol, abstol, dtol, max_it));
    BEAM_PETSC(KSPSetFromOptions(ksp));
  }
}

void LabScheme::impulse(Vec xs, Vec y, double t_load) {
  system_->netForce(t_load, xs, y, 1.0, impulse_, work_, dt_);
}

void LabScheme::addIncrement(Vec y, bool from_last) {
  solver_->solve(impulse_, increment_, true, from_last ? LinearSolver::Start::Given : LinearSolver::Start::Zero);
  BEAM_PETSC(VecAXPY(y, 1.0, increment_));
}

} // namespace beam
