// Lab "mass-spring stability" (reference 004, observations 2.4 and 3.2 made measurable): "if dt is too
// large the object explodes" (explicit integration) and "with implicit Euler neither the time step nor
// the stiffness affects the stability".
// 1. omega_max of the network linearized at rest (solvers/Linearization.hpp: M and S = -dF/dx at the
//    initial state, fixed particles removed; SLEPc, options -omega_max_eps_*).
// 2. For each scheme (-schemes, default every scheme that serves a nonlinear model): the theoretical
//    limit Omega_crit / omega_max (Omega_crit from the scheme's amplification matrix: 2 for the
//    symplectic Euler and Verlet, 2.83 for RK4, 0 for forward Euler, inf for implicit Euler and
//    midpoint) and the largest stable dt measured by bisection on the nonlinear network itself: trial
//    runs of -measure_steps steps from the initial state plus a small random displacement (elastic
//    energy -perturbation x sum 1/2 k l^2, strains about its square root, so it excites the highest
//    modes and stays in the linear range), unstable when |E - E0| exceeds -measure_growth (100) times
//    that displacement's energy. The trials switch gravity
//    and planes off: a chain released horizontally swings, stretches and measures 3-5 % below 2 /
//    omega_max, a disk hits its plane; 100, not 1e6 as on the linear beam, because an unstable mode of
//    a nonlinear network can saturate (RK4 above its limit levels off at 1e2-1e5 x E0, which 1e6 would
//    call stable: 5-17 % above 2.83 / omega_max on the built-in networks).
// 3. A stiffness sweep at the fixed -dt over -T: every spring's stiffness times each -stiffness_factors
//    value, omega_max recomputed, every scheme run from the same kind of state; the explicit schemes
//    fail once omega_max dt passes their Omega_crit, the claim is that implicit Euler never does.
// Expect on the default network, the report's disk (65 particles, k = 2000, total mass 1): omega_max =
// 1115 at rest; symplectic Euler and Verlet measured within 1e-3 of 2 / omega_max, RK4 within 1.1 % of
// 2.83 / omega_max; in the sweep at dt = 0.01 (omega_max dt = 11 to 1115) every explicit scheme fails
// within 5 steps, implicit Euler never does (it loses 70 % of the energy, the bounce included), and
// implicit midpoint, unconditionally stable on linear springs, gains energy and fails from factor 100
// on: on nonlinear springs at large omega dt it conserves no energy (Simo and Tarnow 1992).
// Writes <output_dir>/critical_steps.csv, stiffness_sweep.csv and mass_spring_stability.png.
#include <algorithm>
#include <cmath>
#include <limits>
#include <cstdio>

#include "MassSpring/BuiltinModels.hpp"
#include "MassSpring/MassSpringModel.hpp"
#include "common/Warnings.hpp"
#include "common/Exact.hpp"
#include "common/Options.hpp"
#include "common/Slepc.hpp"
#include "labs/MassSpringLabOptions.hpp"
#include "labs/ModalLab.hpp"
#include "output/FileUtil.hpp"
#include "output/PlotScript.hpp"
#include "solvers/Amplification.hpp"
#include "solvers/Energy.hpp"
#include "solvers/Linearization.hpp"
#include "solvers/TimeLoop.hpp"

static const char help[] = "Largest stable time step of every scheme on a mass-spring network (reference 004), "
                           "in theory (2/omega_max, SLEPc) and measured, and a stiffness sweep.\n";

namespace {

struct Settings {
  beam::Network network;
  std::vector<std::string> schemes;
  beam::RunSettings sweep_run;  // -dt, -T of the stiffness sweep
  std::vector<double> factors = {1, 100, 10000};
  double perturbation = 1e-6;   // elastic energy of the trial displacement / sum 1/2 k l^2 (strains ~ its root)
  beam::CriticalStepSearch search = [] {
    beam::CriticalStepSearch s;
    s.steps = 1000;
    s.growth = 100;
    return s;
  }();
  std::string dir = "out/mass_spring_stability";
};

Settings readSettings(MPI_Comm comm) {
  Settings s;
  s.sweep_run.newton_prefix = "ms_";
  s.sweep_run.T = 1;
  beam::OutputOptions out;
  out.dir = s.dir;
  beam::agreeOn(comm, [&] {
    s.network = beam::readNetworkOptions(comm, "disk");
    s.schemes = beam::readSchemeListOption(comm, beam::generalSchemeNames());
    PetscBool schemes_given = PETSC_FALSE; // (the default list, if not: "-schemes" would name an option not given)
    BEAM_PETSC(PetscOptionsHasName(nullptr, nullptr, "-schemes", &schemes_given));
    for (const auto &name : s.schemes)
      if (beam::makeScheme(name)->footprint().solvers > 0)
        beam::checkNewtonFits(s.network, name, schemes_given ? "-schemes" : "the default -schemes");
    beam::readRunOptions(comm, s.sweep_run);
    beam::readOutputOptions(comm, out, {nullptr, 0, false});
    beam::readOptions(comm, "Stability measurement", "", [&](beam::OptionReader &r) {
      double k_max = 0;
      for (const auto &spring : s.network.springs) k_max = std::max(k_max, spring.stiffness);
      auto factorsProblem = [k_max](const std::vector<double> &factors) { // on every occurrence of the option
        for (double v : factors)
          if (!(v > 0) || !std::isfinite(v * k_max))
            return "-stiffness_factors: " + beam::exactDecimal(v) + " is out of range; accepted: reals > 0 that keep every "
                   "stiffness finite (the largest is " + beam::exactDecimal(k_max) + ")";
        return std::string();
      };
      const std::vector<double> f =
          r.reals("-stiffness_factors", "Sweep: factors on every spring's stiffness (default 1,100,10000)", factorsProblem);
      if (r.given("-stiffness_factors")) s.factors = f;
      if (const double *twice = beam::firstRepeated(s.factors)) // 1,1.0 ran the factor twice, two rows each
        r.fail("-stiffness_factors: " + beam::exactDecimal(*twice) + " is listed twice; accepted: each factor at most once");
      else r.fail(factorsProblem(s.factors)); // the defaults too: 1e4 times a stiffness of 1e305 overflows
      // A sweep of runs that take no step has nothing to judge (-T 0 called every scheme "stable at every
      // stiffness tried", forward Euler included).
      // Nor do one or two steps (ω_max dt = 1115 was "stable at every stiffness" after one).
      if (beam::stepCount(s.sweep_run.T, s.sweep_run.dt) < 10)
        r.fail("-T " + beam::exactDecimal(s.sweep_run.T) + ": the stiffness sweep's runs would take fewer than 10 steps of dt = " +
               beam::exactDecimal(s.sweep_run.dt) + "; accepted: T >= 10 dt");
      if (std::none_of(s.network.particles.begin(), s.network.particles.end(), [](const beam::Particle &p) { return !p.fixed; }))
        r.fail("the network has no free particle; accepted: a network with at least one particle whose fixed is 0");
      // Without stiffness there is no omega_max to measure against (SLEPc's "Initial vector is zero or
      // belongs to the deflation space", exit 3).
      if (!(k_max > 0))
        r.fail("no spring has a stiffness > 0: the network at rest has no omega_max to measure against; accepted: a "
               "network with a spring of stiffness > 0");
      s.search.steps = r.integer("-measure_steps", "Steps of each trial run of the bisection (0 = do not measure)",
                                 s.search.steps, 0, 100000000);
      // A trial of a few steps cannot tell growth from the start (1 step "measured" Verlet stable at 2.4
      // times its limit).
      if (s.search.steps > 0 && s.search.steps < 100)
        r.fail("-measure_steps: " + std::to_string(s.search.steps) + " is out of range; accepted: 0 (no measurement) or an "
               "integer in [100, 100000000]");
      s.search.growth = r.real("-measure_growth",
                               "A trial run is unstable when |E - E0| exceeds this many times its displacement's energy",
                               s.search.growth, beam::Bounds::above(1));
      if (s.search.steps == 0 && r.given("-measure_growth")) // read and ignored until 2026-11-27
        r.fail("-measure_growth: no trial runs to judge with -measure_steps 0; accepted: -measure_growth with -measure_steps >= 100");
      s.perturbation = r.real("-perturbation",
                              "Elastic energy of the trials' random displacement over sum 1/2 k l^2 (strains about its square root)",
                              s.perturbation,
                              // A trial is a small displacement in the linear range, which the sweep's verdicts assume
                              // (strains up to about 1 %: 1e308 "measured" RK4 unstable at 0.3 of its limit, exit 0),
                              // and above round-off (strains of 1e-8: at 1e-300 the displacement vanished in the
                              // positions' round-off and the trials measured noise, 2.85 or 0.31 times the limit).
                              beam::Bounds::between(1e-16, 1e-4, "a real in [1e-16, 1e-4]"));
    });
  });
  s.dir = out.dir;
  return s;
}

// One network with every spring's stiffness scaled, its linearization at rest, omega_max, and the trial
// state: the initial state plus the random displacement. `free` is the same network without gravity and
// planes, whose small motions about rest are exactly what omega_max describes: the bisection runs it.
struct Case {
  Case(const beam::Network &net, double factor, double perturbation)
      : network(scaled(net, factor)), free_network(withoutEnvironment(network)), model(network, PETSC_COMM_WORLD),
        free(free_network, PETSC_COMM_WORLD) {
    x0 = model.createVector();
    v0 = model.createVector();
    model.initialState(x0, v0);
    beam::PVec rest = model.createVector();
    BEAM_PETSC(VecSet(rest, 0.0));
    // Of the free network, which the trials run: a particle starting inside a plane put the contact's
    // stiffness into omega_max, and the trials, without it, "measured" 2.9 times the printed limit.
    system = beam::linearization(free, 0, x0, rest);
    problem = std::make_unique<beam::FreeVibration>(system, model.fixedDofs());
    // The displacement: a rough field of elastic energy 1/2 d'S d = `perturbation` x W, W = sum 1/2 k l^2
    // over the springs that move (their energy at 100 % strain), so the strains are about
    // sqrt(perturbation) whatever the units, the gravity or the prestress. It was sized in the model's
    // energy scale, m |g| x extent: gravity 1e4 pushed the trials out of the linear range (explicit Euler
    // "stable" to 0.80 of 2/omega_max).
    double W = 0;
    for (const auto &sp : network.springs) {
      const auto &a = network.particles[size_t(sp.i)], &b = network.particles[size_t(sp.j)];
      if (a.fixed && b.fixed) continue;
      const double l = std::hypot(a.x[0] - b.x[0], a.x[1] - b.x[1], a.x[2] - b.x[2]);
      W += 0.5 * sp.stiffness * l * l;
    }
    if (!std::isfinite(W))
      throw beam::inputError("the springs' energy at 100 % strain, sum 1/2 k l^2, overflows a double; accepted: "
                             "stiffnesses and lengths whose energies are finite");
    // At rest in an equilibrium of the free network (no force beyond 1e-9 of the largest k l, no velocity)
    // the trials' motion is the displacement alone, and their growth is judged against its energy: against
    // E0, a prestressed network's stored energy hid an unstable mode, which saturates first (RK4 "stable"
    // to 1.12 times its limit). Otherwise (a chain hanging under gravity, released without it; initial
    // velocities; point loads) the release moves the network too, and E0 stays the measure: against the
    // displacement's energy that motion's own energy errors read as growth (0.31 of the limit).
    double k_l = 0;
    for (const auto &sp : network.springs) {
      const auto &a = network.particles[size_t(sp.i)], &b = network.particles[size_t(sp.j)];
      k_l = std::max(k_l, sp.stiffness * std::hypot(a.x[0] - b.x[0], a.x[1] - b.x[1], a.x[2] - b.x[2]));
    }
    beam::PVec F = model.createVector();
    free.force(0, x0, v0, F);
    PetscReal f_max = 0, v_max = 0;
    BEAM_PETSC(VecNorm(F, NORM_INFINITY, &f_max));
    BEAM_PETSC(VecNorm(v0, NORM_INFINITY, &v_max));
    equilibrium = v_max == 0 && f_max <= 1e-9 * k_l;
    beam::PVec d = model.createVector(), Sd = model.createVector();
    beam::roughField(d, model.fixedDofs());
    PetscScalar strain;
    BEAM_PETSC(MatMult(system.stiffness, d, Sd));
    BEAM_PETSC(VecDot(d, Sd, &strain));
    if (PetscRealPart(strain) > 0 && W > 0) {
      trial_energy = perturbation * W;
      BEAM_PETSC(VecAXPY(x0, std::sqrt(trial_energy / (0.5 * PetscRealPart(strain))), d));
    }
  }
  static beam::Network scaled(beam::Network net, double factor) {
    for (auto &s : net.springs) s.stiffness *= factor;
    return net;
  }
  static beam::Network withoutEnvironment(beam::Network net) {
    net.gravity = {0, 0, 0};
    net.planes.clear();
    return net;
  }
  // Runs `scheme` at dt for `steps` steps from the trial state on `on` (model or free); the result says
  // whether it stayed bounded: |E - E0| within `growth` times the trial displacement's energy
  // (`own_scale`, the bisection's measure, where the network starts in equilibrium) or the model's
  // energy scale (the sweep's, and the bisection's otherwise).
  beam::RunResult trial(const beam::MassSpringModel &on, const std::string &scheme, double dt, PetscInt steps,
                        double growth, bool own_scale) const {
    const auto stepper = beam::makeScheme(scheme);
    beam::RunSettings run;
    run.dt = dt;
    run.T = double(steps) * dt;
    run.divergence_factor = growth;
    if (own_scale && equilibrium) run.energy_scale = trial_energy;
    run.newton_prefix = "ms_";
    beam::TimeLoop loop(*stepper, on, run);
    beam::PVec x = on.createVector(), v = on.createVector();
    BEAM_PETSC(VecCopy(x0, x));
    BEAM_PETSC(VecCopy(v0, v));
    return loop.run(x, v, {});
  }

  beam::Network network, free_network;
  beam::MassSpringModel model, free;
  beam::PVec x0, v0;
  double trial_energy = 0;  // the displacement's elastic energy (0: none)
  bool equilibrium = false; // the free network starts at rest in equilibrium
  beam::SecondOrderSystem system;
  std::unique_ptr<beam::FreeVibration> problem;
};

std::string cell(double v) { return std::isinf(v) ? "inf" : beam::exactDecimal(v); }

// Part 2: each scheme's theoretical and measured limit, printed; the rows of critical_steps.csv.
std::string measuredLimits(const Settings &s, const Case &base, double omega_max) {
  // note: why there is no measured value (the bisection's "stable up to ..."; empty when measured or
  // not measured), which the table prints and the CSV left out.
  std::string csv = "scheme,omega_crit,dt_theory,dt_measured,dt_unstable,runs,note\n";
  for (const auto &name : s.schemes) {
    const double omega_crit = beam::criticalOmega(name), dt_theory = beam::criticalStep(omega_crit, omega_max);
    beam::MeasuredStep m;
    if (s.search.steps > 0 && dt_theory > 0 && std::isfinite(dt_theory))
      m = beam::bisectStableStep(
          [&](double dt) { return !base.trial(base.free, name, dt, s.search.steps, s.search.growth, true).diverged; }, dt_theory,
          s.search);
    char measured[64] = "-", ratio[32] = "-";
    if (m.found) {
      std::snprintf(measured, sizeof measured, "%.6g", m.dt);
      std::snprintf(ratio, sizeof ratio, "%.4f", m.dt / dt_theory);
    } else if (!m.why.empty()) {
      // The table's short form; the CSV's note keeps the exact bracket end.
      std::snprintf(measured, sizeof measured, "(%s = %.6g)", m.why.substr(0, m.why.find(" = ")).c_str(), m.bound);
    }
    BEAM_PETSC(PetscPrintf(PETSC_COMM_WORLD, "%-20s %10.4g %14.6g %14s %10s\n", name.c_str(), omega_crit, dt_theory,
                           measured, ratio));
    csv += name + "," + cell(omega_crit) + "," + cell(dt_theory) + "," + (m.found ? cell(m.dt) : "") + "," +
           (m.found ? cell(m.unstable_dt) : "") + "," + std::to_string(m.runs) + "," + (m.found ? "" : m.why) + "\n";
  }
  // The theory is the undamped limit: dashpots move the explicit schemes' (a chain at c = 20 measured
  // 0.33 of 2/omega_max, which is the damped amplification matrix's value), said so it is not read as
  // a failed measurement.
  double c_max = 0;
  for (const auto &sp : s.network.springs) c_max = std::max(c_max, sp.damping);
  if (c_max > 0)
    BEAM_PETSC(PetscPrintf(PETSC_COMM_WORLD,
                           "note: dt theory is the undamped limit Omega_crit / omega_max; the springs' dashpots (damping up "
                           "to %s) move the measured limits (strong ones lower them: a ratio below 1 is theirs)\n", beam::gText(c_max).c_str()));

  return csv;
}

// Part 3: the stiffness sweep, printed; the rows of stiffness_sweep.csv.
std::string stiffnessSweep(const Settings &s) {
  const PetscInt steps = beam::stepCount(s.sweep_run.T, s.sweep_run.dt);
  BEAM_PETSC(PetscPrintf(PETSC_COMM_WORLD, "\nstiffness sweep at dt = %s, %lld steps: max |E - E0| / scale, or the step "
                                           "where the run failed\n%10s %12s %12s",
                         beam::gText(s.sweep_run.dt).c_str(), (long long)steps, "factor", "omega_max", "omega_max dt"));
  for (const auto &name : s.schemes) BEAM_PETSC(PetscPrintf(PETSC_COMM_WORLD, " %18s", name.c_str()));
  BEAM_PETSC(PetscPrintf(PETSC_COMM_WORLD, "\n"));
  std::string sweep_csv = "factor,omega_max,omega_max_dt,scheme,stable,steps_done,max_drift\n";
  std::vector<std::string> always_stable = s.schemes;
  std::string notes; // why the unconditionally stable schemes failed, when they did
  for (double factor : s.factors) {
    const Case c(s.network, factor, s.perturbation);
    const double w = beam::largestOmega(*c.problem, "omega_max_", 1e-10);
    // The row is printed whole, after its runs: a line a run prints (Newton's fallback note) goes above it.
    char head[96];
    std::snprintf(head, sizeof head, "%10g %12.5g %12.5g", factor, w, w * s.sweep_run.dt);
    std::string row = head;
    for (const auto &name : s.schemes) {
      const beam::RunResult r = c.trial(c.model, name, s.sweep_run.dt, steps, s.sweep_run.divergence_factor, false);
      char text[64];
      if (r.diverged) std::snprintf(text, sizeof text, "fails at %lld", (long long)r.steps_done + 1);
      else std::snprintf(text, sizeof text, "%.3g", r.max_abs_drift);
      char cell[80];
      std::snprintf(cell, sizeof cell, " %18s", text);
      row += cell;
      if (r.diverged && std::isinf(beam::criticalOmega(name)))
        notes += "  " + name + " at factor " + beam::exactDecimal(factor) + ": " + r.divergence + "\n";
      if (r.diverged) always_stable.erase(std::remove(always_stable.begin(), always_stable.end(), name), always_stable.end());
      sweep_csv += beam::exactDecimal(factor) + "," + beam::exactDecimal(w) + "," +
                   beam::exactDecimal(w * s.sweep_run.dt) + "," + name + "," + (r.diverged ? "0" : "1") + "," +
                   std::to_string(r.steps_done) + "," + beam::exactDecimal(r.max_abs_drift) + "\n";
    }
    BEAM_PETSC(PetscPrintf(PETSC_COMM_WORLD, "%s\n", row.c_str()));
  }
  std::string names;
  for (const auto &n : always_stable) names += (names.empty() ? "" : ", ") + n;
  BEAM_PETSC(PetscPrintf(PETSC_COMM_WORLD, "stable at every stiffness tried: %s\n%s%s", names.empty() ? "none" : names.c_str(),
                         notes.empty() ? "" : "failures of the schemes without a step limit:\n", notes.c_str()));

  return sweep_csv;
}

} // namespace

int main(int argc, char **argv) {
  beam::SlepcSession session(&argc, &argv, help);
  return beam::runMain(session, "mass_spring_stability", [&] {
    const Settings s = readSettings(PETSC_COMM_WORLD);
    const Case base(s.network, 1, s.perturbation);
    beam::ModalSolver highest(*base.problem, {beam::SpectrumEnd::Largest, 1, 1e-10, 0, "omega_max_"});
    // Every scheme and its Newton solver read their options now; a linear-only scheme refuses the network.
    std::vector<std::pair<std::unique_ptr<beam::TimeScheme>, std::unique_ptr<beam::TimeLoop>>> probes;
    for (const auto &name : s.schemes) {
      auto stepper = beam::makeScheme(name);
      auto probe = std::make_unique<beam::TimeLoop>(*stepper, base.model, s.sweep_run);
      probes.emplace_back(std::move(stepper), std::move(probe));
    }
    // Newton's preconditioner set up once (TimeScheme::begin) before the directory: an option refused
    // there leaves none behind (and under -help, before the help ends: the inner solvers' options).
    const auto prepare = [&] {
      beam::setUpSolversTogether(PETSC_COMM_WORLD, [&] {
        for (auto &probe : probes) probe.second->prepareStart(base.x0, base.v0);
      });
    };
    if (beam::finishOptions(PETSC_COMM_WORLD, prepare)) return 0;
    prepare();
    probes.clear();
    // Before the directory: a network that refuses (unstable at rest, eigensolver options elsewhere in
    // the spectrum) leaves none behind.
    highest.solve();
    const double omega_max = highest.omegas().front();
    beam::prepareOutputDirectory(s.dir);
    beam::releaseWarnings(); // the sweep starts (common/Warnings.hpp)
    beam::removeEarlierResults(s.dir, {"critical_steps.csv", "stiffness_sweep.csv", "mass_spring_stability.png"});

    BEAM_PETSC(PetscPrintf(PETSC_COMM_WORLD,
                           "mass_spring_stability: %s, %lld particles, %lld springs\nomega_max at rest = %.10g "
                           "(2 / omega_max = %.6g)\n\n%-20s %10s %14s %14s %10s\n",
                           s.network.source.c_str(), (long long)base.model.particleCount(),
                           (long long)base.model.springCount(), omega_max, 2 / omega_max, "scheme", "Omega_crit",
                           "dt theory", "dt measured", "ratio"));
    const std::string csv = measuredLimits(s, base, omega_max);
    const std::string sweep_csv = stiffnessSweep(s);

    int rank = 0;
    MPI_Comm_rank(PETSC_COMM_WORLD, &rank);
    beam::agreeOn(PETSC_COMM_WORLD, [&] { // rank 0 writes: its failure ends every rank at once
      if (rank != 0) return;
      beam::writeFileAtomically(s.dir + "/critical_steps.csv", csv);
      beam::writeFileAtomically(s.dir + "/stiffness_sweep.csv", sweep_csv);
      beam::runPlotScript("plot_mass_spring_stability.py", std::vector<std::string>{s.dir});
    });
    return 0;
  });
}
