// Reference 002 reproduced: central differences (three-level form B.16) against RK4 on the paper's two
// damped examples, at the paper's steps.
//
//   two_dof      M q'' + C q' + K q = f (eq. (19)), h = 0.285, 0.1423, 0.6325, 0.9487 (the paper's
//                omega h = 0.9, 0.45, 2, 3 with omega = sqrt(k/m) of one mass on one spring), T = 20 s;
//   fifteen_dof  the chain of eq. (20), h = 0.7873 and 0.9258 (omega h = 1.7 and 2 with the period
//                2 pi sqrt(m/k) of the lightest mass, 1.5 kg, on one spring, 7 N/m) and h = 0.5, T = 150 s.
// Both start at rest under constant forces and settle at the static solution K^{-1} f.
// The step the paper's rule allows (omega_rule h <= 2) is compared with the true limit 2/omega_max,
// omega_max^2 the largest eigenvalue of K phi = omega^2 M phi (with damping too: the amplification
// matrix of B.16 reaches -1 exactly at det(4M/h^2 - K) = 0, see solvers/CentralDifference.hpp), and with
// the spectral radius of the amplification matrix of the three-level recurrence at each h.
// Expect: central differences stable at h = 0.285, 0.1423 (two_dof) and 0.5 (fifteen_dof), diverging at
// every step the rule puts at or below its limit but above 2/omega_max (0.6325, 0.9487, 0.7873, 0.9258);
// RK4 with a fixed step is no safer: its limit is set by the most negative (overdamped) eigenvalue of
// the first-order form, 0.3296 (two_dof) and 0.6806 (fifteen_dof), so it diverges at the same four steps.
// Writes <output_dir>/<case>/<scheme>/{trajectory.csv,energy.csv}, summary.csv and, with Debian's
// python3-matplotlib, <output_dir>/<case>.png (output/plot_paper_central_difference.py).
#include <Eigen/Eigenvalues>

#include <cmath>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <optional>
#include <utility>
#include <vector>
#include <sstream>

#include "labs/BeamLab.hpp"
#include "common/Warnings.hpp"
#include "DiscreteSystem/DiscreteSystem.hpp"
#include "common/Options.hpp"
#include "solvers/RunOptions.hpp"
#include "output/EnergyLog.hpp"
#include "output/FileUtil.hpp"
#include "output/PlotScript.hpp"
#include "output/TrajectoryLog.hpp"

static const char help[] =
    "Reference 002 reproduced: central differences vs RK4 on its 2-DOF and 15-DOF examples.\n"
    "  -output_dir DIR   (default out/paper_central_difference)\n";

namespace {

struct Case {
  const char *system;
  double k_spring, m_single; // the paper's step rule: omega_rule = sqrt(k/m) of one mass on one spring
  std::vector<double> steps;
  double T;
  // Steps the paper runs with another force: its Figure 6 (h = 0.1423) has f = (0.5, -2.9), the masses
  // settling at -0.125 and -0.35 m ("les deux masses se dirigent a gauche"); its other figures (0.5, 2.9).
  std::vector<std::pair<double, std::vector<double>>> forces = {};
};

// Spectral radius of the three-level recurrence (B.16) as a map of (q_n, q_{n-1}).
double spectralRadiusB16(const beam::DiscreteModel &m, double h) {
  const Eigen::MatrixXd M(m.M), K(m.K), C(m.C);
  const Eigen::Index n = M.rows();
  const Eigen::MatrixXd L = M / (h * h) + C / (2 * h);
  const Eigen::LDLT<Eigen::MatrixXd> Linv(L);
  Eigen::MatrixXd A = Eigen::MatrixXd::Zero(2 * n, 2 * n);
  A.topLeftCorner(n, n) = -Linv.solve(K - 2 * M / (h * h));
  A.topRightCorner(n, n) = -Linv.solve(M / (h * h) - C / (2 * h));
  A.bottomLeftCorner(n, n).setIdentity();
  return Eigen::EigenSolver<Eigen::MatrixXd>(A, false).eigenvalues().cwiseAbs().maxCoeff();
}

// The fixed-step RK4 limit: the largest h with |R(h s)| <= 1 for every eigenvalue s of the first-order
// form z' = [[0, I], [-M^{-1}K, -M^{-1}C]] z, R(z) = 1 + z + z^2/2 + z^3/6 + z^4/24 (bisection from a
// stable h; an overdamped mode puts a large negative real s on the axis, where RK4 stops at 2.785/|s|).
double rk4Limit(const beam::DiscreteModel &m) {
  const Eigen::MatrixXd M(m.M), K(m.K), C(m.C);
  const Eigen::Index n = M.rows();
  Eigen::MatrixXd A = Eigen::MatrixXd::Zero(2 * n, 2 * n);
  A.topRightCorner(n, n).setIdentity();
  A.bottomLeftCorner(n, n) = -M.ldlt().solve(K);
  A.bottomRightCorner(n, n) = -M.ldlt().solve(C);
  const Eigen::VectorXcd s = Eigen::EigenSolver<Eigen::MatrixXd>(A, false).eigenvalues();
  auto stable = [&](double h) {
    for (Eigen::Index i = 0; i < s.size(); ++i) {
      const std::complex<double> z = h * s(i);
      if (std::abs(1.0 + z + z * z / 2.0 + z * z * z / 6.0 + z * z * z * z / 24.0) > 1 + 1e-12) return false;
    }
    return true;
  };
  double lo = 0, hi = 1;
  while (stable(hi)) hi *= 2;
  for (int it = 0; it < 60; ++it) (stable(0.5 * (lo + hi)) ? lo : hi) = 0.5 * (lo + hi);
  return lo;
}

// Largest |q_i(t)| over a run.
struct MaxDisplacement final : beam::Monitor {
  void observe(const beam::StepState &s) override {
    PetscReal v;
    BEAM_PETSC(VecNorm(s.x, NORM_INFINITY, &v));
    if (std::isfinite(v) && v > max) max = v;
  }
  double max = 0;
};

std::string fixed(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%g", v);
  return b;
}

} // namespace

int main(int argc, char **argv) {
  beam::PetscSession session(&argc, &argv, help);
  return beam::runMain(session, "paper_central_difference", [&] {
    beam::OutputOptions output;
    output.dir = "out/paper_central_difference";
    beam::agreeOn(PETSC_COMM_WORLD, [&] { beam::readOutputOptions(PETSC_COMM_WORLD, output, {nullptr, 0, false}); });
    const std::string out = output.dir;
    const std::vector<Case> cases = {{"two_dof", 5.0, 0.5, {0.285, 0.1423, 0.6325, 0.9487}, 20.0, {{0.1423, {0.5, -2.9}}}},
                                     {"fifteen_dof", 7.0, 1.5, {0.7873, 0.9258, 0.5}, 150.0}};
    if (beam::finishOptions(PETSC_COMM_WORLD)) return 0; // the cases' solvers take no options
    beam::prepareOutputDirectory(out);
    auto caseName = [](const Case &c, double h) { return std::string(c.system) + "_h" + fixed(h); };
    auto runDir = [&](const Case &c, double h, const char *scheme) { return out + "/" + caseName(c, h) + "/" + scheme; };
    // Every run's directory before any runs: one that cannot be made was refused (exit 2) after the
    // runs before it had printed and written theirs.
    for (const Case &c : cases)
      for (double h : c.steps)
        for (const char *scheme_name : {"central_difference", "rk4"}) beam::prepareOutputDirectory(runDir(c, h, scheme_name));
    beam::releaseWarnings(); // the runs start (common/Warnings.hpp)
    // stable_in_theory: rho(A) <= 1 (central differences) or h within the RK4 limit; overflowed: the run
    // stopped at a non-finite state (a column `diverged` until 2026-11-27, 0 beside |q| = 1e93: the runs
    // are let grow to show how fast, and none overflows in its T).
    std::string summary =
        "system,h,omega_rule_h,omega_max_h,rho_B16,scheme,max_abs_q,q_final_max_abs,stable_in_theory,overflowed,force\n";
    std::vector<std::string> plots; // the cases' names, one chart each
    for (const Case &c : cases) {
      const beam::DiscreteModel model = beam::builtinModel(c.system);
      const beam::DiscreteSystemModel linear(model, PETSC_COMM_WORLD, beam::LinearSolverKind::Direct);
      const double omega_max = std::sqrt(beam::largestEigenvalue(model));
      const double omega_rule = std::sqrt(c.k_spring / c.m_single);
      BEAM_PETSC(PetscPrintf(PETSC_COMM_WORLD,
                             "\n%s: omega_max = %.6g -> critical step 2/omega_max = %.6g;  paper's rule: "
                             "omega = sqrt(k/m) = %.6g -> h <= 2/omega = %.6g (%.2f x too large)\n",
                             c.system, omega_max, 2 / omega_max, omega_rule, 2 / omega_rule, omega_max / omega_rule));
      const double rk4_limit = rk4Limit(model);
      BEAM_PETSC(PetscPrintf(PETSC_COMM_WORLD, "%s: fixed-step RK4 is stable for h <= %.6g\n", c.system, rk4_limit));
      BEAM_PETSC(PetscPrintf(PETSC_COMM_WORLD, "%8s %12s %12s %10s  %-18s %12s %14s\n", "h", "omega_rule h",
                             "omega_max h", "rho(A)", "scheme", "max |q|", "|q(T)|_max"));
      for (double h : c.steps) {
        const double rho = spectralRadiusB16(model, h); // the same for any force
        std::optional<beam::DiscreteModel> forced;      // the paper's force for this step, when not the model's
        std::optional<beam::DiscreteSystemModel> forced_linear;
        for (const auto &[step, f] : c.forces)
          if (step == h) {
            forced = model;
            forced->F = Eigen::Map<const Eigen::VectorXd>(f.data(), Eigen::Index(f.size()));
            forced_linear.emplace(*forced, PETSC_COMM_WORLD, beam::LinearSolverKind::Direct);
          }
        const beam::DiscreteSystemModel &run_model = forced_linear ? *forced_linear : linear;
        const beam::SecondOrderSystem &run_system = run_model.system();
        // The force of this step's runs, also in summary.csv's last column (";" between the components).
        const Eigen::VectorXd &run_force = forced ? forced->F : model.F;
        std::string force_column;
        for (Eigen::Index i = 0; i < run_force.size(); ++i) force_column += (i ? ";" : "") + fixed(run_force(i));
        if (forced) {
          std::string f;
          for (Eigen::Index i = 0; i < forced->F.size(); ++i) f += (i ? ", " : "") + fixed(forced->F(i));
          BEAM_PETSC(PetscPrintf(PETSC_COMM_WORLD, "%8g  with f = (%s), as the paper runs this step\n", h, f.c_str()));
        }
        const std::string name = caseName(c, h);
        for (const char *scheme_name : {"central_difference", "rk4"}) {
          const std::string dir = runDir(c, h, scheme_name);
          const auto scheme = beam::makeScheme(scheme_name);
          beam::RunSettings run;
          run.dt = h;
          run.T = c.T;
          run.divergence_factor = std::numeric_limits<double>::infinity(); // show the growth; stop at overflow
          beam::TimeLoop loop(*scheme, run_model, run);
          beam::EnergyLog energy(run_model, dir + "/energy.csv");
          beam::PVec q = beam::toPetscVector(run_system, model.q0), v = beam::toPetscVector(run_system, model.v0);
          beam::TrajectoryLog trajectory(q, dir + "/trajectory.csv", 1);
          MaxDisplacement peak;
          const beam::RunResult r = loop.run(q, v, {&energy, &trajectory, &peak});
          PetscReal qT;
          BEAM_PETSC(VecNorm(q, NORM_INFINITY, &qT));
          BEAM_PETSC(PetscPrintf(PETSC_COMM_WORLD, "%8g %12.4g %12.4g %10.4g  %-18s %12.4g %14.4g%s\n", h,
                                 omega_rule * h, omega_max * h, rho, scheme_name, peak.max, double(qT),
                                 r.diverged ? "  (overflow)" : ""));
          std::ostringstream row;
          row.precision(10);
          row << c.system << "," << h << "," << omega_rule * h << "," << omega_max * h << "," << rho << ","
              << scheme_name << "," << peak.max << "," << double(qT) << ","
              << ((std::string(scheme_name) == "rk4" ? h <= rk4_limit : rho <= 1 + 1e-12) ? 1 : 0) << ","
              << (r.diverged ? 1 : 0) << "," << force_column << "\n";
          summary += row.str();
        }
        plots.push_back(name);
      }
    }
    int rank = 0;
    MPI_Comm_rank(PETSC_COMM_WORLD, &rank);
    beam::agreeOn(PETSC_COMM_WORLD, [&] { // rank 0 writes: its failure ends every rank at once
      if (rank != 0) return;
      beam::writeFileAtomically(out + "/summary.csv", summary);
      std::printf("\nwrote %s/summary.csv and the trajectories under %s/<case>/<scheme>/\n", out.c_str(), out.c_str());
      std::vector<std::string> arguments = {out};
      arguments.insert(arguments.end(), plots.begin(), plots.end());
      beam::runPlotScript("plot_paper_central_difference.py", arguments);
    });
    return 0;
  });
}
