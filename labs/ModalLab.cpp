#include "labs/ModalLab.hpp"

#include <limits>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "labs/BeamLab.hpp"
#include "common/Exact.hpp"
#include "common/Options.hpp"
#include "output/FileUtil.hpp"
#include "output/VtkSnapshots.hpp"
#include "solvers/Amplification.hpp"

namespace beam {
namespace {

// "inf", "0" or the number, as the stability report prints steps.
std::string stepText(double dt) {
  if (std::isinf(dt)) return "inf";
  if (dt == 0) return "0";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", dt);
  return buf;
}

} // namespace

SecondOrderSystem modalSystem(const Beam &beam, const BeamLabOptions &options) {
  if (options.operator_kind != OperatorKind::Assembled)
    throw inputError(std::string("-operator ") + operatorName(options.operator_kind) +
                     ": the eigenvalue labs restrict assembled M and S to the free DOFs; accepted: assembled");
  // Before the matrices are allocated: assembled M and S, and the Cholesky factor of the eigensolvers'
  // shift-and-invert (FreeVibration).
  RunNeeds needs;
  needs.direct_solver = true;
  needs.scheme_matrices = 0;
  needs.solvers = 2; // measured: 580 MiB at 1000x100 (modes), which one factor's worth would not cover
  needs.damped = options.rayleigh_alpha != 0 || options.rayleigh_beta != 0; // stability's C
  checkMemory(beam.comm(), options.beam, needs, "a smaller beam");
  return beamSystem(beam, options);
}

StabilityOptions readStabilityOptions(MPI_Comm comm) {
  StabilityOptions o;
  agreeOn(comm, [&] {
    readOptions(comm, "Stability analysis", "", [&](OptionReader &r) {
      // Above 1e5 the amplification matrix's entries, of order Omega^2 = 1e10, leave rho about 6 digits, and
      // soon none: at 1e20 Newmark's "rho" was 3e23, at 1e100 every column NaN, exit 0.
      o.omega_range = r.real("-omega_range", "Chart: Omega = omega*dt from 0 to this (at most 1e5)", o.omega_range,
                             Bounds::between(std::numeric_limits<double>::min(), 1e5, "a real in (0, 1e5]"));
      // At most 20000: the table costs ~2 ms a point (1e6 took 35 min, no output before it); finer than any chart.
      o.omega_points = int(r.integer("-omega_points", "Chart: number of Omega values (2 to 20000)", o.omega_points, 2, 20000));
      // Above 1e20 the amplification matrices overflow (-xi 1e100 wrote 800 NaN/inf cells, exit 0).
      o.xi = r.real("-xi", "Chart: damping ratio of the oscillator (the critical steps take the beam's own damping)", o.xi,
                    Bounds::between(0, 1e20, "a real in [0, 1e20]"));
      o.measure.steps = r.integer("-measure_steps",
                                  "Steps of each trial run of the measured critical step (0 = do not measure)",
                                  o.measure.steps, 0, 100000000);
      // As in mass_spring_stability: a trial of a few steps cannot tell growth from the start (-measure_steps 5
      // "measured" semi_implicit stable at 1.36 times its limit, exit 0).
      if (o.measure.steps > 0 && o.measure.steps < 100)
        r.fail("-measure_steps: " + std::to_string(o.measure.steps) + " is out of range; accepted: 0 (no measurement) or an "
               "integer in [100, 100000000]");
      o.measure.growth = r.real("-measure_growth", "A trial run is unstable when |E - E0| exceeds this many energy scales",
                                o.measure.growth, Bounds::above(1));
      if (o.measure.steps == 0 && r.given("-measure_growth"))
        r.fail("-measure_growth: no trial runs to judge with -measure_steps 0; accepted: -measure_growth with -measure_steps >= 100");
    });
  });
  return o;
}

namespace {
// A critical step (or Omega_crit) of 0 or inf has nothing to bracket: such a scheme's trials are not run.
bool bracketed(double critical) { return std::isfinite(critical) && critical > 0; }
} // namespace

void readSchemeOptions(const std::vector<std::string> &schemes, bool trials, const SecondOrderSystem &system,
                       LinearSolverKind solver) {
  for (const auto &s : schemes) { // (the scan of criticalOmega reads the scheme's own parameters)
    // Damping can give a scheme unstable at every dt a limit (forward Euler: dt <= beta), so its trials run.
    const double omega_crit = criticalOmega(s);
    if ((bracketed(omega_crit) || (system.rayleigh && omega_crit == 0)) && trials) readTrialOptions(s, system, solver);
  }
}

SpectralRadiusTable spectralRadiusTable(const std::vector<std::string> &schemes, double range, int points, double xi) {
  SpectralRadiusTable t;
  t.schemes = schemes;
  t.xi = xi;
  for (int i = 0; i < points; ++i) {
    const double omega_h = range * double(i) / double(points - 1);
    std::vector<double> row;
    for (const auto &s : schemes) {
      row.push_back(spectralRadius(s, omega_h, xi));
      // Large xi and Omega together overflow the amplification matrix (a NaN cell with -xi 1e5
      // -omega_range 1e5, inf rows with -newmark_beta 1e300, exit 0): refused before anything is written.
      if (!std::isfinite(row.back()))
        throw inputError("-omega_range " + gText(range) + " with -xi " + gText(xi) + ": the spectral radius of " + s +
                         " is not finite at Omega = " + gText(omega_h) +
                         " (its amplification matrix overflows); accepted: a smaller -omega_range or -xi, or scheme "
                         "parameters of a usual size");
    }
    t.omega.push_back(omega_h);
    t.rho.push_back(row);
  }
  return t;
}

std::vector<TheoreticalStep> theoreticalSteps(const SecondOrderSystem &system, const std::vector<std::string> &schemes,
                                              double omega_max) {
  std::vector<TheoreticalStep> steps;
  for (const auto &s : schemes) steps.push_back(theoreticalStep(s, omega_max, system.rayleigh));
  return steps;
}

void reportCriticalSteps(const SecondOrderSystem &system, const std::vector<PetscInt> &frozen,
                         const std::vector<std::string> &schemes, const std::vector<TheoreticalStep> &limits,
                         const StabilityOptions &options) {
  const MPI_Comm comm = system.comm();
  for (size_t i = 0; i < schemes.size(); ++i) {
    const std::string &s = schemes[i];
    const TheoreticalStep &limit = limits[i];
    std::string mode;
    if (system.rayleigh && bracketed(limit.dt)) mode = ", at omega = " + stepText(limit.omega) + ", xi = " + stepText(limit.xi);
    BEAM_PETSC(PetscPrintf(comm, "critical_dt %s = %s   (Omega_crit = %s%s)\n", s.c_str(), stepText(limit.dt).c_str(),
                           stepText(limit.omega_crit).c_str(), mode.c_str()));
  }
  if (system.rayleigh)
    BEAM_PETSC(PetscPrintf(comm, "note: Rayleigh damping; critical_dt is the smallest limit Omega_crit(xi) / omega over "
                                 "the frequencies omega in (0, omega_max], xi = alpha/(2 omega) + beta omega/2\n"));
  else if (system.damped())
    BEAM_PETSC(PetscPrintf(comm, "note: the system is damped; critical_dt is the undamped limit, measured_dt runs with "
                                 "the damping\n"));
  for (size_t i = 0; i < schemes.size(); ++i) {
    const char *name = schemes[i].c_str();
    if (!bracketed(limits[i].dt)) {
      BEAM_PETSC(PetscPrintf(comm, "measured_dt %s = %s\n", name, stepText(limits[i].dt).c_str()));
      continue;
    }
    if (options.measure.steps == 0) {
      BEAM_PETSC(PetscPrintf(comm, "measured_dt %s = none (-measure_steps 0)\n", name));
      continue;
    }
    const MeasuredStep m = measureCriticalStep(system, frozen, schemes[i], limits[i].dt, options.measure);
    if (m.found)
      BEAM_PETSC(PetscPrintf(comm, "measured_dt %s = %s   (unstable at %s; measured/theory = %.5f; %d runs of %lld steps)\n",
                             name, stepText(m.dt).c_str(), stepText(m.unstable_dt).c_str(), m.dt / limits[i].dt,
                             m.runs, (long long)options.measure.steps));
    else
      BEAM_PETSC(PetscPrintf(comm, "measured_dt %s = none (%s after %d runs of %lld steps)\n", name, m.why.c_str(),
                             m.runs, (long long)options.measure.steps));
  }
}

ModesOptions readModesOptions(MPI_Comm comm) {
  ModesOptions o;
  agreeOn(comm, [&] {
    readOptions(comm, "Natural modes", "", [&](OptionReader &r) {
      o.modes = int(r.integer("-modes", "Number of natural modes to compute", o.modes, 1, 100000));
    });
  });
  return o;
}

std::vector<double> eulerBernoulliOmegas(const BeamSpec &spec, int count) {
  static const double cantilever[] = {3.5160, 22.0345, 61.6972};
  static const double clamped[] = {22.3733, 61.6728, 120.9034};
  const double pi2 = M_PI * M_PI;
  const double simply[] = {pi2, 4 * pi2, 9 * pi2};
  const double *beta_l2 = spec.supports == Supports::ClampedLeft   ? cantilever
                          : spec.supports == Supports::ClampedBoth ? clamped
                                                                   : simply;
  const double L = spec.mx * spec.hx, H = spec.my * spec.hy;
  const double course = spec.mass_scaling == MassScaling::Course ? 36.0 : 1.0;
  // sqrt(EI / (rho A L^4)) with I = t H^3 / 12, A = t H: sqrt(E / rho) H / (L^2 sqrt(12)), in factors that
  // do not overflow on their own (E = 1e300 with rho = 1e-300 gave EB omega = inf and a ratio of 0).
  const double root = std::sqrt(spec.material.E) / std::sqrt(spec.material.rho * course) * (H / L / L) / std::sqrt(12.0);
  std::vector<double> omegas;
  if (!spec.element_thickness.empty()) return omegas;
  for (int n = 0; n < std::min(count, 3); ++n) omegas.push_back(beta_l2[n] * root);
  return omegas;
}

double verticalShare(const SecondOrderSystem &system, Vec shape) {
  PVec vertical = duplicate(shape), mv = duplicate(shape);
  BEAM_PETSC(VecCopy(shape, vertical));
  PetscInt lo, hi;
  BEAM_PETSC(VecGetOwnershipRange(vertical, &lo, &hi));
  PetscScalar *v;
  BEAM_PETSC(VecGetArray(vertical, &v));
  for (PetscInt i = lo; i < hi; ++i)
    if (i % 2 == 0) v[i - lo] = 0; // DOF 2n is ux of node n, 2n+1 its uy (course numbering)
  BEAM_PETSC(VecRestoreArray(vertical, &v));
  PetscScalar part, whole;
  BEAM_PETSC(MatMult(system.mass, vertical, mv));
  BEAM_PETSC(VecDot(vertical, mv, &part));
  BEAM_PETSC(MatMult(system.mass, shape, mv));
  BEAM_PETSC(VecDot(shape, mv, &whole));
  return PetscRealPart(part) / PetscRealPart(whole);
}

std::vector<PVec> reportModes(const BeamSpec &spec, const SecondOrderSystem &system, const ModalSolver &solver) {
  const MPI_Comm comm = system.comm();
  const auto eb = eulerBernoulliOmegas(spec, 3);
  std::vector<PVec> shapes;
  size_t bending = 0;
  BEAM_PETSC(PetscPrintf(comm, "%-5s %14s %14s %9s  %s\n", "mode", "omega", "frequency", "vertical", "Q4/EB"));
  for (size_t k = 0; k < solver.omegas().size(); ++k) {
    shapes.push_back(solver.shape(PetscInt(k)));
    const double w = solver.omegas()[k], share = verticalShare(system, shapes.back());
    char line[160];
    int n = std::snprintf(line, sizeof line, "%-5zu %14.8g %14.8g %9.3f  ", k + 1, w, w / (2 * M_PI), share);
    if (share > 0.5 && bending < eb.size()) { // the next bending mode: compare with the next EB frequency
      std::snprintf(line + n, sizeof line - size_t(n), "bending %zu: %.5g (EB omega = %.8g)", bending + 1,
                    w / eb[bending], eb[bending]);
      ++bending;
    } else {
      std::snprintf(line + n, sizeof line - size_t(n), "%s", share > 0.5 ? "bending" : "axial/in-plane");
    }
    BEAM_PETSC(PetscPrintf(comm, "%s\n", line));
  }
  char slenderness[32];
  std::snprintf(slenderness, sizeof slenderness, "%g", spec.mx * spec.hx / (spec.my * spec.hy));
  BEAM_PETSC(PetscPrintf(comm, "L/H = %s, supports %s (Euler-Bernoulli neglects shear deformation and rotary inertia)\n",
                         slenderness, supportsName(spec.supports)));
  return shapes;
}

void writeModes(const Beam &beam, const std::vector<double> &omegas, const std::vector<PVec> &shapes,
                const std::string &dir) {
  prepareOutputDirectory(dir);
  int rank = 0;
  MPI_Comm_rank(beam.comm(), &rank);
  agreeOn(beam.comm(), [&] { // rank 0 writes: its failure ends every rank at once
    if (rank != 0) return;
    std::string csv = "mode,omega,frequency\n";
    for (size_t k = 0; k < omegas.size(); ++k) {
      char line[128];
      std::snprintf(line, sizeof line, "%zu,%.17g,%.17g\n", k + 1, omegas[k], omegas[k] / (2 * M_PI));
      csv += line;
    }
    writeFileAtomically(dir + "/modes.csv", csv);
  });
  // Mode number k+1 plays the step and the time of a snapshot series: one VTU per mode, and modes.pvd.
  const BeamModel picture(beam, beamSystem(beam), LinearSolverKind::Direct); // draws; solves nothing
  VtkSnapshots snapshots(picture, dir, 1, "modes");
  PVec view = beam.createVector();
  for (size_t k = 0; k < shapes.size(); ++k) {
    // Largest nodal |u|: both DOFs of a node live on one rank, as consecutive local entries.
    const PetscScalar *u;
    PetscInt n;
    BEAM_PETSC(VecGetLocalSize(shapes[k], &n));
    BEAM_PETSC(VecGetArrayRead(shapes[k], &u));
    double local = 0, largest = 0;
    for (PetscInt i = 0; i + 1 < n; i += 2) local = std::max(local, std::hypot(PetscRealPart(u[i]), PetscRealPart(u[i + 1])));
    BEAM_PETSC(VecRestoreArrayRead(shapes[k], &u));
    MPI_Allreduce(&local, &largest, 1, MPI_DOUBLE, MPI_MAX, beam.comm());
    BEAM_PETSC(VecCopy(shapes[k], view));
    if (largest > 0) BEAM_PETSC(VecScale(view, 1.0 / largest));
    StepState state;
    state.step = PetscInt(k + 1);
    state.steps = PetscInt(shapes.size());
    state.time = double(k + 1);
    state.x = view;
    state.y = nullptr; // a mode shape has no velocity: modes.pvd carries none (an all-zero array until 2026-11-28)
    snapshots.observe(state);
  }
}

} // namespace beam
