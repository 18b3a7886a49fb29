// Natural modes of the beam: the lowest k solutions of S phi = omega^2 M phi on the free DOFs (SLEPc,
// shift-and-invert at 0, options -modes_eps_*, -modes_st_*), checked against Euler-Bernoulli beam
// theory, omega_n = (beta_n L)^2 sqrt(E I / (rho A L^4)).
//
// Beam: the beam labs' mesh, material and operator options (default: the course's 20x5 Q4 beam, left
// edge clamped); loads, damping and time-stepping options are refused (modes do not depend on them).
// Writes <output_dir>/modes.csv (mode,omega,frequency), modes_<k>.vtu (displacement = mode shape,
// scaled to a largest nodal |u| of 1) and modes.pvd (the mode number as the time).
// Expect: the ratio Q4/EB of the first bending modes tends to 1 as a slender beam's mesh is refined
// (from above: the bilinear quad is too stiff in bending); for a stocky beam like the default
// (L/H = 4) shear deformation and rotary inertia, absent from Euler-Bernoulli, put it below 1.
#include "common/Slepc.hpp"
#include "common/Warnings.hpp"
#include "labs/BeamLab.hpp"
#include "labs/ModalLab.hpp"
#include "common/Options.hpp"
#include "output/FileUtil.hpp"

static const char help[] = "Natural frequencies and mode shapes of the beam, compared with Euler-Bernoulli.\n";

int main(int argc, char **argv) {
  beam::SlepcSession session(&argc, &argv, help);
  return beam::runMain(session, "modes", [&] {
    const auto options = beam::readBeamLabOptions(PETSC_COMM_WORLD, "modes", beam::BeamLabKind::Modes);
    const auto modes = beam::readModesOptions(PETSC_COMM_WORLD);
    const beam::Beam beam(options.beam, PETSC_COMM_WORLD);
    const beam::SecondOrderSystem system = beam::modalSystem(beam, options);
    const beam::FreeVibration problem(system, beam.frozenDofs());
    beam::ModalSolver solver(problem, {beam::SpectrumEnd::Smallest, modes.modes, 1e-10, 0, "modes_", "-modes"});
    if (beam::finishOptions(PETSC_COMM_WORLD)) return 0; // -help: the eigensolver has listed its options
    beam::prepareOutputDirectory(options.output_dir);
    beam::releaseWarnings(); // the solve starts (common/Warnings.hpp)
    solver.solve();
    // An earlier run's series (50 modes of another beam beside a new run's 3, exit 0) goes before this
    // run's is written; only that (a time lab's checkpoint in the same directory stays), and only once the
    // solve has succeeded (a solve refused or failed removed it, leaving its modes.csv).
    beam::clearPreviousRun(options.output_dir, "modes", false);

    const std::vector<beam::PVec> shapes = beam::reportModes(options.beam, system, solver);
    beam::writeModes(beam, solver.omegas(), shapes, options.output_dir);
    BEAM_PETSC(PetscPrintf(PETSC_COMM_WORLD, "wrote %s/modes.csv, %s/modes.pvd and %d VTU files\n",
                           options.output_dir.c_str(), options.output_dir.c_str(), modes.modes));
    return 0;
  });
}
