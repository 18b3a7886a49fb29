// The pieces of the two eigenvalue labs (stability, modes): their options, the stability report, the
// Euler-Bernoulli reference frequencies and the mode-shape output.
#pragma once
#include <string>
#include <vector>

#include "MesLib/Beam.hpp"
#include "labs/BeamLabOptions.hpp"
#include "output/SpectralRadiusChart.hpp"
#include "solvers/CriticalStep.hpp"
#include "solvers/FreeVibration.hpp"

namespace beam {

// The lab's system (beamSystem(beam, options): its damping and load in time included) with assembled
// M and S, which the eigensolvers restrict to the free DOFs; -operator matfree is an input error here.
SecondOrderSystem modalSystem(const Beam &beam, const BeamLabOptions &options);

// ---- stability lab ----

struct StabilityOptions {
  double omega_range = 4;      // chart: Omega in [0, omega_range]
  int omega_points = 401;      // chart resolution
  double xi = 0;               // chart: damping ratio of the oscillator
  CriticalStepSearch measure;  // measure.steps = 0 skips the measured critical steps
};
// -omega_range, -omega_points, -xi, -measure_steps, -measure_growth (one options block, listed by -help).
StabilityOptions readStabilityOptions(MPI_Comm comm);

// Reads every scheme's own parameters (-newmark_beta, ...) before the unknown-option check, and, for the
// schemes the trial runs will run (`trials`, and a finite critical step: not newmark's, nor
// almost_explicit's 0), sets each up once on `system` with `solver`, as the trials do, so that its
// solvers' options (-mass_pc_type, ...) are read too; the chart and critical steps then use those values.
// A solver option only a scheme that is not run would read is an unknown option (-newmark_pc_type ran
// unused until 2026-11-29).
void readSchemeOptions(const std::vector<std::string> &schemes, bool trials, const SecondOrderSystem &system,
                       LinearSolverKind solver);

// rho(A(Omega)) of every scheme on `points` equally spaced Omega in [0, range].
SpectralRadiusTable spectralRadiusTable(const std::vector<std::string> &schemes, double range, int points, double xi);

// Each scheme's theoretical critical step on `system` (theoreticalStep; an input error where a damping
// ratio or an amplification matrix overflows).
std::vector<TheoreticalStep> theoreticalSteps(const SecondOrderSystem &system, const std::vector<std::string> &schemes,
                                              double omega_max);
// Prints `critical_dt <scheme> = <dt|inf|0>` for every scheme (`theory`, theoreticalSteps'), then
// `measured_dt <scheme> = ...` (the bisection of measureCriticalStep around each finite, non-zero one).
void reportCriticalSteps(const SecondOrderSystem &system, const std::vector<PetscInt> &frozen,
                         const std::vector<std::string> &schemes, const std::vector<TheoreticalStep> &theory,
                         const StabilityOptions &options);

// ---- modes lab ----

struct ModesOptions {
  int modes = 6; // -modes k
};
ModesOptions readModesOptions(MPI_Comm comm);

// The first `count` Euler-Bernoulli circular frequencies of the beam's supports,
//   omega_n = (beta_n L)^2 sqrt(E I / (rho A L^4)),  I = t H^3 / 12, A = t H, H = my hy, L = mx hx,
// with (beta_n L)^2 = 3.5160, 22.0345, 61.6972 (cantilever, clamped_left), 22.3733, 61.6728, 120.9034
// (clamped_both), (n pi)^2 (simply_supported). rho is multiplied by 36 under the course mass scaling
// (whose mass matrix is 36x the consistent one). count <= 3. Empty for a beam with per-element
// thicknesses (-thickness_file), which no single Euler-Bernoulli beam describes.
std::vector<double> eulerBernoulliOmegas(const BeamSpec &spec, int count);

// Fraction phi_y' M phi_y / phi' M phi of a mode's mass-weighted norm in the vertical DOFs: close to 1
// for bending modes of a slender beam, close to 0 for axial ones.
double verticalShare(const SecondOrderSystem &system, Vec shape);

// Prints one line per computed mode: omega, frequency, vertical share and, for the first three bending
// modes (vertical share > 0.5; axial modes are skipped), the ratio Q4/EB with eulerBernoulliOmegas.
// Returns the mode shapes (ModalSolver::shape).
std::vector<PVec> reportModes(const BeamSpec &spec, const SecondOrderSystem &system, const ModalSolver &solver);

// modes.csv (mode,omega,frequency with frequency = omega / 2 pi), and one VTU per mode (point data
// displacement = the mass-normalized shape rescaled so the largest nodal |u| is 1, for viewing) with
// modes.pvd listing them, the mode number as the "timestep". Returns the file names written.
void writeModes(const Beam &beam, const std::vector<double> &omegas, const std::vector<PVec> &shapes,
                const std::string &dir);

} // namespace beam
