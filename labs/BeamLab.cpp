#include "labs/BeamLab.hpp"

#include <cmath>
#include <memory>

#include "labs/OptionParsing.hpp"
#include "output/ConsoleEnergy.hpp"
#include "output/EnergyLog.hpp"
#include "output/FileUtil.hpp"
#include "output/MatrixMarket.hpp"
#include "output/Progress.hpp"
#include "output/VtkSnapshots.hpp"
#include "solvers/CriticalStep.hpp"

namespace beam {

SecondOrderSystem beamSystem(const Beam &beam, const BeamLabOptions &options) {
  SecondOrderSystem system = beamSystem(beam, options.operator_kind);
  system.load_factor = options.load_factor;
  const double alpha = options.rayleigh_alpha, beta = options.rayleigh_beta;
  if (alpha == 0 && beta == 0) return system;
  if (!system.combine) {
    // From the frozen M and S (identity rows there), so the frozen rows and columns of C hold
    // alpha + beta on the diagonal and 0 elsewhere; zeroing them (diagonal 0) decouples them from C.
    BEAM_PETSC(MatDuplicate(system.mass, MAT_COPY_VALUES, system.damping.out()));
    BEAM_PETSC(MatScale(system.damping, alpha));
    BEAM_PETSC(MatAXPY(system.damping, beta, system.stiffness, SUBSET_NONZERO_PATTERN));
    const std::vector<PetscInt> frozen = beam.ownedFrozenDofs();
    BEAM_PETSC(MatZeroRowsColumns(system.damping, PetscInt(frozen.size()), frozen.data(), 0.0, nullptr, nullptr));
    BEAM_PETSC(MatSetOption(system.damping, MAT_SYMMETRIC, PETSC_TRUE));
    return system;
  }
  // Matrix-free: C = alpha M + beta S as a composite of the two shells. Its frozen rows hold
  // (alpha + beta) x_i instead of 0, which changes nothing: every scheme keeps x_i = y_i = 0 there.
  Mat parts[2] = {system.mass, system.stiffness};
  BEAM_PETSC(MatCreateComposite(beam.comm(), 2, parts, system.damping.out()));
  const PetscScalar scalings[2] = {alpha, beta};
  BEAM_PETSC(MatCompositeSetScalings(system.damping, scalings));
  // a M + b C + c S = (a + b alpha) M + (c + b beta) S for the schemes' system matrices.
  system.combine = [inner = system.combine, alpha, beta](double a, double b, double c) {
    return inner(a + b * alpha, 0.0, c + b * beta);
  };
  return system;
}

void exportSystem(const Beam &beam, const SecondOrderSystem &system, const std::string &dir) {
  if (system.combine) return exportSystem(beam, beamSystem(beam, OperatorKind::Assembled), dir); // shells: no entries
  prepareOutputDirectory(dir);
  writeMatrixMarket(system.mass, dir + "/M.mtx");
  writeMatrixMarket(system.stiffness, dir + "/K.mtx");
  writeMatrixMarketArray({system.load.get()}, dir + "/F.mtx");
  writeIndexList(beam.comm(), beam.frozenDofs(), dir + "/fixed.txt");
}

RunResult runBeamLab(TimeLoop &loop, const Beam &beam, const SecondOrderSystem &system,
                     const BeamLabOptions &options, const std::string &dir, bool console) {
  prepareOutputDirectory(dir);
  std::vector<std::unique_ptr<Monitor>> owned;
  owned.push_back(std::make_unique<EnergyLog>(beam.comm(), dir + "/energy.csv"));
  if (console && !options.quiet) owned.push_back(std::make_unique<ConsoleEnergy>(beam.comm(), options.console_every));
  if (!options.quiet) owned.push_back(std::make_unique<Progress>(beam.comm()));
  if (options.snapshot_every > 0) owned.push_back(std::make_unique<VtkSnapshots>(beam, dir, options.snapshot_every));
  std::vector<Monitor *> monitors;
  for (auto &m : owned) monitors.push_back(m.get());

  PVec x = system.createVector(), y = system.createVector();
  BEAM_PETSC(VecSet(x, 0.0));
  BEAM_PETSC(VecSet(y, 0.0));
  const RunResult result = loop.run(x, y, monitors);
  if (!options.save_final.empty() && !result.diverged) writeMatrixMarketArray({x.get(), y.get()}, options.save_final);
  return result;
}

void printSummary(MPI_Comm comm, const std::vector<RunResult> &results) {
  BEAM_PETSC(PetscPrintf(comm, "\n%-18s %9s %10s %14s %14s  %s\n", "scheme", "steps", "time", "max|drift|",
                         "final drift", "verdict"));
  for (const auto &r : results) {
    // conserved: round-off level; oscillates: the drift comes back (final below half the largest);
    // otherwise the sign of the final drift says which way the energy went.
    const char *verdict = r.diverged                                ? "DIVERGED"
                          : r.max_abs_drift < 1e-8                  ? "conserved"
                          : std::abs(r.final_drift) < 0.5 * r.max_abs_drift ? "oscillates"
                          : r.final_drift < 0                       ? "loses energy"
                                                                    : "gains energy";
    BEAM_PETSC(PetscPrintf(comm, "%-18s %9lld %10.5g %14.6e %14.6e  %s\n", r.scheme.c_str(),
                           (long long)r.steps_done, r.time, r.max_abs_drift, r.final_drift, verdict));
  }
  BEAM_PETSC(PetscPrintf(comm, "(drift = (E - E0) / scale, scale = max(|E0|, 1/2 f'S^-1 f))\n"));
}

int schemeLabMain(int argc, char **argv, const char *scheme_name, const char *help) {
  PetscSession session(&argc, &argv, help);
  return runMain(session, scheme_name, [&] {
    BeamLabOptions options = readBeamLabOptions(PETSC_COMM_WORLD, scheme_name);
    if (options.help) return int(kExitOk);
    const Beam beam(options.beam, PETSC_COMM_WORLD);
    // The solver path: the user's -linear_solver/-operator, or chosen by size, ranks and mass kind.
    const SolverPath path = chooseSolverPath(beam, options.operator_kind, options.run.solver);
    options.operator_kind = path.operator_kind;
    options.run.solver = path.solver;
    BEAM_PETSC(PetscPrintf(PETSC_COMM_WORLD, "%s\n", describeSolverPath(path).c_str()));
    SecondOrderSystem system = beamSystem(beam, options);
    attachSolverPath(beam, path, system);
    const auto scheme = makeScheme(scheme_name);
    TimeLoop loop(*scheme, system, options.run);
    rejectUnusedOptions(); // every solver has read its options by now; nothing is written yet
    warnIfUnstable(system, beam.frozenDofs(), scheme_name, options.run.dt); // warns, does not refuse
    if (!options.export_dir.empty()) exportSystem(beam, system, options.export_dir);
    const RunResult result = runBeamLab(loop, beam, system, options, options.output_dir, true);
    printSummary(PETSC_COMM_WORLD, {result});
    if (result.diverged) throw runError(result.divergence);
    if (result.interrupted_by) {
      BEAM_PETSC(PetscPrintf(PETSC_COMM_WORLD,
                             "stopped by signal %d after step %lld (t = %g); checkpoint %s; continue with -restart %s\n",
                             result.interrupted_by, (long long)result.steps_done, result.time,
                             options.run.checkpoint_path.c_str(), options.output_dir.c_str()));
      return 128 + result.interrupted_by;
    }
    return int(kExitOk);
  });
}

} // namespace beam
