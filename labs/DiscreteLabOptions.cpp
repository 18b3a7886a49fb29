#include "labs/DiscreteLabOptions.hpp"

#include "common/Options.hpp"
#include "labs/BeamLabOptions.hpp"

namespace beam {

bool DiscreteSource::given() const {
  return !system.empty() || !files.M.empty() || !files.K.empty() || !files.C.empty() || !files.F.empty() ||
         !files.q0.empty() || !files.v0.empty();
}

DiscreteSource readDiscreteSourceOptions(MPI_Comm comm, const std::string &default_system, bool motion) {
  DiscreteSource s;
  readOptions(comm, "Discrete system", "", [&](OptionReader &r) {
    bool named = false;
    const std::string help = default_system.empty() ? "Built-in system (reference 002); without it and -M/-K the beam"
                                                    : "Built-in system (reference 002); default " + default_system + " without -M/-K";
    const int which = r.choice("-system", help.c_str(),
                               {"two_dof", "fifteen_dof"}, 0, "system");
    named = r.given("-system");
    DiscreteFiles &f = s.files;
    f.M = r.path("-M", "Mass matrix, Matrix Market (symmetric positive definite)");
    f.K = r.path("-K", "Stiffness matrix, Matrix Market (symmetric)");
    f.C = r.path("-C", "Damping matrix, Matrix Market (symmetric; default none)");
    f.F = r.path("-F", "Load vector f0, Matrix Market N x 1 (default 0)");
    if (motion) {
      f.q0 = r.path("-q0", "Initial displacement, Matrix Market N x 1 (default 0)");
      f.v0 = r.path("-v0", "Initial velocity, Matrix Market N x 1 (default 0)");
      f.load_history = r.path("-load_history", "Matrix Market N x S array of load samples (replaces f0 g(t))");
      f.load_dt = r.real("-load_dt", "Sample spacing of -load_history", 0, Bounds::above(0));
    }
    if (!r.error().empty()) return;
    if (motion && r.given("-load_dt") && f.load_history.empty()) // it was read and ignored, exit 0
      return r.fail("-load_dt: given without -load_history; accepted: -load_dt with -load_history only");
    const bool from_files = s.given();
    if (named && from_files)
      return r.fail("-system and matrix files (-M, -K, -C, -F, -q0, -v0) both given; accepted: one of them");
    if (named) s.system = which == 1 ? "fifteen_dof" : "two_dof";
    else if (!from_files) s.system = default_system;
  });
  return s;
}

DiscreteModel discreteModel(const DiscreteSource &source, const std::function<double(double)> &g) {
  DiscreteModel model;
  if (!source.system.empty()) {
    model = builtinModel(source.system);
    if (!source.files.load_history.empty())
      model.history = readLoadHistory(source.files.load_history, source.files.load_dt, model.size());
  } else {
    model = readModel(source.files);
  }
  if (g) model.load_factor = g;
  return model;
}

DiscreteLabOptions readDiscreteLabOptions(MPI_Comm comm) {
  DiscreteLabOptions o;
  o.run.dt = 0.01;
  o.run.T = 10;
  agreeOn(comm, [&] {
    o.source = readDiscreteSourceOptions(comm, "two_dof");
    o.load_factor = readLoadInTimeOptions(comm, o.load_identity, !o.source.files.load_history.empty(), "-load_history");
    // f = f0 g(t): from files without -F, f0 = 0 and the load asked for never acted (exit 0, work 0).
    if (o.load_factor && o.source.system.empty() && o.source.files.F.empty())
      throw inputError(std::string(o.load_identity.curve_file.empty() ? "-load_harmonic" : "-load_curve") +
                       ": given without -F (the load is f0 g(t), and f0 is 0 without it); accepted: -F with -load_curve or "
                       "-load_harmonic, or -load_history for a load given in full");
    o.scheme = readSchemeOption(comm, o.scheme);
    readRunOptions(comm, o.run);
    readLinearSolverOption(comm, o.run);
    OutputOptions out;
    out.dir = o.output_dir;
    readOutputOptions(comm, out, {"Write a trajectory.csv row every N steps (>= 1)", 1, false});
    readCheckpointOptions(comm, o.run, out, true);
    o.output_dir = out.dir;
    o.quiet = out.quiet;
    o.save_final = out.save_final;
    o.snapshot_every = out.snapshot_every;
  });
  agreeOnLoadCurve(comm, o.load_identity);
  return o;
}

DiscreteModel discreteModel(const DiscreteLabOptions &o) {
  DiscreteModel model;
  // Files are read on every rank; one that is bad on some ranks only must end all of them.
  agreeOn(PETSC_COMM_WORLD, [&] { model = discreteModel(o.source, o.load_factor); });
  model.load_identity = o.load_identity.text;
  model.load_factor_bound = o.load_identity.bound;
  return model;
}

} // namespace beam
