// Stability of the time schemes on the beam (lab "Równania ruchu", reference 003: "for which dt is the
// scheme stable?"; method of reference 002: the amplification matrix A(h) of each scheme, eq. (6)-(7),
// and its spectral radius against Omega = omega h, eq. (12)-(15)).
//
// System: the scheme labs' beam and options (default: the course's 20x5 Q4 beam, left edge clamped), or
// a discrete system as in discrete_system (-system two_dof|fifteen_dof, or -M -K [-C] files), which has
// no frozen DOFs.
// 1. omega_max and omega_min of S phi = omega^2 M phi on the free DOFs (SLEPc: Krylov-Schur, largest
//    magnitude; shift-and-invert at 0). Options -omega_max_eps_*, -omega_min_eps_*, -omega_min_st_*.
// 2. critical_dt <scheme> = Omega_crit / omega_max, Omega_crit from each registered scheme's
//    amplification matrix (measured generically on one oscillator).
// 3. measured_dt <scheme>: bisection on short runs of the beam from a rough initial displacement.
// 4. spectral_radius.csv / .png: rho(A) against Omega in [0, -omega_range], damping ratio -xi.
// Expect on the default beam: omega_max = 42.2, omega_min = 0.123; almost explicit critical 0 (rho =
// sqrt(1 + Omega^2) > 1), semi-implicit 2 / omega_max = 0.0474 and measured within 1e-4 of it, fully
// implicit and midpoint inf (rho = 1/sqrt(1 + Omega^2) and 1).
#include <memory>
#include <optional>

#include "common/Exact.hpp"
#include "common/Warnings.hpp"
#include "common/Options.hpp"
#include "common/Slepc.hpp"
#include "labs/BeamLab.hpp"
#include "labs/DiscreteLabOptions.hpp"
#include "labs/ModalLab.hpp"
#include "output/FileUtil.hpp"
#include "solvers/Energy.hpp"

static const char help[] = "Critical time steps of every scheme on the beam or a discrete system, in theory and "
                           "measured, and the spectral-radius chart of their amplification matrices.\n";

namespace {

// The analysed system: the beam of the beam options, or a discrete system.
struct AnalysedSystem {
  std::optional<beam::Beam> beam;
  beam::SecondOrderSystem system;
  std::vector<PetscInt> frozen;
  std::string label, output_dir;
  beam::LinearSolverKind solver = beam::LinearSolverKind::Direct;
};

// A discrete system when -system or matrix files are given (then only its own sets are read, so the
// beam's options are refused as unknown); otherwise the beam.
std::unique_ptr<AnalysedSystem> analysedSystem(MPI_Comm comm) {
  auto a = std::make_unique<AnalysedSystem>();
  beam::DiscreteSource source;
  // The analysis takes M, K, C (and F for the trials' energy scale): -q0, -v0, -load_history are unknown.
  beam::agreeOn(comm, [&] { source = beam::readDiscreteSourceOptions(comm, "", false); });
  if (!source.given()) {
    const auto options = beam::readBeamLabOptions(comm, "stability", beam::BeamLabKind::Stability);
    a->beam.emplace(options.beam, comm);
    a->system = beam::modalSystem(*a->beam, options);
    a->frozen = a->beam->frozenDofs();
    a->label = "beam " + std::to_string(options.beam.mx) + "x" + std::to_string(options.beam.my);
    a->output_dir = options.output_dir;
    a->solver = options.run.solver;
    return a;
  }
  beam::RunSettings run;
  beam::OutputOptions output;
  output.dir = "out/stability";
  beam::DiscreteModel model;
  beam::agreeOn(comm, [&] {
    beam::readLinearSolverOption(comm, run);
    beam::readOutputOptions(comm, output, {nullptr, 0, false});
    model = beam::discreteModel(source, {});
    // The lowest frequency's shift-and-invert solve at 0 needs K invertible (CHOLMOD failed, exit 3).
    // Beyond 1e100 between K's diagonal entries the eigensolvers' norms overflow (diag(1e-100, 1e100)
    // solves; diag(1e-200, 1e200) gave a NaN backward error or a failed CHOLMOD factorization, exit 3).
    const Eigen::VectorXd diagonal = model.K.diagonal();
    if (diagonal.size() > 0 && diagonal.minCoeff() > 0 && diagonal.maxCoeff() > 1e100 * diagonal.minCoeff())
      throw beam::inputError("-K: '" + source.files.K + "' has diagonal entries from " + beam::gText(diagonal.minCoeff()) +
                             " to " + beam::gText(diagonal.maxCoeff()) + ", more than 1e100 apart (the eigensolvers' norms "
                             "overflow); accepted here: a K whose diagonal entries lie within 1e100 of each other");
    if (!model.stiffness_invertible)
      throw beam::inputError("-K: '" + source.files.K + "' is singular to working precision (rigid-body motions, "
                             "or a condition number above 1e15: its lowest frequency is 0 or lost in round-off); "
                             "accepted here: a positive definite K");
  });
  // Files per rank that differ were mixed row by row (omega_max of neither system, exit 0).
  (void)beam::agreeOnDiscreteData(comm, model);
  a->system = beam::toSecondOrderSystem(model, comm);
  a->label = model.name;
  a->output_dir = output.dir;
  a->solver = run.solver;
  return a;
}

} // namespace

int main(int argc, char **argv) {
  beam::SlepcSession session(&argc, &argv, help);
  return beam::runMain(session, "stability", [&] {
    const auto analysed = analysedSystem(PETSC_COMM_WORLD);
    const auto stability = beam::readStabilityOptions(PETSC_COMM_WORLD);
    const beam::SecondOrderSystem &system = analysed->system;
    const beam::FreeVibration problem(system, analysed->frozen);
    beam::ModalSolver highest(problem, {beam::SpectrumEnd::Largest, 1, 1e-10, 0, "omega_max_"});
    beam::ModalSolver lowest(problem, {beam::SpectrumEnd::Smallest, 1, 1e-10, 0, "omega_min_"});
    beam::readSchemeOptions(beam::schemeNames(), stability.measure.steps > 0, system, analysed->solver);
    auto settings = stability;
    settings.measure.solver = analysed->solver; // the trial runs use the lab's -linear_solver
    // The trials' energy scale, solved once and before the options are judged, so -static_* are read
    // (and listed by -help, as in the scheme labs). A refused -static_* option is reported once the
    // options are judged (an unknown one first), before anything is written (it was left to the trial
    // runs, after the analysis was printed, until 2026-11-30); a failed solve is left to the trial runs,
    // which meet it again after the header.
    std::optional<beam::Error> refused;
    if (settings.measure.steps > 0) try {
        settings.measure.compliance = beam::staticCompliance(system, settings.measure.solver);
      } catch (const beam::Error &e) {
        if (e.exitCode() == beam::kExitBadInput) refused = e;
      }
    const bool help = beam::finishOptions(PETSC_COMM_WORLD); // -help: eigensolvers and schemes have listed theirs
    if (refused) throw *refused;
    if (help) return 0;
    const beam::SpectralRadiusTable table =
        beam::spectralRadiusTable(beam::schemeNames(), stability.omega_range, stability.omega_points, stability.xi);
    beam::prepareOutputDirectory(analysed->output_dir);
    beam::releaseWarnings(); // the analysis starts (common/Warnings.hpp)

    highest.solve();
    lowest.solve();
    const double omega_max = highest.omegas().front();
    // Refused where a damping ratio overflows at omega_max (-rayleigh_beta 5e306), so before the chart goes.
    const auto theory = beam::theoreticalSteps(system, beam::schemeNames(), omega_max);
    // After the solves, which refuse eigensolver options that retarget them (exit 2), and the theory: the
    // earlier run's chart goes only once this run goes on (a stopped run left it, read as its own).
    beam::removeEarlierResults(analysed->output_dir, {"spectral_radius.csv", "spectral_radius.png"});
    PetscInt dofs = 0;
    BEAM_PETSC(MatGetSize(system.mass, &dofs, nullptr));
    BEAM_PETSC(PetscPrintf(PETSC_COMM_WORLD, "%s, %lld free DOFs of %lld\nomega_max = %.10g\nomega_min = %.10g\n",
                           analysed->label.c_str(), (long long)problem.freeCount(), (long long)dofs, omega_max,
                           lowest.omegas().front()));
    beam::reportCriticalSteps(system, analysed->frozen, beam::schemeNames(), theory, settings);
    beam::writeSpectralRadiusChart(PETSC_COMM_WORLD, table, analysed->output_dir);
    return 0;
  });
}
