#include "solvers/CriticalStep.hpp"
#include "common/Warnings.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>

#include "common/Exact.hpp"
#include "common/Slepc.hpp"
#include "solvers/Amplification.hpp"
#include "solvers/Energy.hpp"
#include "solvers/FreeVibration.hpp"
#include "solvers/LinearModel.hpp"
#include "solvers/TimeLoop.hpp"

namespace beam {

double criticalStep(double omega_crit, double omega_max) {
  if (omega_crit == 0) return 0;
  if (std::isinf(omega_crit)) return std::numeric_limits<double>::infinity();
  return omega_crit / omega_max;
}

std::vector<double> dampedModes(double omega_max, const std::optional<RayleighDamping> &damping) {
  if (!damping || (damping->alpha == 0 && damping->beta == 0) || !(omega_max > 0) || !std::isfinite(omega_max))
    return {omega_max};
  // Down to omega_max / 1e6 at most: a beam's lowest mode is higher (the 2000 x 50 cantilever's ratio is about
  // 1e-5), and an alpha so small that xi reaches 100 only below that damps nothing a step can see.
  std::vector<double> omegas;
  for (int k = 0; k <= 60; ++k) {
    const double omega = omega_max * std::pow(10.0, -k / 10.0);
    omegas.push_back(omega);
    if (k >= 20 && damping->alpha / (2 * omega) >= 100) break;
    if (k >= 20 && damping->alpha == 0) break;
  }
  return omegas;
}

TheoreticalStep theoreticalStep(const std::string &scheme, double omega_max, const std::optional<RayleighDamping> &damping) {
  // Unconditionally stable undamped, so damped too: positive damping moves every mode's roots inward
  // for these implicit schemes (and their scans would find nothing at each sampled mode).
  if (damping && std::isinf(criticalOmega(scheme))) {
    const double omega = omega_max > 0 && std::isfinite(omega_max) ? omega_max : 1.0;
    return {std::numeric_limits<double>::infinity(), std::numeric_limits<double>::infinity(), omega_max, damping->ratio(omega)};
  }
  TheoreticalStep best;
  bool first = true;
  for (const double omega : dampedModes(omega_max, damping)) {
    const double xi = damping ? damping->ratio(omega) : 0;
    if (!std::isfinite(xi))
      throw inputError("Rayleigh damping alpha = " + gText(damping->alpha) + ", beta = " + gText(damping->beta) +
                       ": the damping ratio alpha/(2 omega) + beta omega/2 of the mode at omega = " + gText(omega) +
                       " overflows a double; accepted: -rayleigh_alpha and -rayleigh_beta whose damping ratios are finite");
    // A mode at Omega = omega * best.dt below 1e-3 is checked there alone: stable there, it cannot lower
    // the limit (down there its roots are near 1, with no unstable window below), and its scan, which starts
    // no lower than 1e-4, would read a lightly damped forward Euler as 0 (Rayleigh beta 1e-4: 0 for beta).
    if (!first && std::isfinite(best.dt) && best.dt > 0 && omega * best.dt < 1e-3 && isStable(scheme, omega * best.dt, xi))
      continue;
    // Only a limit below the best so far matters: the scan stops at omega * best.dt (inf beyond it).
    CriticalOmegaSearch search;
    if (!first && std::isfinite(best.dt)) search.bound = std::min(search.bound, omega * best.dt);
    const double omega_crit = criticalOmega(scheme, xi, search);
    const double dt = criticalStep(omega_crit, omega);
    if (first || dt < best.dt) best = {dt, omega_crit, omega, xi};
    first = false;
    if (dt == 0) break;
  }
  return best;
}

namespace {

// The loosest relative tolerance a trial's solves may have: its error then moves the amplification by
// about as much, far below the bisection's 1e-4.
constexpr double kTrialRtol = 1e-6;

// Uniform in [-1, 1) from a 64-bit index (splitmix64): the same value for a DOF on any rank count.
double hashUniform(std::uint64_t i) {
  std::uint64_t z = i + 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  return double(z >> 11) * 0x1.0p-52 - 1.0;
}

} // namespace

void roughField(Vec x, const std::vector<PetscInt> &frozen) {
  PetscInt lo, hi;
  BEAM_PETSC(VecGetOwnershipRange(x, &lo, &hi));
  PetscScalar *v;
  BEAM_PETSC(VecGetArray(x, &v));
  for (PetscInt i = lo; i < hi; ++i) v[i - lo] = hashUniform(std::uint64_t(i));
  for (PetscInt d : frozen)
    if (d >= lo && d < hi) v[d - lo] = 0;
  BEAM_PETSC(VecRestoreArray(x, &v));
}

// The trial runs' initial displacement (see the header): random, 0 at frozen DOFs, strain energy equal to
// the compliance energy (or 1 without a load).
PVec roughDisplacement(const SecondOrderSystem &system, const std::vector<PetscInt> &frozen, double compliance) {
  PVec x = system.createVector(), w = system.createVector();
  roughField(x, frozen);
  PetscScalar strain;
  BEAM_PETSC(MatMult(system.stiffness, x, w));
  BEAM_PETSC(VecDot(x, w, &strain));
  const double target = compliance > 0 ? compliance : 1.0;
  BEAM_PETSC(VecScale(x, std::sqrt(target / (0.5 * PetscRealPart(strain)))));
  return x;
}

MeasuredStep measureCriticalStep(const SecondOrderSystem &system, const std::vector<PetscInt> &frozen,
                                 const std::string &scheme, double guess, const CriticalStepSearch &search) {
  // One model for every trial: the static solve (the energy scale) and M's factor are made once.
  const double compliance = search.compliance ? *search.compliance : staticCompliance(system, search.solver);
  const LinearModel model(system, search.solver, compliance);
  const PVec x0 = roughDisplacement(system, frozen, compliance);
  PVec x = system.createVector(), y = system.createVector();
  return bisectStableStep(
      [&](double dt) {
        const auto stepper = makeScheme(scheme);
        RunSettings run;
        run.dt = dt;
        run.T = double(search.steps) * dt;
        run.divergence_factor = search.growth;
        run.solver = search.solver;
        BEAM_PETSC(VecCopy(x0, x));
        BEAM_PETSC(VecSet(y, 0.0));
        const RunResult r = integrate(*stepper, model, x, y, run, {});
        // A step that failed (a linear solve stopped by -<prefix>ksp_max_it) is no instability: the energy
        // was within its bound before it, so the scheme's state was finite. It was counted as unstable until
        // 2026-11-30 (-central_difference_ksp_max_it 2 measured "unstable down to 0.0154", exit 0).
        if (r.step_failed)
          throw runError("measured_dt " + scheme + ": the trial at dt = " + exactDecimal(dt) +
                         " failed in a step, before any energy growth (" + r.divergence +
                         "); accepted: solver options whose solves converge");
        return !r.diverged;
      },
      guess, search);
}

void readTrialOptions(const std::string &scheme, const SecondOrderSystem &system, LinearSolverKind solver) {
  const LinearModel model(system, solver);
  makeScheme(scheme)->setup(model, {1.0, solver});
  // The trials measure the scheme itself: a loose solve makes another one (-central_difference_ksp_rtol 0.5
  // measured 1.41 times the critical step on the default beam, -..._ksp_atol 1e10 "stable up to 0.14",
  // exit 0, until 2026-11-30). Every solver option present was read by a trial (the others are unknown).
  for (const std::string &prefix : {std::string("mass_"), std::string("shifted_"), scheme + "_"}) {
    PetscReal value = 0;
    PetscBool set = PETSC_FALSE;
    BEAM_PETSC(PetscOptionsGetReal(nullptr, nullptr, ("-" + prefix + "ksp_rtol").c_str(), &value, &set));
    if (set && value > kTrialRtol)
      throw inputError("-" + prefix + "ksp_rtol " + gText(value) + ": the trial runs measure the scheme, which a solve this "
                       "loose changes; accepted here: up to " + gText(kTrialRtol));
    BEAM_PETSC(PetscOptionsGetReal(nullptr, nullptr, ("-" + prefix + "ksp_atol").c_str(), &value, &set));
    if (set && value > 0)
      throw inputError("-" + prefix + "ksp_atol " + gText(value) + ": the trial runs measure the scheme, and an absolute "
                       "tolerance stops its solves whatever their size; accepted here: 0 (the relative tolerance decides)");
  }
}

MeasuredStep bisectStableStep(const std::function<bool(double)> &is_stable, double guess,
                              const CriticalStepSearch &search) {
  if (!(guess > 0) || !std::isfinite(guess))
    throw inputError("critical step guess: must be a finite real > 0");
  MeasuredStep m;
  auto stable = [&](double dt) {
    ++m.runs;
    return is_stable(dt);
  };
  double lo = 0.9 * guess, hi = 1.1 * guess;
  int moves = 0;
  while (!stable(lo)) { // the whole bracket is unstable: move it down
    if (++moves > search.widenings) {
      m.bound = lo;
      m.why = "unstable down to dt = " + exactDecimal(lo);
      return m;
    }
    hi = lo;
    lo *= 0.9;
  }
  moves = 0;
  while (stable(hi)) { // the whole bracket is stable: move it up
    if (++moves > search.widenings) {
      m.bound = hi;
      m.why = "stable up to dt = " + exactDecimal(hi);
      return m;
    }
    lo = hi;
    hi *= 1.1;
  }
  while ((hi - lo) / hi > search.precision) {
    const double mid = 0.5 * (lo + hi);
    (stable(mid) ? lo : hi) = mid;
  }
  m.found = true;
  m.dt = lo;
  m.unstable_dt = hi;
  return m;
}

void warnIfUnstable(const SecondOrderSystem &system, const std::vector<PetscInt> &frozen,
                    const std::string &scheme, double dt) {
  // Unconditionally stable schemes need no omega_max (damping keeps them so: it moves every mode's
  // eigenvalues left).
  if (std::isinf(criticalOmega(scheme))) return;
  const SlepcScope slepc;
  // Up to 1e4 DOFs (cheap either way) to a 1e-6 residual, as the stability lab: the restricted pencil with
  // M factored when assembled. Above, from the system's own operators, masked, whether assembled or
  // matrix-free, to a 1e-3 residual: restricting and factoring held the run's peak memory at 2.0 GiB on
  // an 8e5-DOF beam with -linear_solver cg, 4.2 times the memory check's estimate, and 1e-6 took over
  // 12 min at 2e5 DOFs, where the clustered top of the spectrum slows Krylov-Schur (1e-4 costs 3x, 1e-5
  // 20x matrix-free). The 1e-3 residual is SLEPc's 2-norm one, which bounds |lambda - theta| only in the
  // M^-1 norm: on the 20x5 beam, whose top eigenvalues are far apart, it left omega_max 1.3e-3 low (and
  // 1e-4 too); on beams above 1e4 DOFs, whose top is a dense cluster, the measured errors were 2e-5 to
  // 1.6e-4 (100x10 to 1000x100 assembled, 2000x50 matrix-free), so the warning also fires within 5e-4
  // below the limit and says so.
  PetscInt dofs = 0;
  BEAM_PETSC(MatGetSize(system.mass, &dofs, nullptr));
  const bool small = dofs <= 10000;
  const double omega_max = small && !system.combine
                               ? largestOmega(FreeVibration(system, frozen), "stability_check_", 1e-6)
                               : largestOmegaMasked(system, frozen, "stability_check_", small ? 1e-6 : 1e-3);
  const TheoreticalStep limit = theoreticalStep(scheme, omega_max, system.rayleigh);
  const double margin = small ? 0.0 : 5e-4;
  if (dt <= limit.dt * (1 - margin)) return;
  // Damped, the mode that sets the limit (xi = alpha/(2 omega) + beta omega/2) need not be the highest.
  char mode[160] = "";
  if (system.rayleigh)
    std::snprintf(mode, sizeof mode, "; with the Rayleigh damping, the limit of the mode at omega = %g, xi = %g",
                  limit.omega, limit.xi);
  // Formatted here: PETSc's printf writes 0 as "0." and we want the plain C form.
  char line[480];
  // Six digits, or all 17 where six would print the two steps alike (dt = 0.04450795 "exceeds" 0.0445079).
  char dt_text[32], limit_text[32];
  std::snprintf(dt_text, sizeof dt_text, "%g", dt);
  std::snprintf(limit_text, sizeof limit_text, "%g", limit.dt);
  if (std::string(dt_text) == limit_text) {
    std::snprintf(dt_text, sizeof dt_text, "%.17g", dt);
    std::snprintf(limit_text, sizeof limit_text, "%.17g", limit.dt);
  }
  std::snprintf(line, sizeof line, "warning: dt = %s %s the critical step %s of %s (omega_max = %g%s%s)%s", dt_text,
                dt > limit.dt ? "exceeds" : "is within 5e-4 of", limit_text, scheme.c_str(), omega_max,
                small ? "" : ", to 5e-4", mode, limit.dt == 0 ? ": it is unstable for every dt > 0" : "");
  warningLine(system.comm(), line);
}

} // namespace beam
