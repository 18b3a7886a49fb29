#include "solvers/LabScheme.hpp"

namespace beam {

void LabScheme::setup(const SecondOrderSystem &system, const SchemeSettings &settings) {
  if (!(settings.dt > 0)) throw inputError("time step dt must be > 0");
  system_ = &system;
  dt_ = settings.dt;
  b_ = system.createVector();
  r_ = system.createVector();
  const double c = shiftFactor();
  if (c == 0) {
    solver_.emplace(system.mass, "mass_", settings.solver);
  } else {
    // M and S share one sparsity pattern (same element connectivity), so the sum keeps it.
    BEAM_PETSC(MatDuplicate(system.mass, MAT_COPY_VALUES, shifted_.out()));
    BEAM_PETSC(MatAXPY(shifted_, c * dt_ * dt_, system.stiffness, SAME_NONZERO_PATTERN));
    BEAM_PETSC(MatSetOption(shifted_, MAT_SPD, PETSC_TRUE));
    solver_.emplace(shifted_, "shifted_", settings.solver);
  }
}

void LabScheme::rightHandSide(Vec x, Vec y, Vec b) const {
  BEAM_PETSC(MatMult(system_->stiffness, x, r_));
  BEAM_PETSC(VecAYPX(r_, -1.0, system_->load)); // r = f - S x
  BEAM_PETSC(MatMult(system_->mass, y, b));
  BEAM_PETSC(VecAXPY(b, dt_, r_));
}

} // namespace beam
