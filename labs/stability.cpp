// Stability of the time schemes on the beam (lab "Równania ruchu", reference 003: "for which dt is the
// scheme stable?"; method of reference 002: the amplification matrix A(h) of each scheme, eq. (6)-(7),
// and its spectral radius against Omega = omega h, eq. (12)-(15)).
//
// Beam: the scheme labs' beam and options (default: the course's 20x5 Q4 beam, left edge clamped).
// 1. omega_max and omega_min of S phi = omega^2 M phi on the free DOFs (SLEPc: Krylov-Schur, largest
//    magnitude; shift-and-invert at 0). Options -omega_max_eps_*, -omega_min_eps_*, -omega_min_st_*.
// 2. critical_dt <scheme> = Omega_crit / omega_max, Omega_crit from each registered scheme's
//    amplification matrix (measured generically on one oscillator).
// 3. measured_dt <scheme>: bisection on short runs of the beam from a rough initial displacement.
// 4. spectral_radius.csv / .png: rho(A) against Omega in [0, -omega_range], damping ratio -xi.
// Expect on the default beam: omega_max = 42.2, omega_min = 0.123; almost explicit critical 0 (rho =
// sqrt(1 + Omega^2) > 1), semi-implicit 2 / omega_max = 0.0474 and measured within 1e-4 of it, fully
// implicit and midpoint inf (rho = 1/sqrt(1 + Omega^2) and 1).
#include "common/Slepc.hpp"
#include "labs/BeamLab.hpp"
#include "labs/ModalLab.hpp"
#include "labs/OptionParsing.hpp"
#include "output/FileUtil.hpp"

static const char help[] = "Critical time steps of every scheme on the beam, in theory and measured, and the "
                           "spectral-radius chart of their amplification matrices.\n";

int main(int argc, char **argv) {
  beam::SlepcSession session(&argc, &argv, help);
  return beam::runMain(session, "stability", [&] {
    const auto options = beam::readBeamLabOptions(PETSC_COMM_WORLD, "stability");
    const auto stability = beam::readStabilityOptions(PETSC_COMM_WORLD);
    if (options.help) return 0;
    const beam::Beam beam(options.beam, PETSC_COMM_WORLD);
    const beam::SecondOrderSystem system = beam::modalSystem(beam, options);
    const beam::FreeVibration problem(system, beam.frozenDofs());
    beam::ModalSolver highest(problem, {beam::SpectrumEnd::Largest, 1, 1e-10, 0, "omega_max_"});
    beam::ModalSolver lowest(problem, {beam::SpectrumEnd::Smallest, 1, 1e-10, 0, "omega_min_"});
    beam::readSchemeOptions(beam::schemeNames());
    beam::rejectUnusedOptions();
    beam::prepareOutputDirectory(options.output_dir);

    highest.solve();
    lowest.solve();
    const double omega_max = highest.omegas().front();
    BEAM_PETSC(PetscPrintf(PETSC_COMM_WORLD, "beam %dx%d, %lld free DOFs of %lld\nomega_max = %.10g\nomega_min = %.10g\n",
                           options.beam.mx, options.beam.my, (long long)problem.freeCount(),
                           (long long)beam.mesh().dofCount(), omega_max, lowest.omegas().front()));
    auto settings = stability;
    settings.measure.solver = options.run.solver; // the trial runs use the lab's -linear_solver
    beam::reportCriticalSteps(system, beam.frozenDofs(), beam::schemeNames(), omega_max, settings);
    beam::writeSpectralRadiusChart(PETSC_COMM_WORLD,
                                   beam::spectralRadiusTable(beam::schemeNames(), stability.omega_range,
                                                             stability.omega_points, stability.xi),
                                   options.output_dir);
    return 0;
  });
}
