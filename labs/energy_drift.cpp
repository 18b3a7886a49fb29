// Energy-drift comparison: every scheme on the same beam, dt and T (lab "Równania ruchu", reference 003:
// "print how the total energy changes"), side by side.
//
// Beam: the course's 20x5 Q4 beam, left edge clamped, force -0.1 at P(MX,0,1), starting from rest, so
// E = 1/2 y'My + 1/2 x'Sx - f'x is 0 at t = 0 and constant for the exact solution.
// Expect at the default dt = 0.01 (< 2/w_max = 0.0474): midpoint conserves E to round-off,
// fully implicit loses energy, semi-implicit oscillates boundedly, almost explicit diverges.
// Writes <output_dir>/<scheme>/energy.csv (+ snapshots), <output_dir>/energy_drift.csv and, when
// Debian's python3-matplotlib is installed, <output_dir>/energy_drift.png.
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <utility>
#include <string>

#include "labs/BeamLab.hpp"
#include "common/Options.hpp"
#include "common/StopSignal.hpp"
#include "output/DriftTable.hpp"
#include "output/FileUtil.hpp"

static const char help[] = "Runs every time scheme on the same beam and compares their energy drift.\n";

int main(int argc, char **argv) {
  beam::PetscSession session(&argc, &argv, help);
  return beam::runMain(session, "energy_drift", [&] {
    auto options = beam::readBeamLabOptions(PETSC_COMM_WORLD, "energy_drift", beam::BeamLabKind::AllSchemes);
    // One file for every scheme's final state: each run replaced the last's, and the file held the last
    // scheme's state without a word.
    if (!options.save_final.empty() && options.schemes.size() > 1)
      throw beam::inputError("-save_final: one file for " + std::to_string(options.schemes.size()) +
                             " schemes (each run would replace the last's state); accepted: -save_final with one scheme in -schemes");
    const beam::Beam beam(options.beam, PETSC_COMM_WORLD);
    const auto model = beam::beamModel(beam, options, options.schemes);
    const beam::SecondOrderSystem &system = model->system();

    // One scheme at a time: its combination matrices and factor exist only while it runs, so the run's
    // peak memory is the largest scheme's, as the memory check counts it (with all 16 set up together
    // the 1000 x 100 beam took 3.4 GiB on the direct path and 0.95 GiB with -linear_solver cg, 4-5x the
    // estimate). Every scheme is first set up once and released, so that all solver options are read
    // (and listed) before the unknown-option check, and every refusal a set-up makes (a bad solver
    // option, a -dt whose step matrix overflows: refused after three schemes had run, until 2026-12-01)
    // comes before anything runs; each is then set up again for its run.
    auto loopFor = [&](const std::string &name, std::unique_ptr<beam::TimeScheme> &scheme) {
      scheme = beam::makeScheme(name);
      beam::RunSettings run = beam::labRunSettings("energy_drift", options);
      run.checkpoint_path = options.output_dir + "/" + name + "/checkpoint.bin";
      return std::make_unique<beam::TimeLoop>(*scheme, *model, run);
    };
    for (const auto &name : options.schemes) {
      std::unique_ptr<beam::TimeScheme> scheme;
      loopFor(name, scheme);
    }
    if (beam::finishOptions(PETSC_COMM_WORLD)) return 0; // -help: every solver has listed its options
    // -export_system's directory checked with the others, its files written when the first scheme's run
    // starts, after every refusal (the earlier results' removal can refuse too).
    std::function<void()> export_files;
    if (!options.export_dir.empty()) {
      beam::prepareOptionDirectory("-export_system", options.export_dir);
      export_files = [&] { beam::exportSystem(beam, system, options.export_dir); };
    }
    // Every scheme's directory before any runs: a file in the place of the last one was refused (exit 2)
    // after the others had run and written theirs.
    // The scheme's own files too (-save_final o/midpoint/energy.csv was refused only when its run began,
    // after the earlier table had been removed and "running midpoint" printed).
    beam::refuseRunFileAsFinalState(options.save_final, options.output_dir, "", {"energy_drift.csv", "energy_drift.png"});
    for (const auto &name : options.schemes)
      beam::refuseRunFileAsFinalState(options.save_final, options.output_dir + "/" + name, "beam");
    beam::prepareOutputDirectory(options.output_dir); // its table and chart, then each scheme's directory
    for (const auto &name : options.schemes) beam::prepareOutputDirectory(options.output_dir + "/" + name);
    // And writable, before anything is removed (a -save_final in a missing directory was refused when the
    // scheme's run began, after the earlier run's files had gone).
    int rank = 0;
    MPI_Comm_rank(PETSC_COMM_WORLD, &rank);
    if (!options.save_final.empty())
      beam::agreeOn(PETSC_COMM_WORLD, [&] {
        if (rank == 0) beam::checkWritableFile("-save_final", options.save_final);
      });
    BEAM_PETSC(PetscPrintf(PETSC_COMM_WORLD, "%s\n", options.solver_path_line.c_str()));
    // An earlier run's table and chart, and its schemes' logs and series, would stand beside this run's if
    // it is stopped (a rerun stopped after two schemes left the others' earlier energy.csv and snapshots):
    // removed first. energy_drift has no -restart.
    beam::removeEarlierResults(options.output_dir, {"energy_drift.csv", "energy_drift.png"});
    for (const auto &name : options.schemes) {
      beam::clearPreviousRun(options.output_dir + "/" + name, "beam");
      beam::removeEarlierResults(options.output_dir + "/" + name, {"energy.csv"});
    }

    // SIGINT/SIGTERM stop the sweep: inside a run, the run stops after its step (and checkpoints); between
    // runs or during a run's last step, the sweep stops before the next scheme (a signal then was lost, or,
    // while a scheme was set up, ended the lab without a word).
    const beam::StopHandlers stop_handlers;
    std::vector<beam::RunResult> results;
    for (const auto &name : options.schemes) {
      if (const int sig = beam::stopRequested(PETSC_COMM_WORLD)) {
        beam::printSummary(PETSC_COMM_WORLD, results);
        BEAM_PETSC(PetscPrintf(PETSC_COMM_WORLD,
                               "stopped by signal %d before %s; it and the schemes after it did not run (energy_drift "
                               "has no -restart: run it again)\n",
                               sig, name.c_str()));
        return 128 + sig;
      }
      PetscPrintf(PETSC_COMM_WORLD, "running %s ...\n", name.c_str());
      std::unique_ptr<beam::TimeScheme> scheme;
      const auto loop = loopFor(name, scheme);
      results.push_back(beam::runBeamLab(*loop, *model, options, options.output_dir + "/" + name, false,
                                         std::exchange(export_files, nullptr)));
      if (results.back().interrupted_by) { // stopped by a signal: report what ran, skip the rest
        beam::printSummary(PETSC_COMM_WORLD, results);
        const beam::RunResult &r = results.back();
        BEAM_PETSC(PetscPrintf(PETSC_COMM_WORLD,
                               "stopped by signal %d in %s after step %lld; the schemes after it did not run (energy_drift "
                               "has no -restart: run it again)\n",
                               r.interrupted_by, name.c_str(), (long long)r.steps_done));
        return 128 + r.interrupted_by;
      }
    }
    beam::printSummary(PETSC_COMM_WORLD, results);
    beam::writeDriftTable(PETSC_COMM_WORLD, results, options.output_dir);
    if (const int sig = beam::stopRequested(PETSC_COMM_WORLD)) { // during the last scheme's end: every run done
      BEAM_PETSC(PetscPrintf(PETSC_COMM_WORLD, "stopped by signal %d after every scheme had run; the table is complete\n", sig));
      return 128 + sig;
    }
    // Some schemes diverging is what the lab shows (almost_explicit above its limit); all of them
    // diverging leaves nothing to compare: a failed run, with its table written.
    size_t diverged = 0;
    for (const auto &r : results) diverged += r.diverged ? 1 : 0;
    if (!results.empty() && diverged == results.size())
      throw beam::runError("all " + std::to_string(diverged) + " schemes diverged (DIVERGED in the table, which is written); the first, " +
                           results.front().divergence);
    return 0;
  });
}
