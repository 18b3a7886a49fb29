// Benchmark of a mass-spring network run as the mass_spring lab runs it (not a test; bench/cloth.sh
// runs it on the cloths of issue 10). It reads the lab's own option sets (readMassSpringLabOptions:
// -particles/-springs or -model, -scheme, -dt, -T, and the Newton solver's -ms_ options) with the lab's
// defaults, so without solver options it measures the path a user of the lab gets; the time loop
// measures the energy every step as in the lab; no file is written. Prints one CSV row:
//   impl,path           "petsc" and the label given with -path (bench/cloth.sh: "default")
//   particles,springs,ranks,steps
//   read_s              reading the options and the network (the CSV files), on every rank
//   setup_s             distributing the network (MassSpringModel) and the scheme's setup (TimeLoop)
//   median_step_s, mean_step_s, min_step_s, max_step_s   wall time of the steps, rank 0's clock
//   newton_per_step     Newton iterations per step (mean over the steps; 0 for an explicit scheme)
//   krylov_per_step     Krylov iterations per step, all the step's linear solves together (mean; 0 for an explicit scheme)
//   peak_rss_mib        peak resident memory summed over the ranks (getrusage), reading included
//
//   bench_cloth -particles P.csv -springs S.csv -scheme implicit_euler -dt 0.01 -T 0.1 [-path LABEL]
//               [-header] [solver options, e.g. -ms_pc_type ilu -ms_snes_monitor]
#include <algorithm>
#include <numeric>
#include <string>
#include <vector>

#include "MassSpring/MassSpringModel.hpp"
#include "bench/Timing.hpp"
#include "common/Exact.hpp"
#include "common/Options.hpp"
#include "labs/MassSpringLabOptions.hpp"
#include "labs/ModelLab.hpp"
#include "solvers/TimeLoop.hpp"

namespace {

using beam::bench::Clock;
using beam::bench::since;

// The Newton and Krylov iterations of every step.
class IterationLog final : public beam::Monitor {
public:
  explicit IterationLog(const beam::TimeScheme &scheme) : scheme_(scheme) {}
  void observe(const beam::StepState &s) override {
    if (s.step == 0) return;
    newton.push_back(double(std::max<PetscInt>(s.newton_its, 0))); // an explicit scheme's -1: no Newton solve
    krylov.push_back(double(std::max<PetscInt>(scheme_.linearIterations(), 0)));
  }
  std::vector<double> newton, krylov;

private:
  const beam::TimeScheme &scheme_;
};

double mean(const std::vector<double> &v) { return v.empty() ? 0.0 : std::accumulate(v.begin(), v.end(), 0.0) / double(v.size()); }

} // namespace

static const char help[] = "Benchmark: seconds, Newton and Krylov iterations per step and peak memory of the mass_spring lab's run.\n";

int main(int argc, char **argv) {
  beam::PetscSession session(&argc, &argv, help);
  return beam::runMain(session, "bench_cloth", [&] {
    const auto t0 = Clock::now();
    std::string path;
    bool header = false;
    beam::readOptions(PETSC_COMM_WORLD, "Benchmark", "", [&](beam::OptionReader &r) {
      path = r.text("-path", "Label of the row", "");
      header = r.flag("-header", "Print the CSV header first", header);
      r.fail(beam::bench::csvLabelProblem(path));
      // The lab's output and restart options: read by the lab's option set, but the benchmark writes no
      // file and runs from the initial state (they were accepted and ignored, exit 0).
      for (const char *name : {"-output_dir", "-save_final", "-snapshot_every", "-console_every", "-checkpoint_every",
                               "-restart", "-track", "-write_network"})
        if (r.given(name))
          r.fail(std::string(name) + ": the benchmark writes no file and runs from the initial state; accepted: the "
                 "network, -scheme, -dt, -T and solver options (run the mass_spring lab for output)");
    });
    const beam::MassSpringLabOptions o = beam::readMassSpringLabOptions(PETSC_COMM_WORLD);
    const double read = since(t0);
    const auto t1 = Clock::now();
    const beam::MassSpringModel model(o.network, PETSC_COMM_WORLD);
    const auto scheme = beam::makeScheme(o.scheme);
    beam::RunSettings run = o.run;
    run.checkpoint_path.clear(); // the lab's end-of-run checkpoint is output, not part of a step
    beam::TimeLoop loop(*scheme, model, run);
    const double setup = since(t1);
    if (beam::finishOptions(PETSC_COMM_WORLD)) return 0;

    beam::PVec x = model.createVector(), v = model.createVector();
    model.initialState(x, v);
    beam::bench::StepTimer timer;
    IterationLog iterations(*scheme);
    const beam::RunResult result = loop.run(x, v, {&timer, &iterations});
    if (result.diverged) throw beam::runError(result.divergence);
    const std::vector<double> seconds = timer.stepSeconds();
    // -T below dt: no step to time (min_element of nothing was a segmentation fault).
    if (seconds.empty()) throw beam::inputError("-T: " + beam::exactDecimal(run.T) + " makes no step of dt = " + beam::exactDecimal(run.dt) + "; accepted: T >= dt");
    double times[4] = {beam::bench::median(seconds), mean(seconds), *std::min_element(seconds.begin(), seconds.end()),
                       *std::max_element(seconds.begin(), seconds.end())};
    // Rank 0's clock decides; the ranks step in lock-step anyway (every Newton iteration has reductions).
    MPI_Bcast(times, 4, MPI_DOUBLE, 0, PETSC_COMM_WORLD);
    const double peak = beam::bench::peakMemoryMiB();
    double peak_total = 0;
    MPI_Allreduce(&peak, &peak_total, 1, MPI_DOUBLE, MPI_SUM, PETSC_COMM_WORLD);
    if (header)
      BEAM_PETSC(PetscPrintf(PETSC_COMM_WORLD, "impl,path,particles,springs,ranks,steps,read_s,setup_s,median_step_s,mean_step_s,"
                                               "min_step_s,max_step_s,newton_per_step,krylov_per_step,peak_rss_mib\n"));
    BEAM_PETSC(PetscPrintf(PETSC_COMM_WORLD, "petsc,%s,%lld,%lld,%d,%zu,%.3f,%.3f,%.6f,%.6f,%.6f,%.6f,%.2f,%.1f,%.1f\n",
                           path.empty() ? "-" : path.c_str(), (long long)model.particleCount(),
                           (long long)model.springCount(), session.size(), seconds.size(), read, setup, times[0],
                           times[1], times[2], times[3], mean(iterations.newton), mean(iterations.krylov), peak_total));
    return 0;
  });
}
