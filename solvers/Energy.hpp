// Total energy of M x'' = f - S x with a constant load (reference 003, "całkowita energia"):
//   E = 1/2 y'My  +  1/2 x'Sx  -  f'x   (kinetic + strain - work of the load);
// dE/dt = y'(M x'' + S x - f) = 0 along exact solutions.
#pragma once
#include "solvers/LinearSolver.hpp"
#include "solvers/SecondOrderSystem.hpp"

namespace beam {

struct EnergyTerms {
  double kinetic = 0, potential = 0, work = 0;
  double total() const { return kinetic + potential - work; }
};

class EnergyMeter {
public:
  explicit EnergyMeter(const SecondOrderSystem &system);
  EnergyTerms measure(Vec x, Vec y) const;

private:
  const SecondOrderSystem &system_;
  PVec w_;
};

// Scale for the relative drift (E - E0) / scale: max(|E0|, 1/2 f'S^{-1}f). The second term is the
// static compliance energy, which is also the peak kinetic energy of an undamped beam released from rest
// under f, so a run starting from rest (E0 = 0) still gets a meaningful scale. 1 if both vanish.
double driftScale(double initial_energy, double static_compliance);
// 1/2 f'S^{-1}f, one solve with S (options prefix `static_`); 0 when f = 0.
double staticCompliance(const SecondOrderSystem &system, LinearSolverKind solver);
inline double energyScale(const SecondOrderSystem &system, double initial_energy, LinearSolverKind solver) {
  return driftScale(initial_energy, staticCompliance(system, solver));
}

} // namespace beam
