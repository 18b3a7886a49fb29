// Benchmark of one scheme on one beam (not a test): assembly and setup seconds, seconds per step
// (median over the run, energy measured every step as in the labs, snapshots off) and peak resident
// memory. Prints one CSV row; bench/run.sh runs the standard sizes, one process each, so every peak
// memory figure belongs to one size only.
//
//   bench_scheme -mx 2000 -my 50 -steps 50 [-scheme midpoint] [-linear_solver direct|cg]
//                [-operator assembled|matfree] [-lumped_mass] [-header]
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

#include "labs/BeamLab.hpp"
#include "labs/OptionParsing.hpp"

namespace {

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// Records the wall time at which every step completes.
class StepTimer final : public beam::Monitor {
public:
  void observe(const beam::StepState &) override { stamps.push_back(Clock::now()); }
  std::vector<Clock::time_point> stamps;
};

double peakMemoryMiB() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return double(usage.ru_maxrss) / 1024.0; // kB on Linux
}

} // namespace

static const char help[] = "Benchmark: seconds per step and peak memory of one scheme on one beam.\n";

int main(int argc, char **argv) {
  beam::PetscSession session(&argc, &argv, help);
  return beam::runMain(session, "bench_scheme", [&] {
    PetscInt mx = 2000, my = 50, steps = 50;
    char scheme_name[64] = "midpoint", solver[16] = "direct", op[16] = "assembled";
    PetscBool header = PETSC_FALSE, lumped = PETSC_FALSE;
    BEAM_PETSC(PetscOptionsGetInt(nullptr, nullptr, "-mx", &mx, nullptr));
    BEAM_PETSC(PetscOptionsGetInt(nullptr, nullptr, "-my", &my, nullptr));
    BEAM_PETSC(PetscOptionsGetInt(nullptr, nullptr, "-steps", &steps, nullptr));
    BEAM_PETSC(PetscOptionsGetString(nullptr, nullptr, "-scheme", scheme_name, sizeof scheme_name, nullptr));
    BEAM_PETSC(PetscOptionsGetString(nullptr, nullptr, "-linear_solver", solver, sizeof solver, nullptr));
    BEAM_PETSC(PetscOptionsGetBool(nullptr, nullptr, "-header", &header, nullptr));
    BEAM_PETSC(PetscOptionsGetString(nullptr, nullptr, "-operator", op, sizeof op, nullptr));
    BEAM_PETSC(PetscOptionsGetBool(nullptr, nullptr, "-lumped_mass", &lumped, nullptr));
    if (steps < 3) throw beam::inputError("-steps: accepted: an integer >= 3");

    beam::BeamSpec spec;
    spec.mx = int(mx);
    spec.my = int(my);
    spec.lumped_mass = lumped;
    beam::RunSettings run;
    run.dt = 0.01;
    run.T = double(steps) * run.dt;
    run.solver = beam::parseLinearSolver(solver);

    auto t0 = Clock::now();
    const beam::Beam beam(spec, PETSC_COMM_WORLD);
    const beam::SecondOrderSystem system = beam::beamSystem(beam, beam::parseOperator(op));
    const double assembly = since(t0);
    const auto scheme = beam::makeScheme(scheme_name);
    t0 = Clock::now();
    beam::TimeLoop loop(*scheme, system, run); // factorization + the energy scale's static solve
    const double setup = since(t0);
    beam::rejectUnusedOptions();

    StepTimer timer;
    beam::PVec x = system.createVector(), y = system.createVector();
    BEAM_PETSC(VecSet(x, 0.0));
    BEAM_PETSC(VecSet(y, 0.0));
    const beam::RunResult result = loop.run(x, y, {&timer});
    std::vector<double> per_step;
    for (size_t i = 1; i < timer.stamps.size(); ++i)
      per_step.push_back(std::chrono::duration<double>(timer.stamps[i] - timer.stamps[i - 1]).count());
    std::nth_element(per_step.begin(), per_step.begin() + long(per_step.size() / 2), per_step.end());
    const double median = per_step[per_step.size() / 2];

    double peak = peakMemoryMiB(), peak_total = 0;
    MPI_Reduce(&peak, &peak_total, 1, MPI_DOUBLE, MPI_SUM, 0, PETSC_COMM_WORLD);
    if (header)
      BEAM_PETSC(PetscPrintf(PETSC_COMM_WORLD, "scheme,operator,mass,solver,ranks,mx,my,dofs,assembly_s,setup_s,"
                                               "median_step_s,peak_rss_mib,final_drift\n"));
    BEAM_PETSC(PetscPrintf(PETSC_COMM_WORLD, "%s,%s,%s,%s,%d,%d,%d,%lld,%.4f,%.4f,%.6f,%.1f,%.3e\n", scheme_name, op,
                           lumped ? "lumped" : "consistent", solver,
                           session.size(), int(mx), int(my), (long long)beam.mesh().dofCount(), assembly, setup,
                           median, peak_total, result.final_drift));
    return 0;
  });
}
