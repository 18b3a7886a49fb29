#include "solvers/ExplicitEuler.hpp"

namespace beam {

void ExplicitEuler::setup(const Model &model, const SchemeSettings &settings) {
  if (!(settings.dt > 0)) throw inputError("time step dt must be > 0");
  model_ = &model;
  dt_ = settings.dt;
  a_ = model.createVector();
  BEAM_PETSC(VecSet(a_, 0.0));
}

void ExplicitEuler::step(double t, Vec x, Vec v) {
  model_->acceleration(t, x, v, a_);
  if (symplectic_) {
    BEAM_PETSC(VecAXPY(v, dt_, a_)); // v_{n+1} = v_n + dt a_n
    BEAM_PETSC(VecAXPY(x, dt_, v));  // x_{n+1} = x_n + dt v_{n+1}
  } else {
    BEAM_PETSC(VecAXPY(x, dt_, v));  // x_{n+1} = x_n + dt v_n
    BEAM_PETSC(VecAXPY(v, dt_, a_)); // v_{n+1} = v_n + dt a_n
  }
}

} // namespace beam
