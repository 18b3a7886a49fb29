// Energy balance of a model M(x) x'' = F(t, x, v) (reference 003's "całkowita energia", extended to
// damping, loads that vary in time and nonlinear models):
//   stored     the model's energies (kinetic first: 1/2 v'Mv; then potential 1/2 x'Sx for a linear
//              model, or gravity, elastic and contact energies for a mass-spring network, ...),
//   work       W = integral of f(t)'x' dt of the external loads not in the stored energy,
//   dissipated D = integral of the dissipated power (v'Cv, dashpots, contact dampers) dt,
//   total      E = stored - W + D,
// and dE/dt = 0 along exact solutions, so E stays at its initial value.
// W and D are integrated step by step with the trapezoidal rule:
//   W += 1/2 (f_n + f_{n+1})'(x_{n+1} - x_n),   D += dt/2 (P_n + P_{n+1}).
// With a constant load f and x_0 = 0 the work sum telescopes to f'x_n, the lab's E = K + P - f'x.
// balance_error = E - E_0. It is round-off for schemes that conserve energy exactly (Newmark's average
// acceleration, undamped, any load; the lab midpoint with a load linear in time); with damping the
// trapezoidal D itself carries an O(dt^2) quadrature error.
#pragma once
#include <vector>

#include "solvers/LinearSolver.hpp"
#include "solvers/Model.hpp"
#include "solvers/SecondOrderSystem.hpp"

namespace beam {

struct EnergyTerms {
  std::vector<double> parts;    // the model's stored energies, in the order of Model::energyNames()
  double kinetic = 0;           // parts[0]
  double potential = 0;         // the sum of the other parts
  double work = 0, dissipated = 0;
  double balance_error = 0;     // total() - total() at the start of the run
  std::vector<double> diagnostics; // Model::diagnosticNames() at this state
  double total() const { return kinetic + potential - work + dissipated; }
};

// Stateful: it integrates the work and the dissipation along a run, one step at a time.
class EnergyMeter {
public:
  explicit EnergyMeter(const Model &model);
  // The state at the start of a run (work and dissipation start at 0).
  EnergyTerms start(double t, Vec x, Vec y);
  // The state after the next step, ending at time t.
  EnergyTerms advance(double t, Vec x, Vec y);
  // Continues a run from a checkpoint at time t, with the accumulators it saved.
  EnergyTerms resume(double t, Vec x, Vec y, double work, double dissipated, double total0);
  double work() const { return work_; }
  double dissipated() const { return dissipated_; }
  double initialTotal() const { return total0_; }

private:
  EnergyTerms stored(double t, Vec x, Vec y);

  const Model &model_;
  PVec w_, x_prev_, f_prev_, f_; // x_prev_, f_prev_, f_: loads that vary in time only
  double t_prev_ = 0, rate_prev_ = 0, work_ = 0, dissipated_ = 0, total0_ = 0;
  double fx_prev_ = 0; // f0'x_n (constant load)
};

// Scale for the relative drift (E - E0) / scale: max(|E0|, reference), 1 if both vanish (the time loop
// then takes the energies' own size instead, TimeLoop.cpp), where the
// callers pass as E0 the initial energy without its offsets (Model::offsetEnergy: gravity's potential,
// whose zero is the coordinate origin's, and energy no motion can change), so that the scale, the drift
// and the divergence test do not depend on where a scene sits or on parts that do nothing. The reference
// is the model's (Model::referenceEnergy): for a linear model the static compliance energy 1/2 f'S^{-1}f,
// which is also the peak kinetic energy of an undamped beam released from rest under f, so a run
// starting from rest (E0 = 0) still gets a meaningful scale.
double driftScale(double initial_energy, double reference_energy);
// The same without the fallback: 0 when both vanish.
double modelDriftScale(double initial_energy, double reference_energy);
// 1/2 f'S^{-1}f, one solve with S (options prefix `static_`); 0 when f = 0. For f(t) = f0 g(t), f = f0 max|g|
// (SecondOrderSystem::load_factor_bound), the load's largest size. With CG the solve may stop at
// its iteration limit (-static_ksp_max_it): the iterate is then a lower bound, good enough for a scale.
double staticCompliance(const SecondOrderSystem &system, LinearSolverKind solver);
inline double energyScale(const SecondOrderSystem &system, double initial_energy, LinearSolverKind solver) {
  return driftScale(initial_energy, staticCompliance(system, solver));
}

} // namespace beam
