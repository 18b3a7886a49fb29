// Natural modes of the beam: the lowest k solutions of S phi = omega^2 M phi on the free DOFs (SLEPc,
// shift-and-invert at 0, options -modes_eps_*, -modes_st_*), checked against Euler-Bernoulli beam
// theory, omega_n = (beta_n L)^2 sqrt(E I / (rho A L^4)).
//
// Beam: the scheme labs' beam and options (default: the course's 20x5 Q4 beam, left edge clamped).
// Writes <output_dir>/modes.csv (mode,omega,frequency), modes_<k>.vtu (displacement = mode shape,
// scaled to a largest nodal |u| of 1) and modes.pvd (the mode number as the time).
// Expect: the ratio Q4/EB of the first bending modes tends to 1 as a slender beam's mesh is refined
// (from above: the bilinear quad is too stiff in bending); for a stocky beam like the default
// (L/H = 4) shear deformation and rotary inertia, absent from Euler-Bernoulli, put it below 1.
#include <cmath>

#include "common/Slepc.hpp"
#include "labs/BeamLab.hpp"
#include "labs/ModalLab.hpp"
#include "labs/OptionParsing.hpp"
#include "output/FileUtil.hpp"

static const char help[] = "Natural frequencies and mode shapes of the beam, compared with Euler-Bernoulli.\n";

int main(int argc, char **argv) {
  beam::SlepcSession session(&argc, &argv, help);
  return beam::runMain(session, "modes", [&] {
    const auto options = beam::readBeamLabOptions(PETSC_COMM_WORLD, "modes");
    const auto modes = beam::readModesOptions(PETSC_COMM_WORLD);
    if (options.help) return 0;
    const beam::Beam beam(options.beam, PETSC_COMM_WORLD);
    const beam::SecondOrderSystem system = beam::beamSystem(beam);
    const beam::FreeVibration problem(system, beam.frozenDofs());
    beam::ModalSolver solver(problem, {beam::SpectrumEnd::Smallest, modes.modes, 1e-10, 0, "modes_"});
    beam::rejectUnusedOptions();
    beam::prepareOutputDirectory(options.output_dir);
    solver.solve();

    const auto eb = beam::eulerBernoulliOmegas(options.beam, 3);
    std::vector<beam::PVec> shapes;
    int bending = 0;
    PetscPrintf(PETSC_COMM_WORLD, "%-5s %14s %14s %9s  %s\n", "mode", "omega", "frequency", "vertical", "Q4/EB");
    for (int k = 0; k < modes.modes; ++k) {
      shapes.push_back(solver.shape(k));
      const double w = solver.omegas()[size_t(k)], share = beam::verticalShare(system, shapes.back());
      PetscPrintf(PETSC_COMM_WORLD, "%-5d %14.8g %14.8g %9.3f  ", k + 1, w, w / (2 * M_PI), share);
      if (share > 0.5 && bending < int(eb.size())) { // a bending mode: compare with the next EB frequency
        const double reference = eb[size_t(bending++)];
        PetscPrintf(PETSC_COMM_WORLD, "bending %d: %.5f (EB omega = %.8g)\n", bending, w / reference, reference);
      } else {
        PetscPrintf(PETSC_COMM_WORLD, "%s\n", share > 0.5 ? "bending" : "axial/in-plane");
      }
    }
    PetscPrintf(PETSC_COMM_WORLD, "L/H = %g, supports %s (Euler-Bernoulli neglects shear and rotary inertia)\n",
                options.beam.mx * options.beam.hx / (options.beam.my * options.beam.hy),
                beam::supportsName(options.beam.supports));
    beam::writeModes(beam, solver.omegas(), shapes, options.output_dir);
    PetscPrintf(PETSC_COMM_WORLD, "wrote %s/modes.csv, %s/modes.pvd and %d VTU files\n", options.output_dir.c_str(),
                options.output_dir.c_str(), modes.modes);
    return 0;
  });
}
