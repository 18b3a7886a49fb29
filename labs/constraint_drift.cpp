// Lab "constraint drift" (reference 001, eq. 12): the reference's point made visible. One mechanism, one
// scheme, several stabilizations of the constraints g(q) = 0:
//   none        Baumgarte off (omega = 0): G qdd = L keeps gdd = 0 only, so round-off and the scheme's
//               truncation error make g and gdot drift (g grows like t or t^2);
//   baumgarte   W = -2 xi omega gdot - omega^2 g for a few (xi, omega): the violation is damped back;
//   projection  positions and velocities projected onto g = 0, G qdot = 0 after each step.
// Expect: the violation grows without stabilization, stays bounded with Baumgarte, sits at round-off
// with projection; the energy error follows the scheme, not the stabilization, except when Baumgarte's
// correction is large against the step.
// Writes <output_dir>/<variant>/energy.csv, <output_dir>/constraint_drift.csv
// (variant,xi,omega,projection,max_position_violation,final_position_violation,max_abs_drift,status;
// status ok or diverged) and
// constraint_drift.png.
#include <cmath>
#include <cstdio>
#include <memory>

#include "common/Exact.hpp"
#include "common/Warnings.hpp"
#include "common/Options.hpp"
#include "common/StopSignal.hpp"
#include "labs/ModelLab.hpp"
#include "labs/MultibodyLabOptions.hpp"
#include "output/FileUtil.hpp"
#include "output/PlotScript.hpp"

static const char help[] = "Constraint drift of a multibody model with and without stabilization (reference 001, eq. 12).\n";

namespace {

struct Variant {
  std::string name;
  beam::multibody::Baumgarte baumgarte;
  bool projection;
};

// Follows the largest position violation of a run, up to where it stopped: a diverged run's row shows
// the violation of the state judged diverged (inf when that state is not finite), as its max|drift| does
// (a run diverged at step 1 showed max |g| 0 beside max|drift| 1.9e20 until 2026-11-28).
struct Violation final : beam::Monitor {
  void observe(const beam::StepState &s) override {
    last = s.energy.diagnostics.empty() ? 0 : s.energy.diagnostics[0];
    if (!std::isfinite(last)) last = HUGE_VAL;
    largest = std::max(largest, last);
  }
  void failedAt(const beam::StepState &s) override {
    observe(s);
    stopped_seen = true;
  }
  void finish(const beam::RunResult &r) override {
    if (r.diverged && !stopped_seen && !std::isfinite(r.final_drift)) last = largest = HUGE_VAL; // blew up
  }
  double largest = 0, last = 0;
  bool stopped_seen = false;
};

} // namespace

int main(int argc, char **argv) {
  beam::PetscSession session(&argc, &argv, help);
  return beam::runMain(session, "constraint_drift", [&] {
    beam::MultibodyLabOptions o;
    o.run.dt = 1e-3;
    o.run.T = 5;
    o.output.dir = "out/constraint_drift";
    beam::agreeOn(PETSC_COMM_WORLD, [&] {
      // Its variants set Baumgarte and projection: -baumgarte_* given here were read and ignored, exit 0.
      o.mechanism = beam::readMechanismOptions(PETSC_COMM_WORLD, false);
      beam::readRunOptions(PETSC_COMM_WORLD, o.run);
      o.scheme = beam::readSchemeOption(PETSC_COMM_WORLD, o.scheme, beam::schemesServing(false, false));
      beam::readOutputOptions(PETSC_COMM_WORLD, o.output, {nullptr, 0, false});
    });
    const std::vector<Variant> variants = {{"none", {1, 0}, false},
                                           {"baumgarte_1_5", {1, 5}, false},
                                           {"baumgarte_1_20", {1, 20}, false},
                                           {"baumgarte_0.5_50", {0.5, 50}, false},
                                           {"projection", {1, 0}, true}};
    // Every model, scheme and loop first, so all options are read before the unknown-option check.
    std::vector<std::unique_ptr<beam::multibody::MultibodyModel>> models;
    std::vector<std::unique_ptr<beam::TimeScheme>> schemes;
    std::vector<std::unique_ptr<beam::TimeLoop>> loops;
    for (const auto &v : variants) {
      models.push_back(std::make_unique<beam::multibody::MultibodyModel>(o.mechanism.description, PETSC_COMM_WORLD,
                                                                         v.baumgarte, v.projection));
      schemes.push_back(beam::makeScheme(o.scheme));
      loops.push_back(std::make_unique<beam::TimeLoop>(*schemes.back(), *models.back(), o.run));
    }
    if (beam::finishOptions(PETSC_COMM_WORLD)) return 0;
    // Each variant's initial state checked and Newton's linear solver set up before the directories: an
    // option refused there leaves none behind.
    for (size_t i = 0; i < variants.size(); ++i) {
      beam::PVec x = models[i]->createVector(), v = models[i]->createVector();
      models[i]->initialState(x, v);
      loops[i]->prepareStart(x, v);
    }
    // Every variant's directory before any runs: a file in the place of the last one was refused (exit 2)
    // after four variants had run and printed their rows.
    beam::prepareOutputDirectory(o.output.dir); // its tables and chart (checked and locked), then each variant's
    for (const auto &v : variants) beam::prepareOutputDirectory(o.output.dir + "/" + v.name);
    beam::releaseWarnings(); // the sweep starts (common/Warnings.hpp)
    // An earlier sweep's energy.csv in the variants' directories goes first (the variants write nothing
    // else): a rerun stopped by a signal after three variants left the other two's of the earlier run
    // beside the new ones (another dt).
    for (const auto &v : variants) beam::removeEarlierResults(o.output.dir + "/" + v.name, {"energy.csv"});
    int rank = 0;
    MPI_Comm_rank(PETSC_COMM_WORLD, &rank);

    std::string table = "variant,xi,omega,projection,max_position_violation,final_position_violation,max_abs_drift,status\n";
    BEAM_PETSC(PetscPrintf(PETSC_COMM_WORLD, "constraint_drift: %s, %s, dt = %s, T = %s\n\n%-18s %14s %14s %14s\n",
                           o.mechanism.description.source.c_str(), o.scheme.c_str(), beam::gText(o.run.dt).c_str(),
                           beam::gText(o.run.T).c_str(), "variant",
                           "max |g|", "final |g|", "max|drift|"));
    int diverged = 0, interrupted_by = 0;
    size_t done = 0;
    std::string first_divergence;
    // SIGINT/SIGTERM end the sweep after the variant in progress (its runs do not checkpoint), with the
    // variants run so far in the table and chart (the lab died at once, with no table, until 2026-11-27).
    const beam::StopHandlers stop_handlers;
    // The table so far, written from the start and after each variant: a signal to mpiexec ends the ranks
    // one second after it forwards it (OpenMPI), too soon to finish the variant in progress; the rows run stay.
    const std::string table_path = o.output.dir + "/constraint_drift.csv";
    const auto saveRows = [&] { beam::writeOnRankZero(PETSC_COMM_WORLD, table_path, table); };
    saveRows();
    for (size_t i = 0; i < variants.size(); ++i) {
      if ((interrupted_by = beam::stopRequested(PETSC_COMM_WORLD)) != 0) break;
      beam::OutputOptions out = o.output;
      out.dir = o.output.dir + "/" + variants[i].name;
      out.quiet = true;
      out.snapshot_every = 0;
      beam::PVec x = models[i]->createVector(), v = models[i]->createVector();
      models[i]->initialState(x, v);
      Violation violation;
      const beam::RunResult r = beam::runModel(*loops[i], *models[i], x, v, beam::labOutput(out, "multibody", beam::multibodyEnergyColumns()), {&violation});
      ++done;
      if (r.diverged && diverged++ == 0) first_divergence = "'" + variants[i].name + "': " + r.divergence;
      const Variant &var = variants[i];
      BEAM_PETSC(PetscPrintf(PETSC_COMM_WORLD, "%-18s %14.4e %14.4e %14.4e%s\n", var.name.c_str(), violation.largest,
                             violation.last, r.max_abs_drift, r.diverged ? "  DIVERGED" : ""));
      table += var.name + "," + beam::exactDecimal(var.baumgarte.xi) + "," + beam::exactDecimal(var.baumgarte.omega) + "," +
               (var.projection ? "1" : "0") + "," + beam::exactDecimal(violation.largest) + "," +
               beam::exactDecimal(violation.last) + "," + beam::exactDecimal(r.max_abs_drift) + "," +
               (r.diverged ? "diverged" : "ok") + "\n";
      saveRows();
    }
    if (!interrupted_by) interrupted_by = beam::stopRequested(PETSC_COMM_WORLD); // during the last variant
    beam::agreeOn(PETSC_COMM_WORLD, [&] { // rank 0 draws: its failure ends every rank at once
      if (rank != 0) return;
      std::vector<std::string> args = {o.output.dir};
      for (size_t i = 0; i < done; ++i) args.push_back(variants[i].name);
      if (done > 0) beam::runPlotScript("plot_constraint_drift.py", args); // a curve per variant run
    });
    if (interrupted_by) {
      BEAM_PETSC(PetscPrintf(PETSC_COMM_WORLD, "stopped by signal %d after %zu of %zu variants; constraint_drift.csv holds those\n",
                             interrupted_by, done, variants.size()));
      return 128 + interrupted_by;
    }
    // A diverging variant is a failed run (exit 3, one line), once the table and the plot are written.
    if (diverged)
      throw beam::runError(std::to_string(diverged) + " of " + std::to_string(variants.size()) +
                           " variants diverged (DIVERGED in the table, which is written); the first, " + first_divergence);
    return 0;
  });
}
