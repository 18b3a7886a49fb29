#include "MesLib/BeamSystem.hpp"

#include <memory>
#include <sstream>

#include "MesLib/KroneckerCG.hpp"
#include "MesLib/KroneckerMass.hpp"
#include "MesLib/MatrixFreeOperator.hpp"

namespace beam {

const char *operatorName(OperatorKind k) { return k == OperatorKind::Assembled ? "assembled" : "matfree"; }

OperatorKind parseOperator(const std::string &name) {
  if (name == "assembled") return OperatorKind::Assembled;
  if (name == "matfree") return OperatorKind::MatrixFree;
  throw inputError("-operator: unknown value '" + name + "'; accepted: assembled, matfree");
}

SecondOrderSystem beamSystem(const Beam &beam, OperatorKind kind) {
  SecondOrderSystem system;
  system.load = beam.load();
  system.diagonal_mass = beam.spec().lumped_mass;
  if (kind == OperatorKind::Assembled) {
    system.mass = beam.mass();
    system.stiffness = beam.stiffness();
  } else {
    system.mass = matrixFreeOperator(beam, 1.0, 0.0);
    system.stiffness = matrixFreeOperator(beam, 0.0, 1.0);
    system.combine = [&beam](double a, double, double c) { return matrixFreeOperator(beam, a, c); };
  }
  return system;
}

namespace {

// The first -<prefix>pc_type option whose value needs assembled matrices (anything but jacobi and none,
// which the matrix-free operators serve); empty if none was given.
std::string assembledPreconditionerOption() {
  char *all = nullptr;
  BEAM_PETSC(PetscOptionsGetAll(nullptr, &all));
  std::istringstream in(all ? all : "");
  BEAM_PETSC(PetscFree(all));
  std::string name, value;
  in >> name;
  while (in) {
    const bool has_value = bool(in >> value) && value.rfind("-", 0) != 0;
    const std::string suffix = "pc_type";
    if (name.size() > suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0 &&
        has_value && value != "jacobi" && value != "none")
      return name + " " + value;
    name = has_value ? (in >> name, name) : value;
  }
  return "";
}

} // namespace

SolverPath chooseSolverPath(const Beam &beam, OperatorKind requested_operator, LinearSolverKind requested_solver) {
  PetscBool solver_given = PETSC_FALSE, operator_given = PETSC_FALSE;
  BEAM_PETSC(PetscOptionsHasName(nullptr, nullptr, "-linear_solver", &solver_given));
  BEAM_PETSC(PetscOptionsHasName(nullptr, nullptr, "-operator", &operator_given));
  const std::string assembled_pc = assembledPreconditionerOption();
  const PetscInt dofs = beam.mesh().dofCount();
  int ranks = 1;
  MPI_Comm_size(beam.comm(), &ranks);
  const std::string size = std::to_string(dofs) + " DOFs on " + std::to_string(ranks) + (ranks == 1 ? " rank" : " ranks");
  SolverPath p;
  if (solver_given || operator_given || !assembled_pc.empty()) {
    p.operator_kind = requested_operator;
    p.solver = requested_solver;
    p.name = requested_operator == OperatorKind::Assembled ? linearSolverName(requested_solver) : "mf_cg";
    p.reason = solver_given || operator_given ? "as requested by -linear_solver/-operator"
                                              : "as requested: " + assembled_pc + " needs assembled matrices";
    return p;
  }
  const bool large = dofs > kDirectMaxDofs;
  const std::string why_not = KroneckerMassInverse::whyNot(beam);
  if (large && why_not.empty()) {
    p.operator_kind = OperatorKind::MatrixFree;
    p.solver = LinearSolverKind::CG; // for the solves the Kronecker inverse does not serve (the energy scale's)
    p.kronecker_mass = true;
    p.name = "mf_kron";
    p.reason = "consistent mass on a uniform structured beam, " + size + " > " + std::to_string(kDirectMaxDofs) +
               ": matrix-free stencil, M^-1 by Kronecker tridiagonal sweeps, CG preconditioned by it";
  } else if (large && beam.spec().lumped_mass) {
    p.operator_kind = OperatorKind::MatrixFree;
    p.solver = LinearSolverKind::CG;
    p.name = "mf_cg";
    p.reason = "lumped mass, " + size + " > " + std::to_string(kDirectMaxDofs) + ": matrix-free, CG + Jacobi";
  } else {
    p.name = "direct";
    p.reason = large ? "no Kronecker mass inverse (" + why_not + "), " + size + ": Cholesky factored once"
                     : size + " <= " + std::to_string(kDirectMaxDofs) + ": Cholesky factored once";
  }
  return p;
}

void attachSolverPath(const Beam &beam, const SolverPath &path, SecondOrderSystem &system) {
  if (!path.kronecker_mass) return;
  auto inverse = std::make_shared<const KroneckerMassInverse>(beam);
  system.mass_inverse = [inverse](PC pc) { setMassInversePreconditioner(pc, inverse); };
  system.fused_solve = [inverse](Mat A) -> LinearSolver::SolveOverride {
    auto cg = std::make_shared<KroneckerCG>(A, inverse);
    return [cg](Vec b, Vec x, double rtol, PetscInt max_it) { return cg->solve(b, x, rtol, max_it); };
  };
}

std::string describeSolverPath(const SolverPath &path) { return "solver path: " + path.name + " (" + path.reason + ")"; }

} // namespace beam
