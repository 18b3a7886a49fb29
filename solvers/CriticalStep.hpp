// The critical time step of a scheme on a system, in theory and in practice (lab "Równania ruchu",
// reference 003: "for which dt is the scheme stable?"; reference 002: the step follows from the
// amplification matrix and the system's largest frequency).
//
// Theory: dt_crit = Omega_crit / omega_max, Omega_crit from the scheme's amplification matrix
// (Amplification.hpp), omega_max from S phi = omega^2 M phi on the free DOFs (FreeVibration.hpp).
// Practice: bisection on dt over short runs of the real system (measureCriticalStep below).
#pragma once
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "solvers/LinearSolver.hpp"
#include "solvers/SecondOrderSystem.hpp"

namespace beam {

// dt_crit from Omega_crit and omega_max: Omega_crit / omega_max, with 0 and infinity passed through.
double criticalStep(double omega_crit, double omega_max);

// The critical step of `scheme` on a system whose largest frequency is omega_max, undamped or with
// Rayleigh damping C = alpha M + beta S. Damped, each mode is the oscillator of damping ratio
// xi(omega) = alpha/(2 omega) + beta omega/2 (reference 002, eq. (14)-(15)), stable while
// omega dt <= Omega_crit(xi(omega)), so dt_crit = min over the modes of Omega_crit(xi(omega)) / omega.
// Only omega_max is known, so the minimum is over the frequencies in (0, omega_max] (dampedModes): an
// answer on the safe side when it comes from below the lowest mode. Undamped it is Omega_crit / omega_max.
// The minimum need not be at omega_max: damping lowers the explicit schemes' limits, and with alpha the
// low modes are the most damped (rk4 at alpha = 2 omega_max: 1.39 / omega_max from the overdamped modes
// against 2.79 / omega_max at omega_max itself).
struct TheoreticalStep {
  double dt = 0;         // the critical step (0: unstable for every dt, inf: for none)
  double omega_crit = 0; // Omega_crit of the mode that sets it
  double omega = 0;      // that mode's frequency (omega_max when undamped)
  double xi = 0;         // and damping ratio
};
TheoreticalStep theoreticalStep(const std::string &scheme, double omega_max, const std::optional<RayleighDamping> &damping);
// The frequencies dampedModes samples: omega_max and 10 per decade below it, at least two decades, and
// with alpha > 0 on to xi >= 100, where a mode's limit is its overdamped one to 1e-4 (its fast root
// -2 xi omega = -alpha: Omega_crit xi no longer changes). Undamped: omega_max alone.
std::vector<double> dampedModes(double omega_max, const std::optional<RayleighDamping> &damping);

struct CriticalStepSearch {
  PetscInt steps = 1000;       // steps of each trial run
  double growth = 1e6;         // a run is unstable when |E - E0| > growth * scale (TimeLoop's test)
  double precision = 1e-4;     // bisection stops when (hi - lo) / hi < precision
  int widenings = 10;          // bracket moves by x0.9 (down) or x1.1 (up) before giving up
  LinearSolverKind solver = LinearSolverKind::Direct;
  // The system's static compliance 1/2 f'S^-1 f when the caller has it (staticCompliance, once per
  // system): the trial runs' energy scale and initial strain energy. Otherwise computed here.
  std::optional<double> compliance;
};

struct MeasuredStep {
  bool found = false;
  double dt = 0;          // largest step seen stable (the bracket's lower end)
  double unstable_dt = 0; // smallest step seen unstable (upper end)
  int runs = 0;
  std::string why;        // when not found: which way the bracket failed, with its end (exact digits)
  double bound = 0;       // when not found: that end (stable up to it, or unstable down to it)
};

// Bisection for the largest stable dt of `scheme` on `system`, starting from the bracket
// [0.9, 1.1] x guess and widening it when needed.
//
// Each trial integrates `steps` steps with TimeLoop from a pseudo-random displacement (a fixed hash of
// the global DOF index, so every rank count gives the same state; 0 at frozen DOFs; zero velocity),
// scaled so its strain energy equals the load's compliance energy. Why not start from rest: a point
// load projects only weakly on the highest mode, the one that goes unstable first, so its growth would
// start from far below the energy scale. A random field is the opposite: its strain energy 1/2 x'Sx =
// sum omega_i^2 c_i^2 / 2 sits mostly in the highest modes.
// Why the criterion separates sharply: just below the limit a stable scheme's energy oscillates by a
// bounded factor (semi-implicit at Omega = 2(1 - e): at most ~2/e, 2e4 at e = 1e-4), just above it the
// highest mode grows like rho^n (semi-implicit at Omega = 2(1 + e): rho ~ 1 + 2.8 sqrt(e), so e = 1e-4
// grows the energy by e^56 in 1000 steps). With growth = 1e6 the measured limit is within ~1e-4 of the
// true one.
MeasuredStep measureCriticalStep(const SecondOrderSystem &system, const std::vector<PetscInt> &frozen,
                                 const std::string &scheme, double guess, const CriticalStepSearch &search = {});
// Sets `scheme` up once as measureCriticalStep's trials do (on `system`, with `solver`), so that its own
// options and its solvers' are read (and listed by -help) before a lab's unknown-option check: on the
// system itself, since which options a solver reads depends on it (its multigrid levels, its blocks).
void readTrialOptions(const std::string &scheme, const SecondOrderSystem &system, LinearSolverKind solver);

// The bisection of measureCriticalStep for any trial: `stable(dt)` runs one trial and says whether it
// stayed bounded. Models other than a linear system (the mass-spring stability lab) bring their own.
MeasuredStep bisectStableStep(const std::function<bool(double)> &stable, double guess,
                              const CriticalStepSearch &search = {});

// x = a pseudo-random field in [-1, 1) (a fixed hash of the global index: the same on any rank count),
// 0 at the `frozen` indices: the trial runs' rough initial state.
void roughField(Vec x, const std::vector<PetscInt> &frozen);
// The trial runs' initial displacement: roughField scaled so its strain energy 1/2 x'Sx equals
// `compliance` (the load's compliance energy), or 1 when it is 0 (no load).
PVec roughDisplacement(const SecondOrderSystem &system, const std::vector<PetscInt> &frozen, double compliance);

// Prints on rank 0's stdout, with the lab's other console lines (stderr stays for the one error line a
// failing lab prints)
//   warning: dt = <dt> exceeds the critical step <dt_crit> of <scheme> (omega_max = <w>)
// when dt exceeds theoreticalStep (with the system's Rayleigh damping, if any: the line then names the
// mode that sets the limit); silent for unconditionally stable schemes. Cheap: omega_max
// by SLEPc (options prefix `stability_check_`), to a 1e-6 residual up to 1e4 DOFs; above, to a 1e-3
// residual from the system's own operators, assembled or matrix-free, nothing factored
// (largestOmegaMasked), and then the line says "to 5e-4" and also fires within 5e-4 below the limit.
// Omega_crit by the amplification scan (damped: one scan per sampled mode, about 1 s). Starts SLEPc for its own scope when the program
// has not.
void warnIfUnstable(const SecondOrderSystem &system, const std::vector<PetscInt> &frozen,
                    const std::string &scheme, double dt);

} // namespace beam
