#include "solvers/ImplicitTheta.hpp"
#include "common/Warnings.hpp"
#include "solvers/FactorCost.hpp"

#include <petscdmshell.h>
#include <strings.h>

#include <algorithm>
#include <cmath>
#include <sstream>

#include "common/Options.hpp"
#include "common/StopSignal.hpp"

namespace beam {

namespace {

// Newton's stopping rule: |R| <= rtol * |R(0)|, with R(0) the residual at dv = 0 (not at the
// predictor the solve starts from: a good predictor would make a relative test unreachable), or |R| <=
// kFloorFactor times the residual's round-off floor (ImplicitTheta::roundOffFloor), or a full
// Newton step shorter than 1e-8 |dv| (|step| / lambda, whatever the line search took: SNES's default
// stol, or -<prefix>snes_stol; Newton converges quadratically, so what is left after it is of order its square), or the update
// stalling at round-off (|delta| <= 1e-12 |dv|: a state at rest in equilibrium has an R(0) of round-off
// size that no relative reduction can beat), or the residual stalling at round-off: within 1e4 of the
// target and no halving in 3 iterations (stiff springs, k = 1e5 in a disk falling at dt = 2.5e-5), or
// PETSc's own tests (atol, iteration limit). The step test is what ends most solves of large networks:
// the residual's round-off floor grows with the number of springs while R(0) shrinks with the particles'
// masses (R(0) is dt m g on a network at rest), so on a 1024 x 1024 cloth the floor lies above
// 1e-10 |R(0)| and the residual test alone is never met; dividing by lambda keeps a step cut short by the
// line search from passing for convergence. rtol and atol are SNES's (-<prefix>snes_rtol, -<prefix>snes_atol).
// The step and stall tests are for Newton with a line search (newtonls) only; the other methods end on
// the residual tests, or fail at once when their residual stops changing.
PetscErrorCode convergenceTest(SNES snes, PetscInt it, PetscReal xnorm, PetscReal snorm, PetscReal fnorm,
                               SNESConvergedReason *reason, void *ctx) {
  PetscFunctionBeginUser;
  auto &stop = *static_cast<ImplicitTheta::NewtonStop *>(ctx);
  // Under a left nonlinear preconditioner (-<prefix>snes_npc_side left) fnorm is |dv - NPC(dv)|, a
  // velocity, not |R| (unless -<prefix>snes_function_type unpreconditioned): the tests take |R(dv)|.
  if (stop.npc_left) {
    Vec dv;
    PetscCall(SNESGetSolution(snes, &dv));
    try {
      fnorm = stop.residual_norm(dv);
    } catch (const Error &e) {
      SETERRQ(PETSC_COMM_SELF, PETSC_ERR_LIB, "%s", e.what());
    }
  }
  stop.norm = fnorm;
  // PETSc's own step test (-snes_stol) neither divides by lambda nor asks which method made the step:
  // kept out (snorm "infinite" to it), the step test below takes its tolerance. With it, newtontr
  // accepted a step at 5.5 % of its starting residual and qn one that had not moved (exit 0).
  PetscCall(SNESConvergedDefault(snes, it, xnorm, PETSC_MAX_REAL, fnorm, reason, nullptr));
  if (*reason != SNES_CONVERGED_ITERATING) PetscFunctionReturn(0);
  if (stop.watch_signals && (stop.interrupted_by = stopRequested(stop.comm)) != 0) {
    *reason = SNES_DIVERGED_INNER; // (PETSc 3.18 has no SNES_DIVERGED_USER; the step reads interrupted_by)
    PetscFunctionReturn(0);
  }
  PetscReal atol, rtol, stol, lambda = 0;
  PetscInt maxit, maxf;
  PetscCall(SNESGetTolerances(snes, &atol, &rtol, &stol, &maxit, &maxf));
  if (it == 0 || fnorm <= 0.5 * stop.best) {
    stop.best = fnorm;
    stop.stalled = 0;
  } else {
    ++stop.stalled;
  }
  if (it == 0) stop.unchanged = 0;
  else if (it != stop.last_it) stop.unchanged = fnorm == stop.last ? stop.unchanged + 1 : 0;
  stop.last = fnorm;
  stop.last_it = it;
  SNESLineSearch linesearch;
  PetscReal max_step = 0;
  PetscCall(SNESGetLineSearch(snes, &linesearch));
  PetscCall(SNESLineSearchGetLambda(linesearch, &lambda));
  PetscCall(SNESLineSearchGetTolerances(linesearch, nullptr, &max_step, nullptr, nullptr, nullptr, nullptr));
  // A direction the line search shortened to -<prefix>snes_linesearch_maxstep (bt and the energy search
  // do, before lambda): the update is lambda maxstep, however far the Newton step went, so the step
  // tests would take any capped step for convergence (maxstep 1e-12: every step "converged" after one
  // iteration at its starting residual, the chain's velocities 2.9 off, exit 0). PETSc's l2 bounds lambda
  // instead and leaves the direction whole (snorm / lambda is then the Newton step's length), and basic,
  // cp and nleqerr do not read maxstep.
  PetscBool cutting = PETSC_FALSE;
  PetscCall(PetscObjectTypeCompareAny(reinterpret_cast<PetscObject>(linesearch), &cutting, SNESLINESEARCHBT,
                                      SNESLINESEARCHSHELL, ""));
  const bool capped = it > 0 && cutting && max_step > 0 && snorm >= (1 - 1e-8) * lambda * max_step;
  if (capped) {
    ++stop.capped;
    stop.max_step = max_step;
  }
  // The step and stall tests say the iterate is solved only if the step came from a linear solve that
  // met its tolerance or was exact (slow progress is then round-off, not the solver's): a Krylov solve stopped by its iteration count as "converged"
  // (-..._ksp_converged_maxits) or a single preconditioner application (-..._ksp_type preonly
  // -..._pc_type jacobi) can return a tiny or zero step far from the solution (the folding 128^2 cloth's
  // step 15 was accepted unchanged, residual 6e-3, after a GMRES capped at 40 iterations).
  PetscBool direct = PETSC_FALSE;
  KSPConvergedReason linear = KSP_CONVERGED_ITERATING;
  if (it > 0) {
    KSP ksp;
    PC pc;
    PetscCall(SNESGetKSP(snes, &ksp));
    PetscCall(KSPGetConvergedReason(ksp, &linear));
    PetscCall(KSPGetPC(ksp, &pc));
    PetscCall(PetscObjectTypeCompareAny(reinterpret_cast<PetscObject>(pc), &direct, PCLU, PCCHOLESKY, ""));
  }
  // A solve that failed (linear < 0: its iteration limit, a breakdown, a failed factorization) gives no
  // such step either; Newton goes on from one only under -..._snes_max_linear_solve_fail. Nor does a
  // method whose step is not the Newton step scaled by lambda: the trust region's is cut to its radius
  // (-ms_snes_type newtontr accepted a step at 5.5 % of its starting residual, exit 0, as its radius
  // shrank), a quasi-Newton or NGMRES step is not a Newton step; those end on the residual tests. Nor is
  // Newton's step under a nonlinear preconditioner: on the left it is one of dv - NPC(dv) (with fnorm, a
  // left NPC crept linearly and its step test accepted a state 5e-7 off, exit 0), on the right it starts
  // from the NPC's iterate with the NPC's function, which ksponly and ms leave stale (steps accepted at
  // |R| 100 times the target, exit 0).
  PetscBool line_search_newton = PETSC_FALSE;
  PetscCall(PetscObjectTypeCompare(reinterpret_cast<PetscObject>(snes), SNESNEWTONLS, &line_search_newton));
  const bool newton_step = line_search_newton && !stop.npc;
  const bool stuck = it > 0 && stop.unchanged > 0 && fnorm == stop.reference; // (see the floor test)
  const bool trusted_step = newton_step && it > 0 && !stuck && !capped && linear > 0 && (linear != KSP_CONVERGED_ITS || direct);
  const PetscReal step_tolerance = stol > 0 ? stol : 1e-8; // -snes_stol, for Newton with a line search only
  if (fnorm <= rtol * stop.reference) *reason = SNES_CONVERGED_FNORM_RELATIVE;
  // The floor and step tests judge an iterate Newton has moved: at iteration 0 the floor test took the
  // first guess for a solution whenever R(0) lay below the floor (k = 1e15: a disk hung in mid-air, dt m g
  // under the springs' round-off, exit 0), where one Newton step moves it (a rigid fall: the springs keep
  // their length); and where the masses lie below the round-off of dt^2 K in Newton's matrix (k = 1e50,
  // 1e300) the steps moved nothing, the residual stayed R(0) bitwise, and the floor or step test accepted
  // the disk hanging again.
  else if (it > 0 && !stuck && fnorm <= ImplicitTheta::kFloorFactor * stop.floor) *reason = SNES_CONVERGED_FNORM_ABS;
  // A method whose residual stays bitwise the same for 3 iterations does not move: the step fails at
  // once and is retried (qn with Jacobian scaling stayed 1.4 times above the target, bitwise, for 500
  // iterations; Newton on the k = 1e50 disk). (Not its step's norm: ngmres reports 0 for it.)
  else if (stop.unchanged >= 3) *reason = SNES_DIVERGED_LOCAL_MIN;
  else if (trusted_step && lambda > 0 && snorm <= step_tolerance * lambda * xnorm) *reason = SNES_CONVERGED_SNORM_RELATIVE;
  else if (trusted_step && snorm <= 1e-12 * xnorm) *reason = SNES_CONVERGED_SNORM_RELATIVE;
  else if (trusted_step && stop.stalled >= 3 && fnorm <= 1e4 * rtol * stop.reference) *reason = SNES_CONVERGED_SNORM_RELATIVE;
  PetscFunctionReturn(0);
}

// Newton's options that PETSc 3.18 accepts but that make no sense, refused with one line (exit 2):
// -snes_rtol 2 (or -1) passes the first test at once, so every step would be accepted unsolved, as
// -snes_stol >= 1 would; a negative -snes_atol or -snes_stol, -snes_max_it < 1, -snes_max_funcs 0
// (every step fails before its first iteration) or below -1 and a negative -snes_max_linear_solve_fail
// mean nothing; and the
// Eisenstat-Walker parameters out of the ranges of SNESKSPSetParametersEW (a -snes_ksp_ew_rtolmax above 1
// lets a linear solve stop before its first iteration; a -snes_ksp_ew_version outside 1-4 failed only
// inside the first solve, as a run error); the line search's, below.
void checkNewtonTolerances(SNES snes, const std::string &prefix) {
  auto bad = [&](const char *name, double value, const char *accepted) { refuseOptionValue(prefix, name, value, accepted); };
  PetscReal atol, rtol, stol;
  PetscInt maxit, maxf;
  BEAM_PETSC(SNESGetTolerances(snes, &atol, &rtol, &stol, &maxit, &maxf));
  if (!(rtol >= 0 && rtol < 1)) bad("snes_rtol", rtol, "0 <= rtol < 1");
  if (!(atol >= 0 && std::isfinite(atol))) bad("snes_atol", atol, "a finite atol >= 0");
  if (!(stol >= 0 && stol < 1)) bad("snes_stol", stol, "0 <= stol < 1");
  // The step test is the line-search Newton's (convergenceTest): another method would ignore it.
  SNESType type = nullptr;
  BEAM_PETSC(SNESGetType(snes, &type));
  if (stol > 0 && type && std::string(type) != SNESNEWTONLS)
    throw inputError("-" + prefix + "snes_stol: the full-step test is Newton's with a line search (a " + type +
                     " step is no Newton step scaled by the line search); accepted: -" + prefix + "snes_stol with -" +
                     prefix + "snes_type newtonls");
  if (maxit < 1) bad("snes_max_it", double(maxit), "an integer >= 1");
  if (maxf == 0 || maxf < -1) bad("snes_max_funcs", double(maxf), "-1 (no limit) or an integer >= 1");
  // The methods' own parameters PETSc takes without a word (a trust region of -1, a memory of 0, or one
  // of 1e8 on a 16x16 cloth: quasi-Newton and NGMRES hung allocating, Anderson took 2.9 GB to fail).
  const double inf = HUGE_VAL;
  const std::string memory = "an integer from 1 to 1000 (that many vectors, and for ngmres and anderson an m x m matrix, are "
                             "allocated at the set-up)";
  checkOptionRanges(prefix, {{"snes_tr_delta0", 0, true, inf, true, "delta0 > 0"},
                             {"snes_qn_m", 1, false, 1000, false, memory},
                             {"snes_ngmres_m", 1, false, 1000, false, memory},
                             {"snes_anderson_m", 1, false, 1000, false, memory}});
  // Failed linear solves Newton may go on from (README: then their steps do not count for the step tests);
  // a negative count means nothing (PETSc takes it as 1).
  PetscInt linear_failures = 0;
  BEAM_PETSC(SNESGetMaxLinearSolveFailures(snes, &linear_failures));
  if (linear_failures < 0) bad("snes_max_linear_solve_fail", double(linear_failures), "an integer >= 0");
  // The line search's: a damping <= 0 steps nowhere or backwards (0 ran 500 iterations to fail), and
  // negative lengths or tolerances and an order outside 1-3 mean nothing.
  SNESLineSearch line_search;
  PetscReal min_lambda, max_step, ls_rtol, ls_atol, ls_ltol, damping;
  PetscInt ls_max_it, order;
  BEAM_PETSC(SNESGetLineSearch(snes, &line_search));
  BEAM_PETSC(SNESLineSearchGetTolerances(line_search, &min_lambda, &max_step, &ls_rtol, &ls_atol, &ls_ltol, &ls_max_it));
  BEAM_PETSC(SNESLineSearchGetDamping(line_search, &damping));
  BEAM_PETSC(SNESLineSearchGetOrder(line_search, &order));
  if (!(damping > 0)) bad("snes_linesearch_damping", damping, "damping > 0");
  if (!(min_lambda >= 0 && min_lambda < 1)) bad("snes_linesearch_minlambda", min_lambda, "0 <= minlambda < 1");
  if (!(max_step > 0)) bad("snes_linesearch_maxstep", max_step, "maxstep > 0");
  if (!(ls_rtol >= 0)) bad("snes_linesearch_rtol", ls_rtol, "rtol >= 0");
  if (!(ls_atol >= 0)) bad("snes_linesearch_atol", ls_atol, "atol >= 0");
  if (!(ls_ltol >= 0)) bad("snes_linesearch_ltol", ls_ltol, "ltol >= 0");
  if (ls_max_it < 1) bad("snes_linesearch_max_it", double(ls_max_it), "an integer >= 1");
  // The order is bt's (1-3); the other searches and methods leave it 0 (-..._snes_type newtontr, whose
  // trust region has no line search, was refused with "-..._snes_linesearch_order 0").
  PetscBool bt = PETSC_FALSE;
  BEAM_PETSC(PetscObjectTypeCompare(reinterpret_cast<PetscObject>(line_search), SNESLINESEARCHBT, &bt));
  if (order < (bt ? 1 : 0) || order > 3) bad("snes_linesearch_order", double(order), "1, 2 or 3");
  PetscBool ew = PETSC_FALSE;
  BEAM_PETSC(SNESKSPGetUseEW(snes, &ew));
  if (!ew) return;
  PetscInt version;
  PetscReal rtol_0, rtol_max, gamma, alpha, alpha2, threshold;
  BEAM_PETSC(SNESKSPGetParametersEW(snes, &version, &rtol_0, &rtol_max, &gamma, &alpha, &alpha2, &threshold));
  if (version < 1 || version > 4) bad("snes_ksp_ew_version", double(version), "1, 2, 3 or 4");
  if (!(rtol_0 >= 0 && rtol_0 < 1)) bad("snes_ksp_ew_rtol0", rtol_0, "0 <= rtol0 < 1");
  if (!(rtol_max >= 0 && rtol_max < 1)) bad("snes_ksp_ew_rtolmax", rtol_max, "0 <= rtolmax < 1");
  if (!(gamma >= 0 && gamma <= 1)) bad("snes_ksp_ew_gamma", gamma, "0 <= gamma <= 1");
  if (!(alpha > 1 && alpha <= 2)) bad("snes_ksp_ew_alpha", alpha, "1 < alpha <= 2");
  if (!(alpha2 > 1 && alpha2 <= 2)) bad("snes_ksp_ew_alpha2", alpha2, "1 < alpha2 <= 2");
  if (!(threshold > 0 && threshold < 1)) bad("snes_ksp_ew_threshold", threshold, "0 < threshold < 1");
}

} // namespace

bool ImplicitTheta::directNewton(Mat J, const std::string &prefix) {
  if (LinearSolver::optionsChooseInexactPreconditioner(prefix)) return false;
  // An exact preconditioner the options choose (a factorization, redundant, QR, SVD), or preonly without
  // one, gets the direct path whatever the size: on the multigrid path its factor was rebuilt every other
  // Newton iteration (SNESSetLagPreconditioner 2, until 2026-11-28), and a bare -ksp_type preonly applied
  // one GAMG V-cycle per Newton iteration (446 iterations on a 16x16 cloth to t = 0.1 against 39).
  char pc[64] = "", ksp[64] = "";
  PetscBool pc_chosen = PETSC_FALSE, ksp_chosen = PETSC_FALSE;
  BEAM_PETSC(PetscOptionsGetString(nullptr, prefix.c_str(), "-pc_type", pc, sizeof pc, &pc_chosen));
  BEAM_PETSC(PetscOptionsGetString(nullptr, prefix.c_str(), "-ksp_type", ksp, sizeof ksp, &ksp_chosen));
  if (pc_chosen && LinearSolver::solvesByItself(pc)) return true;
  if (!pc_chosen && ksp_chosen && std::string(ksp) == KSPPREONLY) return true;
  PetscInt unknowns = 0;
  BEAM_PETSC(MatGetSize(J, &unknowns, nullptr));
  if (unknowns > kDirectNewtonLimit) return false;
  // The factorization's work per nonzero of J against multigrid's few sweeps over J: up to 100 a direct
  // LU is as fast or faster (a chain: 6; the default disk: 27; beam_lattice: 37), above it GMRES with
  // GAMG is faster, increasingly so (a 16x16 cloth, 160: 2.2x; 64x64, 1055: 8.5x per step).
  MatInfo info;
  BEAM_PETSC(MatGetInfo(J, MAT_GLOBAL_SUM, &info));
  return choleskyFlops(J) <= kDirectNewtonWorkPerNonzero * std::max(1.0, double(info.nz_used));
}

void ImplicitTheta::setup(const Model &model, const SchemeSettings &settings) {
  if (!(settings.dt > 0)) throw inputError("time step dt must be > 0");
  model_ = &model;
  dt_ = settings.dt;
  const double a = 1, b = theta_ * dt_, c = theta_ * theta_ * dt_ * dt_;
  for (PVec *w : {&dv_, &xt_, &vt_, &work_, &rhs_, &zero_, &work_floor_}) *w = model.createVector();
  BEAM_PETSC(VecSet(dv_, 0.0));
  BEAM_PETSC(VecSet(zero_, 0.0));
  if (const SecondOrderSystem *linear = model.linear()) {
    J_ = linear->combination(a, b, c);
    linear_.emplace(linear->shiftedSolver(J_, settings.options_prefix + "shifted_", settings.solver));
    return;
  }
  if (!model.hasJacobian())
    throw inputError("-scheme " + name_ + ": the model '" + model.name() +
                     "' gives no Jacobian for a Newton solve; accepted: " + schemesAccepting(model));
  J_ = model.createJacobian();
  newton_prefix_ = settings.options_prefix + settings.newton_prefix;
  newton_hint_ = settings.newton_hint;
  stop_on_signal_ = settings.stop_on_signal;
  BEAM_PETSC(SNESCreate(model.comm(), snes_.out()));
  BEAM_PETSC(SNESSetOptionsPrefix(snes_, (settings.options_prefix + settings.newton_prefix).c_str()));
  // The DM shell SNES makes gets dv's layout: PETSc's finite-difference Jacobian and its Jacobian tests
  // (-ms_snes_fd, -ms_snes_test_jacobian, -ms_snes_compare_explicit) make their vectors from it.
  DM dm;
  BEAM_PETSC(SNESGetDM(snes_, &dm));
  BEAM_PETSC(DMShellSetGlobalVector(dm, dv_));
  BEAM_PETSC(SNESSetFunction(snes_, work_, residualCallback, this));
  BEAM_PETSC(SNESSetJacobian(snes_, J_, J_, jacobianCallback, this));
  BEAM_PETSC(SNESSetType(snes_, SNESNEWTONLS));
  // At most 1e5 residuals per solve (PETSc's default, 1e4, is below what a 500-iteration Newton with its
  // line search may take; no limit let newtontr with a left nonlinear preconditioner shrink its region at
  // dv = 0 forever, 2 million residuals in 5 s).
  BEAM_PETSC(SNESSetTolerances(snes_, 1e-50, 1e-10, 0.0, 500, 100000));
  BEAM_PETSC(SNESSetConvergenceTest(snes_, convergenceTest, &stop_, nullptr));
  BEAM_PETSC(SNESSetConvergenceHistory(snes_, history_, nullptr, 64, PETSC_TRUE));
  // A conservative model's step minimizes an energy: the line search measures progress by it (options
  // may choose PETSc's, -<prefix>snes_linesearch_type bt).
  if (model.conservative()) {
    energy_search_.emplace([this](Vec dv) { return stepEnergy(dv); });
    energy_search_->attach(snes_, true);
  }
  // The linear solver every Newton iteration uses unless options say otherwise (see the header): above
  // kDirectNewtonLimit unknowns GMRES, since the exact Jacobian of buckling springs is indefinite,
  // preconditioned by smoothed-aggregation multigrid, whose cost per unknown does not grow with the
  // network; one SOR sweep per level instead of GAMG's Chebyshev-Jacobi smoother, which diverges on an
  // indefinite matrix.
  KSP ksp;
  PC pc;
  BEAM_PETSC(SNESGetKSP(snes_, &ksp));
  BEAM_PETSC(KSPGetPC(ksp, &pc));
  // A preconditioner the options choose that is not a factorization (-ms_pc_type gamg, jacobi, ilu) gets
  // the Krylov solver of the large systems unless -ms_ksp_type is given too: with the small systems'
  // preonly it was applied once per Newton iteration (the disk to t = 0.2: 119 Newton iterations with
  // -ms_pc_type gamg, 78 with GMRES, 62 with the default LU).
  bool smoother_defaults = false; // the multigrid smoother's defaults are due (set once matrix-free is known)
  if (directNewton(J_, newton_prefix_)) {
    // Small or thin systems: a direct LU (MUMPS on several ranks). GMRES(30) with ILU(0) stagnated on
    // stiff networks at large dt (a 20x20 cloth at omega_max dt = 60 hit its 10000 iterations).
    BEAM_PETSC(KSPSetType(ksp, KSPPREONLY));
    BEAM_PETSC(PCSetType(pc, PCLU));
    PetscMPIInt size = 1;
    MPI_Comm_size(model.comm(), &size);
    if (size > 1) BEAM_PETSC(PCFactorSetMatSolverType(pc, MATSOLVERMUMPS));
  } else {
    BEAM_PETSC(KSPSetType(ksp, KSPGMRES));
    // Restarted every 60 iterations, not PETSc's 30 (-ms_ksp_gmres_restart overrides it): the 1024x1024
    // cloth's hard solves take 40 to 90 iterations, and each restart threw away the space built (the
    // benchmark's first two steps: 129 instead of 140 Krylov iterations per step on one rank, 143.5 instead
    // of 178 on two, 2026-11-30; the 128x128 and 512x512 cloths, whose solves take at most 14, unchanged).
    // The vectors are made as a solve reaches them, so memory grows only where a solve is long.
    BEAM_PETSC(KSPGMRESSetRestart(ksp, 60));
    // Relative tolerance 1e-3: Newton's stopping tests are on the nonlinear residual and step, so the
    // linear tolerance changes only the path, not the accuracy of the accepted dv; on the cloth benchmark
    // (first two steps from rest) 1e-3 took the same Newton iterations as 1e-5 at 128^2 and 512^2 with
    // 42 instead of 72 and 90 instead of 159 Krylov iterations per step (1.3x and 1.66x faster). At most
    // 500 iterations (PETSc's default, 10000, took two minutes to give up on the 128x128 cloth at step 15;
    // a working solve takes 5 to 40).
    BEAM_PETSC(KSPSetTolerances(ksp, 1e-3, PETSC_DEFAULT, PETSC_DEFAULT, 500));
    BEAM_PETSC(PCSetType(pc, PCGAMG));
    char chosen[64] = "";
    PetscBool pc_chosen = PETSC_FALSE, ksp_chosen = PETSC_FALSE;
    BEAM_PETSC(PetscOptionsGetString(nullptr, newton_prefix_.c_str(), "-pc_type", chosen, sizeof chosen, &pc_chosen));
    BEAM_PETSC(PetscOptionsHasName(nullptr, newton_prefix_.c_str(), "-ksp_type", &ksp_chosen));
    // The smoother, for a multigrid preconditioner only (another has no levels to read it: the set-up
    // would find the defaults unread, refuseUnreadSolverOptions).
    const std::vector<std::string> multigrid = {PCGAMG, PCMG, PCML, PCHMG};
    smoother_defaults = !pc_chosen || std::find(multigrid.begin(), multigrid.end(), std::string(chosen)) != multigrid.end();
    BEAM_PETSC(SNESSetLagPreconditioner(snes_, 2)); // GAMG's setup every other Newton iteration
    // The default multigrid path (no -pc_type, -ksp_type) may fall back to a direct LU on a step it cannot
    // solve (directFallback).
    fallback_allowed_ = !pc_chosen && !ksp_chosen;
  }
  LinearSolver::refuseValuesThatCrash(newton_prefix_);
  // The stopping rule is the step's (convergenceTest); PETSc's would replace it: skip accepted every step
  // after one iteration (exit 0), default crawled 1074 iterations at the 128^2 cloth's round-off floor.
  PetscBool own_test = PETSC_FALSE;
  BEAM_PETSC(PetscOptionsHasName(nullptr, newton_prefix_.c_str(), "-snes_convergence_test", &own_test));
  if (own_test)
    throw inputError("-" + newton_prefix_ + "snes_convergence_test: replaces the implicit step's stopping rule (the README's, under "
                     "implicit_euler); accepted: no -" + newton_prefix_ + "snes_convergence_test (-" + newton_prefix_ +
                     "snes_rtol, -" + newton_prefix_ + "snes_atol, -" + newton_prefix_ + "snes_stol tune it)");
  // -snes_type aspin is newtonls with a left nasm preconditioner PETSc makes itself: named as given, in any
  // case (the line named -ms_npc_snes_type nasm, an option never given, and ASPIN got PETSc's line, until
  // 2026-12-01). As the nonlinear preconditioner (-ms_npc_snes_type aspin) it crashed in PETSc (SEGV).
  for (const char *option : {"-snes_type", "-npc_snes_type"}) {
    char given_type[64] = "";
    PetscBool type_given = PETSC_FALSE;
    BEAM_PETSC(PetscOptionsGetString(nullptr, newton_prefix_.c_str(), option, given_type, sizeof given_type, &type_given));
    if (type_given && strcasecmp(given_type, SNESASPIN) == 0)
      throw inputError("-" + newton_prefix_ + (option + 1) + " " + given_type + ": Newton with PETSc's additive Schwarz (nasm) "
                       "nonlinear preconditioner, which needs subdomain problems the step does not give; accepted: newtonls, "
                       "newtontr, qn, ngmres, anderson, ncg, nrichardson" + (option[1] == 'n' ? ", ksponly, ms" : ""));
  }
  try {
    BEAM_PETSC(SNESSetFromOptions(snes_));
  } catch (const Error &e) { // e.g. -ms_snes_lag_preconditioner 0: PETSc's own check, a bad option
    throw optionsError(e.what());
  }
  checkNewtonTolerances(snes_, newton_prefix_);
  // Methods that solve R(dv) = 0 themselves; ksponly (one linear solve, accepted as CONVERGED_ITS: the
  // chain gained energy, exit 0), ms, composite, fas, nasm, aspin, shell and the VI methods need what a
  // step does not give them.
  SNESType snes_type = nullptr;
  BEAM_PETSC(SNESGetType(snes_, &snes_type));
  const std::vector<std::string> solving = {SNESNEWTONLS, SNESNEWTONTR, SNESQN, SNESNGMRES, SNESANDERSON, SNESNCG, SNESNRICHARDSON};
  if (std::find(solving.begin(), solving.end(), std::string(snes_type ? snes_type : "")) == solving.end())
    throw inputError("-" + newton_prefix_ + "snes_type " + (snes_type ? snes_type : "") +
                     ": not a method that solves the step by itself; accepted: newtonls, newtontr, qn, ngmres, anderson, ncg, nrichardson");
  // A nonlinear preconditioner need not solve; it must work from the residual and Jacobian alone (FAS needs
  // a grid hierarchy and failed at the first step as a diverged run, exit 3).
  PetscBool has_npc = PETSC_FALSE;
  BEAM_PETSC(SNESHasNPC(snes_, &has_npc));
  if (has_npc) {
    SNES npc;
    SNESType npc_type = nullptr;
    BEAM_PETSC(SNESGetNPC(snes_, &npc));
    BEAM_PETSC(SNESGetType(npc, &npc_type));
    std::vector<std::string> preconditioning = solving;
    preconditioning.insert(preconditioning.end(), {SNESKSPONLY, SNESMS});
    if (std::find(preconditioning.begin(), preconditioning.end(), std::string(npc_type ? npc_type : "")) == preconditioning.end())
      throw inputError("-" + newton_prefix_ + "npc_snes_type " + (npc_type ? npc_type : "") +
                       ": needs more than the step's residual and Jacobian; accepted: newtonls, newtontr, qn, ngmres, anderson, ncg, "
                       "nrichardson, ksponly, ms");
  }
  stop_.npc = has_npc;
  PCSide npc_side = PC_RIGHT;
  if (has_npc) BEAM_PETSC(SNESGetNPCSide(snes_, &npc_side));
  stop_.npc_left = has_npc && npc_side == PC_LEFT;
  stop_.residual_norm = [this](Vec dv) {
    if (!true_residual_) true_residual_ = model_->createVector();
    residual(dv, true_residual_);
    PetscReal norm = 0;
    BEAM_PETSC(VecNorm(true_residual_, NORM_2, &norm));
    return double(norm);
  };
  PetscBool mf_operator = PETSC_FALSE, mf = PETSC_FALSE;
  BEAM_PETSC(SNESGetUseMatrixFree(snes_, &mf_operator, &mf));
  // The levels read their smoother at the preconditioner's first set-up, after this. Not for matrix-free
  // Newton (-<prefix>snes_mf), which has no preconditioner (PETSc sets none at its set-up, below): the
  // defaults would be refused as the user's unread options (they were, for a few hours).
  if (smoother_defaults && !(mf && !mf_operator))
    for (const auto &[name, value] : {std::pair{"mg_levels_ksp_type", "richardson"}, std::pair{"mg_levels_pc_type", "sor"},
                                      std::pair{"mg_levels_ksp_max_it", "1"}})
      setDefaultOption("-" + newton_prefix_ + name, value);
  if (fallback_allowed_) { // the fallback swaps the linear solver of Newton's line search method on J_ only
    PetscBool newton_ls = PETSC_FALSE;
    BEAM_PETSC(PetscObjectTypeCompare(reinterpret_cast<PetscObject>(snes_.get()), SNESNEWTONLS, &newton_ls));
    // (A left nonlinear preconditioner makes PETSc's Newton matrix-free too, at its set-up.)
    fallback_allowed_ = newton_ls && !mf_operator && !mf && !stop_.npc_left;
  }
  // Without an assembled matrix PETSc sets the preconditioner to none, whatever the options chose.
  char pc_named[64] = "";
  PetscBool pc_given = PETSC_FALSE;
  BEAM_PETSC(PetscOptionsGetString(nullptr, newton_prefix_.c_str(), "-pc_type", pc_named, sizeof pc_named, &pc_given));
  if (mf && !mf_operator && pc_given && std::string(pc_named) != PCNONE)
    throw inputError("-" + newton_prefix_ + "pc_type " + pc_named + ": -" + newton_prefix_ +
                     "snes_mf has no matrix to build it from (PETSc drops it); accepted: -" + newton_prefix_ +
                     "snes_mf_operator with a preconditioner, or -" + newton_prefix_ + "snes_mf without one");
  LinearSolver::checkTolerances(ksp, newton_prefix_);
  LinearSolver::checkPreconditionerOptions(ksp, J_, newton_prefix_);
  // A shell line search is the energy search, which needs a conservative model (PETSc would fail at the
  // first step, asking for a shell function).
  SNESLineSearch line_search;
  PetscBool shell = PETSC_FALSE;
  BEAM_PETSC(SNESGetLineSearch(snes_, &line_search));
  BEAM_PETSC(PetscObjectTypeCompare(reinterpret_cast<PetscObject>(line_search), SNESLINESEARCHSHELL, &shell));
  if (shell && !energy_search_)
    throw inputError("-" + newton_prefix_ + "snes_linesearch_type shell: the line search on the step's energy needs a model "
                     "without dashpots or contact damping; accepted here: bt, basic, l2, cp, nleqerr");
  // PETSc reads every line search option whatever the type, so none is left unread: the order is bt's
  // cubic or quadratic fit, which the energy search (and l2, basic, cp) does not make
  // (-ms_snes_linesearch_order 2 ran bit for bit as without it, exit 0, until 2026-12-01).
  SNESType method_type = nullptr;
  BEAM_PETSC(SNESGetType(snes_, &method_type));
  const std::string method = method_type ? method_type : "";
  PetscBool order_given = PETSC_FALSE, bt_search = PETSC_FALSE;
  BEAM_PETSC(PetscOptionsHasName(nullptr, newton_prefix_.c_str(), "-snes_linesearch_order", &order_given));
  BEAM_PETSC(PetscObjectTypeCompare(reinterpret_cast<PetscObject>(line_search), SNESLINESEARCHBT, &bt_search));
  // (contact_study's trials: the undamped ones' energy search does not use it, the damped ones' bt does.)
  if (order_given && bt_search) optionUsed(newton_prefix_ + "snes_linesearch_order");
  // So is the maximal step, which basic, cp and nleqerr do not read (bt, l2 and the energy search do).
  PetscBool max_step_given = PETSC_FALSE, ignores_max_step = PETSC_FALSE;
  BEAM_PETSC(PetscOptionsHasName(nullptr, newton_prefix_.c_str(), "-snes_linesearch_maxstep", &max_step_given));
  BEAM_PETSC(PetscObjectTypeCompareAny(reinterpret_cast<PetscObject>(line_search), &ignores_max_step, SNESLINESEARCHBASIC,
                                       SNESLINESEARCHCP, SNESLINESEARCHNLEQERR, ""));
  // (... nor by a method without a line search: newtontr, anderson.)
  const bool no_search = method == SNESNEWTONTR || method == SNESANDERSON;
  if (max_step_given && !ignores_max_step && !no_search) optionUsed(newton_prefix_ + "snes_linesearch_maxstep");
  if (max_step_given && (ignores_max_step || no_search)) {
    const char *type = nullptr;
    BEAM_PETSC(PetscObjectGetType(reinterpret_cast<PetscObject>(line_search), &type));
    refuseUnusedOption(newton_prefix_ + "snes_linesearch_maxstep",
                       "-" + newton_prefix_ + "snes_linesearch_maxstep: not read by " +
                           (no_search ? "-" + newton_prefix_ + "snes_type " + method + ", which has no line search"
                                      : "the line search '" + std::string(type ? type : "?") + "'") +
                           "; accepted: with -" + newton_prefix_ + "snes_type newtonls and -" + newton_prefix_ +
                           "snes_linesearch_type bt or l2 (or the default search)");
  }
  if (order_given && !bt_search) {
    const char *type = nullptr;
    BEAM_PETSC(PetscObjectGetType(reinterpret_cast<PetscObject>(line_search), &type));
    refuseUnusedOption(newton_prefix_ + "snes_linesearch_order", "-" + newton_prefix_ + "snes_linesearch_order: the order of PETSc's bt search, not read by " +
                     (shell   ? std::string("the line search on the step's energy this network uses")
                      : type  ? "the line search '" + std::string(type) + "'"
                              : "-" + newton_prefix_ + "snes_type " + method + ", which has no line search") +
                     "; accepted: with -" + newton_prefix_ + "snes_linesearch_type bt" +
                     (type || shell ? "" : " and -" + newton_prefix_ + "snes_type newtonls"));
  }
  // No linear solve below the residual's round-off floor (linearToleranceCallback), unless
  // Eisenstat-Walker (-..._snes_ksp_ew) chooses the tolerances.
  PetscBool ew = PETSC_FALSE;
  BEAM_PETSC(SNESKSPGetUseEW(snes_, &ew));
  // ... which an exact solve does not have (-ms_snes_ksp_ew on the direct path ran bit for bit as
  // without it, exit 0, until 2026-12-01).
  KSPType ksp_type = nullptr;
  PCType pc_type = nullptr;
  BEAM_PETSC(KSPGetType(ksp, &ksp_type));
  BEAM_PETSC(PCGetType(pc, &pc_type));
  const bool preonly = ksp_type && std::string(ksp_type) == KSPPREONLY;
  // (... nor a method that makes no linear solves: ncg, qn, ngmres, anderson, nrichardson.)
  const bool newton_method = method == SNESNEWTONLS || method == SNESNEWTONTR;
  if (ew && newton_method && !preonly) optionUsed(newton_prefix_ + "snes_ksp_ew");
  if (ew && !newton_method)
    refuseUnusedOption(newton_prefix_ + "snes_ksp_ew", "-" + newton_prefix_ + "snes_ksp_ew: sets Newton's linear solves' tolerances, and -" +
                                                           newton_prefix_ + "snes_type " + method + " makes none; accepted: with -" +
                                                           newton_prefix_ + "snes_type newtonls or newtontr and a Krylov solver");
  else if (ew && preonly)
    refuseUnusedOption(newton_prefix_ + "snes_ksp_ew",
                       "-" + newton_prefix_ + "snes_ksp_ew: sets the linear solves' tolerances, and the solver as set up (-" +
                           newton_prefix_ + "ksp_type preonly: one application of -" + newton_prefix_ + "pc_type " +
                           (pc_type ? pc_type : "?") + ") has none; accepted: with a Krylov solver (-" + newton_prefix_ + "ksp_type gmres -" + newton_prefix_ +
                           "pc_type gamg, the large networks' default)");
  BEAM_PETSC(KSPGetTolerances(ksp, &linear_rtol_, nullptr, nullptr, nullptr));
  if (!ew) BEAM_PETSC(SNESSetUpdate(snes_, linearToleranceCallback));
  BEAM_PETSC(SNESSetApplicationContext(snes_, this));
  // GMRES (the default above kDirectNewtonLimit, or the options' choice) preconditions from the right
  // unless -<prefix>ksp_pc_side says otherwise: it then tests the true residual |b - J d|. With left
  // preconditioning it tests the preconditioned one, and where the SOR smoother met near-zero diagonals
  // of a folding cloth's Jacobian (128x128, dt = 0.01, step 15) the preconditioner's output reached
  // 1e99: GMRES "converged" in one iteration on a useless direction, the line search kept the old
  // iterate, and the stopping rule took the unchanged iterate for convergence (steps accepted unsolved).
  // The option is read here as an enum, not only looked for, so a bad value is refused on every path
  // (the direct one's KSP, preonly, never reads it).
  PetscBool gmres = PETSC_FALSE, side_chosen = PETSC_FALSE;
  PCSide side = PC_LEFT;
  BEAM_PETSC(PetscObjectTypeCompare(reinterpret_cast<PetscObject>(ksp), KSPGMRES, &gmres));
  BEAM_PETSC(PetscOptionsGetEnum(nullptr, newton_prefix_.c_str(), "-ksp_pc_side", PCSides,
                                 reinterpret_cast<PetscEnum *>(&side), &side_chosen));
  if (gmres && !side_chosen) BEAM_PETSC(KSPSetPCSide(ksp, PC_RIGHT));
  PetscBool factor = PETSC_FALSE;
  BEAM_PETSC(PetscObjectTypeCompareAny(PetscObject(pc), &factor, PCLU, PCCHOLESKY, ""));
  // The KSP and PC are set up at the first Newton iteration (or at begin); a factorization's package
  // reads its own options then (-ms_mat_mumps_icntl_14 on the direct path on several ranks).
  MatSolverType package = nullptr;
  if (factor) BEAM_PETSC(PCFactorGetMatSolverType(pc, &package));
  // (A nonlinear preconditioner's own solvers are set up at its first solve: its options are taken as read.)
  std::vector<std::string> also;
  if (package) also.push_back("mat_" + std::string(package) + "_");
  if (has_npc) also.push_back("npc_");
  acceptSolveTimeOptions(newton_prefix_, {"snes", "ksp"}, also); // judged after the set-up (setUpLinearSolverAt)
  prime_ = !factor; // a factorization's setup does not depend on earlier ones
  if (prime_)
    for (PVec *w : {&prime_x_, &prime_v_}) *w = model.createVector();
  // PETSc checks some combinations only at its set-up (-ms_snes_type anderson with a left NPC and
  // -ms_snes_function_type unpreconditioned was refused at the first step, after the run had started
  // writing): made here, before anything is written.
  const PetscErrorCode set_up = SNESSetUp(snes_);
  if (set_up && isArgumentError(set_up)) throw optionsError(lastPetscMessage(true));
  BEAM_PETSC(set_up);
}

void ImplicitTheta::begin(Vec x, Vec v) {
  if (linear_ || primed_) return;
  try {
    // A factorization is set up once here too, though Newton's first iteration makes it again: its
    // package's options (-ms_mat_mumps_icntl_7 99) are then refused before anything of the run is written.
    if (prime_) primePreconditioner(x, v);
    else setUpLinearSolverAt(x, v);
  } catch (const Error &e) { // a bad option is refused here; a failure of the set-up stays the first step's
    if (e.exitCode() != kExitRunFailed) throw;
  }
}

Error ImplicitTheta::optionsError(const std::string &what) const {
  LinearSolver::refuseGivenOutOfRange(newton_prefix_); // (throws where one option is named so)
  return inputError("options of Newton's solver (-" + newton_prefix_ + "snes_*, -" + newton_prefix_ + "ksp_*, -" + newton_prefix_ +
                    "pc_*): " + LinearSolver::withAccepted(what, newton_prefix_));
}

void ImplicitTheta::primePreconditioner(Vec x, Vec v) {
  // GAMG (the default above kDirectNewtonLimit unknowns) builds its interpolation at its first setup and
  // keeps it (-<prefix>pc_gamg_reuse_interpolation: 1.6x faster per step on the 128x128 cloth, and fewer
  // Krylov iterations, than rebuilding it), so every later solve depends on the Jacobian of that first
  // setup: a restart, whose first setup came at its own first step, went on 1e-13 apart from the straight
  // run (exit 0). The first setup is made here, on the Jacobian at the run's initial state (t = 0, dv = 0:
  // where the first Newton iteration evaluates it), and that state is part of the checkpoint.
  if (!prime_point_set_) {
    BEAM_PETSC(VecCopy(x, prime_x_));
    BEAM_PETSC(VecCopy(v, prime_v_));
    prime_point_set_ = true;
  }
  setUpLinearSolverAt(prime_x_, prime_v_);
  primed_ = true;
}

void ImplicitTheta::setUpLinearSolverAt(Vec x, Vec v) {
  const double t = t_;
  const Vec xn = xn_, vn = vn_;
  t_ = 0; // every run starts at t = 0
  xn_ = x;
  vn_ = v;
  KSP ksp;
  BEAM_PETSC(SNESGetKSP(snes_, &ksp));
  // (Through SNES, which reads its Jacobian checks here, -ms_snes_test_jacobian.) Under a left nonlinear
  // preconditioner (-<prefix>snes_npc_side left) SNES leaves the matrix as it is, and GAMG failed on the
  // zero matrix ("Computed maximum singular value as zero", exit 3): the model's Jacobian itself then.
  BEAM_PETSC(SNESComputeJacobian(snes_, zero_, J_, J_));
  if (stop_.npc_left) jacobian(zero_, J_);
  BEAM_PETSC(KSPSetOperators(ksp, J_, J_));
  // The preconditioner's first setup: where options PETSc checks only then fail (-ms_pc_type ilu on
  // several ranks has no factorization: a failed run until 2026-11-29).
  const PetscErrorCode set_up = LinearSolver::setUp(ksp);
  if (set_up && isArgumentError(set_up)) throw optionsError(lastPetscMessage(true));
  BEAM_PETSC(set_up);
  LinearSolver::checkSetUp(ksp, newton_prefix_);
  t_ = t;
  xn_ = xn;
  vn_ = vn;
}

std::vector<double> ImplicitTheta::residualHistory() const {
  if (!snes_) return {};
  PetscReal *h = nullptr;
  PetscInt n = 0;
  BEAM_PETSC(SNESGetConvergenceHistory(snes_, &h, nullptr, &n));
  return std::vector<double>(h, h + n);
}

void ImplicitTheta::evaluationPoint(Vec dv) {
  BEAM_PETSC(VecWAXPY(vt_, theta_, dv, vn_));          // v_theta = v_n + theta dv
  BEAM_PETSC(VecWAXPY(xt_, theta_ * dt_, vt_, xn_));   // x_theta = x_n + theta dt v_theta
}

void ImplicitTheta::residual(Vec dv, Vec R) {
  evaluationPoint(dv);
  model_->force(t_ + theta_ * dt_, xt_, vt_, rhs_);
  model_->massMult(xt_, dv, R);
  BEAM_PETSC(VecAXPY(R, -dt_, rhs_)); // R = M dv - dt F
}

// The residual's round-off floor: x_theta is rounded when it is formed (relative error up to the unit
// round-off u), and R moves by dt |F(x_theta + delta) - F(x_theta)| when x_theta moves by delta; with
// delta_i = +-eps |x_theta,i| (eps = 2.2e-16, twice the unit round-off; signs by a hash of the global
// index: the same on any partition) that is where Newton's residual stalls (3e-12 on the 1024^2 cloth's
// second step, 4e-13 at 128^2, while 1e-10 |R(0)| lies below it). Two force evaluations per step.
double ImplicitTheta::roundOffFloor(Vec dv) {
  evaluationPoint(dv);
  model_->force(t_ + theta_ * dt_, xt_, vt_, rhs_);
  PetscInt lo = 0, hi = 0;
  BEAM_PETSC(VecGetOwnershipRange(xt_, &lo, &hi));
  PetscScalar *a = nullptr;
  BEAM_PETSC(VecGetArray(xt_, &a));
  for (PetscInt i = lo; i < hi; ++i) {
    const bool up = ((static_cast<unsigned long long>(i) * 0x9E3779B97F4A7C15ull) >> 40) & 1;
    a[i - lo] += (up ? 1 : -1) * PETSC_MACHINE_EPSILON * std::abs(a[i - lo]);
  }
  BEAM_PETSC(VecRestoreArray(xt_, &a));
  model_->force(t_ + theta_ * dt_, xt_, vt_, work_floor_);
  BEAM_PETSC(VecAXPY(work_floor_, -1.0, rhs_));
  PetscReal moved = 0;
  BEAM_PETSC(VecNorm(work_floor_, NORM_2, &moved));
  return dt_ * moved;
}

// At the start of each Newton iteration: the linear solve's relative tolerance is the configured one,
// raised (to at most 0.1) so that it does not ask for a residual below the round-off floor: a solve to
// 1e-3 of a residual within 100x of its floor only resolves round-off noise, and took 64-186 GMRES
// iterations at the end of the 1024^2 cloth's second step against 8-16 for the first solves.
PetscErrorCode ImplicitTheta::linearToleranceCallback(SNES snes, PetscInt) {
  PetscFunctionBeginUser;
  void *ctx = nullptr;
  PetscCall(SNESGetApplicationContext(snes, &ctx));
  const auto &self = *static_cast<const ImplicitTheta *>(ctx);
  PetscReal fnorm = 0, rtol, atol, dtol;
  PetscInt maxit;
  KSP ksp;
  if (self.stop_.npc_left) fnorm = self.stop_.norm; // |R|, as the floor
  else PetscCall(SNESGetFunctionNorm(snes, &fnorm));
  PetscCall(SNESGetKSP(snes, &ksp));
  PetscCall(KSPGetTolerances(ksp, &rtol, &atol, &dtol, &maxit));
  rtol = self.linear_rtol_;
  if (fnorm > 0) rtol = std::max(rtol, std::min(0.1, self.stop_.floor / fnorm));
  PetscCall(KSPSetTolerances(ksp, rtol, atol, dtol, maxit));
  PetscFunctionReturn(0);
}

void ImplicitTheta::stepResidual(double t, Vec x, Vec v, Vec dv, Vec R) {
  t_ = t;
  xn_ = x;
  vn_ = v;
  residual(dv, R);
}

double ImplicitTheta::stepEnergy(double t, Vec x, Vec v, Vec dv) {
  t_ = t;
  xn_ = x;
  vn_ = v;
  return stepEnergy(dv);
}

// Phi(dv) = 1/2 dv' M dv + U(x_theta) / theta^2 (solvers/EnergyLineSearch.hpp): its gradient is R(dv)
// when F = -grad U, since d x_theta / d dv = theta^2 dt.
double ImplicitTheta::stepEnergy(Vec dv) {
  evaluationPoint(dv);
  model_->massMult(xt_, dv, rhs_);
  PetscReal kinetic;
  BEAM_PETSC(VecDot(rhs_, dv, &kinetic));
  model_->storedEnergy(t_ + theta_ * dt_, xt_, vt_, energy_parts_);
  double potential = 0;
  for (size_t i = 1; i < energy_parts_.size(); ++i) potential += energy_parts_[i]; // after the kinetic one
  return 0.5 * kinetic + potential / (theta_ * theta_);
}

void ImplicitTheta::jacobian(Vec dv, Mat J) {
  evaluationPoint(dv);
  model_->shiftedJacobian(t_ + theta_ * dt_, xt_, vt_, 1.0, theta_ * dt_, theta_ * theta_ * dt_ * dt_, J);
}

// Whether a direct LU of J is within kFallbackUnknowns and kFallbackFlops (estimated once: the pattern of
// J does not change during a run). Collective.
bool ImplicitTheta::fallbackAffordable() {
  if (fallback_flops_ < 0) {
    PetscInt unknowns = 0;
    BEAM_PETSC(MatGetSize(J_, &unknowns, nullptr));
    fallback_flops_ = unknowns > kFallbackUnknowns ? HUGE_VAL : choleskyFlops(J_);
  }
  return fallback_flops_ <= kFallbackFlops;
}

// The step once more, from the first attempt's guess (the previous step's dv) with the every-step line
// search and then from dv = 0 (solveWithRetry), each Newton iteration solved by a
// fresh LU (MUMPS: on the 128x128 cloth 7.8 s per step against PETSc's own LU's 11.7), at most
// kFallbackIterations per attempt: where the multigrid-preconditioned GMRES fails (the folding 128x128
// cloth at step 15: near-zero diagonals of the exact Jacobian defeat the SOR smoother) an exact Newton
// may still converge (with the fallback that cloth passes steps 15 to 18; an LU at every step, 15 to 20). The multigrid solver is kept aside, untouched, and
// put back afterwards, so its reused interpolation (primePreconditioner) and a restart's results are
// unchanged.
SNESConvergedReason ImplicitTheta::directFallback() {
  if (!fallback_ksp_) {
    PC pc;
    BEAM_PETSC(KSPCreate(model_->comm(), fallback_ksp_.out()));
    BEAM_PETSC(KSPSetType(fallback_ksp_, KSPPREONLY));
    BEAM_PETSC(KSPGetPC(fallback_ksp_, &pc));
    BEAM_PETSC(PCSetType(pc, PCLU));
    BEAM_PETSC(PCFactorSetMatSolverType(pc, MATSOLVERMUMPS));
  }
  KSP multigrid;
  BEAM_PETSC(SNESGetKSP(snes_, &multigrid));
  BEAM_PETSC(PetscObjectReference(reinterpret_cast<PetscObject>(multigrid)));
  PetscReal atol, rtol, stol;
  PetscInt max_it, max_f, lag;
  BEAM_PETSC(SNESGetTolerances(snes_, &atol, &rtol, &stol, &max_it, &max_f));
  BEAM_PETSC(SNESGetLagPreconditioner(snes_, &lag));
  BEAM_PETSC(SNESSetKSP(snes_, fallback_ksp_));
  BEAM_PETSC(SNESSetTolerances(snes_, atol, rtol, stol, std::min(max_it, kFallbackIterations), max_f));
  BEAM_PETSC(SNESSetLagPreconditioner(snes_, 1));
  auto restore = [&] {
    BEAM_PETSC(SNESSetKSP(snes_, multigrid));
    BEAM_PETSC(PetscObjectDereference(reinterpret_cast<PetscObject>(multigrid)));
    BEAM_PETSC(SNESSetTolerances(snes_, atol, rtol, stol, max_it, max_f));
    BEAM_PETSC(SNESSetLagPreconditioner(snes_, lag));
  };
  SNESConvergedReason reason;
  try {
    BEAM_PETSC(VecCopy(guess_, dv_));
    reason = solveWithRetry();
  } catch (...) {
    restore();
    throw;
  }
  restore();
  return reason;
}

// One Newton solve from dv_ as it is; its iterations are added to the step's counts.
SNESConvergedReason ImplicitTheta::solveOnce() {
  SNESConvergedReason reason;
  PetscInt its = 0, linear = 0;
  const PetscErrorCode solved = SNESSolve(snes_, nullptr, dv_);
  if (solved && isArgumentError(solved)) throw optionsError(lastPetscMessage(true));
  BEAM_PETSC(solved);
  BEAM_PETSC(SNESGetConvergedReason(snes_, &reason));
  BEAM_PETSC(SNESGetIterationNumber(snes_, &its));
  BEAM_PETSC(SNESGetLinearSolveIterations(snes_, &linear));
  iterations_ += its;
  linear_iterations_ += linear;
  // A nonlinear preconditioner that fails by PETSc's own rule (its line search at round-off, under
  // -<prefix>npc_snes_max_it 50) may leave the iterate solved by the step's: a right one moves it (the
  // chain's step failed at |R| = 1.2e-15, "try a smaller -dt", exit 3). Judged by the residual tests.
  if (reason == SNES_DIVERGED_INNER && stop_.npc && !stop_.interrupted_by) {
    const double norm = stop_.residual_norm(dv_);
    if (norm <= kFloorFactor * stop_.floor) reason = SNES_CONVERGED_FNORM_ABS;
    PetscReal rtol = 0;
    BEAM_PETSC(SNESGetTolerances(snes_, nullptr, &rtol, nullptr, nullptr, nullptr));
    if (norm <= rtol * stop_.reference) reason = SNES_CONVERGED_FNORM_RELATIVE;
  }
  return reason;
}

// Newton from dv_ (the previous step's dv) and, if that fails, once more from dv = 0 with the secant (l2)
// line search unless the options chose one. The previous step's dv is a good guess for smooth motion, a
// bad one where the motion turns (a contact starts or ends); PETSc's backtracking, the cheaper search
// every step uses (the l2 search costs 2x on the 128x128 cloth), creeps by tiny steps on stiff networks at
// large dt (a 20x20 cloth at omega_max dt = 2000) where l2 converges.
SNESConvergedReason ImplicitTheta::solveWithRetry() {
  SNESConvergedReason reason = solveOnce();
  if (reason > 0 || stop_.interrupted_by) return reason;
  SNESLineSearch line_search;
  SNESLineSearchType type;
  PetscBool chosen = PETSC_FALSE;
  BEAM_PETSC(SNESGetLineSearch(snes_, &line_search));
  BEAM_PETSC(SNESLineSearchGetType(line_search, &type));
  // A -..._snes_type without a line search (newtontr, ngmres, ...) has no type: the retry from dv = 0
  // then goes without one (the null type ended a failing newtontr run with "basic_string: construction
  // from null" in place of Newton's message until 2026-11-28).
  const bool searches = type != nullptr;
  const std::string every_step = searches ? type : "";
  // Its tolerances too: each type sets its own when it is made (l2 one iteration, bt 40 trials).
  PetscReal tolerances[5];
  PetscInt trials;
  BEAM_PETSC(SNESLineSearchGetTolerances(line_search, &tolerances[0], &tolerances[1], &tolerances[2], &tolerances[3],
                                         &tolerances[4], &trials));
  BEAM_PETSC(PetscOptionsHasName(nullptr, newton_prefix_.c_str(), "-snes_linesearch_type", &chosen));
  const bool switch_search = searches && !chosen;
  if (switch_search) BEAM_PETSC(SNESLineSearchSetType(line_search, SNESLINESEARCHL2));
  BEAM_PETSC(VecSet(dv_, 0.0));
  reason = solveOnce();
  if (switch_search) {
    // (a new shell forgets its function)
    if (energy_search_ && every_step == SNESLINESEARCHSHELL) energy_search_->attach(snes_, false);
    else BEAM_PETSC(SNESLineSearchSetType(line_search, every_step.c_str()));
    BEAM_PETSC(SNESLineSearchSetTolerances(line_search, tolerances[0], tolerances[1], tolerances[2], tolerances[3],
                                           tolerances[4], trials));
  }
  return reason;
}

// PETSc calls back with the scheme as context; errors cross back as PETSc error codes.
PetscErrorCode ImplicitTheta::residualCallback(SNES, Vec dv, Vec R, void *self) {
  try {
    static_cast<ImplicitTheta *>(self)->residual(dv, R);
  } catch (const Error &e) {
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_LIB, "%s", e.what());
  }
  return 0;
}

PetscErrorCode ImplicitTheta::jacobianCallback(SNES, Vec dv, Mat J, Mat P, void *self) {
  try {
    // The assembled Jacobian goes into the preconditioner's matrix; under -..._snes_mf_operator the
    // operator is PETSc's matrix-free one, which only needs the new base point (it got the assembly and
    // the run failed, exit 3).
    static_cast<ImplicitTheta *>(self)->jacobian(dv, P);
    if (J != P) {
      PetscCall(MatAssemblyBegin(J, MAT_FINAL_ASSEMBLY));
      PetscCall(MatAssemblyEnd(J, MAT_FINAL_ASSEMBLY));
    }
  } catch (const Error &e) {
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_LIB, "%s", e.what());
  }
  return 0;
}

// Where a mass lies below the round-off of theta^2 dt^2 K in Newton's matrix (M_ii < 4 eps J_ii), the
// matrix has lost it: a free body's rigid motion, which only the masses fix, is then round-off, and
// Newton "converged" on noise (k = 1e30 at dt = 0.01: a disk hung in mid-air, exit 0). Checked at the
// first step, on the Jacobian at x_n: the run fails there (exit 3) with the ratio and the hint.
void ImplicitTheta::refuseLostInertia(double t) {
  inertia_checked_ = true;
  if (!std::isfinite(stop_.reference)) return; // (forces that overflow: the solve says so)
  jacobian(zero_, J_);
  PVec diagonal = duplicate(dv_), mass = duplicate(dv_), ones = duplicate(dv_);
  BEAM_PETSC(MatGetDiagonal(J_, diagonal));
  BEAM_PETSC(VecSet(ones, 1.0));
  model_->massMult(xt_, ones, mass); // (row sums: the diagonal of a lumped mass, a bound of a consistent one)
  const PetscScalar *d = nullptr, *m = nullptr;
  PetscInt n = 0;
  BEAM_PETSC(VecGetLocalSize(diagonal, &n));
  BEAM_PETSC(VecGetArrayRead(diagonal, &d));
  BEAM_PETSC(VecGetArrayRead(mass, &m));
  double worst = 0;
  for (PetscInt i = 0; i < n; ++i)
    if (m[i] > 0 && std::isfinite(d[i])) worst = std::max(worst, d[i] / m[i]);
  BEAM_PETSC(VecRestoreArrayRead(diagonal, &d));
  BEAM_PETSC(VecRestoreArrayRead(mass, &m));
  MPI_Allreduce(MPI_IN_PLACE, &worst, 1, MPI_DOUBLE, MPI_MAX, model_->comm());
  if (worst * 4 * PETSC_MACHINE_EPSILON > 1) {
    std::ostringstream why;
    why << name_ << ": in the step from t = " << t << " Newton's matrix M + theta^2 dt^2 K has lost the masses (a diagonal entry "
        << worst << " times its mass, beyond 1 / (4 eps) = " << 1 / (4 * PETSC_MACHINE_EPSILON)
        << "): the motion the masses alone fix is round-off; try a smaller -dt (the ratio goes as dt^2) or softer springs";
    throw runError(why.str());
  }
}

// |R| at the last iterate of a failed solve, computed: SNES's norm is |dv - NPC(dv)| under a left NPC,
// and an NPC that failed before Newton's first test left the step before's there.
double ImplicitTheta::lastResidualNorm() {
  try {
    return stop_.residual_norm(dv_);
  } catch (const Error &) { // (forces the model refuses to evaluate there: SNES's norm is all there is)
    PetscReal fnorm = 0;
    BEAM_PETSC(SNESGetFunctionNorm(snes_, &fnorm));
    return fnorm;
  }
}

// PETSc's absolute test (-<prefix>snes_atol) is the one rule that takes no scale from the step: one above
// the step's residuals accepts Newton's starting guess, the step before's dv, as the solution
// (-ms_snes_atol 1e10: every step "converged" without an iteration, exit 0). Legitimate where R(0) is
// tiny; said once per program (on stderr) when it accepted a state above what the relative and the
// round-off tests ask, without a Newton iteration, or after some 5 times above them, or above half of
// |R(0)| where that is lower (a residual 1.5 % or 2.1 times above after Newton's steps is no news; a bar
// of 10 times hid steps accepted at 0.95 |R(0)| under -ms_snes_rtol 0.1), and not where the relative test
// is off (-ms_snes_rtol 0: the absolute one is then the user's only rule).
void ImplicitTheta::warnLooseAbsoluteTolerance(SNESConvergedReason reason, double t) const {
  static bool warned = false;
  if (warned || reason != SNES_CONVERGED_FNORM_ABS) return;
  PetscReal atol = 0, rtol = 0;
  BEAM_PETSC(SNESGetTolerances(snes_, &atol, &rtol, nullptr, nullptr, nullptr));
  const double other = std::max(rtol * stop_.reference, kFloorFactor * stop_.floor);
  const double bar = iterations_ == 0 ? other : std::min(5 * other, std::max(other, 0.5 * stop_.reference));
  if (!(rtol > 0 && atol > bar)) return; // (then another test gave the reason: the floor's is FNORM_ABS too)
  const double norm = stop_.residual_norm(dv_); // (SNES's own norm is stale under some line searches: cp)
  if (!(norm <= atol && norm > bar)) return;
  warned = true;
  std::ostringstream line;
  line << "warning: " << name_ << ": -" << newton_prefix_ << "snes_atol " << atol << " accepted the step from t = " << t
       << " at residual " << norm << " after " << iterations_ << " Newton iterations, where -" << newton_prefix_ << "snes_rtol "
       << rtol << " asks for " << rtol * stop_.reference << ": steps are solved only to that absolute tolerance; lower -"
       << newton_prefix_ << "snes_atol to solve them (told once)";
  warningLine(model_->comm(), line.str());
}

void ImplicitTheta::step(double t, Vec x, Vec v) {
  t_ = t;
  xn_ = x;
  vn_ = v;
  if (linear_) {
    // R(dv) = J dv - dt F(t_theta, x_n + theta dt v_n, v_n): one solve, from the previous dv.
    BEAM_PETSC(VecWAXPY(xt_, theta_ * dt_, v, x));
    model_->force(t + theta_ * dt_, xt_, v, rhs_);
    BEAM_PETSC(VecScale(rhs_, dt_));
    linear_->solve(rhs_, dv_);
    iterations_ = 1;
  } else {
    residual(zero_, work_); // R(0): the scale of the relative stopping test
    PetscReal r0;
    BEAM_PETSC(VecNorm(work_, NORM_2, &r0));
    stop_.reference = r0;
    stop_.floor = roundOffFloor(dv_);
    stop_.comm = model_->comm();
    stop_.watch_signals = stop_on_signal_ && stopHandlersActive();
    stop_.interrupted_by = 0;
    stop_.capped = 0;
    // (The check before the preconditioner's first set-up, which leaves its own Jacobian in J_.)
    if (!inertia_checked_) refuseLostInertia(t);
    if (prime_ && !primed_) primePreconditioner(x, v);
    // The step's first guess: the fallback starts from it, and a step given up on a signal puts it back
    // (the history a checkpoint of the last accepted step records).
    if (!guess_) guess_ = duplicate(dv_);
    BEAM_PETSC(VecCopy(dv_, guess_));
    iterations_ = 0;
    linear_iterations_ = 0;
    const auto interrupted = [&] {
      if (!stop_.interrupted_by) return;
      BEAM_PETSC(VecCopy(guess_, dv_));
      throw StepInterrupted(stop_.interrupted_by);
    };
    SNESConvergedReason reason = solveWithRetry();
    interrupted();
    bool fell_back = false;
    if (reason <= 0 && fallback_allowed_ && fallbackAffordable()) {
      fell_back = true;
      const SNESConvergedReason multigrid = reason;
      reason = directFallback();
      interrupted();
      static bool noted = false; // once per program: the sweep labs run many trials
      if (reason > 0 && !noted) {
        noted = true;
        std::ostringstream note; // (PETSc's printf writes 0 as "0.")
        note << "note: " << name_ << ": Newton with GMRES + GAMG failed in the step from t = " << t << " ("
             << SNESConvergedReasons[multigrid] << "); that step and any later such one are solved again with a direct "
             << "LU (MUMPS) at every Newton iteration, at most " << kFallbackIterations << " iterations per attempt\n";
        BEAM_PETSC(PetscPrintf(model_->comm(), "%s", note.str().c_str()));
      }
    }
    if (reason <= 0) {
      std::ostringstream why;
      why << name_ << ": Newton did not converge in the step from t = " << t << " (" << SNESConvergedReasons[reason]
          << " after " << iterations_ << " iterations, ";
      // A residual that is not finite: PETSc then reports its norm as 0. Not finite already at dv = 0 (the
      // norm of dt F overflows: PETSc's 2-norm squares the entries) means forces at the step's own state
      // beyond double precision, which no dt cures (a spring of stiffness 1e300 was told "residual 0; try a
      // smaller -dt").
      if (!std::isfinite(double(r0))) {
        why << "the residual at dv = 0 overflows, its norm is " << r0 << "): the forces at the step's state are too "
            << "large for double precision; check the stiffnesses, masses and positions";
        throw runError(why.str());
      }
      if (reason == SNES_DIVERGED_FNORM_NAN) why << "the residual became NaN or infinite at a trial state";
      else why << "residual " << lastResidualNorm();
      if (reason == SNES_DIVERGED_INNER && stop_.npc) { // the nonlinear preconditioner failed, by its own rule
        SNES npc;
        SNESType npc_type = nullptr;
        SNESConvergedReason npc_reason = SNES_CONVERGED_ITERATING;
        PetscInt npc_its = 0;
        BEAM_PETSC(SNESGetNPC(snes_, &npc));
        BEAM_PETSC(SNESGetType(npc, &npc_type));
        BEAM_PETSC(SNESGetConvergedReason(npc, &npc_reason));
        BEAM_PETSC(SNESGetIterationNumber(npc, &npc_its));
        why << "; the nonlinear preconditioner -" << newton_prefix_ << "npc_snes_type " << (npc_type ? npc_type : "?") << " ended "
            << SNESConvergedReasons[npc_reason] << " after " << npc_its << " iterations, by PETSc's stopping rule, not the step's";
      }
      // A linear solve that failed under a linear solver the options chose (-ms_pc_type lmvm, deflation or
      // cp on the chain, at the first step): the solver is a suspect as much as dt.
      std::string other_solver;
      if (reason == SNES_DIVERGED_LINEAR_SOLVE && !fell_back) {
        KSP ksp;
        PC pc;
        KSPType ksp_type = nullptr;
        PCType pc_type = nullptr;
        KSPConvergedReason linear = KSP_CONVERGED_ITERATING;
        PetscInt its = 0;
        PetscBool pc_chosen = PETSC_FALSE, ksp_chosen = PETSC_FALSE;
        BEAM_PETSC(SNESGetKSP(snes_, &ksp));
        BEAM_PETSC(KSPGetPC(ksp, &pc));
        BEAM_PETSC(KSPGetType(ksp, &ksp_type));
        BEAM_PETSC(PCGetType(pc, &pc_type));
        BEAM_PETSC(KSPGetConvergedReason(ksp, &linear));
        BEAM_PETSC(KSPGetIterationNumber(ksp, &its));
        BEAM_PETSC(PetscOptionsHasName(nullptr, newton_prefix_.c_str(), "-pc_type", &pc_chosen));
        BEAM_PETSC(PetscOptionsHasName(nullptr, newton_prefix_.c_str(), "-ksp_type", &ksp_chosen));
        why << "; the last linear solve " << KSPConvergedReasons[linear] << " after " << its << " iterations";
        if (pc_chosen || ksp_chosen)
          other_solver = ", or a linear solver other than the options' -" + newton_prefix_ + "ksp_type " + (ksp_type ? ksp_type : "?") +
                         " -" + newton_prefix_ + "pc_type " + (pc_type ? pc_type : "?");
      }
      if (fell_back) why << ", with GMRES + GAMG and then a direct LU";
      const std::string watch = " (watch Newton with -" + newton_prefix_ + "snes_monitor)";
      // The fallback's attempts are capped; an LU chosen for every step is not (unless the options' own
      // cap, -snes_max_it, is the lower one: then the same LU would fail the same way).
      PetscInt max_it = 0;
      BEAM_PETSC(SNESGetTolerances(snes_, nullptr, nullptr, nullptr, &max_it, nullptr));
      const std::string lu = fell_back && max_it > kFallbackIterations
                                 ? ", or -" + newton_prefix_ + "pc_type lu (an LU at every step, without the fallback's cap of " +
                                       std::to_string(kFallbackIterations) + " iterations)"
                                 : "";
      std::ostringstream capped; // (the options' cap only: PETSc's 1e8 cuts only steps that are going astray)
      PetscBool max_step_given = PETSC_FALSE;
      BEAM_PETSC(PetscOptionsHasName(nullptr, newton_prefix_.c_str(), "-snes_linesearch_maxstep", &max_step_given));
      if (stop_.capped > 0 && max_step_given)
        capped << ", or a larger -" << newton_prefix_ << "snes_linesearch_maxstep (" << stop_.capped
               << " Newton steps were cut to " << stop_.max_step << ")";
      if (newton_hint_.empty()) why << "); try a smaller -dt" << other_solver << capped.str() << lu << watch << model_->implicitStepHint();
      else why << "); " << newton_hint_ << other_solver << capped.str() << watch;
      throw runError(why.str());
    }
    warnLooseAbsoluteTolerance(reason, t);
  }
  BEAM_PETSC(VecAXPY(x, dt_, v));             // x_{n+1} = x_n + dt (v_n + theta dv) ...
  BEAM_PETSC(VecAXPY(x, dt_ * theta_, dv_));
  BEAM_PETSC(VecAXPY(v, 1.0, dv_));           // v_{n+1} = v_n + dv
}

} // namespace beam
