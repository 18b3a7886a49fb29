#include "labs/BeamLab.hpp"
#include "common/Exact.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>

#include "common/Options.hpp"
#include "output/FileUtil.hpp"
#include "output/MatrixMarket.hpp"
#include "solvers/CriticalStep.hpp"

namespace beam {

SecondOrderSystem beamSystem(const Beam &beam, const BeamLabOptions &options) {
  SecondOrderSystem system = beamSystem(beam, options.operator_kind);
  system.load_factor = options.load_factor;
  system.load_factor_bound = options.load_identity.bound;
  addRayleighDamping(system, beam, options.rayleigh_alpha, options.rayleigh_beta);
  return system;
}

RunSettings labRunSettings(const std::string &lab, const BeamLabOptions &options) {
  RunSettings run = options.run;
  // What defines the run beyond the beam (BeamModel::identity) and the scheme (TimeLoop::identity).
  run.identity = {{"lab", lab},
                  {"operator", operatorName(options.operator_kind)},
                  {"rayleigh_alpha", exactDecimal(options.rayleigh_alpha)},
                  {"rayleigh_beta", exactDecimal(options.rayleigh_beta)},
                  {"load_in_time", options.load_identity.text}};
  return run;
}

std::unique_ptr<BeamModel> beamModel(const Beam &beam, BeamLabOptions &options, const std::vector<std::string> &schemes) {
  beam.warnFrozenLoads();
  // The solver path: the user's -linear_solver/-operator, or chosen by size, ranks and mass kind.
  const SolverPath path = chooseSolverPath(beam, options.operator_kind, options.run.solver);
  options.operator_kind = path.operator_kind;
  options.run.solver = path.solver;
  // Before the matrices are allocated: a run that cannot fit is refused with the estimate (its one
  // line names the operator; the path is printed only for a run that goes ahead).
  RunNeeds needs;
  needs.kind = path.operator_kind;
  needs.direct_solver = path.solver == LinearSolverKind::Direct;
  needs.damped = options.rayleigh_alpha != 0 || options.rayleigh_beta != 0;
  needs.scheme_matrices = needs.solvers = 0;
  for (const auto &name : schemes) { // the largest: a lab runs its schemes one at a time
    const TimeScheme::Footprint f = makeScheme(name)->footprint();
    needs.scheme_matrices = std::max(needs.scheme_matrices, f.matrices);
    needs.solvers = std::max(needs.solvers, f.solvers + 1); // + the model's mass solver or the energy scale's S
  }
  checkMemory(beam.comm(), options.beam, needs, nullptr, true);
  // Printed by the lab once the options, output directory and restart are accepted: on stdout before a
  // refusal it read as a run that went ahead.
  options.solver_path_line = describeSolverPath(path);
  SecondOrderSystem system = beamSystem(beam, options);
  attachSolverPath(beam, path, system);
  return std::make_unique<BeamModel>(beam, std::move(system), options.run.solver);
}

void exportSystem(const Beam &beam, const SecondOrderSystem &system, const std::string &dir) {
  if (system.combine) return exportSystem(beam, beamSystem(beam, OperatorKind::Assembled), dir); // shells: no entries
  prepareOptionDirectory("-export_system", dir);
  writeMatrixMarket(system.mass, dir + "/M.mtx");
  writeMatrixMarket(system.stiffness, dir + "/K.mtx");
  writeMatrixMarketArray({system.load.get()}, dir + "/F.mtx");
  writeIndexList(beam.comm(), beam.frozenDofs(), dir + "/fixed.txt");
}

RunResult runBeamLab(TimeLoop &loop, const BeamModel &model, const BeamLabOptions &options, const std::string &dir,
                     bool console, const std::function<void()> &at_start) {
  LabOutput output;
  output.dir = dir;
  output.quiet = options.quiet;
  output.console = console;
  output.console_every = options.console_every;
  output.snapshot_every = options.snapshot_every;
  output.save_final = options.save_final;
  output.snapshot_name = "beam";
  if (console) output.header = options.solver_path_line;
  output.at_start = at_start;
  PVec x = model.createVector(), y = model.createVector();
  BEAM_PETSC(VecSet(x, 0.0));
  BEAM_PETSC(VecSet(y, 0.0));
  RunResult result = runModel(loop, model, x, y, output);
  saveFinalState(model.comm(), options.save_final, result, [&] { writeMatrixMarketArray({x.get(), y.get()}, options.save_final); });
  return result;
}

int schemeLabMain(int argc, char **argv, const char *scheme_name, const char *help) {
  PetscSession session(&argc, &argv, help);
  return runMain(session, scheme_name, [&] {
    BeamLabOptions options = readBeamLabOptions(PETSC_COMM_WORLD, scheme_name);
    const Beam beam(options.beam, PETSC_COMM_WORLD);
    const auto model = beamModel(beam, options, {scheme_name});
    const SecondOrderSystem &system = model->system();
    const auto scheme = makeScheme(scheme_name);
    TimeLoop loop(*scheme, *model, labRunSettings(scheme_name, options));
    // Every solver has read its options by now; nothing is written yet. -help stops here.
    if (finishOptions(PETSC_COMM_WORLD)) return int(kExitOk);
    warnIfUnstable(system, beam.frozenDofs(), scheme_name, options.run.dt); // warns, does not refuse
    // -export_system's directory is checked now, its files written when the run starts (after the output
    // directory's, -save_final's and a restart's refusals).
    std::function<void()> export_files;
    if (!options.export_dir.empty()) {
      refuseRunFileAsFinalState(options.save_final, options.export_dir, "", {"M.mtx", "K.mtx", "F.mtx", "fixed.txt"});
      prepareOptionDirectory("-export_system", options.export_dir);
      export_files = [&] { exportSystem(beam, system, options.export_dir); };
    }
    const RunResult result = runBeamLab(loop, *model, options, options.output_dir, true, export_files);
    return reportRun(PETSC_COMM_WORLD, result, options.output_dir);
  });
}

} // namespace beam
