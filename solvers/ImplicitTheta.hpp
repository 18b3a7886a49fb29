// Implicit one-step schemes on the velocity increment, for every model that gives its shifted Jacobian
// (solvers/Model.hpp). With theta in (0, 1], unknown dv = v_{n+1} - v_n and
//   v_theta = v_n + theta dv,   x_theta = x_n + theta dt v_theta,
// solve the residual
//   R(dv) = M dv - dt F(t_n + theta dt, x_theta, v_theta) = 0,
// then v_{n+1} = v_n + dv, x_{n+1} = x_n + dt v_theta. Its Jacobian is the model's shifted combination
//   dR/d(dv) = M - theta dt dF/dv - theta^2 dt^2 dF/dx   (a = 1, b = theta dt, c = theta^2 dt^2).
//
//   implicit_euler, theta = 1 (reference 004, section 3, "Euler implicite", with its missing dt
//     restored): m dv/dt - m g - F(p_n + dt (v_n + dv), v_n + dv) = 0, p_{n+1} = p_n + dt v_{n+1}.
//     First order, unconditionally stable, damps every oscillation (amplitude factor 1/sqrt(1 + w^2 dt^2)
//     per step on an undamped spring).
//   implicit_midpoint, theta = 1/2: the midpoint rule on (x, v), second order, symplectic. It keeps
//     every quadratic invariant exactly, so the energy of linear springs (and of the linear beam, where
//     it is the lab's midpoint scheme) is conserved to the solver's tolerance; with nonlinear springs
//     the energy error stays bounded and oscillates, without drift.
//
// Nonlinear models: Newton with line search by PETSc SNES (the report's fsolve becomes SNES; the line
// search on the step's energy for a conservative model (solvers/EnergyLineSearch.hpp), PETSc's
// backtracking on |R| otherwise, and on a failed step a second try from dv = 0 with the secant search), the exact Jacobian assembled sparse, a KSP inside; options under SchemeSettings::newton_prefix
// (-ms_snes_monitor, -ms_ksp_type, -ms_pc_type). Defaults: the stopping rule of ImplicitTheta.cpp
// (residual 1e-10 of the residual at dv = 0 or 10 times its round-off floor, a full Newton step below
// 1e-8 |dv|, or round-off stalls; linear solves not asked for a residual below the floor), at
// most 500 iterations; linear solves by a direct LU up to kDirectNewtonLimit unknowns (unless -ms_pc_type
// chooses a preconditioner that is not a factorization; MUMPS on several
// ranks), above it GMRES(60) to 1e-3 (at most 500 iterations) preconditioned from the right, so that it tests
// the true residual, by GAMG (one SOR sweep per level, rebuilt every other Newton iteration). The previous step's dv is the initial guess (kept in checkpoints). A failed solve is
// a run error naming the time, the residual and the hint (a smaller -dt).
// Linear models: the residual is linear in dv with the constant matrix M + theta dt C + theta^2 dt^2 S,
// so one solve with it (prefix `shifted_`, factored once per run) is the exact Newton solution.
#pragma once
#include <functional>
#include <optional>

#include <petscsnes.h>

#include "solvers/EnergyLineSearch.hpp"
#include "solvers/TimeScheme.hpp"

namespace beam {

class ImplicitTheta final : public TimeScheme {
public:
  ImplicitTheta(std::string name, double theta) : name_(std::move(name)), theta_(theta) {}
  void setup(const Model &model, const SchemeSettings &settings) override;
  void step(double t, Vec x, Vec v) override;
  void begin(Vec x, Vec v) override; // Newton's linear solver's first setup (primePreconditioner, setUpLinearSolverAt)
  std::string name() const override { return name_; }
  Footprint footprint() const override { return {1, 1}; } // on a linear model: M + theta dt C + theta^2 dt^2 S, solved
  PetscInt newtonIterations() const override { return iterations_; }
  bool failureKeepsState() const override { return true; } // x and v change only after a solved step
  PetscInt linearIterations() const override { return linear_iterations_; }
  // Residual norms of the last step's Newton iterations (nonlinear models), for convergence studies.
  std::vector<double> residualHistory() const;
  // The step from (t, x, v) as Newton sees it, at a given dv (nonlinear models; the tests check that R is
  // the gradient of Phi on a conservative model): R(dv) = M dv - dt F(x_theta, v_theta), and the energy
  // Phi(dv) the line search minimizes (solvers/EnergyLineSearch.hpp). Collective.
  void stepResidual(double t, Vec x, Vec v, Vec dv, Vec R);
  double stepEnergy(double t, Vec x, Vec v, Vec dv);
  // dv (the next Newton solve's initial guess) and, with a preconditioner that keeps its first setup,
  // the state it was made at (primePreconditioner).
  std::vector<Vec> history() override {
    if (prime_) return {dv_.get(), prime_x_.get(), prime_v_.get()};
    return {dv_.get()};
  }
  // The prime state comes with the history, except from a checkpoint at t = 0, written before the first
  // step set it (it held zeros: the restart diverged): the run's first step sets it from the state.
  void resume(double t, Vec /*x*/, Vec /*v*/) override { prime_point_set_ = prime_ && t > 0; }

  // Newton's linear solves are a direct LU up to this many unknowns, when the factorization's estimated
  // work (choleskyFlops) is at most kDirectNewtonWorkPerNonzero times J's nonzeros; else GMRES with GAMG.
  // Options override it (-<prefix>pc_type, -<prefix>ksp_type).
  static constexpr PetscInt kDirectNewtonLimit = 20000;
  static constexpr double kDirectNewtonWorkPerNonzero = 100;
  // Whether the default Newton solve of J is the direct LU; collective, the same on every rank count.
  static bool directNewton(Mat J, const std::string &prefix);
  // On the default multigrid path (Newton's line search method with the assembled Jacobian) a step Newton
  // cannot solve (after its retry) is solved again, with its retry, by a direct LU (MUMPS) at every Newton
  // iteration, at most kFallbackIterations per attempt, when J has at most kFallbackUnknowns unknowns and
  // its factorization's estimated work (choleskyFlops) is at most kFallbackFlops (the 128x128 cloth:
  // 49 152 unknowns, 4.4e9, 3 s per factorization; a 250x250 cloth, 3.5e10, is above it).
  static constexpr PetscInt kFallbackUnknowns = 200000;
  static constexpr double kFallbackFlops = 3e10;
  static constexpr PetscInt kFallbackIterations = 50;

  // The state of Newton's stopping rule in one solve (ImplicitTheta.cpp, convergenceTest).
  struct NewtonStop {
    double reference = 0; // |R(0)| of the step being solved
    double best = 0;      // the residual the stall count compares with
    int stalled = 0;      // iterations without halving it
    double last = 0;      // the residual at the last iteration seen, and
    PetscInt last_it = -1; // that iteration (newtontr asks again within one while it shrinks its region)
    int unchanged = 0;    // iterations whose residual equals the one before, bitwise
    double floor = 0;     // the residual's round-off floor at this step (ImplicitTheta::roundOffFloor)
    // With a nonlinear preconditioner the step tests do not apply (convergenceTest); under a left one
    // SNES's function is dv - NPC(dv), not R, and the tests read |R(dv)| from residual_norm instead (one
    // more residual per iteration); norm keeps the last one seen.
    bool npc = false, npc_left = false;
    std::function<double(Vec)> residual_norm;
    double norm = 0;
    // Steps the line search cut to -<prefix>snes_linesearch_maxstep in the step being solved: no Newton
    // step scaled by lambda, so no step test (convergenceTest); their length for the failure's hint.
    int capped = 0;
    double max_step = 0;
    // A signal asks the run to stop: with stop handlers open, each Newton iteration asks every rank
    // (one reduction) and the solve ends (as diverged) with the signal here, so a step that takes
    // minutes (a folding cloth) does not hold the stop until it ends.
    MPI_Comm comm = MPI_COMM_NULL;
    bool watch_signals = false;
    int interrupted_by = 0;
  };
  // Newton stops once |R| <= kFloorFactor * floor: the residual is then round-off.
  static constexpr double kFloorFactor = 10;

private:
  Error optionsError(const std::string &what) const; // a bad input naming Newton's options
  void primePreconditioner(Vec x, Vec v); // the first setup of Newton's preconditioner, at a known state
  // Newton's KSP set up on the Jacobian at t = 0, (x, v), dv = 0; a bad option refused (optionsError).
  void setUpLinearSolverAt(Vec x, Vec v);
  // R(dv) and its Jacobian at the current step's (t, x_n, v_n).
  void residual(Vec dv, Vec R);
  void jacobian(Vec dv, Mat J);
  void evaluationPoint(Vec dv); // xt_, vt_ from dv
  double roundOffFloor(Vec dv);  // |R(dv)| can't be evaluated closer to 0 than this
  static PetscErrorCode linearToleranceCallback(SNES, PetscInt iteration);
  double stepEnergy(Vec dv);     // the energy R(dv) is the gradient of, for conservative models
  bool fallbackAffordable();     // collective
  SNESConvergedReason directFallback(); // the step by exact Newton (solveWithRetry with the LU)
  double lastResidualNorm();            // |R| at a failed solve's last iterate
  void warnLooseAbsoluteTolerance(SNESConvergedReason reason, double t) const; // -snes_atol above the step's residuals
  SNESConvergedReason solveOnce();      // adds to iterations_ and linear_iterations_
  SNESConvergedReason solveWithRetry();
  static PetscErrorCode residualCallback(SNES, Vec dv, Vec R, void *self);
  static PetscErrorCode jacobianCallback(SNES, Vec dv, Mat J, Mat P, void *self);

  std::string name_;
  double theta_;
  const Model *model_ = nullptr;
  double dt_ = 0;
  PetscInt iterations_ = 0;
  PetscInt linear_iterations_ = -1; // nonlinear models: Krylov iterations of the last step, every attempt
  // The step being solved.
  double t_ = 0;
  Vec xn_ = nullptr, vn_ = nullptr;
  PVec dv_, xt_, vt_, work_, rhs_, zero_, work_floor_;
  PVec true_residual_; // R(dv) under a left nonlinear preconditioner (NewtonStop::residual_norm)
  PVec prime_x_, prime_v_; // the state of the preconditioner's first setup (prime_ only)
  bool prime_ = false, primed_ = false, prime_point_set_ = false;
  NewtonStop stop_;
  PetscReal history_[64] = {};  // SNES's residual history of the last solve
  PMat J_;
  using PSNES = Handle<SNES, SNESDestroy>;
  PSNES snes_;                           // nonlinear models
  std::string newton_prefix_;
  std::string newton_hint_; // SchemeSettings::newton_hint
  bool stop_on_signal_ = false; // SchemeSettings::stop_on_signal
  std::optional<LinearSolver> linear_;   // linear models
  std::optional<EnergyLineSearch> energy_search_; // conservative nonlinear models
  std::vector<double> energy_parts_;
  double linear_rtol_ = 0; // the KSP's relative tolerance as set up (defaults and options)
  bool fallback_allowed_ = false;
  bool inertia_checked_ = false; // refuseLostInertia, at the first step (of this run or its restart)
  void refuseLostInertia(double t);
  double fallback_flops_ = -1; // choleskyFlops(J_) once needed; HUGE_VAL above kFallbackUnknowns
  PKSP fallback_ksp_;          // preonly + MUMPS LU, made at the first fallback
  PVec guess_;                 // the step's first Newton guess: the fallback's, and dv_ again after a step given up on a signal
};

} // namespace beam
