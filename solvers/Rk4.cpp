#include "solvers/Rk4.hpp"

namespace beam {

void Rk4::setup(const Model &model, const SchemeSettings &settings) {
  if (!(settings.dt > 0)) throw inputError("time step dt must be > 0");
  model_ = &model;
  h_ = settings.dt;
  for (int i = 0; i < 4; ++i) {
    kx_[i] = model.createVector();
    ky_[i] = model.createVector();
  }
  for (PVec *v : {&xs_, &ys_, &a_}) *v = model.createVector();
  BEAM_PETSC(VecSet(a_, 0.0));
}

void Rk4::slope(double t, Vec x, Vec y, Vec dx, Vec dy) {
  model_->acceleration(t, x, y, a_); // M^{-1} F(t, x, y), from the last stage's as the guess
  BEAM_PETSC(VecAXPBY(dy, h_, 0.0, a_));
  BEAM_PETSC(VecCopy(y, dx));
  BEAM_PETSC(VecScale(dx, h_));
}

void Rk4::step(double t, Vec x, Vec y) {
  const double h = h_;
  slope(t, x, y, kx_[0], ky_[0]);
  for (int i = 1; i < 4; ++i) {
    const double c = i < 3 ? 0.5 : 1.0; // stages at t + h/2, t + h/2, t + h
    BEAM_PETSC(VecWAXPY(xs_, c, kx_[i - 1], x));
    BEAM_PETSC(VecWAXPY(ys_, c, ky_[i - 1], y));
    slope(t + c * h, xs_, ys_, kx_[i], ky_[i]);
  }
  // z += (k1 + 2 k2 + 2 k3 + k4) / 6
  BEAM_PETSC(VecAXPBYPCZ(x, 1.0 / 6, 1.0 / 3, 1.0, kx_[0], kx_[1]));
  BEAM_PETSC(VecAXPBYPCZ(x, 1.0 / 3, 1.0 / 6, 1.0, kx_[2], kx_[3]));
  BEAM_PETSC(VecAXPBYPCZ(y, 1.0 / 6, 1.0 / 3, 1.0, ky_[0], ky_[1]));
  BEAM_PETSC(VecAXPBYPCZ(y, 1.0 / 3, 1.0 / 6, 1.0, ky_[2], ky_[3]));
}

} // namespace beam
