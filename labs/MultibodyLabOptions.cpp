#include "labs/MultibodyLabOptions.hpp"

#include <strings.h>

#include "common/Options.hpp"
#include "solvers/TimeScheme.hpp"

namespace beam {

MechanismOptions readMechanismOptions(MPI_Comm comm, bool stabilization) {
  MechanismOptions o;
  std::string model = "pendulum";
  PetscInt links = 10;
  readOptions(comm, "Mechanism", "", [&](OptionReader &r) {
    model = r.text("-model", ("Built-in mechanism (" + multibody::multibodyModelNames() + ") or a model file FILE.json").c_str(),
                   model);
    if (model.empty()) r.fail("-model: empty; accepted: " + multibody::multibodyModelNames());
    links = r.integer("-links", "Number of links of -model chain", links, 1, 100000);
    if (r.given("-links") && strcasecmp(model.c_str(), "chain") != 0) // read and ignored until 2026-11-27
      r.fail("-links: given with -model " + model + "; accepted: -links with -model chain");
    // Every -model given must be a mechanism: PETSc keeps the last, so `-model blob -model chain` ran the
    // chain (exit 0) until 2026-12-01. The last one is loaded below.
    r.checkEachGiven("-model", [&](const std::string &given) {
      if (given == model) return std::string();
      try {
        (void)multibody::loadModel(given, int(links));
      } catch (const Error &e) {
        return std::string(e.what());
      }
      return std::string();
    });
    if (!stabilization) return; // the lab sets its own (then -baumgarte_* and -projection are unknown options)
    // Up to 1e100, so that omega^2 and 2 xi omega are finite numbers (1e300 made omega^2 inf: the option's
    // value, not the run, was at fault). Any omega much above 2/dt still makes the explicit schemes
    // diverge at once (exit 3, a run that diverges), as it should.
    o.baumgarte.xi = r.real("-baumgarte_xi", "Baumgarte damping ratio xi in W = -2 xi omega gdot - omega^2 g", o.baumgarte.xi,
                            Bounds::between(0, 1e100, "a real in [0, 1e100]"));
    o.baumgarte.omega = r.real("-baumgarte_omega", "Baumgarte frequency omega (1/s; 0 turns the stabilization off)",
                               o.baumgarte.omega, Bounds::between(0, 1e100, "a real in [0, 1e100]"));
    o.projection = r.flag("-projection", "Project positions and velocities onto the constraints after each step",
                          o.projection);
  });
  o.description = multibody::loadModel(model, int(links));
  return o;
}

MultibodyLabOptions readMultibodyLabOptions(MPI_Comm comm) {
  MultibodyLabOptions o;
  o.run.dt = 1e-3;
  o.run.T = 2;
  o.output.dir = "out/multibody";
  agreeOn(comm, [&] {
    o.mechanism = readMechanismOptions(comm);
    o.scheme = readModelRunOptions(comm, o.run, o.output, o.scheme, false, schemesServing(false, false));
  });
  o.run.identity = {{"lab", "multibody"}};
  return o;
}

} // namespace beam
