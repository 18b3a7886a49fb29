// Amplification matrix of a time scheme on one oscillator, and the stability limit it gives
// (reference 002, section 2.1: u_{n+1} = A(h) u_n + g_{n+1}, eq. (6)-(7); a perturbation grows like
// A^n, eq. (11), so the scheme is stable when the spectral radius of A is <= 1, and A depends on h only
// through Omega = omega h and the damping ratio xi, eq. (14)-(15)).
//
// Generic: A is measured, not derived. A single oscillator m = 1, k = omega^2, c = 2 xi omega, f = 0 is
// built as a 1-DOF SecondOrderSystem on PETSC_COMM_SELF and the registered scheme, set up with
// dt = h, takes one step from each unit state: the results are the columns of A. The state is (x, y)
// and what the scheme keeps between steps, its history() (the vectors a checkpoint saves: the Newmark
// family's acceleration, x_{n-1} of the three-level central difference, verlet's acceleration, an
// iterative solve's initial guess), set as given and continued from (TimeScheme::resume, as a restart
// from a checkpoint does), so A is the scheme's own recurrence: generalized-alpha's and HHT's 3x3
// matrix on (x, y, a), whose spectral radius tends to their rho_inf; verlet's, which with damping keeps
// an acceleration taken at the half-step velocity that (x, y) do not determine. (Until 2026-11-30 A was
// the 2x2 step restarted from (x, y) alone: for those schemes another recurrence, and the stability
// lab said so in a note.) A history entry the step does not read (an initial guess) gives a zero column
// and the eigenvalue 0, which spectralRadius removes. So every scheme in the registry, including ones
// added later, gets its chart and its critical step with no code here.
//
// Scaling: with omega = 1 and h = Omega (or h = 1 and omega = Omega) A is the same, so everything below
// takes Omega (and xi). For a multi-DOF system the modes decouple (M- and S-orthogonality), each mode i
// is this oscillator with Omega_i = omega_i dt, and the scheme is stable when every Omega_i is, hence
// dt_crit = Omega_crit / omega_max.
#pragma once
#include <string>

#include <Eigen/Dense>

namespace beam {

// A for one step of `scheme` at Omega = omega*h >= 0, xi >= 0, on the state (x, y, history...): entry
// (i, j) is state entry i after a step from the unit state e_j.
Eigen::MatrixXd amplificationMatrix(const std::string &scheme, double omega_h, double xi = 0);
// amplificationMatrix() and everything built on it read the scheme's own parameters (-newmark_beta) from
// the options and hide the rest (its solvers' options, viewers, monitors), since a scan sets a scheme up
// hundreds of times; a lab reads the solvers' options where it runs the scheme (readTrialOptions).

// The state after `steps` steps of the scheme continued from s0 on the same oscillator (A^steps s0 in
// exact arithmetic: the tests' check of the measurement).
Eigen::VectorXd continuedSteps(const std::string &scheme, double omega_h, double xi, const Eigen::VectorXd &s0, int steps);
// Largest |eigenvalue| (NaN when A is not finite).
double spectralRadius(const Eigen::MatrixXd &A);
// A without the equilibrium residual a scheme carries unchanged: where a history entry a (MAMC's
// acceleration, updated by increments) makes r = a + 2 xi Omega y + Omega^2 x with r_{n+1} = r_n, A has
// the left eigenvector l = (Omega^2, 2 xi Omega, 0.., 1, 0..) with eigenvalue 1, which says only that an
// out-of-balance stays; runs start in balance (r = 0) and stay so. A restricted to the invariant subspace
// r = 0 has A's other eigenvalues (MAMC's are Newmark's). Until 2026-12-01 MAMC's chart read 1 at every
// Omega with damping (-xi 0.1: Newmark 0.923 at Omega = 1). A as it is where no entry carries r.
Eigen::MatrixXd withoutCarriedResidual(const Eigen::MatrixXd &A, double omega_h, double xi);
inline double spectralRadius(const std::string &scheme, double omega_h, double xi = 0) {
  return spectralRadius(withoutCarriedResidual(amplificationMatrix(scheme, omega_h, xi), omega_h, xi));
}

// "Stable": rho(A) <= 1 + tolerance (1 + 1e-4 Omega^2), the allowance above A's round-off, which grows
// with the stiffness term Omega^2 (Newmark's a = -Omega^2 x feeds x'): at Omega = 1e4 it is 1e-6, still
// far below any growth a real run would show. A NaN spectral radius (an overflowing matrix) throws.
bool isStable(const std::string &scheme, double omega_h, double xi = 0, double tolerance = 1e-10);

// The search for the stability limit.
struct CriticalOmegaSearch {
  double tolerance = 1e-10; // isStable's
  // Smallest Omega tested, divided by xi when xi > 1 (a heavily damped oscillator's limit falls like 1/xi:
  // semi-implicit 2 (sqrt(1 + xi^2) - xi), 0.01 at xi = 100): unstable there means unstable for every Omega > 0.
  double first = 1e-3;
  double bound = 1e4;       // stable up to here means unconditionally stable
  int per_decade = 20;      // log-spaced scan points; the first unstable one is refined by bisection
  // Below Omega = 1e-3 (reached only when xi > 1): 2 per decade. There a mode is overdamped, its roots real
  // (-Omega/(2 xi) and about -2 xi Omega), and each scheme's stability on the negative real axis an
  // interval, so no unstable window is skipped; 20 per decade over the 25 decades of xi = 1e18 took the
  // stability lab 26 s.
  int per_decade_below = 2;
};

// Omega_crit: the end of the stability interval (0, Omega_crit] that starts at Omega -> 0, i.e. the
// largest Omega such that rho(A(Omega')) <= 1 + tolerance for every scanned Omega' <= Omega, refined by
// bisection to round-off. Returns +infinity when stable on the whole scan up to `bound` (fully implicit,
// midpoint), 0 when already unstable at `first` (almost explicit: rho = sqrt(1 + Omega^2) > 1 for every
// Omega > 0; first = 1e-3 gives rho - 1 = 5e-7, far above round-off, and a stability interval shorter
// than 1e-3 would limit the default beam to dt < 2.4e-5 anyway). Semi-implicit: exactly 2.
double criticalOmega(const std::string &scheme, double xi = 0, const CriticalOmegaSearch &search = {});

} // namespace beam
