#include "solvers/LinearModel.hpp"

#include "solvers/Energy.hpp"

namespace beam {

namespace {
double dot(Vec a, Vec b) {
  PetscScalar v;
  BEAM_PETSC(VecDot(a, b, &v));
  return PetscRealPart(v);
}
} // namespace

LinearModel::LinearModel(const SecondOrderSystem &system, LinearSolverKind solver)
    : system_(&system), solver_kind_(solver), work_(system.createVector()), force_(system.createVector()) {}

LinearModel::LinearModel(const SecondOrderSystem &system, LinearSolverKind solver, double reference_energy)
    : LinearModel(system, solver) {
  reference_energy_ = reference_energy;
}

LinearModel::LinearModel(SecondOrderSystem &&system, LinearSolverKind solver)
    : owned_(std::move(system)), system_(&*owned_), solver_kind_(solver), work_(owned_->createVector()),
      force_(owned_->createVector()) {}

void LinearModel::force(double t, Vec x, Vec v, Vec F) const { system_->netForce(t, x, v, 1.0, F, work_); }

void LinearModel::acceleration(double t, Vec x, Vec v, Vec a) const {
  if (!mass_solver_)
    mass_solver_.emplace(system_->massSolver("mass_", solver_kind_));
  force(t, x, v, force_);
  mass_solver_->solve(force_, a); // a holds the initial guess of an iterative solve
}

void LinearModel::massMult(Vec, Vec v, Vec Mv) const { BEAM_PETSC(MatMult(system_->mass, v, Mv)); }

void LinearModel::shiftedJacobian(double, Vec, Vec, double a, double b, double c, Mat J) const {
  const PMat A = system_->combination(a, b, c);
  BEAM_PETSC(MatCopy(A, J, DIFFERENT_NONZERO_PATTERN));
}

void LinearModel::storedEnergy(double, Vec x, Vec v, std::vector<double> &parts) const {
  parts.resize(2);
  parts[0] = 0.5 * quadraticForm(system_->mass, v, work_);
  parts[1] = 0.5 * quadraticForm(system_->stiffness, x, work_);
}

double LinearModel::dissipationRate(double, Vec, Vec v) const {
  if (!system_->damped()) return 0;
  BEAM_PETSC(MatMult(system_->damping, v, work_));
  return dot(v, work_);
}

std::string LinearModel::referenceEnergyFormula() const {
  return system_->load_factor ? "1/2 f'S^-1 f, f = f0 max|g|" : "1/2 f'S^-1 f";
}

double LinearModel::referenceEnergy() const {
  if (!reference_energy_) reference_energy_ = staticCompliance(*system_, solver_kind_);
  return *reference_energy_;
}

// DOF i as the point (i, 0, 0) with its displacement and velocity: a picture for systems without a
// geometry of their own (Matrix Market systems, the paper's chains).
void LinearModel::draw(Vec x, Vec v, Drawing &drawing) const {
  drawing.clear();
  drawing.kind = Drawing::Kind::PolyData;
  PetscInt begin, end;
  BEAM_PETSC(VecGetOwnershipRange(x, &begin, &end));
  DrawingArray u{"displacement", 1, {}}, w{"velocity", 1, {}};
  const PetscScalar *xa, *va;
  BEAM_PETSC(VecGetArrayRead(x, &xa));
  BEAM_PETSC(VecGetArrayRead(v, &va));
  for (PetscInt i = begin; i < end; ++i) {
    drawing.points.push_back({double(i), 0.0, 0.0});
    drawing.addCell(1 /* VTK_VERTEX */, {i - begin});
    u.values.push_back(PetscRealPart(xa[i - begin]));
    w.values.push_back(PetscRealPart(va[i - begin]));
  }
  BEAM_PETSC(VecRestoreArrayRead(x, &xa));
  BEAM_PETSC(VecRestoreArrayRead(v, &va));
  drawing.point_data = {std::move(u), std::move(w)};
}

} // namespace beam
