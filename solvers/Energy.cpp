#include "solvers/Energy.hpp"

#include <algorithm>
#include <cmath>

namespace beam {

EnergyMeter::EnergyMeter(const SecondOrderSystem &system) : system_(system), w_(system.createVector()) {}

EnergyTerms EnergyMeter::measure(Vec x, Vec y) const {
  EnergyTerms e;
  PetscScalar v;
  BEAM_PETSC(MatMult(system_.mass, y, w_));
  BEAM_PETSC(VecDot(y, w_, &v));
  e.kinetic = 0.5 * PetscRealPart(v);
  BEAM_PETSC(MatMult(system_.stiffness, x, w_));
  BEAM_PETSC(VecDot(x, w_, &v));
  e.potential = 0.5 * PetscRealPart(v);
  BEAM_PETSC(VecDot(system_.load, x, &v));
  e.work = PetscRealPart(v);
  return e;
}

double driftScale(double initial_energy, double static_compliance) {
  const double scale = std::max(std::abs(initial_energy), static_compliance);
  return scale > 0 ? scale : 1.0;
}

double staticCompliance(const SecondOrderSystem &system, LinearSolverKind solver) {
  PetscReal fnorm;
  BEAM_PETSC(VecNorm(system.load, NORM_INFINITY, &fnorm));
  double compliance = 0;
  if (fnorm > 0) {
    const LinearSolver statics(system.stiffness, "static_", solver);
    PVec xs = system.createVector();
    BEAM_PETSC(VecSet(xs, 0.0));
    statics.solve(system.load, xs);
    PetscScalar v;
    BEAM_PETSC(VecDot(system.load, xs, &v));
    compliance = 0.5 * PetscRealPart(v);
  }
  return compliance;
}

} // namespace beam
