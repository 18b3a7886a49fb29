#include "solvers/VelocityVerlet.hpp"

namespace beam {

void VelocityVerlet::setup(const Model &model, const SchemeSettings &settings) {
  if (!(settings.dt > 0)) throw inputError("time step dt must be > 0");
  model_ = &model;
  dt_ = settings.dt;
  a_ = model.createVector();
  BEAM_PETSC(VecSet(a_, 0.0));
  continuity_.reset();
}

void VelocityVerlet::step(double t, Vec x, Vec v) {
  if (!continuity_.continues(t, x, v)) model_->acceleration(t, x, v, a_); // a_n
  BEAM_PETSC(VecAXPY(v, dt_ / 2, a_));                                    // v_{n+1/2}
  BEAM_PETSC(VecAXPY(x, dt_, v));                                         // x_{n+1}
  model_->acceleration(t + dt_, x, v, a_);                                // a_{n+1}
  BEAM_PETSC(VecAXPY(v, dt_ / 2, a_));                                    // v_{n+1}
  continuity_.record(t + dt_, x, v);
}

} // namespace beam
