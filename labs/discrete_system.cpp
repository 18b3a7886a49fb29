// Any linear discrete system M q'' + C q' + K q = f(t) integrated by any registered scheme.
//
// The system comes from Matrix Market files (-M, -K, optional -C, -F, -q0, -v0; coordinate or array,
// general or symmetric, as SciPy, MATLAB or Octave write them) or is one of reference 002's examples
// (-system two_dof | fifteen_dof, see DiscreteSystem/DiscreteSystem.hpp). Loads: f0 g(t) with -load_curve or
// -load_harmonic, or a per-DOF sampled history -load_history/-load_dt (reference 000's P matrix).
// Invariant: E = 1/2 v'Mv + 1/2 q'Kq - W + D is constant for the exact solution (W = work of f,
// D = energy dissipated by C; solvers/Energy.hpp); energy.csv logs it and its balance error.
// Expect for the default two_dof run (newmark, dt = 0.01, T = 10): q(T) = (0.26, 0.42) to about 1e-9,
// the static solution K^{-1} f, with half the work of f dissipated (W = 1.348, D = 0.674).
// Writes <output_dir>/energy.csv and trajectory.csv (time,q1..qn every -snapshot_every steps); -quiet
// turns the progress display off.
#include <algorithm>
#include <cmath>
#include <memory>
#include <vector>

#include "common/Warnings.hpp"
#include "labs/BeamLab.hpp"
#include "labs/DiscreteLabOptions.hpp"
#include "common/Exact.hpp"
#include "common/Options.hpp"
#include "common/Slepc.hpp"
#include "solvers/FreeVibration.hpp"
#include "output/EnergyLog.hpp"
#include "output/FileUtil.hpp"
#include "output/MatrixMarket.hpp"
#include "output/Progress.hpp"
#include "output/TrajectoryLog.hpp"

namespace {

// Keeps the energy terms of the last completed step.
struct LastEnergy final : beam::Monitor {
  void observe(const beam::StepState &s) override { last = s.energy; }
  void resume(const beam::StepState &s) override { last = s.energy; } // a restart at T printed zeros
  beam::EnergyTerms last;
};

// q(T) (up to 8 components) and the energy balance, on rank 0.
void printState(MPI_Comm comm, const beam::RunResult &r, Vec q, const beam::EnergyTerms &e) {
  beam::PScatter scatter;
  beam::PVec whole;
  BEAM_PETSC(VecScatterCreateToZero(q, scatter.out(), whole.out()));
  BEAM_PETSC(VecScatterBegin(scatter, q, whole, INSERT_VALUES, SCATTER_FORWARD));
  BEAM_PETSC(VecScatterEnd(scatter, q, whole, INSERT_VALUES, SCATTER_FORWARD));
  PetscInt n;
  BEAM_PETSC(VecGetLocalSize(whole, &n));
  const PetscScalar *a;
  BEAM_PETSC(VecGetArrayRead(whole, &a));
  BEAM_PETSC(PetscPrintf(comm, "q(%s) = (", beam::gText(r.time).c_str()));
  for (PetscInt i = 0; i < n && i < 8; ++i)
    BEAM_PETSC(PetscPrintf(comm, "%s%.10g", i ? ", " : "", double(PetscRealPart(a[i]))));
  BEAM_PETSC(PetscPrintf(comm, "%s)\n", n > 8 ? ", ..." : ""));
  BEAM_PETSC(VecRestoreArrayRead(whole, &a));
  BEAM_PETSC(PetscPrintf(comm, "kinetic %.6g  potential %.6g  work %.6g  dissipated %.6g  balance error %.3e\n",
                         e.kinetic, e.potential, e.work, e.dissipated, e.balance_error));
}

beam::Error overflowError() {
  return beam::inputError("omega_max of K phi = omega^2 M phi overflows a double (K's row sums over M's diagonal "
                          "beyond 1e308); accepted: M and K whose largest ratio is finite");
}

// Refuses M and K whose omega_max^2 would overflow a double, before anything is factored: K's largest row
// sum of |entries| (Gershgorin's bound on its largest eigenvalue) over M's smallest diagonal entry.
// Where it overflowed (M = 1e-300 I, K = 1e300) the solvers failed with exit 3 ("did not converge", a NaN
// inner product); so did entries below 1.8e308 whose rows add up beyond it (1.7e308 and -1e308:
// omega_max = inf printed, or CHOLMOD's "not positive definite" after its warning on stdout, until
// 2026-11-30). Returns that bound's numerator, 0 for K = 0.
double refuseOverflowingSpectrum(const beam::DiscreteModel &model) {
  Eigen::VectorXd row_sum = Eigen::VectorXd::Zero(model.K.rows());
  for (int k = 0; k < model.K.outerSize(); ++k)
    for (Eigen::SparseMatrix<double>::InnerIterator it(model.K, k); it; ++it) row_sum(it.row()) += std::abs(it.value());
  const double k_max = model.K.rows() ? row_sum.maxCoeff() : 0;
  double m_min = HUGE_VAL;
  for (Eigen::Index i = 0; i < model.M.rows(); ++i) m_min = std::min(m_min, model.M.coeff(i, i));
  if (!std::isfinite(k_max / m_min)) throw overflowError();
  return k_max;
}

// omega_max for the header: exact (Eigen's dense solver) on small systems, SLEPc's Lanczos on the
// system's sparse matrices above 1000 DOFs, where the dense solve's O(n^3) took over (n = 6000: 110 s
// and 1 GB before anything was checked). Lanczos's largest Ritz value approaches omega_max^2 from below;
// at a residual of 1e-4 it is within about 1e-5 of it even where the top of the spectrum is a cluster
// (a 6000-DOF chain: 1.99999 for 1.9999999), which a tighter tolerance does not reach in 750 iterations.
// `k_row_max` is refuseOverflowingSpectrum's.
double omegaMax(const beam::DiscreteModel &model, const beam::SecondOrderSystem &system, double k_row_max) {
  // K = 0 (free masses): every omega is 0, and SLEPc's Lanczos stopped on its start vector ("Initial
  // vector is zero or belongs to the deflation space", exit 3, until 2026-11-30).
  if (k_row_max == 0) return 0;
  double omega = 0;
  if (model.size() <= 1000) {
    omega = std::sqrt(beam::largestEigenvalue(model));
  } else {
    const beam::SlepcScope slepc;
    omega = beam::largestOmegaMasked(system, {}, "discrete_omega_max_", 1e-4);
  }
  if (!std::isfinite(omega * omega)) throw overflowError();
  return omega;
}

} // namespace

static const char help[] = "Integrates a linear discrete system (Matrix Market files or a built-in example).\n";

int main(int argc, char **argv) {
  beam::PetscSession session(&argc, &argv, help);
  return beam::runMain(session, "discrete_system", [&] {
    const beam::DiscreteLabOptions options = beam::readDiscreteLabOptions(PETSC_COMM_WORLD);
    const beam::DiscreteModel model = beam::discreteModel(options);
    const double k_row_max = refuseOverflowingSpectrum(model);
    const beam::DiscreteSystemModel linear(model, PETSC_COMM_WORLD, options.run.solver);
    const beam::SecondOrderSystem &system = linear.system();
    const auto scheme = beam::makeScheme(options.scheme);
    beam::TimeLoop loop(*scheme, linear, options.run);
    if (beam::finishOptions(PETSC_COMM_WORLD)) return 0; // -help: the scheme's solvers have listed their options

    const double omega_max = omegaMax(model, system, k_row_max);
    // Printed when the run starts: before a refused output directory, -save_final or restart it read as
    // a run that went on.
    std::vector<char> header(model.name.size() + 256); // the name is a file's path
    std::snprintf(header.data(), header.size(), "%s: %lld DOFs, %s, omega_max = %.6g (explicit central difference needs dt < %.6g)",
                  model.name.c_str(), (long long)model.size(), model.damped() ? "damped" : "undamped", omega_max, 2 / omega_max);
    beam::RunStart header_line(PETSC_COMM_WORLD, header.data());
    // Where omega_max dt passes 1e7, M is below 1e-14 of dt^2 K in every scheme's step matrix (45 units of
    // round-off): the inertia is lost, and a scheme that keeps energy exactly (Newmark's average
    // acceleration, M = 1e-30 I, dt = 0.01) "lost" all of it, exit 0. Said, not refused: it is the lab's
    // point to show what the schemes do.
    if (omega_max * options.run.dt > 1e7) {
      char line[256];
      std::snprintf(line, sizeof line, "warning: omega_max dt = %.3g: M is below the round-off of dt^2 K in the schemes' step "
                    "matrices (omega_max dt > 1e7), so the motion and the energy figures show round-off, not the schemes",
                    omega_max * options.run.dt);
      beam::warningLine(PETSC_COMM_WORLD, line);
    }
    beam::PVec q = beam::toPetscVector(system, model.q0), v = beam::toPetscVector(system, model.v0);
    beam::prepareRunOutput(PETSC_COMM_WORLD, options.output_dir, "", options.save_final, loop.restarts(),
                           [&] { loop.prepareStart(q, v); });
    beam::EnergyLog energy(linear, options.output_dir + "/energy.csv");
    beam::TrajectoryLog trajectory(q, options.output_dir + "/trajectory.csv", options.snapshot_every);
    LastEnergy energy_at_end;
    std::vector<beam::Monitor *> monitors = {&header_line, &energy, &trajectory, &energy_at_end};
    beam::Progress progress(PETSC_COMM_WORLD); // -quiet: no progress display, as in the beam labs
    if (!options.quiet) monitors.push_back(&progress);
    beam::RunResult result = loop.run(q, v, monitors);
    beam::saveFinalState(PETSC_COMM_WORLD, options.save_final, result,
                         [&] { beam::writeMatrixMarketArray({q.get(), v.get()}, options.save_final); });

    beam::printSummary(PETSC_COMM_WORLD, {result});
    // A diverged run's q is the failed step's, not the state at its last time (it printed q(0) = (0, 4.3e9)).
    if (!result.diverged) printState(PETSC_COMM_WORLD, result, q, energy_at_end.last);
    BEAM_PETSC(PetscPrintf(PETSC_COMM_WORLD, "wrote %s/energy.csv and %s/trajectory.csv\n", options.output_dir.c_str(),
                           options.output_dir.c_str()));
    if (result.diverged) throw beam::runError(result.divergence);
    if (result.interrupted_by) {
      BEAM_PETSC(PetscPrintf(PETSC_COMM_WORLD, "stopped by signal %d after step %lld; continue with -restart %s\n",
                             result.interrupted_by, (long long)result.steps_done, options.output_dir.c_str()));
      return 128 + result.interrupted_by;
    }
    return beam::signalAtTheEnd(PETSC_COMM_WORLD, options.output_dir);
  });
}
