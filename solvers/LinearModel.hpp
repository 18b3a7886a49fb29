// A linear model M x'' + C x' + S x = f(t) as a Model: the special case whose Jacobian never changes.
// It refers to (or owns) the SecondOrderSystem that the schemes of the course use directly (linear()),
// and answers the generic questions from it:
//   F(t, x, v) = f(t) - S x - C v,   a = M^{-1} F (one solve with M, prefix `mass_`, factored once),
//   J = a M - b dF/dv - c dF/dx = a M + b C + c S (SecondOrderSystem::combination),
//   energies {kinetic 1/2 v'Mv, potential 1/2 x'Sx}; the load's work is integrated by the energy meter
//   (hasExternalWork), C's dissipation is v'Cv.
// The drift scale's reference energy is the static compliance 1/2 f'S^{-1}f (solvers/Energy.hpp).
// Models with a picture (the beam, the discrete systems) derive from it and add draw() and identity().
#pragma once
#include <optional>

#include "solvers/LinearSolver.hpp"
#include "solvers/Model.hpp"
#include "solvers/SecondOrderSystem.hpp"

namespace beam {

class LinearModel : public Model {
public:
  // Refers to `system`, which must outlive the model. `solver` is the kind of every solve with M.
  LinearModel(const SecondOrderSystem &system, LinearSolverKind solver);
  // With the reference energy (staticCompliance) already known.
  LinearModel(const SecondOrderSystem &system, LinearSolverKind solver, double reference_energy);
  // Owns the system.
  LinearModel(SecondOrderSystem &&system, LinearSolverKind solver);
  LinearModel(const LinearModel &) = delete;
  LinearModel &operator=(const LinearModel &) = delete;

  std::string name() const override { return "linear"; }
  MPI_Comm comm() const override { return system_->comm(); }
  PVec createVector() const override { return system_->createVector(); }

  void force(double t, Vec x, Vec v, Vec F) const override;
  void acceleration(double t, Vec x, Vec v, Vec a) const override;
  void massMult(Vec x, Vec v, Vec Mv) const override;

  bool hasJacobian() const override { return true; }
  PMat createJacobian() const override { return system_->combination(1, 1, 1); }
  void shiftedJacobian(double t, Vec x, Vec v, double a, double b, double c, Mat J) const override;

  const SecondOrderSystem *linear() const override { return system_; }
  const SecondOrderSystem &system() const { return *system_; }
  LinearSolverKind solverKind() const { return solver_kind_; }

  std::vector<std::string> energyNames() const override { return {"kinetic", "potential"}; }
  void storedEnergy(double t, Vec x, Vec v, std::vector<double> &parts) const override;
  bool hasExternalWork() const override { return true; }
  bool constantExternalForce() const override { return system_->constantLoad(); }
  void externalForce(double t, Vec /*x*/, Vec f) const override { system_->force(t, f); }
  double dissipationRate(double t, Vec x, Vec v) const override;
  double referenceEnergy() const override;
  std::string referenceEnergyFormula() const override;

  void draw(Vec x, Vec v, Drawing &drawing) const override;

private:
  std::optional<SecondOrderSystem> owned_;
  const SecondOrderSystem *system_;
  LinearSolverKind solver_kind_;
  mutable std::optional<LinearSolver> mass_solver_; // built at the first acceleration()
  mutable std::optional<double> reference_energy_;
  PVec work_, force_; // scratch
};

} // namespace beam
