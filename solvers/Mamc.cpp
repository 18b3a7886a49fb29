#include "solvers/Mamc.hpp"

namespace beam {

void Mamc::setup(const Model &model, const SchemeSettings &settings) {
  const SecondOrderSystem &system = requireLinear(model, name());
  if (!(settings.dt > 0)) throw inputError("time step dt must be > 0");
  system_ = &system;
  h_ = settings.dt;
  const double h = h_;
  kstar_ = system.combination(4 / (h * h), 2 / h, 1.0); // K + 4/h^2 M + 2/h C
  cstar_ = system.combination(4 / h, 2.0, 0.0);         // 2 C + 4/h M
  solver_.emplace(system.shiftedSolver(kstar_, settings.options_prefix + "mamc_", settings.solver));
  mass_solver_.emplace(system.massSolver(settings.options_prefix + "mass_", settings.solver));
  for (PVec *v : {&a_, &dp_, &du_, &da_, &dv_, &w_}) *v = system.createVector();
  BEAM_PETSC(VecSet(a_, 0.0));
  BEAM_PETSC(VecSet(du_, 0.0));
  continuity_.reset();
}

void Mamc::step(double t, Vec x, Vec y) {
  const SecondOrderSystem &sys = *system_;
  const double h = h_;
  if (!continuity_.continues(t, x, y)) { // A_n = M^{-1}(P_n - C V_n - K U_n)
    sys.netForce(t, x, y, 1.0, dp_, w_);
    mass_solver_->solve(dp_, a_);
  }
  // P* = dP + C* V + 2 M A, dP = P(t_{n+1}) - P(t_n)
  sys.force(t + h, dp_);
  sys.force(t, w_);
  BEAM_PETSC(VecAXPY(dp_, -1.0, w_));
  BEAM_PETSC(MatMult(cstar_, y, w_));
  BEAM_PETSC(VecAXPY(dp_, 1.0, w_));
  BEAM_PETSC(MatMult(sys.mass, a_, w_));
  BEAM_PETSC(VecAXPY(dp_, 2.0, w_));
  solver_->solve(dp_, du_); // K* dU = P* (the previous dU is the initial guess of an iterative solver)
  // The increments as the reference writes them, both from the old V and A:
  BEAM_PETSC(VecAXPBYPCZ(da_, 4 / (h * h), -4 / h, 0.0, du_, y)); // dA = 4/h^2 dU - 4/h V - 2 A
  BEAM_PETSC(VecAXPY(da_, -2.0, a_));
  BEAM_PETSC(VecAXPBYPCZ(dv_, 2 / h, -2.0, 0.0, du_, y)); // dV = 2/h dU - 2 V
  BEAM_PETSC(VecAXPY(x, 1.0, du_));                       // U = U + dU
  BEAM_PETSC(VecAXPY(y, 1.0, dv_));                       // V = V + dV
  BEAM_PETSC(VecAXPY(a_, 1.0, da_));                      // A = A + dA
  continuity_.record(t + h, x, y);
}

} // namespace beam
