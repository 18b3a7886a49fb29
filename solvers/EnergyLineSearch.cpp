#include "solvers/EnergyLineSearch.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "common/Petsc.hpp"

namespace beam {

void EnergyLineSearch::attach(SNES snes, bool set_trials) {
  SNESLineSearch linesearch;
  BEAM_PETSC(SNESGetLineSearch(snes, &linesearch));
  BEAM_PETSC(SNESLineSearchSetType(linesearch, SNESLINESEARCHSHELL));
  BEAM_PETSC(SNESLineSearchShellSetUserFunc(linesearch, apply, this));
  // A line search object starts with max_it 1 (bt sets 40 when it is created, a shell nothing): 40
  // trials, as bt, unless -..._snes_linesearch_max_it (read after this) says otherwise.
  if (set_trials)
    BEAM_PETSC(SNESLineSearchSetTolerances(linesearch, PETSC_DEFAULT, PETSC_DEFAULT, PETSC_DEFAULT, PETSC_DEFAULT,
                                           PETSC_DEFAULT, kTrials));
}

PetscErrorCode EnergyLineSearch::apply(SNESLineSearch linesearch, void *self) {
  try {
    static_cast<EnergyLineSearch *>(self)->search(linesearch);
  } catch (const Error &e) {
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_LIB, "%s", e.what());
  }
  return 0;
}

void EnergyLineSearch::search(SNESLineSearch linesearch) {
  Vec X, F, Y, W, G;
  SNES snes;
  PetscReal xnorm, fnorm, ynorm, lambda, min_lambda, max_step;
  PetscInt max_its;
  PetscViewer monitor = nullptr;
  BEAM_PETSC(SNESLineSearchGetVecs(linesearch, &X, &F, &Y, &W, &G));
  BEAM_PETSC(SNESLineSearchGetSNES(linesearch, &snes));
  BEAM_PETSC(SNESLineSearchGetNorms(linesearch, &xnorm, &fnorm, &ynorm));
  BEAM_PETSC(SNESLineSearchGetLambda(linesearch, &lambda)); // the damping, 1 by default
  BEAM_PETSC(SNESLineSearchGetTolerances(linesearch, &min_lambda, &max_step, nullptr, nullptr, nullptr, &max_its));
  BEAM_PETSC(SNESLineSearchGetDefaultMonitor(linesearch, &monitor));
  PetscReal snes_atol, snes_rtol, snes_stol;
  PetscInt snes_max_it, max_funcs;
  BEAM_PETSC(SNESGetTolerances(snes, &snes_atol, &snes_rtol, &snes_stol, &snes_max_it, &max_funcs));
  auto say = [&](const char *what, double value, double at) {
    if (monitor) BEAM_PETSC(PetscViewerASCIIPrintf(monitor, "    Line search (energy): %s %.12e lambda=%.6e\n", what, value, at));
  };
  auto fail = [&](SNESLineSearchReason reason) {
    BEAM_PETSC(VecCopy(X, W));
    BEAM_PETSC(VecCopy(F, G));
    BEAM_PETSC(SNESLineSearchSetReason(linesearch, reason));
  };

  BEAM_PETSC(VecNorm(Y, NORM_2, &ynorm));
  BEAM_PETSC(VecNorm(X, NORM_2, &xnorm));
  if (ynorm == 0) return fail(SNES_LINESEARCH_FAILED_REDUCT);
  double scale = 1; // PETSc's -snes_linesearch_maxstep, as bt: Y shortened to that length
  if (ynorm > max_step) {
    scale = max_step / ynorm;
    BEAM_PETSC(VecScale(Y, scale));
    ynorm = max_step;
  }
  PetscReal slope; // -dPhi/dlambda at lambda = 0
  BEAM_PETSC(VecDot(F, Y, &slope));
  const bool energy = slope > 0;
  const double phi0 = energy ? phi_(X) : 0;
  const double merit0 = energy ? phi0 : 0.5 * fnorm * fnorm;
  // On 1/2 |R|^2 the Newton direction's slope is -|R|^2 (times the maxstep scale).
  const double descent = energy ? slope : scale * fnorm * fnorm;
  PetscReal gnorm = fnorm;
  for (PetscInt trial = 0;; ++trial) {
    // A step below the round-off of X leaves W == X, which every test would accept: a failure.
    if (trial == max_its || lambda < min_lambda || lambda * ynorm <= PETSC_MACHINE_EPSILON * xnorm) {
      say("no sufficient decrease, |R|", gnorm, lambda);
      return fail(SNES_LINESEARCH_FAILED_REDUCT);
    }
    PetscInt funcs = 0;
    BEAM_PETSC(SNESGetNumberFunctionEvals(snes, &funcs));
    if (max_funcs >= 0 && funcs >= max_funcs) {
      BEAM_PETSC(SNESSetConvergedReason(snes, SNES_DIVERGED_FUNCTION_COUNT));
      return fail(SNES_LINESEARCH_FAILED_FUNCTION);
    }
    BEAM_PETSC(VecWAXPY(W, -lambda, Y, X));
    // (A domain error fills G with Inf on the rank that met it: a non-finite norm on every rank.)
    BEAM_PETSC(SNESComputeFunction(snes, W, G));
    BEAM_PETSC(VecNorm(G, NORM_2, &gnorm));
    double merit = std::numeric_limits<double>::infinity();
    bool accepted = false;
    if (std::isfinite(gnorm)) {
      if (energy) {
        merit = phi_(W);
        accepted = merit <= phi0 - kAlpha * lambda * slope ||
                   (gnorm <= (1 - kAlpha * lambda) * fnorm && merit <= phi0 + kRoundOff * std::abs(phi0));
      } else {
        merit = 0.5 * gnorm * gnorm;
        accepted = merit <= merit0 - kAlpha * lambda * descent;
      }
    }
    if (accepted) {
      say(energy ? "accepted, Phi" : "accepted (|R|, indefinite), |R|", energy ? merit : gnorm, lambda);
      break;
    }
    say(energy ? "rejected, Phi" : "rejected (|R|, indefinite), |R|", merit, lambda);
    // The minimizer of the quadratic through merit0, its slope -descent and merit(lambda), within
    // [0.1, 0.5] lambda (an infinite merit gives 0, hence 0.1 lambda).
    const double curvature = merit - merit0 + descent * lambda;
    const double next = curvature > 0 ? descent * lambda * lambda / (2 * curvature) : 0.5 * lambda;
    lambda = std::clamp(next, 0.1 * lambda, 0.5 * lambda);
  }
  BEAM_PETSC(VecCopy(W, X));
  BEAM_PETSC(VecCopy(G, F));
  BEAM_PETSC(VecNorm(X, NORM_2, &xnorm));
  // Y and its norm become the step taken, lambda Y, as bt leaves them: Newton's step tests divide by lambda.
  BEAM_PETSC(VecScale(Y, lambda));
  BEAM_PETSC(SNESLineSearchSetLambda(linesearch, lambda));
  BEAM_PETSC(SNESLineSearchSetNorms(linesearch, xnorm, gnorm, lambda * ynorm));
  BEAM_PETSC(SNESLineSearchSetReason(linesearch, SNES_LINESEARCH_SUCCEEDED));
}

} // namespace beam
