// The beam as the operator the time schemes see: M, S and f with frozen DOFs applied, either assembled
// (MATAIJ) or matrix-free (element-by-element shells, see MatrixFreeOperator.hpp), and the solver path a
// run takes when the user names none.
#pragma once
#include <cstdint>
#include <functional>
#include <string>

#include "MesLib/Beam.hpp"
#include "solvers/SecondOrderSystem.hpp"

namespace beam {

enum class OperatorKind { Assembled, MatrixFree };
const char *operatorName(OperatorKind k);
OperatorKind parseOperator(const std::string &name); // "assembled" | "matfree"

// What a run holds besides the beam's vectors, for the memory estimate: the operator (assembled M, S
// and, with Rayleigh damping, C), and what its time scheme adds (TimeScheme::footprint: the combinations
// a M + b C + c S it assembles, the linear solvers it makes, each a Cholesky factor on the direct path),
// plus one solver: the model's mass solver (explicit schemes), or the static solve with S of the energy
// scale, made while the scheme's own exist. A lab that runs several schemes one at a time counts the largest.
struct RunNeeds {
  OperatorKind kind = OperatorKind::Assembled;
  bool direct_solver = false;
  bool damped = false;      // Rayleigh damping: C assembled beside M and S
  int scheme_matrices = 1;  // combinations assembled by the scheme
  int solvers = 2;          // linear solvers held at once, the model's or the energy scale's included
};
// Bytes a run on this beam needs at least (all ranks together): 56 vectors' worth (the scheme's and
// monitors' vectors, the stability check's Krylov basis, snapshot arrays); assembled, 18 nonzeros per
// row (value and column index) for each of M, S, C and the scheme's combinations, plus one combination
// more while the first is formed; on the direct path a Cholesky factor per solver, the smaller of a
// band across the short side and nested dissection's fill, plus half a factor of work space; then
// + 10 %. Calibrated on measured peaks of every path and scheme (BeamSystem.cpp).
std::uint64_t estimatedRunBytes(const BeamSpec &spec, const RunNeeds &needs);
// Refuses (input error with the estimate, on every rank of comm alike) a run that cannot fit in the
// memory available: each node's share of the run (its ranks' part) against that node's MemAvailable.
// node_available is read on each node's first rank only (MemAvailable of /proc/meminfo, 0 if unknown).
unsigned long long memAvailableBytes();
// Bytes rank 0 holds on top of its share while it writes a checkpoint of a run on several ranks: each
// state vector is gathered whole to it (solvers/Checkpoint.cpp), with the scatter's buffers.
std::uint64_t checkpointGatherBytes(const BeamSpec &spec);
// `accepted` replaces the message's list of ways out (default: a smaller beam, and for a direct solver
// the matrix-free CG path). With `checkpoints` (a time loop, which writes one at least at its end) the
// node of rank 0 also needs checkpointGatherBytes when the run has several ranks.
void checkMemory(MPI_Comm comm, const BeamSpec &spec, const RunNeeds &needs, const char *accepted = nullptr,
                 bool checkpoints = false,
                 const std::function<unsigned long long()> &node_available = memAvailableBytes);

// The returned system refers to `beam` (matrix-free operators are built from it on demand), so the
// beam must outlive it.
SecondOrderSystem beamSystem(const Beam &beam, OperatorKind kind = OperatorKind::Assembled);

// Rayleigh damping C = alpha M + beta S (alpha, beta >= 0; nothing for 0, 0) added to a beamSystem:
// assembled, C has zero rows and columns at the frozen DOFs; matrix-free, C is the composite
// alpha M + beta S and the system's combinations fold it into M and S.
void addRayleighDamping(SecondOrderSystem &system, const Beam &beam, double alpha, double beta);

// How a run solves its linear systems.
struct SolverPath {
  OperatorKind operator_kind = OperatorKind::Assembled;
  LinearSolverKind solver = LinearSolverKind::Direct;
  // Schemes solve with the exact Kronecker inverse of the consistent mass (one application for M, CG
  // preconditioned by it for a M + b C + c S; MesLib/KroneckerMass.hpp): attachSolverPath sets it up.
  bool kronecker_mass = false;
  std::string name;   // direct, cg, mf_cg, mf_kron
  std::string reason; // why this path, for the run header
};

// Up to this many DOFs (on any number of ranks) the default stays the direct Cholesky factored once: on
// small beams it is about as fast (bench/results.md) and exact to round-off (the course beam's drift).
constexpr PetscInt kDirectMaxDofs = 10000;

// The path of a run. When the command line names -linear_solver or -operator, or a preconditioner that
// needs assembled matrices (-shifted_pc_type gamg, ...), exactly what the options say (requested_*).
// Otherwise chosen by mass kind and size:
//   consistent mass, Kronecker form (KroneckerMassInverse::whyNot empty), more than kDirectMaxDofs DOFs:
//   matrix-free + the Kronecker mass inverse (mf_kron);
//   lumped mass, as large: matrix-free + CG with Jacobi (mf_cg; the mass solves are a division);
//   otherwise: the direct Cholesky (assembled).
SolverPath chooseSolverPath(const Beam &beam, OperatorKind requested_operator, LinearSolverKind requested_solver);
// Sets system.mass_inverse when the path uses the Kronecker mass inverse (the system was built with
// path.operator_kind); the beam must outlive the system.
void attachSolverPath(const Beam &beam, const SolverPath &path, SecondOrderSystem &system);
// One line for the run header: "solver path: mf_kron (...)".
std::string describeSolverPath(const SolverPath &path);

} // namespace beam
