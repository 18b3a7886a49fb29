// Newton's line search on an energy, for implicit steps that minimize one.
//
// When every force of a model is the gradient of its stored potential U (no dashpots, no contact
// damping, no loads that vary in time: Model::conservative()), the implicit theta step's residual
// R(dv) = M dv - dt F(x_theta) is the gradient of the step's incremental potential
//     Phi(dv) = 1/2 dv' M dv + U(x_theta) / theta^2,   x_theta = x_n + theta dt (v_n + theta dv),
// and its Jacobian M - theta^2 dt^2 dF/dx the Hessian (solvers/ImplicitTheta.hpp). A Newton step then
// heads for the minimum of Phi, and Phi, not |R|, says whether a step made progress: on a cloth
// falling from rest |R| grows on the full first step, where the springs at the fixed corners
// overstretch, while Phi falls, so PETSc's backtracking on |R|^2 cuts that step to lambda = 0.025-0.2
// and creeps (1024 x 1024 cloth, dt = 0.01: 8 iterations at lambda <= 0.1 in the first step).
//
// The search (Armijo backtracking, as PETSc's bt with an objective, SNESSetObjective):
//   - the slope of Phi along the Newton direction is -R'Y (Y = J^-1 R, the update is X - lambda Y);
//   - lambda is accepted when Phi(X - lambda Y) <= Phi(X) - alpha lambda R'Y (alpha = 1e-4), or, since
//     near the solution Phi's change falls below its round-off while |R| still measures progress, when
//     |R| falls by the factor 1 - alpha lambda and Phi does not rise by more than its round-off
//     (kRoundOff |Phi|); PETSc's bt with an objective failed there, at the last iteration of a solve;
//   - otherwise lambda becomes the minimizer of the quadratic through Phi(0), Phi'(0) and
//     Phi(lambda), kept within [0.1, 0.5] lambda, as bt does;
//   - where R'Y <= 0 (an indefinite Jacobian: Y does not descend on Phi) it backtracks on |R|^2 as bt.
// It reads PETSc's -<prefix>snes_linesearch_max_it, _minlambda, _maxstep and _damping (the first lambda);
// -<prefix>snes_linesearch_monitor prints each trial. A step below the round-off of the iterate fails.
// On success Y becomes the step taken, lambda Y, and its norm is reported, as PETSc's bt does.
#pragma once
#include <functional>

#include <petscsnes.h>

namespace beam {

class EnergyLineSearch {
public:
  // phi(dv): the energy whose gradient is the SNES residual; collective.
  explicit EnergyLineSearch(std::function<double(Vec)> phi) : phi_(std::move(phi)) {}
  // Makes `snes`'s line search this one (a PETSc shell line search calling back into this object,
  // which must outlive the solves); with set_trials, at most kTrials trials per search (before the
  // options are read: then -<prefix>snes_linesearch_max_it overrides it).
  void attach(SNES snes, bool set_trials);

  static constexpr PetscInt kTrials = 40;   // PETSc's bt: 40
  static constexpr double kAlpha = 1e-4;    // sufficient decrease
  static constexpr double kRoundOff = 1e-10; // a rise of Phi below kRoundOff |Phi| is round-off

private:
  static PetscErrorCode apply(SNESLineSearch, void *self);
  void search(SNESLineSearch linesearch);
  std::function<double(Vec)> phi_;
};

} // namespace beam
