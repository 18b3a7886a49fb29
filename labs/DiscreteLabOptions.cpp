#include "labs/DiscreteLabOptions.hpp"

#include <map>
#include <vector>

#include "labs/OptionParsing.hpp"

namespace beam {
namespace {

using Entry = OptionEntry;

} // namespace

DiscreteLabOptions readDiscreteLabOptions(MPI_Comm comm) {
  DiscreteLabOptions o;
  o.run.dt = 0.01;
  o.run.T = 10;
  std::string schemes;
  for (const auto &n : schemeNames()) schemes += (schemes.empty() ? "" : ", ") + n;
  const std::string scheme_help = "Time scheme: " + schemes;
  std::vector<Entry> entries = {
      {"-system", "Built-in system: two_dof or fifteen_dof (reference 002); default two_dof without -M/-K", ""},
      {"-M", "Mass matrix, Matrix Market (symmetric positive definite)", ""},
      {"-K", "Stiffness matrix, Matrix Market (symmetric)", ""},
      {"-C", "Damping matrix, Matrix Market (symmetric; default none)", ""},
      {"-F", "Load vector f0, Matrix Market N x 1 (default 0)", ""},
      {"-q0", "Initial displacement, Matrix Market N x 1 (default 0)", ""},
      {"-v0", "Initial velocity, Matrix Market N x 1 (default 0)", ""},
      {"-load_curve", "CSV t,g: f(t) = f0 g(t), piecewise linear, constant beyond the ends", ""},
      {"-load_harmonic", "A,omega: f(t) = f0 A sin(omega t)", ""},
      {"-load_history", "Matrix Market N x S array of load samples (replaces f0 g(t))", ""},
      {"-load_dt", "Sample spacing of -load_history (> 0)", ""},
      {"-scheme", scheme_help.c_str(), o.scheme},
      {"-dt", "Time step (> 0)", "0.01"},
      {"-T", "Total time (>= 0)", "10"},
      {"-divergence_factor", "Stop when |E - E0| exceeds this many energy scales (> 0)", "1e6"},
      {"-linear_solver", "direct (Cholesky, factored once) or cg", "direct"},
      {"-snapshot_every", "Write a trajectory.csv row every N steps (>= 1)", "10"},
      {"-output_dir", "Directory for energy.csv and trajectory.csv", o.output_dir},
      {"-save_final", "Matrix Market file for the final state (N x 2 array: q, v)", ""},
      {"-checkpoint_every", "Save the full state every N steps to <output_dir>/checkpoint.bin (0 = only at the end and on SIGINT/SIGTERM)", "0"},
      {"-restart", "Continue the run whose output directory is DIR from its checkpoint (writes into DIR)", ""},
  };
  PetscBool help = PETSC_FALSE;
  BEAM_PETSC(PetscOptionsHasHelp(nullptr, &help));
  readOptionBlock(comm, "Options of the discrete_system lab", entries);
  o.help = help;
  if (o.help) return o;
  std::map<std::string, std::string> v;
  for (const auto &e : entries) v[e.name] = e.value;

  o.system = v["-system"];
  o.files = {v["-M"], v["-K"], v["-C"], v["-F"], v["-q0"], v["-v0"], v["-load_history"], 0.0};
  const bool from_files = !o.files.M.empty() || !o.files.K.empty() || !o.files.C.empty() || !o.files.F.empty() ||
                          !o.files.q0.empty() || !o.files.v0.empty();
  if (!o.system.empty() && from_files)
    throw inputError("-system and matrix files (-M, -K, -C, -F, -q0, -v0) both given; accepted: one of them");
  if (o.system.empty() && !from_files) o.system = "two_dof";
  if (!v["-load_dt"].empty()) o.files.load_dt = parseReal("-load_dt", v["-load_dt"]);
  if (!v["-load_dt"].empty() && !(o.files.load_dt > 0))
    throw inputError("-load_dt: " + v["-load_dt"] + " is out of range; accepted: a real > 0");
  o.load_curve = v["-load_curve"];
  o.load_harmonic = v["-load_harmonic"];
  const int load_kinds = !o.load_curve.empty() + !o.load_harmonic.empty() + !o.files.load_history.empty();
  if (load_kinds > 1)
    throw inputError("-load_curve, -load_harmonic, -load_history: more than one given; accepted: at most one");
  o.scheme = v["-scheme"];
  (void)makeScheme(o.scheme); // unknown -> input error listing the schemes
  o.run.dt = parseReal("-dt", v["-dt"]);
  if (!(o.run.dt > 0)) throw inputError("-dt: " + v["-dt"] + " is out of range; accepted: a real > 0");
  o.run.T = parseReal("-T", v["-T"]);
  if (!(o.run.T >= 0)) throw inputError("-T: " + v["-T"] + " is out of range; accepted: a real >= 0");
  if (o.run.T / o.run.dt > 1e9) throw inputError("-T/-dt: more than 1e9 steps; accepted: T/dt <= 1e9");
  o.run.divergence_factor = parseReal("-divergence_factor", v["-divergence_factor"]);
  if (!(o.run.divergence_factor > 0))
    throw inputError("-divergence_factor: " + v["-divergence_factor"] + " is out of range; accepted: a real > 0");
  o.run.solver = parseLinearSolver(v["-linear_solver"]);
  const long every = parseInteger("-snapshot_every", v["-snapshot_every"]);
  if (every < 1 || every > 1000000000L)
    throw inputError("-snapshot_every: " + v["-snapshot_every"] + " is out of range; accepted: an integer >= 1");
  o.snapshot_every = int(every);
  o.output_dir = v["-output_dir"];
  if (o.output_dir.empty()) throw inputError("-output_dir: empty; accepted: a directory path");
  o.save_final = v["-save_final"];
  applyCheckpointOptions(entries, o.run, o.output_dir);
  return o;
}

DiscreteModel discreteModel(const DiscreteLabOptions &o) {
  DiscreteModel model;
  if (!o.system.empty()) {
    model = builtinModel(o.system);
    if (!o.files.load_history.empty()) {
      model.history = readLoadHistory(o.files.load_history, o.files.load_dt, model.size());
    }
  } else {
    model = readModel(o.files);
  }
  if (!o.load_curve.empty()) model.load_factor = LoadCurve::read(o.load_curve);
  if (!o.load_harmonic.empty()) {
    const auto ah = parseRealList("-load_harmonic", o.load_harmonic);
    if (ah.size() != 2)
      throw inputError("-load_harmonic: '" + o.load_harmonic + "' has " + std::to_string(ah.size()) +
                       " numbers; accepted: amplitude,omega");
    model.load_factor = harmonicLoad(ah[0], ah[1]);
  }
  return model;
}

} // namespace beam
