#include "labs/BeamLabOptions.hpp"

#include <map>
#include <sstream>

#include "solvers/LoadInTime.hpp"
#include "labs/OptionParsing.hpp"

namespace beam {
namespace {

std::string str(double v) {
  std::ostringstream s;
  s << v;
  return s.str();
}

using Entry = OptionEntry;

} // namespace

BeamLabOptions readBeamLabOptions(MPI_Comm comm, const std::string &lab, bool multi_scheme) {
  BeamLabOptions o;
  o.run.T = 50;
  o.run.dt = 0.01;
  o.output_dir = "out/" + lab;

  // Every option is read as text inside the PETSc block (so -help lists it with its default) and
  // parsed strictly afterwards, so a typo like "-dt 0.0l" is an error, not a silent 0.
  std::vector<Entry> entries = {
      {"-mx", "Elements along the beam (integer >= 1)", std::to_string(o.beam.mx), false},
      {"-my", "Elements across the beam (integer >= 1)", std::to_string(o.beam.my), false},
      {"-hx", "Element width (> 0)", str(o.beam.hx), false},
      {"-hy", "Element height (> 0)", str(o.beam.hy), false},
      {"-thickness", "Thickness of every element (> 0)", str(o.beam.thickness), false},
      {"-thickness_file", "File of mx*my element thicknesses in Q(x,y) order (overrides -thickness)", "", false},
      {"-E", "Young's modulus (> 0)", str(o.beam.material.E), false},
      {"-nu", "Poisson's ratio (-1 < nu < 0.5)", str(o.beam.material.nu), false},
      {"-rho", "Density (> 0)", str(o.beam.material.rho), false},
      {"-supports", "clamped_left, clamped_both or simply_supported", supportsName(o.beam.supports), false},
      {"-point_load", "x,y,fx,fy[,x,y,fx,fy...]: forces at nodes (replaces the default -0.1 at P(MX,0,1))", "", false},
      {"-top_load", "Vertical load per unit length along the top edge", "0", false},
      {"-dt", "Time step (> 0)", str(o.run.dt), false},
      {"-T", "Total time (>= 0)", str(o.run.T), false},
      {"-divergence_factor", "Stop when |E - E0| exceeds this many energy scales (> 0)", str(o.run.divergence_factor), false},
      {"-linear_solver", "direct (Cholesky, factored once) or cg (CG + Jacobi, the course's solver); default direct, cg with -operator matfree", "direct", false},
      {"-operator", "assembled (sparse matrices) or matfree (element-by-element, no global matrix)", "assembled", false},
      {"-lumped_mass", "Row-sum lumped (diagonal) mass: true or false", "false", false},
      {"-snapshot_every", "Write a VTU snapshot every N steps (0 = none; step 0 and the last always otherwise)", "10", false},
      {"-console_every", "Print the energy every N steps (>= 1)", "10", false},
      {"-quiet", "No energy lines and no progress display on the console: true or false", "false", false},
      {"-output_dir", "Directory for snapshots and energy.csv", o.output_dir, false},
      {"-export_system", "Directory to write M.mtx, K.mtx, F.mtx and fixed.txt (frozen DOFs applied)", "", false},
      {"-save_final", "Matrix Market file for the final state (N x 2 array: x, y)", "", false},
      {"-rayleigh_alpha", "Rayleigh damping C = alpha M + beta S: alpha (>= 0)", "0", false},
      {"-rayleigh_beta", "Rayleigh damping C = alpha M + beta S: beta (>= 0)", "0", false},
      {"-load_curve", "CSV t,g: f(t) = f0 g(t), piecewise linear, constant beyond the ends", "", false},
      {"-load_harmonic", "A,omega: f(t) = f0 A sin(omega t)", "", false},
      {"-course_mass", "Course mass scaling (rho*t*A times the 4/2/1 pattern, no 1/36): true or false", "false", false},
  };
  std::string all_schemes;
  for (const auto &n : schemeNames()) all_schemes += (all_schemes.empty() ? "" : ",") + n;
  entries.push_back({"-checkpoint_every", "Save the full state every N steps to <output_dir>/checkpoint.bin (0 = only at the end and on SIGINT/SIGTERM)", "0", false});
  if (multi_scheme) entries.push_back({"-schemes", "Comma-separated schemes to run", all_schemes, false});
  else entries.push_back({"-restart", "Continue the run whose output directory is DIR from its checkpoint (writes into DIR)", "", false});
  PetscBool help = PETSC_FALSE;
  BEAM_PETSC(PetscOptionsHasHelp(nullptr, &help));
  readOptionBlock(comm, "Options of the " + lab + " lab", entries);
  o.help = help;
  if (o.help) return o;

  std::map<std::string, std::string> v;
  for (const auto &e : entries) v[e.name] = e.value;
  auto positiveReal = [&](const char *name) {
    const double x = parseReal(name, v[name]);
    if (!(x > 0)) throw inputError(std::string(name) + ": " + v[name] + " is out of range; accepted: a real > 0");
    return x;
  };
  auto integer = [&](const char *name, long min) {
    const long x = parseInteger(name, v[name]);
    if (x < min || x > 1000000000L)
      throw inputError(std::string(name) + ": " + v[name] + " is out of range; accepted: an integer >= " + std::to_string(min));
    return int(x);
  };
  o.beam.mx = integer("-mx", 1);
  o.beam.my = integer("-my", 1);
  o.beam.hx = positiveReal("-hx");
  o.beam.hy = positiveReal("-hy");
  o.beam.thickness = positiveReal("-thickness");
  if (!v["-thickness_file"].empty()) o.beam.element_thickness = readRealFile("-thickness_file", v["-thickness_file"]);
  o.beam.material.E = positiveReal("-E");
  o.beam.material.nu = parseReal("-nu", v["-nu"]);
  o.beam.material.rho = positiveReal("-rho");
  o.beam.mass_scaling = parseBool("-course_mass", v["-course_mass"]) ? MassScaling::Course : MassScaling::Consistent;
  o.beam.lumped_mass = parseBool("-lumped_mass", v["-lumped_mass"]);
  o.beam.supports = parseSupports(v["-supports"]);
  if (!v["-point_load"].empty()) {
    const auto vals = parseRealList("-point_load", v["-point_load"]);
    if (vals.empty() || vals.size() % 4 != 0)
      throw inputError("-point_load: '" + v["-point_load"] + "' has " + std::to_string(vals.size()) +
                       " numbers; accepted: groups of four x,y,fx,fy");
    for (size_t i = 0; i < vals.size(); i += 4) {
      if (vals[i] != double(long(vals[i])) || vals[i + 1] != double(long(vals[i + 1])))
        throw inputError("-point_load: node coordinates must be integers, got " + str(vals[i]) + "," + str(vals[i + 1]));
      o.beam.point_loads.push_back({int(vals[i]), int(vals[i + 1]), vals[i + 2], vals[i + 3]});
    }
  }
  o.beam.top_load = parseReal("-top_load", v["-top_load"]);
  o.beam.validate();

  auto nonNegativeReal = [&](const char *name) {
    const double x = parseReal(name, v[name]);
    if (!(x >= 0)) throw inputError(std::string(name) + ": " + v[name] + " is out of range; accepted: a real >= 0");
    return x;
  };
  o.rayleigh_alpha = nonNegativeReal("-rayleigh_alpha");
  o.rayleigh_beta = nonNegativeReal("-rayleigh_beta");
  if (!v["-load_curve"].empty() && !v["-load_harmonic"].empty())
    throw inputError("-load_curve and -load_harmonic both given; accepted: at most one of them");
  if (!v["-load_curve"].empty()) o.load_factor = LoadCurve::read(v["-load_curve"]);
  if (!v["-load_harmonic"].empty()) {
    const auto ah = parseRealList("-load_harmonic", v["-load_harmonic"]);
    if (ah.size() != 2)
      throw inputError("-load_harmonic: '" + v["-load_harmonic"] + "' has " + std::to_string(ah.size()) +
                       " numbers; accepted: amplitude,omega");
    o.load_factor = harmonicLoad(ah[0], ah[1]);
  }

  o.run.dt = positiveReal("-dt");
  o.run.T = parseReal("-T", v["-T"]);
  if (o.run.T < 0) throw inputError("-T: " + v["-T"] + " is out of range; accepted: a real >= 0");
  if (o.run.T / o.run.dt > 1e9) throw inputError("-T/-dt: more than 1e9 steps; accepted: T/dt <= 1e9");
  o.run.divergence_factor = positiveReal("-divergence_factor");
  o.operator_kind = parseOperator(v["-operator"]);
  o.run.solver = parseLinearSolver(v["-linear_solver"]);
  if (o.operator_kind == OperatorKind::MatrixFree) {
    bool solver_given = false;
    for (const auto &e : entries) solver_given |= (std::string(e.name) == "-linear_solver" && e.set);
    if (!solver_given) o.run.solver = LinearSolverKind::CG;
    else if (o.run.solver == LinearSolverKind::Direct)
      throw inputError("-linear_solver direct: a matrix-free operator cannot be factored; accepted with -operator matfree: cg");
  }
  o.snapshot_every = integer("-snapshot_every", 0);
  o.console_every = integer("-console_every", 1);
  o.quiet = parseBool("-quiet", v["-quiet"]);
  o.output_dir = v["-output_dir"];
  if (o.output_dir.empty()) throw inputError("-output_dir: empty; accepted: a directory path");
  applyCheckpointOptions(entries, o.run, o.output_dir);
  o.export_dir = v["-export_system"];
  o.save_final = v["-save_final"];
  if (multi_scheme) {
    std::stringstream list(v["-schemes"]);
    std::string name;
    while (std::getline(list, name, ',')) {
      (void)makeScheme(name); // throws, listing the valid names, for an unknown one
      o.schemes.push_back(name);
    }
    if (o.schemes.empty()) throw inputError("-schemes: empty; accepted: " + all_schemes);
  }
  return o;
}

} // namespace beam
