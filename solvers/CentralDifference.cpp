#include "solvers/CentralDifference.hpp"

namespace beam {

void CentralDifference::setup(const Model &model, const SchemeSettings &settings) {
  const SecondOrderSystem &system = requireLinear(model, name());
  if (!(settings.dt > 0)) throw inputError("time step dt must be > 0");
  system_ = &system;
  h_ = settings.dt;
  const double h = h_;
  lhs_ = system.combination(1 / (h * h), 1 / (2 * h), 0.0);
  r1_ = system.combination(-2 / (h * h), 0.0, 1.0);
  r2_ = system.combination(1 / (h * h), -1 / (2 * h), 0.0);
  solver_.emplace(system.shiftedSolver(lhs_, settings.options_prefix + "central_difference_", settings.solver));
  mass_solver_.emplace(system.massSolver(settings.options_prefix + "mass_", settings.solver));
  for (PVec *v : {&x_prev_, &x_next_, &rhs_, &w_}) *v = system.createVector();
  continuity_.reset();
}

void CentralDifference::step(double t, Vec x, Vec y) {
  const SecondOrderSystem &sys = *system_;
  const double h = h_;
  if (!continuity_.continues(t, x, y)) {
    // Start-up: a_0 from (B.17), then x_{-1} from (B.22).
    sys.netForce(t, x, y, 1.0, rhs_, w_);
    BEAM_PETSC(VecSet(w_, 0.0));
    mass_solver_->solve(rhs_, w_); // a_0
    BEAM_PETSC(VecWAXPY(x_prev_, -h, y, x));
    BEAM_PETSC(VecAXPY(x_prev_, 0.5 * h * h, w_));
  }
  // (B.16): rhs = f(t_n) - (S - 2M/h^2) x_n - (M/h^2 - C/(2h)) x_{n-1}
  sys.force(t, rhs_);
  BEAM_PETSC(MatMult(r1_, x, w_));
  BEAM_PETSC(VecAXPY(rhs_, -1.0, w_));
  BEAM_PETSC(MatMult(r2_, x_prev_, w_));
  BEAM_PETSC(VecAXPY(rhs_, -1.0, w_));
  BEAM_PETSC(VecCopy(x, x_next_)); // initial guess of an iterative solver
  solver_->solve(rhs_, x_next_);
  // y_{n+1}, the value (B.14) will give once x_{n+2} is known (see the header).
  sys.force(t + h, rhs_);
  BEAM_PETSC(MatMult(sys.stiffness, x_next_, w_));
  BEAM_PETSC(VecAXPY(rhs_, -1.0, w_));
  BEAM_PETSC(VecScale(rhs_, 1 / (2 * h)));
  BEAM_PETSC(VecWAXPY(x_prev_, -1.0, x, x_next_)); // x_{n+1} - x_n (x_{n-1} is no longer needed)
  BEAM_PETSC(MatMult(sys.mass, x_prev_, w_));
  BEAM_PETSC(VecAXPY(rhs_, 1 / (h * h * h), w_));
  solver_->solve(rhs_, y);
  // Shift the levels: x_{n-1} <- x_n, x_n <- x_{n+1}.
  BEAM_PETSC(VecCopy(x, x_prev_));
  BEAM_PETSC(VecCopy(x_next_, x));
  continuity_.record(t + h, x, y);
}

} // namespace beam
