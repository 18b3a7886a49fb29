// Lab "multibody" (reference 001, eqs. 6-12): rigid bodies with quaternion coordinates q = (x, p),
// joints as constraints g(q) = 0 with Lagrange multipliers and Baumgarte's W = -2 xi omega gdot -
// omega^2 g, the augmented system [M G'; G 0][qdd; lambda] = [F - J; L + W] solved at every
// acceleration, any scheme that serves a nonlinear model (rk4, semi_implicit_euler, verlet, ...).
// Default case: IFToMM A01, the pendulum (1 kg on a massless 1 m bar) released horizontal.
// Expect: energy conserved to the scheme's order; constraint violations held near zero by Baumgarte
// (or to round-off with -projection).
// Writes <output_dir>/energy.csv (with position_violation, velocity_violation, quaternion_norm_error),
// multibody_*.vtp + multibody.pvd; -save_final FILE: body,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz.
#include "common/Exact.hpp"
#include "common/Options.hpp"
#include "labs/ModelLab.hpp"
#include "labs/MultibodyLabOptions.hpp"
#include "solvers/TimeLoop.hpp"

static const char help[] = "Rigid multibody systems (reference 001): any model file, any scheme for nonlinear models.\n";

int main(int argc, char **argv) {
  beam::PetscSession session(&argc, &argv, help);
  return beam::runMain(session, "multibody", [&] {
    const beam::MultibodyLabOptions o = beam::readMultibodyLabOptions(PETSC_COMM_WORLD);
    const beam::multibody::MultibodyModel model(o.mechanism.description, PETSC_COMM_WORLD, o.mechanism.baumgarte,
                                                o.mechanism.projection);
    const auto scheme = beam::makeScheme(o.scheme);
    beam::TimeLoop loop(*scheme, model, o.run);
    if (beam::finishOptions(PETSC_COMM_WORLD)) return 0;

    beam::PVec x = model.createVector(), v = model.createVector();
    model.initialState(x, v);
    beam::LabOutput output = beam::labOutput(o.output, "multibody", beam::multibodyEnergyColumns());
    // Printed when the run starts: before a refused restart or output directory it read as a run that went on.
    output.header = "multibody: " + o.mechanism.description.source + ", " + std::to_string(model.bodyCount()) + " bodies, " +
                    std::to_string(model.jointRowCount()) + " joint rows, " + o.scheme + ", dt = " + beam::gText(o.run.dt) +
                    ", " + std::to_string(loop.steps()) + " steps, Baumgarte xi = " + beam::gText(o.mechanism.baumgarte.xi) +
                    ", omega = " + beam::gText(o.mechanism.baumgarte.omega) + (o.mechanism.projection ? ", projection" : "");
    beam::RunResult result = beam::runModel(loop, model, x, v, output);
    beam::saveFinalState(PETSC_COMM_WORLD, o.output.save_final, result, [&] { model.saveFinal(x, v, o.output.save_final); });
    return beam::reportRun(PETSC_COMM_WORLD, result, o.output.dir);
  });
}
