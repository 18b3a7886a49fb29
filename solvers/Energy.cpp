#include "solvers/Energy.hpp"

#include <algorithm>
#include <cmath>

namespace beam {

EnergyMeter::EnergyMeter(const Model &model)
    : model_(model), w_(model.createVector()), x_prev_(model.createVector()), f_prev_(model.createVector()),
      f_(model.createVector()) {}

// The stored energies of (x, y) plus the integrals accumulated so far.
EnergyTerms EnergyMeter::stored(double t, Vec x, Vec y) {
  EnergyTerms e;
  model_.storedEnergy(t, x, y, e.parts);
  e.kinetic = e.parts.empty() ? 0.0 : e.parts[0];
  for (size_t i = 1; i < e.parts.size(); ++i) e.potential += e.parts[i];
  model_.diagnostics(t, x, y, e.diagnostics);
  e.work = work_;
  e.dissipated = dissipated_;
  e.balance_error = e.total() - total0_;
  return e;
}

EnergyTerms EnergyMeter::start(double t, Vec x, Vec y) {
  EnergyTerms e = resume(t, x, y, 0.0, 0.0, 0.0);
  total0_ = e.total();
  e.balance_error = 0;
  return e;
}

EnergyTerms EnergyMeter::resume(double t, Vec x, Vec y, double work, double dissipated, double total0) {
  work_ = work;
  dissipated_ = dissipated;
  total0_ = total0;
  if (model_.hasExternalWork()) {
    model_.externalForce(t, x, f_prev_);
    if (model_.constantExternalForce()) {
      PetscScalar v;
      BEAM_PETSC(VecDot(f_prev_, x, &v));
      fx_prev_ = PetscRealPart(v);
    } else {
      BEAM_PETSC(VecCopy(x, x_prev_));
    }
  }
  rate_prev_ = model_.dissipationRate(t, x, y);
  t_prev_ = t;
  return stored(t, x, y);
}

EnergyTerms EnergyMeter::advance(double t, Vec x, Vec y) {
  // Work: trapezoidal rule on f'x' over the step, 1/2 (f_n + f_{n+1})'(x_{n+1} - x_n).
  PetscScalar v;
  if (model_.hasExternalWork() && model_.constantExternalForce()) {
    // f_n = f_{n+1} = f0 (kept in f_prev_): the step's work is f0'x_{n+1} - f0'x_n, one dot instead of
    // two copies, two updates and a dot over the whole state (a tenth of a midpoint step's traffic).
    BEAM_PETSC(VecDot(f_prev_, x, &v));
    work_ += PetscRealPart(v) - fx_prev_;
    fx_prev_ = PetscRealPart(v);
  } else if (model_.hasExternalWork()) {
    model_.externalForce(t, x, f_);
    BEAM_PETSC(VecAYPX(x_prev_, -1.0, x)); // x_prev_ := x_{n+1} - x_n
    BEAM_PETSC(VecAXPY(f_prev_, 1.0, f_)); // f_prev_ := f_n + f_{n+1}
    BEAM_PETSC(VecDot(f_prev_, x_prev_, &v));
    work_ += 0.5 * PetscRealPart(v);
    BEAM_PETSC(VecCopy(x, x_prev_));
    BEAM_PETSC(VecCopy(f_, f_prev_));
  }
  // Dissipation: trapezoidal rule on the dissipated power.
  const double rate = model_.dissipationRate(t, x, y);
  dissipated_ += 0.5 * (t - t_prev_) * (rate_prev_ + rate);
  rate_prev_ = rate;
  t_prev_ = t;
  return stored(t, x, y);
}

double modelDriftScale(double initial_energy, double reference_energy) {
  return std::max(std::abs(initial_energy), reference_energy);
}

double driftScale(double initial_energy, double reference_energy) {
  const double scale = modelDriftScale(initial_energy, reference_energy);
  return scale > 0 ? scale : 1.0;
}

double staticCompliance(const SecondOrderSystem &system, LinearSolverKind solver) {
  PetscReal fnorm;
  BEAM_PETSC(VecNorm(system.load, NORM_INFINITY, &fnorm));
  double compliance = 0;
  if (fnorm > 0) {
    const LinearSolver statics(system.stiffness, "static_", solver);
    if (solver != LinearSolverKind::Direct) { // a scale needs no more: 500 iterations unless the user says
      BEAM_PETSC(KSPSetTolerances(statics.ksp(), 1e-8, PETSC_DEFAULT, PETSC_DEFAULT, 500));
      BEAM_PETSC(KSPSetFromOptions(statics.ksp()));
    }
    PVec xs = system.createVector();
    BEAM_PETSC(VecSet(xs, 0.0));
    // Only a scale: with CG (S is badly conditioned on long beams, thousands of iterations) accept the
    // iterate where CG stops. From x0 = 0 CG's f'x_k grows monotonically towards f'S^{-1}f, so a capped
    // solve still gives a lower bound of the right size.
    statics.solve(system.load, xs, solver == LinearSolverKind::Direct);
    PetscScalar v;
    BEAM_PETSC(VecDot(system.load, xs, &v));
    // f(t) = f0 g(t): the load's largest size, |g| at most load_factor_bound.
    const double bound = system.load_factor ? system.load_factor_bound : 1.0;
    compliance = 0.5 * PetscRealPart(v) * bound * bound;
    // Said in the header (a lab solves it once per system: a model keeps it, the stability lab hands it
    // to its trials): the drift column is then relative to that value (75x below the converged one on a
    // 400x20 beam with CG), and its last digits depend on the number of ranks (the solver's rounding).
    KSPConvergedReason reason;
    BEAM_PETSC(KSPGetConvergedReason(statics.ksp(), &reason));
    if (reason < 0) {
      PetscInt its = 0;
      KSPType type = nullptr;
      BEAM_PETSC(KSPGetIterationNumber(statics.ksp(), &its));
      BEAM_PETSC(KSPGetType(statics.ksp(), &type));
      const bool cg = type && std::string(type) == KSPCG; // from x0 = 0, CG's f'x_k only grows
      BEAM_PETSC(PetscPrintf(PetscObjectComm(PetscObject(system.load.get())),
                             "energy scale: 1/2 f'S^-1 f = %.6g from %s stopped at %d iterations, unconverged: %s "
                             "(-static_ksp_max_it raises the limit)\n",
                             compliance, type ? type : "?", int(its), cg ? "a lower bound" : "an approximation"));
    }
  }
  return compliance;
}

} // namespace beam
