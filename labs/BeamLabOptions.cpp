#include "labs/BeamLabOptions.hpp"

#include <cmath>
#include <algorithm>
#include <sstream>

#include "common/Agree.hpp"
#include "common/Exact.hpp"
#include "common/Hash.hpp"
#include "common/Options.hpp"
#include "solvers/LoadInTime.hpp"
#include "labs/OptionParsing.hpp"

namespace beam {
namespace {

constexpr double kMaxAspectRatio = 1e6;

std::string str(double v) {
  std::ostringstream s;
  s << v;
  return s.str();
}

void readMeshOptions(MPI_Comm comm, BeamSpec &b) {
  readOptions(comm, "Beam mesh", "", [&](OptionReader &r) {
    b.mx = int(r.integer("-mx", "Elements along the beam", b.mx, 1));
    b.my = int(r.integer("-my", "Elements across the beam", b.my, 1));
    // The element matrices form 1/h^2 and h^2 terms on the way (-hx 1e-154 -hy 1e-154 was refused for an
    // infinite stiffness diagonal, though a square element's stiffness does not depend on its size).
    const Bounds size = Bounds::between(1e-150, 1e150, "a real in [1e-150, 1e150] (the element matrices form 1/h^2 and h^2)");
    b.hx = r.real("-hx", "Element width", b.hx, size);
    b.hy = r.real("-hy", "Element height", b.hy, size);
    // The Q4 stiffness matrix's condition number grows as the aspect ratio squared: at 1e8 its Cholesky
    // factorization failed ("not positive definite", CHOLMOD's own warning line before ours, exit 3).
    if (r.error().empty() && std::max(b.hx / b.hy, b.hy / b.hx) > kMaxAspectRatio)
      r.fail("-hx, -hy: elements " + str(b.hx) + " by " + str(b.hy) + " (aspect ratio " +
             str(std::max(b.hx / b.hy, b.hy / b.hx)) + "); accepted: sides within a factor " + str(kMaxAspectRatio) +
             " of each other (beyond, the stiffness matrix is singular in double precision)");
    b.thickness = r.real("-thickness", "Thickness of every element", b.thickness, Bounds::above(0));
    const std::string file =
        r.path("-thickness_file", "File of mx*my element thicknesses in Q(x,y) order (overrides -thickness)");
    if (!file.empty() && r.given("-thickness") && r.error().empty()) // -thickness was read and ignored, exit 0
      r.fail("-thickness and -thickness_file both given; accepted: one of them (the file's thicknesses replace -thickness)");
    if (!file.empty() && r.error().empty()) {
      b.element_thickness = readRealFile("-thickness_file", file);
      // A file of comments only must not silently mean "uniform thickness".
      if (b.element_thickness.empty())
        r.fail("-thickness_file: '" + file + "' holds no number; accepted: " + std::to_string(b.mx) + "*" +
               std::to_string(b.my) + " element thicknesses");
      // Checked here to name the file (the beam's own check says "element thickness" only).
      else if (b.element_thickness.size() != size_t(b.mx) * size_t(b.my))
        r.fail("-thickness_file: '" + file + "' holds " + std::to_string(b.element_thickness.size()) +
               " numbers; accepted: exactly mx*my = " + std::to_string((long long)b.mx * b.my) + " element thicknesses");
      for (size_t k = 0; k < b.element_thickness.size() && r.error().empty(); ++k)
        if (!(b.element_thickness[k] > 0))
          r.fail("-thickness_file: '" + file + "': number " + std::to_string(k + 1) + ", " +
                 exactDecimal(b.element_thickness[k]) + ", is out of range; accepted: element thicknesses > 0");
    }
    const std::vector<Supports> kinds = {Supports::ClampedLeft, Supports::ClampedBoth, Supports::SimplySupported};
    std::vector<std::string> names;
    for (Supports k : kinds) names.push_back(supportsName(k));
    b.supports = kinds[size_t(r.choice("-supports", "Supports", names, int(b.supports)))];
  });
}

void readMaterialOptions(MPI_Comm comm, BeamSpec &b) {
  readOptions(comm, "Material and mass", "", [&](OptionReader &r) {
    b.material.E = r.real("-E", "Young's modulus", b.material.E, Bounds::above(0));
    b.material.nu = r.real("-nu", "Poisson's ratio", b.material.nu, {-1, 0.5, true, true, "-1 < nu < 0.5"});
    b.material.rho = r.real("-rho", "Density", b.material.rho, Bounds::above(0));
    const bool course = r.flag("-course_mass", "Course mass scaling (rho*t*A times the 4/2/1 pattern, no 1/36)", false);
    b.mass_scaling = course ? MassScaling::Course : MassScaling::Consistent;
    b.lumped_mass = r.flag("-lumped_mass", "Row-sum lumped (diagonal) mass", b.lumped_mass);
  });
}

void readBeamLoadOptions(MPI_Comm comm, BeamSpec &b) {
  readOptions(comm, "Beam loads", "", [&](OptionReader &r) {
    const std::vector<double> v =
        r.reals("-point_load", "x,y,fx,fy[,x,y,fx,fy...]: forces at nodes (replaces the default -0.1 at P(MX,0,1), at P(MX/2,0,1) on clamped_both and simply_supported)",
                [](const std::vector<double> &values) { // on every occurrence
                  return values.size() % 4 == 0 ? std::string()
                                                : "-point_load: '" + joinedDecimals(values) + "' has " +
                                                      std::to_string(values.size()) + " numbers; accepted: groups of four x,y,fx,fy";
                });
    if (!r.error().empty()) return;
    for (size_t i = 0; i < v.size(); i += 4) {
      // Whole numbers that fit an int (4294967296 wrapped and was reported as node -2147483648; 1e300 was
      // "not an integer"); a node beyond the mesh is refused by the beam with its range.
      auto nodeIndex = [](double c) { return std::abs(c) <= 1e9 && c == std::floor(c); };
      if (!nodeIndex(v[i]) || !nodeIndex(v[i + 1]))
        return r.fail("-point_load: node coordinates " + exactDecimal(v[i]) + "," + exactDecimal(v[i + 1]) +
                      " are not node indices; accepted: whole numbers 0 <= x <= -mx, 0 <= y <= -my");
      b.point_loads.push_back({int(v[i]), int(v[i + 1]), v[i + 2], v[i + 3]});
    }
    b.top_load = r.real("-top_load", "Vertical load per unit length along the top edge", b.top_load, Bounds::any());
  });
}

void readDampingOptions(MPI_Comm comm, BeamLabOptions &o) {
  readOptions(comm, "Rayleigh damping C = alpha M + beta S", "", [&](OptionReader &r) {
    o.rayleigh_alpha = r.real("-rayleigh_alpha", "alpha", o.rayleigh_alpha, Bounds::atLeast(0));
    o.rayleigh_beta = r.real("-rayleigh_beta", "beta", o.rayleigh_beta, Bounds::atLeast(0));
  });
}

// -operator, and -linear_solver for labs that solve (the matrix-free operator changes its default).
void readOperatorOptions(MPI_Comm comm, BeamLabOptions &o, bool solver) {
  readOptions(comm, "Operator", "", [&](OptionReader &r) {
    const int kind = r.choice("-operator", "assembled (sparse matrices) or matfree (element-by-element, no global matrix)",
                              {"assembled", "matfree"}, 0);
    o.operator_kind = kind == 1 ? OperatorKind::MatrixFree : OperatorKind::Assembled;
    if (!solver) return;
    const bool given = r.given("-linear_solver");
    const int s = r.choice("-linear_solver",
                           "direct (Cholesky, factored once) or cg (CG + Jacobi, the course's solver); default direct, "
                           "cg with -operator matfree",
                           {"direct", "cg"}, kind == 1 ? 1 : 0);
    o.run.solver = s == 1 ? LinearSolverKind::CG : LinearSolverKind::Direct;
    if (given && kind == 1 && s == 0)
      r.fail("-linear_solver direct: a matrix-free operator cannot be factored; accepted with -operator matfree: cg");
  });
}

void readExportOption(MPI_Comm comm, BeamLabOptions &o) {
  readOptions(comm, "Export", "", [&](OptionReader &r) {
    o.export_dir =
        r.path("-export_system", "Directory to write M.mtx, K.mtx, F.mtx and fixed.txt (frozen DOFs applied)", "a directory name");
  });
}

// The run, output and checkpoint sets of the time-integration labs, copied into the lab's fields.
void readTimeRunOptions(MPI_Comm comm, BeamLabOptions &o, BeamLabKind kind) {
  RunSettings run = o.run;
  readRunOptions(comm, run);
  o.run.dt = run.dt;
  o.run.T = run.T;
  o.run.divergence_factor = run.divergence_factor;
  OutputOptions out;
  out.dir = o.output_dir;
  readOutputOptions(comm, out,
                    {"Write a VTU snapshot every N steps (0 = none; step 0 and the last always otherwise)", 0, true});
  readExportOption(comm, o);
  readCheckpointOptions(comm, o.run, out, kind == BeamLabKind::OneScheme);
  if (kind == BeamLabKind::AllSchemes) o.schemes = readSchemeListOption(comm);
  o.output_dir = out.dir;
  o.quiet = out.quiet;
  o.save_final = out.save_final;
  o.snapshot_every = out.snapshot_every;
  o.console_every = out.console_every;
}

} // namespace

std::function<double(double)> readLoadInTimeOptions(MPI_Comm comm, LoadIdentity &identity, bool exclusive_given,
                                                    const char *exclusive_with) {
  std::function<double(double)> g;
  identity = {};
  readOptions(comm, "Load in time f(t) = f0 g(t)", "", [&](OptionReader &r) {
    const std::string curve = r.path("-load_curve", "CSV t,g: piecewise linear g, constant beyond the ends");
    const std::vector<double> ah =
        r.reals("-load_harmonic", "A,omega: g = A sin(omega t)", [](const std::vector<double> &values) { // every occurrence
          return values.size() == 2 ? std::string()
                                    : "-load_harmonic: '" + joinedDecimals(values) + "' has " + std::to_string(values.size()) +
                                          " numbers; accepted: amplitude,omega";
        });
    if (!r.error().empty()) return;
    const int kinds = !curve.empty() + r.given("-load_harmonic") + exclusive_given;
    if (kinds > 1)
      return r.fail(*exclusive_with ? std::string("-load_curve, -load_harmonic, ") + exclusive_with +
                                          ": more than one given; accepted: at most one"
                                    : "-load_curve and -load_harmonic both given; accepted: at most one of them");
    if (!curve.empty()) {
      const LoadCurve c = LoadCurve::read(curve);
      // By its data only, as the README says: the same file by another path is the same run.
      identity = {"curve with hash " + std::to_string(c.hash()), curve, c.hash(), c.largestMagnitude()};
      g = c;
    }
    if (r.given("-load_harmonic")) {
      g = harmonicLoad(ah[0], ah[1]);
      identity.text = "harmonic " + exactDecimal(ah[0]) + "," + exactDecimal(ah[1]);
      identity.bound = ah[1] != 0 ? std::abs(ah[0]) : 0.0; // A sin(0 t) = 0
    }
  });
  return g;
}

void agreeOnLoadCurve(MPI_Comm comm, const LoadIdentity &identity) {
  int given = !identity.curve_file.empty(), everywhere = 0;
  MPI_Allreduce(&given, &everywhere, 1, MPI_INT, MPI_MIN, comm);
  if (everywhere) agreeOnData(comm, identity.curve_hash, "-load_curve '" + identity.curve_file + "'");
}

BeamLabOptions readBeamLabOptions(MPI_Comm comm, const std::string &lab, BeamLabKind kind) {
  BeamLabOptions o;
  o.run.T = 50;
  o.run.dt = 0.01;
  o.output_dir = "out/" + lab;
  agreeOn(comm, [&] {
    const bool time_run = kind == BeamLabKind::OneScheme || kind == BeamLabKind::AllSchemes;
    readMeshOptions(comm, o.beam);
    readMaterialOptions(comm, o.beam);
    readOperatorOptions(comm, o, kind != BeamLabKind::Modes);
    if (kind != BeamLabKind::Modes) {
      readBeamLoadOptions(comm, o.beam);
      o.load_factor = readLoadInTimeOptions(comm, o.load_identity);
      readDampingOptions(comm, o);
    }
    o.beam.validate();
    if (time_run) return readTimeRunOptions(comm, o, kind);
    OutputOptions out;
    out.dir = o.output_dir;
    readOutputOptions(comm, out, {nullptr, 0, false});
    o.output_dir = out.dir;
  });
  // Files read by a relative path from per-rank working directories may differ: every rank must have
  // read the same data (a thickness file or load curve differing on one rank mixed the physics, exit 0).
  agreeOnLoadCurve(comm, o.load_identity);
  int thickness = !o.beam.element_thickness.empty(), everywhere = 0;
  MPI_Allreduce(&thickness, &everywhere, 1, MPI_INT, MPI_MIN, comm);
  if (everywhere) {
    std::uint64_t h = 0xcbf29ce484222325ULL;
    for (double t : o.beam.element_thickness) h = fnv1a(t, h);
    agreeOnData(comm, h, "-thickness_file");
  }
  return o;
}

} // namespace beam
