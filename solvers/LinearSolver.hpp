// A linear solve with one operator, configured from the options database under its own prefix
// (`-mass_ksp_type`, `-shifted_pc_type`, ...).
//
// Default: a direct Cholesky factorization (CHOLMOD on one rank, MUMPS on several) computed once, at construction,
// and reused by every solve: the operator never changes during a run, so KSPSolve does not refactor.
// LinearSolverKind::CG gives the course's solver, conjugate gradients with a Jacobi preconditioner,
// started from the vector passed in (the previous step's value), to relative tolerance 1e-10.
#pragma once
#include <petscksp.h>

#include <functional>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "common/Petsc.hpp"

namespace beam {

// Diagonal: the matrix is diagonal (lumped mass), solved exactly by one Jacobi application.
enum class LinearSolverKind { Direct, CG, Diagonal };
const char *linearSolverName(LinearSolverKind k);
LinearSolverKind parseLinearSolver(const std::string &name); // "direct" | "cg"

class LinearSolver {
public:
  LinearSolver(Mat A, const std::string &prefix, LinearSolverKind kind);
  // With a preconditioner the model supplies (SecondOrderSystem::mass_inverse): pc_setup makes the PC
  // apply it. exact: it is A^{-1} itself (A = M), so a solve is one application (KSPPREONLY); otherwise
  // CG as LinearSolverKind::CG (1e-10, natural norm, started from x) preconditioned by it. Options under
  // the prefix still override both (-shifted_ksp_type, -shifted_pc_type, ...).
  LinearSolver(Mat A, const std::string &prefix, const std::function<void(PC)> &pc_setup, bool exact);
  // Where an iterative solve starts: from the x given, or from zero (x's values are then ignored, and
  // the start needs no product A x0).
  enum class Start { Given, Zero };
  // Solves A x = b; x holds the initial guess for iterative solvers (Start::Given). Throws a run error
  // on failure, unless require_convergence is false (then x holds the last iterate).
  void solve(Vec b, Vec x, bool require_convergence = true, Start start = Start::Given) const;
  KSP ksp() const { return ksp_; }

  // A solve the model provides in place of KSPSolve for this configuration (the beam's fused CG,
  // MesLib/KroneckerCG.hpp): (b, x, rtol, max_it, from_zero) -> iterations, negated when not converged. Taken only
  // while the KSP is as the model-preconditioner constructor made it (type cg, a shell PC, the natural
  // norm, no monitor, reason or view under the prefix): any option that changes it keeps KSPSolve. rtol
  // and max_it are the KSP's. (The exact constructor's preonly solve is likewise one PCApply.)
  using SolveOverride = std::function<PetscInt(Vec b, Vec x, double rtol, PetscInt max_it, bool from_zero)>;
  void overrideSolve(SolveOverride solve);
  // Refuses (input error, naming the option) tolerances PETSc takes without a word but that mean
  // nothing: -<prefix>ksp_rtol outside [0, 1), a negative or infinite -<prefix>ksp_atol, -<prefix>ksp_divtol
  // <= 1, -<prefix>ksp_max_it < 1.
  static void checkTolerances(KSP ksp, const std::string &prefix);
  // Refuses (input error, naming the option and what is accepted) the preconditioner options PETSc checks
  // only at the first factorization or application, which failed as a diverged run (exit 3) or crashed: a
  // -<prefix>pc_factor_mat_solver_type that cannot factor A as the PC asks (an unknown name, petsc on
  // several ranks), negative -<prefix>pc_factor_levels, an unknown -<prefix>pc_factor_mat_ordering_type,
  // -<prefix>pc_eisenstat_omega other than 1.
  // Also the ranges PETSc never checks (checkParameterRanges) and more Jacobi blocks than PETSc can lay
  // over A's rows.
  static void checkPreconditionerOptions(KSP ksp, Mat A, const std::string &prefix);
  // Refuses a parameter PETSc takes without checking it (-<prefix>pc_sor_omega 5, a negative GAMG
  // count, a Richardson scale of 0) among the options read so far under `prefix`.
  static void checkParameterRanges(const std::string &prefix);
  // After KSPSetUp: the same ranges and the tolerances' for the inner solvers PETSc made at the set-up
  // (-<prefix>sub_*, -<prefix>mg_levels_*, -<prefix>mg_coarse_*, -<prefix>ksp_ksp_*, ...), and the inner
  // solvers' options the set-up did not read refused as unknown (acceptSolveTimeOptions, refuseUnreadSolverOptions).
  static void checkSetUp(KSP ksp, const std::string &prefix);
  // The options prefixes of `ksp` and of the inner solvers its set-up made (block Jacobi's, ASM's, the
  // multigrid levels', PCKSP's, a field split's, ...), lower case, a numbered level's also without its
  // number; nullopt where a preconditioner's inner solvers are not known here (PCBDDC, PCPATCH, ...).
  static std::optional<std::set<std::string>> solverPrefixes(KSP ksp);
  // PETSc failed on the options of the solver under `prefix` (its SetFromOptions, set-up or solve): the
  // first given option under `prefix` or below it outside the ranges above is refused, named, with what
  // is accepted (PETSc's own message may name neither: "Negative overlap value requested"); returns
  // where none is, for the caller's message.
  static void refuseGivenOutOfRange(const std::string &prefix);
  // Refuses the given values under `prefix` (or below) that crash PETSc when read (-<prefix>pc_mg_levels
  // 0) or that it can set up but not apply (a shell; a composite without
  // its preconditioners): called before the solver's SetFromOptions.
  static void refuseValuesThatCrash(const std::string &prefix);
  // KSPSetUp and the set-up of the inner solvers on the blocks (KSPSetUpOnBlocks), which read their
  // options then: the PETSc error code (an argument error is the options').
  static PetscErrorCode setUp(KSP ksp);
  // PETSc's message with an accepted part for the solver under `prefix` where it has none.
  static std::string withAccepted(const std::string &message, const std::string &prefix);
  // True when the options give -<prefix>pc_type a preconditioner that does not solve by itself (not a
  // factorization, nor one of `also_exact`) and no -<prefix>ksp_type: a solver whose default is one
  // preconditioner application (KSPPREONLY) must then iterate, or it would apply it once and call that
  // the solution (-shifted_pc_type gamg on the direct path gave the midpoint rule a drift of 1.5e-2 where
  // it conserves energy to 1e-12; -ms_pc_type gamg took a V-cycle per Newton iteration).
  // A preconditioner that solves by itself when applied once: a factorization, QR, SVD, redundant.
  static bool solvesByItself(const std::string &pc_type);
  // Refuses (input error) a KSPPREONLY solver whose preconditioner does not solve by itself, nor is one of
  // `also_exact`, PCKSP or Jacobi on a diagonal A: one application is no solve. `krylov_hint` ends the
  // accepted Krylov alternatives.
  static void refuseOneApplication(KSP ksp, Mat A, const std::string &prefix, const std::vector<std::string> &also_exact,
                                   const std::string &krylov_hint);
  static bool optionsChooseInexactPreconditioner(const std::string &prefix, const std::vector<std::string> &also_exact = {});
  // Iterations of the last solve (KSP or override).
  PetscInt lastIterations() const { return last_iterations_; }

private:
  void configureCG();
  // `also_exact`: preconditioners this solver may apply once (KSPPREONLY) as an exact solve, beside the factorizations.
  void finish(Mat A, const std::string &prefix, const std::vector<std::string> &also_exact);
  // The KSP is still of `type` with the model's shell preconditioner, and no option under the prefix
  // asks KSPSolve for output (-ksp_monitor, -ksp_converged_reason, -ksp_view): a model's own solve may
  // stand in for KSPSolve.
  bool asConfigured(KSPType type) const;

  PKSP ksp_;
  std::string prefix_;
  SolveOverride override_;
  bool natural_ = false; // configureCG chose the natural norm
  mutable PetscInt last_iterations_ = 0;
};

} // namespace beam
