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
#include <cmath>
#include <memory>

#include "labs/BeamLab.hpp"
#include "labs/DiscreteLabOptions.hpp"
#include "common/Exact.hpp"
#include "common/Options.hpp"
#include "output/EnergyLog.hpp"
#include "output/FileUtil.hpp"
#include "output/MatrixMarket.hpp"
#include "output/Progress.hpp"
#include "output/TrajectoryLog.hpp"

namespace {

// Keeps the energy terms of the last completed step.
struct LastEnergy final : beam::Monitor {
  void observe(const beam::StepState &s) override { last = s.energy; }
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

} // namespace

static const char help[] = "Integrates a linear discrete system (Matrix Market files or a built-in example).\n";

int main(int argc, char **argv) {
  beam::PetscSession session(&argc, &argv, help);
  return beam::runMain(session, "discrete_system", [&] {
    const beam::DiscreteLabOptions options = beam::readDiscreteLabOptions(PETSC_COMM_WORLD);
    const beam::DiscreteModel model = beam::discreteModel(options);
    const beam::DiscreteSystemModel linear(model, PETSC_COMM_WORLD, options.run.solver);
    const beam::SecondOrderSystem &system = linear.system();
    const auto scheme = beam::makeScheme(options.scheme);
    beam::TimeLoop loop(*scheme, linear, options.run);
    if (beam::finishOptions(PETSC_COMM_WORLD)) return 0; // -help: the scheme's solvers have listed their options

    const double omega_max = std::sqrt(beam::largestEigenvalue(model));
    BEAM_PETSC(PetscPrintf(PETSC_COMM_WORLD,
                           "%s: %lld DOFs, %s, omega_max = %.6g (explicit central difference needs dt < %.6g)\n",
                           model.name.c_str(), (long long)model.size(), model.damped() ? "damped" : "undamped",
                           omega_max, 2 / omega_max));
    // Where omega_max dt passes 1e7, M is below 1e-14 of dt^2 K in every scheme's step matrix (45 units of
    // round-off): the inertia is lost, and a scheme that keeps energy exactly (Newmark's average
    // acceleration, M = 1e-30 I, dt = 0.01) "lost" all of it, exit 0. Said, not refused: it is the lab's
    // point to show what the schemes do.
    if (omega_max * options.run.dt > 1e7)
      BEAM_PETSC(PetscFPrintf(PETSC_COMM_WORLD, stderr,
                              "warning: omega_max dt = %.3g: M is below the round-off of dt^2 K in the schemes' step matrices "
                              "(omega_max dt > 1e7), so the motion and the energy figures show round-off, not the schemes\n",
                              omega_max * options.run.dt));
    beam::PVec q = beam::toPetscVector(system, model.q0), v = beam::toPetscVector(system, model.v0);
    beam::prepareRunOutput(PETSC_COMM_WORLD, options.output_dir, "", options.save_final, loop.restarts(),
                           [&] { loop.checkInitialState(q, v); });
    beam::EnergyLog energy(linear, options.output_dir + "/energy.csv");
    beam::TrajectoryLog trajectory(q, options.output_dir + "/trajectory.csv", options.snapshot_every);
    LastEnergy energy_at_end;
    std::vector<beam::Monitor *> monitors = {&energy, &trajectory, &energy_at_end};
    beam::Progress progress(PETSC_COMM_WORLD); // -quiet: no progress display, as in the beam labs
    if (!options.quiet) monitors.push_back(&progress);
    const beam::RunResult result = loop.run(q, v, monitors);
    if (!options.save_final.empty() && !result.diverged) beam::writeMatrixMarketArray({q.get(), v.get()}, options.save_final);

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
