// Lab "mass-spring" (reference 004, a student report): particles, linear springs with dashpots,
// gravity and penalty contact with planes,
//   m_i x_i'' = sum over springs k (l - l0) d + dashpots + m_i g + contact (-k_c s - b_c v.n) n,
// integrated by any scheme that serves a nonlinear model: the report's explicit Euler (in fact the
// symplectic one), forward_euler, implicit_euler (Newton by PETSc SNES, options -ms_snes_*, -ms_ksp_*,
// -ms_pc_*), verlet, implicit_midpoint, rk4.
// Default case: the report's falling disk (rings of particles in the x-z plane) dropped on the ground.
// Expect: explicit and symplectic schemes conserve E = kinetic + gravity + elastic + contact +
// dissipated up to O(dt) oscillations while stable; implicit Euler loses energy at every step.
// Writes <output_dir>/energy.csv, mass_spring_*.vtp + mass_spring.pvd, trajectory.csv with -track;
// -write_network DIR writes the network as DIR/particles.csv and DIR/springs.csv instead of running.
#include <fstream>

#include "MassSpring/MassSpringModel.hpp"
#include "MassSpring/Writers.hpp"
#include "common/Agree.hpp"
#include "common/Error.hpp"
#include "common/Exact.hpp"
#include "common/Options.hpp"
#include "labs/MassSpringLabOptions.hpp"
#include "labs/ModelLab.hpp"
#include "output/FileUtil.hpp"
#include "output/PointTrajectory.hpp"
#include "solvers/TimeLoop.hpp"

// -write_network DIR: the network as the CSV files -particles/-springs read, written by rank 0; no run.
static int writeNetwork(const beam::Network &network, const std::string &dir) {
  if (beam::finishOptions(PETSC_COMM_WORLD)) return 0;
  beam::prepareOptionDirectory("-write_network", dir);
  int rank = 0;
  MPI_Comm_rank(PETSC_COMM_WORLD, &rank);
  beam::agreeOn(PETSC_COMM_WORLD, [&] {
    if (rank != 0) return;
    beam::writeFileAtomically(dir + "/particles.csv", beam::particlesCsv(network));
    try {
      beam::writeFileAtomically(dir + "/springs.csv", beam::springsCsv(network));
    } catch (...) {
      // Not a new particles.csv beside an older springs.csv: the pair read back as another network.
      std::remove((dir + "/particles.csv").c_str());
      throw;
    }
  });
  BEAM_PETSC(PetscPrintf(PETSC_COMM_WORLD, "mass_spring: %s, %zu particles, %zu springs written to %s/particles.csv, %s/springs.csv\n",
                         network.source.c_str(), network.particles.size(), network.springs.size(), dir.c_str(), dir.c_str()));
  // The files hold particles and springs only: gravity, planes and point loads (beam_lattice's) are
  // options of the run that reads them back, and point loads have no option. The note gives the
  // options that restore the model's environment (the disk read back fell through its missing floor).
  const beam::Vec3 g = network.gravity;
  if (!network.planes.empty() || !(g[0] == 0 && g[1] == 0 && g[2] == -9.81)) {
    std::string planes;
    for (const auto &p : network.planes)
      planes += (planes.empty() ? " -plane " : ",") +
                beam::joinedDecimals({p.point[0], p.point[1], p.point[2], p.normal[0], p.normal[1], p.normal[2]});
    BEAM_PETSC(PetscPrintf(PETSC_COMM_WORLD, "mass_spring: note: gravity and planes are options of a run, not in these "
                           "files; this model's are -gravity %s%s\n",
                           beam::joinedDecimals({g[0], g[1], g[2]}).c_str(), planes.c_str()));
  }
  if (!network.loads.empty())
    BEAM_PETSC(PetscPrintf(PETSC_COMM_WORLD, "mass_spring: note: the network's %zu point load(s) are not in these files (the CSV "
                           "formats have no loads); a run reading them back has none\n", network.loads.size()));
  return 0;
}

static const char help[] = "Mass-spring networks (reference 004): any network, any scheme for nonlinear models.\n";

int main(int argc, char **argv) {
  beam::PetscSession session(&argc, &argv, help);
  return beam::runMain(session, "mass_spring", [&] {
    const beam::MassSpringLabOptions o = beam::readMassSpringLabOptions(PETSC_COMM_WORLD);
    if (!o.write_network.empty()) return writeNetwork(o.network, o.write_network);
    const beam::MassSpringModel model(o.network, PETSC_COMM_WORLD);
    const auto scheme = beam::makeScheme(o.scheme);
    beam::TimeLoop loop(*scheme, model, o.run);
    beam::PVec x = model.createVector(), v = model.createVector();
    model.initialState(x, v);
    // -help: every solver has listed its options, Newton's inner ones after its set-up
    if (beam::finishOptions(PETSC_COMM_WORLD, [&] { loop.prepareStart(x, v); })) return 0;
    beam::LabOutput output = beam::labOutput(o.output, "mass_spring",
                                             {"kinetic", "gravity", "elastic", "contact", "dissipated", "total"});
    // Printed when the run starts: before a refused restart or output directory it read as a run that went on.
    output.header = "mass_spring: " + o.network.source + ", " + std::to_string(model.particleCount()) + " particles, " +
                    std::to_string(model.springCount()) + " springs, " + o.scheme + ", dt = " + beam::gText(o.run.dt) +
                    ", " + std::to_string(loop.steps()) + " steps";
    std::vector<beam::Monitor *> extra;
    std::unique_ptr<beam::PointTrajectory> track;
    if (!o.track.empty()) {
      track = std::make_unique<beam::PointTrajectory>(x, o.track, o.output.dir + "/trajectory.csv");
      extra.push_back(track.get());
    } else if (loop.restarts()) {
      // The run continued tracked particles: without -track its trajectory.csv stopped at the checkpoint
      // while the run went on (exit 0).
      beam::agreeOn(PETSC_COMM_WORLD, [&] {
        const std::string log = o.output.dir + "/trajectory.csv";
        if (std::ifstream(log))
          throw beam::inputError("-restart: '" + log + "' holds the -track rows of the run it continues; accepted: "
                                 "-restart with that run's -track list");
      });
    }
    beam::RunResult result = beam::runModel(loop, model, x, v, output, extra);
    beam::saveFinalState(PETSC_COMM_WORLD, o.output.save_final, result, [&] { model.saveFinal(x, v, o.output.save_final); });
    return beam::reportRun(PETSC_COMM_WORLD, result, o.output.dir);
  });
}
