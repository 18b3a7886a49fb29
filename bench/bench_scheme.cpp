// Benchmark of one scheme on one beam (not a test). Prints one CSV row:
//   assembly_s     building the beam and its operator (M, S assembled, or the matrix-free shells);
//   setup_s        TimeLoop construction: the scheme's operator and factorization, and the energy
//                  scale's static solve with S (prefix static_);
//   median_step_s  median wall time of one step of the time loop (energy measured every step as in the
//                  labs, no snapshots); min_step_s the fastest step;
//   peak_rss_mib   peak resident memory, summed over ranks, read before the export and the STREAM run;
//   matvecs_per_step, pc_applies_per_solve   from PETSc's event log of the time loop (stage "Time loop");
//   mb_per_step    bytes moved per step estimated from the operators' structure (Traffic.hpp);
//   stream_gbs     STREAM triad of this run, all ranks streaming at once, summed (Stream.hpp);
//   model_step_s   mb_per_step at stream_gbs; bw_fraction = model_step_s / median_step_s;
//   state_pass_s   one pass over the state at stream_gbs: x, y, f read and x, y written, 5 N 8 bytes;
//   step_per_state_pass = median_step_s / state_pass_s;  ns_per_dof_step = median_step_s / N.
// bench/run.sh runs the standard matrix, one process per configuration, so every peak memory figure
// belongs to one configuration only.
//
//   bench_scheme -mx 2000 -my 50 -steps 50 [-scheme midpoint|semi_implicit] [-linear_solver direct|cg]
//                [-operator assembled|matfree] [-lumped_mass] [-header] [-export_system DIR]
//                [-stream_mib 256] [-path LABEL] [-log_view] [solver options, e.g. -shifted_ksp_rtol 1e-8]
// -path only labels the row (first column; bench/run.sh names its paths default, direct, cg, mf_cg, mf_lumped,
// best). Without -linear_solver and -operator the run takes the lab's default path (MesLib/BeamSystem.hpp
// chooseSolverPath; its solver column says kron for the Kronecker mass inverse).
//
// With -linear_solver cg the static solve of the energy scale is capped at 100 CG iterations whose
// iterate is accepted (-static_ksp_max_it 100 -static_ksp_converged_maxits, unless given): CG with
// Jacobi on S alone needs about 5000 iterations at 2e4 DOFs and does not reach 1e-10 within 10000 at
// 2e5. The scale only normalizes the reported drift; the time loop is unaffected.
// -export_system DIR writes the assembled M, K, f of the same beam (labs/BeamLab.hpp exportSystem) after
// the measurements, so an outside script (bench/scipy_midpoint.py) runs the identical problem.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "bench/Stream.hpp"
#include "bench/Timing.hpp"
#include "bench/Traffic.hpp"
#include "common/Options.hpp"
#include "labs/BeamLab.hpp"
#include "labs/OptionParsing.hpp"

namespace {

using beam::bench::Clock;
using beam::bench::since;

} // namespace

static const char help[] = "Benchmark: seconds per step, memory and bytes per step of one scheme on one beam.\n";

int main(int argc, char **argv) {
  beam::PetscSession session(&argc, &argv, help);
  return beam::runMain(session, "bench_scheme", [&] {
    PetscInt mx = 2000, my = 50, steps = 50, stream_mib = 256;
    std::string scheme_name = "midpoint", solver = "direct", op = "assembled", export_dir, path;
    bool header = false, lumped = false;
    beam::readOptions(PETSC_COMM_WORLD, "Benchmark", "", [&](beam::OptionReader &r) {
      mx = r.integer("-mx", "Elements along the beam", mx, 1);
      my = r.integer("-my", "Elements across the beam", my, 1);
      steps = r.integer("-steps", "Timed steps", steps, 3);
      const auto &names = beam::schemeNames();
      const int midpoint = int(std::find(names.begin(), names.end(), scheme_name) - names.begin());
      scheme_name = names[size_t(r.choice("-scheme", "Time scheme", names, midpoint, "scheme"))];
      solver = r.choice("-linear_solver", "Linear solver", {"direct", "cg"}, 0) == 1 ? "cg" : "direct";
      header = r.flag("-header", "Print the CSV header first", header);
      op = r.choice("-operator", "Operator", {"assembled", "matfree"}, 0) == 1 ? "matfree" : "assembled";
      lumped = r.flag("-lumped_mass", "Row-sum lumped mass", lumped);
      export_dir = r.text("-export_system", "Directory for M.mtx, K.mtx, F.mtx, fixed.txt", "");
      stream_mib = r.integer("-stream_mib", "MiB per STREAM array (0 = no STREAM run)", stream_mib, 0);
      path = r.text("-path", "Label of the row", "");
      r.fail(beam::bench::csvLabelProblem(path));
    });

    beam::BeamSpec spec;
    spec.mx = int(mx);
    spec.my = int(my);
    spec.lumped_mass = lumped;
    beam::RunSettings run;
    run.dt = 0.01;
    run.T = double(steps) * run.dt;
    run.solver = beam::parseLinearSolver(solver);
    beam::OperatorKind kind = beam::parseOperator(op);
    BEAM_PETSC(PetscLogDefaultBegin()); // event counts for the traffic estimate (also without -log_view)
    PetscLogStage loop_stage;
    BEAM_PETSC(PetscLogStageRegister("Time loop", &loop_stage));

    double assembly = 0, setup = 0, median = 0, fastest = 0, peak_total = 0, drift = 0;
    PetscInt dofs = 0;
    std::string solver_label = solver;
    beam::bench::StageCounts counts;
    beam::bench::Traffic traffic;
    {
      auto t0 = Clock::now();
      const beam::Beam beam(spec, PETSC_COMM_WORLD);
      // Without -linear_solver and -operator, the path a lab run takes by default (BeamSystem.hpp).
      const beam::SolverPath solver_path = beam::chooseSolverPath(beam, kind, run.solver);
      kind = solver_path.operator_kind;
      run.solver = solver_path.solver;
      if (run.solver == beam::LinearSolverKind::CG) {
        beam::setDefaultOption("-static_ksp_max_it", "100");
        beam::setDefaultOption("-static_ksp_converged_maxits", "true");
      }
      beam::SecondOrderSystem system = beam::beamSystem(beam, kind);
      beam::attachSolverPath(beam, solver_path, system);
      assembly = since(t0);
      solver_label = solver_path.kronecker_mass ? "kron" : beam::linearSolverName(run.solver);
      dofs = beam.mesh().dofCount();
      const auto scheme = beam::makeScheme(scheme_name);
      t0 = Clock::now();
      const beam::LinearModel model(system, run.solver);
      beam::TimeLoop loop(*scheme, model, run); // factorization + the energy scale's static solve
      setup = since(t0);
      (void)beam::finishOptions(PETSC_COMM_WORLD);

      beam::bench::StepTimer timer;
      beam::PVec x = system.createVector(), y = system.createVector();
      BEAM_PETSC(VecSet(x, 0.0));
      BEAM_PETSC(VecSet(y, 0.0));
      BEAM_PETSC(PetscLogStagePush(loop_stage));
      const beam::RunResult result = loop.run(x, y, {&timer});
      BEAM_PETSC(PetscLogStagePop());
      if (result.diverged) throw beam::runError(result.divergence);
      drift = result.final_drift;
      const std::vector<double> per_step = timer.stepSeconds();
      median = beam::bench::median(per_step);
      fastest = *std::min_element(per_step.begin(), per_step.end());
      // Rank 0's clock decides; the ranks step in lock-step anyway (every step has reductions).
      MPI_Bcast(&median, 1, MPI_DOUBLE, 0, PETSC_COMM_WORLD);
      MPI_Bcast(&fastest, 1, MPI_DOUBLE, 0, PETSC_COMM_WORLD);

      PetscInt n_local;
      BEAM_PETSC(VecGetLocalSize(system.load, &n_local));
      counts = beam::bench::stageCounts(loop_stage, n_local);
      traffic = beam::bench::estimateTraffic(beam, system, kind, counts);
      const double peak = beam::bench::peakMemoryMiB();
      MPI_Allreduce(&peak, &peak_total, 1, MPI_DOUBLE, MPI_SUM, PETSC_COMM_WORLD);

      if (!export_dir.empty()) {
        if (kind == beam::OperatorKind::Assembled)
          beam::exportSystem(beam, system, export_dir);
        else // shells have no entries to write: the assembled matrices of the same beam
          beam::exportSystem(beam, beam::beamSystem(beam, beam::OperatorKind::Assembled), export_dir);
      }
    }
    beam::bench::StreamResult stream;
    if (stream_mib > 0) stream = beam::bench::streamTriad(PETSC_COMM_WORLD, size_t(stream_mib) * 1024 * 1024 / 8);

    const double steps_done = double(steps);
    const double bandwidth = stream.total_gbs * 1e9; // bytes/s; 0 without STREAM
    const double model = bandwidth > 0 ? traffic.bytes / steps_done / bandwidth : 0;
    const double state_pass = bandwidth > 0 ? 5.0 * double(dofs) * 8.0 / bandwidth : 0;
    if (header)
      BEAM_PETSC(PetscPrintf(
          PETSC_COMM_WORLD,
          "path,scheme,operator,mass,solver,ranks,mx,my,dofs,assembly_s,setup_s,median_step_s,min_step_s,"
          "peak_rss_mib,matvecs_per_step,pc_applies_per_solve,mb_per_step,stream_gbs,model_step_s,"
          "bw_fraction,state_pass_s,step_per_state_pass,ns_per_dof_step,final_drift\n"));
    BEAM_PETSC(PetscPrintf(
        PETSC_COMM_WORLD,
        "%s,%s,%s,%s,%s,%d,%d,%d,%lld,%.4f,%.4f,%.6f,%.6f,%.1f,%.2f,%.2f,%.2f,%.2f,%.6f,%.3f,%.6f,%.1f,%."
        "2f,%.3e\n",
        path.empty() ? "-" : path.c_str(), scheme_name.c_str(), beam::operatorName(kind), lumped ? "lumped" : "consistent",
        solver_label.c_str(), session.size(), int(mx),
        int(my), (long long)dofs, assembly, setup, median, fastest, peak_total, counts.products / steps_done,
        counts.kspsolve > 0 ? counts.pcapply / counts.kspsolve : 0.0, traffic.bytes / steps_done / 1e6,
        stream.total_gbs, model, median > 0 ? model / median : 0.0, state_pass,
        state_pass > 0 ? median / state_pass : 0.0, median / double(dofs) * 1e9, drift));
    return 0;
  });
}
