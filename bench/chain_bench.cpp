// Benchmark of the multibody `chain` model (not a test): `-links N` rods of 0.1 m joined by spherical
// joints, released horizontal (Multibody/ModelFile.cpp), run by the time loop as the multibody lab runs
// it — the scheme's steps (RK4: four augmented solves each), the energy and constraint diagnostics after
// every step — without output files. Each augmented system has 7N coordinates, 3N joint rows and N
// quaternion-norm rows (11N unknowns): dense below 150 unknowns, sparse LU (pattern analysed once) above,
// so the cost per step should grow linearly with N. One CSV row:
//   links, unknowns, solve (dense|sparse), scheme, dt, steps,
//   setup_s          building the model and the time loop,
//   median_step_s    median wall time of one step (the first step, which analyses the sparse pattern,
//                    counts like any other; the median ignores it), min_step_s the fastest step,
//   body_step_us     median_step_s / links, in microseconds.
//
//   chain_bench -links 100 -steps 100 [-scheme rk4] [-dt 1e-3] [-header]
// bench/chain_bench.sh runs 10 to 3000 links and records the machine load.
#include <algorithm>
#include <chrono>
#include <string>

#include "Multibody/MultibodyModel.hpp"
#include "bench/Timing.hpp"
#include "common/Options.hpp"
#include "solvers/TimeLoop.hpp"

static const char help[] = "Benchmark: seconds per step and per body-step of the multibody chain.\n";

int main(int argc, char **argv) {
  beam::PetscSession session(&argc, &argv, help);
  return beam::runMain(session, "chain_bench", [&] {
    PetscInt links = 100, steps = 100;
    double dt = 1e-3;
    std::string scheme_name = "rk4";
    bool header = false;
    beam::readOptions(PETSC_COMM_WORLD, "Chain benchmark", "", [&](beam::OptionReader &r) {
      links = r.integer("-links", "Bodies in the chain", links, 1, beam::multibody::kMaxChainLinks);
      steps = r.integer("-steps", "Timed steps", steps, 3);
      dt = r.real("-dt", "Time step", dt, beam::Bounds::above(0));
      const auto &names = beam::generalSchemeNames();
      const int rk4 = int(std::find(names.begin(), names.end(), scheme_name) - names.begin());
      scheme_name = names[size_t(r.choice("-scheme", "Time scheme", names, rk4, "scheme"))];
      header = r.flag("-header", "Print the CSV header first", header);
    });
    using beam::bench::Clock;
    const auto t0 = Clock::now();
    const beam::multibody::MultibodyModel model(beam::multibody::loadModel("chain", int(links)), PETSC_COMM_WORLD);
    beam::RunSettings run;
    run.dt = dt;
    run.T = double(steps) * dt;
    const auto scheme = beam::makeScheme(scheme_name);
    beam::TimeLoop loop(*scheme, model, run);
    if (beam::finishOptions(PETSC_COMM_WORLD)) return 0;
    beam::PVec x = model.createVector(), v = model.createVector();
    model.initialState(x, v);
    const double setup = beam::bench::since(t0);

    beam::bench::StepTimer timer;
    const beam::RunResult result = loop.run(x, v, {&timer});
    if (result.diverged) throw beam::runError(result.divergence);
    const std::vector<double> per_step = timer.stepSeconds();
    const double median = beam::bench::median(per_step);
    const double fastest = *std::min_element(per_step.begin(), per_step.end());
    const long unknowns = 7L * model.bodyCount() + model.jointRowCount() + model.bodyCount();
    if (header)
      BEAM_PETSC(PetscPrintf(PETSC_COMM_WORLD,
                             "links,unknowns,solve,scheme,dt,steps,setup_s,median_step_s,min_step_s,body_step_us\n"));
    BEAM_PETSC(PetscPrintf(PETSC_COMM_WORLD, "%lld,%ld,%s,%s,%g,%lld,%.4f,%.6e,%.6e,%.2f\n", (long long)links,
                           unknowns, beam::multibody::MultibodyModel::solvesDense(unknowns) ? "dense" : "sparse",
                           scheme_name.c_str(), dt, (long long)steps, setup, median, fastest,
                           median / double(links) * 1e6));
    return 0;
  });
}
