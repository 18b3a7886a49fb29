#include "MesLib/BeamSystem.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <memory>
#include <sstream>

#include "MesLib/KroneckerCG.hpp"
#include "MesLib/KroneckerMass.hpp"
#include "MesLib/MatrixFreeOperator.hpp"
#include "common/Options.hpp"
#include "common/Agree.hpp"

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
// The beam's DOF count as a double: the estimates below run before the 32-bit index check's verdict
// matters and must not overflow.
double dofsOf(const BeamSpec &spec) { return 2.0 * (spec.mx + 1.0) * (spec.my + 1.0); }
} // namespace

std::uint64_t estimatedRunBytes(const BeamSpec &spec, const RunNeeds &needs) {
  const double n = dofsOf(spec);
  // Measured peaks (RSS, one rank, 2026-11-26, energy_drift -schemes <one>, 2 steps; 55 MiB of each is
  // the libraries): at 1000x100 (2.0e5 DOFs) and 2000x200 (8.0e5) the explicit schemes on the CG path
  // grew by 620 and 632 bytes per DOF, against the 880 counted here for 56 vectors and M, S.
  double bytes = 56 * 8 * n;
  if (needs.kind == OperatorKind::Assembled) {
    // A matrix is 18 x 12 = 216 bytes per DOF. Measured with -linear_solver cg at 1000x100, above the
    // explicit schemes' 175 MiB: 1 combination (fully_implicit, newmark) 72-77 MiB, 2 (mamc) 109, 3
    // (central_difference) 151, at 42 MiB a matrix: forming the first holds one more for a while.
    const int matrices = 2 + (needs.damped ? 1 : 0) + (needs.scheme_matrices > 0 ? needs.scheme_matrices + 1 : 0);
    bytes += matrices * 18 * 12 * n;
  }
  if (needs.direct_solver && needs.solvers > 0) {
    // A Cholesky factor: the smaller of a band (bandwidth 2 (n1 + 1) DOFs across the short side, 18 bytes
    // an entry) and nested dissection, 100 bytes per node times log2 of the node count, measured: each
    // factor after the first took 150 MiB at 1000x100 (94 bytes per node log2) and 718 MiB at 2000x200
    // (100), the first 1.34-1.4 times that (CHOLMOD's work space), hence half a factor more.
    const double n1 = std::min(spec.mx, spec.my) + 1.0, nodes = n / 2;
    const double factor = std::min(18 * n * 2 * n1, 100 * nodes * std::log2(nodes + 2));
    bytes += (needs.solvers + 0.5) * factor;
  }
  // 10 % on top, so a run the check lets through near the limit still fits. This model without it
  // against the measured peaks above (MiB, the libraries' 55 included in the measured): 1000x100 direct
  // explicit_euler 410 / 385, fully_implicit 654 / 578, newmark 814 / 740, central_difference 897 / 822;
  // -linear_solver cg rk4 170 / 188 (its stages), central_difference 336 / 325; 2000x200 direct
  // explicit_euler 1746 / 1505, central_difference 3837 / 3541, cg central_difference 1338 / 1146.
  bytes *= 1.10;
  return std::uint64_t(bytes);
}

unsigned long long memAvailableBytes() {
  std::ifstream meminfo("/proc/meminfo");
  std::string key, unit;
  unsigned long long kb = 0;
  while (meminfo >> key >> kb >> unit)
    if (key == "MemAvailable:") return kb * 1024;
  return 0;
}

std::uint64_t checkpointGatherBytes(const BeamSpec &spec) {
  // Counted, not measured: the gathered vector, the scatter's (rank, index) pairs and its buffer, 8 bytes
  // each per DOF. On the runs measured (midpoint, -linear_solver cg, 2 ranks, 2e5 and 8e5 DOFs) rank 0's
  // peak grew by only 4 bytes per DOF more than rank 1's: the checkpoint came after the peak there, but
  // need not (a run whose peak is its end, as with a factor held to the last step).
  return std::uint64_t(24 * dofsOf(spec));
}

void checkMemory(MPI_Comm comm, const BeamSpec &spec, const RunNeeds &needs, const char *accepted,
                 bool checkpoints, const std::function<unsigned long long()> &node_available) {
  // The ranks on one node share its memory: the node's leader reads MemAvailable once and every rank of
  // the node compares the node's share of the run (the run spread evenly over the ranks) with it. The
  // verdict is agreed by all ranks, so no rank is refused alone (two reads of MemAvailable near the
  // limit could differ) while the others go on into the collective setup.
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  MPI_Comm node;
  MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
  int node_rank = 0, node_size = 1;
  MPI_Comm_rank(node, &node_rank);
  MPI_Comm_size(node, &node_size);
  unsigned long long available = node_rank == 0 ? node_available() : 0;
  MPI_Bcast(&available, 1, MPI_UNSIGNED_LONG_LONG, 0, node);
  int holds_rank0 = rank == 0;
  MPI_Allreduce(MPI_IN_PLACE, &holds_rank0, 1, MPI_INT, MPI_MAX, node);
  MPI_Comm_free(&node);
  // The run spread evenly over the ranks, plus rank 0's checkpoint gather on its node.
  const double gather = checkpoints && size > 1 ? double(checkpointGatherBytes(spec)) : 0.0;
  const double need = double(estimatedRunBytes(spec, needs)) + gather;
  const double share = (need - gather) * node_size / size + (holds_rank0 ? gather : 0.0);
  std::string error;
  if (available > 0 && share > double(available)) {
    char on_node[96] = "";
    if (node_size < size) std::snprintf(on_node, sizeof on_node, "; %.1f GiB for this node's %d of %d ranks", share / (1 << 30), node_size, size);
    char msg[400];
    std::snprintf(msg, sizeof msg,
                  "-mx %d -my %d: the run needs about %.1f GiB (%s operator%s%s), this machine has %.1f GiB available; "
                  "accepted: %s",
                  spec.mx, spec.my, need / (1 << 30), operatorName(needs.kind), needs.direct_solver ? ", direct solver" : "", on_node,
                  double(available) / (1 << 30),
                  accepted ? accepted : needs.direct_solver ? "a smaller beam, or -linear_solver cg -operator matfree" : "a smaller beam");
    error = msg;
  }
  agreeOnFailure(comm, error, kExitBadInput);
}

namespace {
// C = alpha M + beta S with entries beyond a double (-rayleigh_beta 1e306): the time labs "diverged" at
// step 1 (exit 3), after their first output; only the stability lab refused it.
void refuseOverflowingDamping(const SecondOrderSystem &system, double alpha, double beta) {
  if (std::isfinite(matrixMagnitude(system.damping))) return;
  std::ostringstream why;
  why << "-rayleigh_alpha, -rayleigh_beta: the damping matrix alpha M + beta S (alpha = " << alpha << ", beta = " << beta
      << ") overflows a double; accepted: -rayleigh_alpha and -rayleigh_beta whose damping matrix is finite";
  throw inputError(why.str());
}
} // namespace

void addRayleighDamping(SecondOrderSystem &system, const Beam &beam, double alpha, double beta) {
  if (alpha == 0 && beta == 0) return;
  system.rayleigh = RayleighDamping{alpha, beta};
  if (!system.combine) {
    // From the frozen M and S (identity rows there), so the frozen rows and columns of C hold
    // alpha + beta on the diagonal and 0 elsewhere; zeroing them (diagonal 0) decouples them from C.
    BEAM_PETSC(MatDuplicate(system.mass, MAT_COPY_VALUES, system.damping.out()));
    BEAM_PETSC(MatScale(system.damping, alpha));
    BEAM_PETSC(MatAXPY(system.damping, beta, system.stiffness, SUBSET_NONZERO_PATTERN));
    const std::vector<PetscInt> frozen = beam.ownedFrozenDofs();
    BEAM_PETSC(MatZeroRowsColumns(system.damping, PetscInt(frozen.size()), frozen.data(), 0.0, nullptr, nullptr));
    BEAM_PETSC(MatSetOption(system.damping, MAT_SYMMETRIC, PETSC_TRUE));
    refuseOverflowingDamping(system, alpha, beta);
    return;
  }
  // Matrix-free: C = alpha M + beta S as a composite of the two shells. Its frozen rows hold
  // (alpha + beta) x_i instead of 0, which changes nothing: every scheme keeps x_i = y_i = 0 there.
  Mat parts[2] = {system.mass, system.stiffness};
  BEAM_PETSC(MatCreateComposite(beam.comm(), 2, parts, system.damping.out()));
  const PetscScalar scalings[2] = {alpha, beta};
  BEAM_PETSC(MatCompositeSetScalings(system.damping, scalings));
  // a M + b C + c S = (a + b alpha) M + (c + b beta) S for the schemes' system matrices.
  system.combine = [inner = system.combine, alpha, beta](double a, double b, double c) {
    return inner(a + b * alpha, 0.0, c + b * beta);
  };
  refuseOverflowingDamping(system, alpha, beta);
}


namespace {

bool endsWith(const std::string &s, const std::string &suffix) {
  return s.size() > suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// Every -<prefix>ksp_type and -<prefix>pc_type option given, as {name, value}, in the database's order.
std::vector<std::pair<std::string, std::string>> solverTypeOptions() {
  std::vector<std::pair<std::string, std::string>> found;
  for (const auto &[name, value] : databaseOptions())
    if (!value.empty() && (endsWith(name, "pc_type") || endsWith(name, "ksp_type"))) found.emplace_back(name, value);
  return found;
}

// The first -<prefix>pc_type option whose value needs assembled matrices (anything but jacobi and none,
// which the matrix-free operators serve); empty if none was given.
std::string assembledPreconditionerOption() {
  for (const auto &[name, value] : solverTypeOptions())
    if (endsWith(name, "pc_type") && value != "jacobi" && value != "none")
      return name + " " + value;
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
    return [cg](Vec b, Vec x, double rtol, PetscInt max_it, bool from_zero) {
      return cg->solve(b, x, rtol, max_it, from_zero);
    };
  };
}

std::string describeSolverPath(const SolverPath &path) {
  // The options' solver types change what the path's name says (-shifted_pc_type jacobi on mf_kron
  // replaces the Kronecker preconditioner; the line said "CG preconditioned by it").
  std::string changed;
  for (const auto &[name, value] : solverTypeOptions()) changed += (changed.empty() ? "" : " ") + name + " " + value;
  return "solver path: " + path.name + " (" + path.reason + ")" + (changed.empty() ? "" : "; changed by the options: " + changed);
}

} // namespace beam
