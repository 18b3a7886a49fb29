#include "solvers/RunOptions.hpp"

#include <algorithm>
#include <filesystem>
#include <system_error>

#include <strings.h>

#include "common/Options.hpp"
#include "solvers/TimeLoop.hpp"
#include "solvers/TimeScheme.hpp"

namespace beam {

void readRunOptions(MPI_Comm comm, RunSettings &run) {
  readOptions(comm, "Run", "", [&](OptionReader &r) {
    run.dt = r.real("-dt", "Time step", run.dt, Bounds::above(0));
    run.T = r.real("-T", "Total time", run.T, Bounds::atLeast(0));
    if (r.error().empty() && run.T / run.dt > 1e9) r.fail("-T/-dt: more than 1e9 steps; accepted: T/dt <= 1e9");
    if (r.error().empty()) { // steps whose last time overflows, refused before a lab prints anything
      try {
        (void)stepCount(run.T, run.dt);
      } catch (const Error &e) {
        r.fail(e.what());
      }
    }
    run.divergence_factor = r.real("-divergence_factor", "Stop when |E - E0| exceeds this many energy scales",
                                   run.divergence_factor, Bounds::above(0));
  });
}

void readLinearSolverOption(MPI_Comm comm, RunSettings &run) {
  readOptions(comm, "Linear solver", "", [&](OptionReader &r) {
    const int kind = r.choice("-linear_solver",
                              "direct (Cholesky, factored once) or cg (CG + Jacobi, the course's solver)",
                              {"direct", "cg"}, run.solver == LinearSolverKind::CG ? 1 : 0);
    run.solver = kind == 1 ? LinearSolverKind::CG : LinearSolverKind::Direct;
  });
}

std::string readSchemeOption(MPI_Comm comm, const std::string &default_scheme, const std::vector<std::string> &accepted) {
  // -help lists the schemes this lab accepts (it listed all 16 in the multibody labs, which take 5); a
  // known scheme the lab does not take is returned as given, for the model's refusal that says why
  // (written for linear systems, no Jacobian).
  const std::vector<std::string> &names = accepted.empty() ? schemeNames() : accepted;
  std::string given;
  int index = 0;
  for (size_t i = 0; i < names.size(); ++i)
    if (names[i] == default_scheme) index = int(i);
  readOptions(comm, "Time scheme", "", [&](OptionReader &r) {
    const std::string text = r.value("-scheme");
    for (const auto &known : schemeNames())
      if (strcasecmp(known.c_str(), text.c_str()) == 0 &&
          std::none_of(names.begin(), names.end(), [&](const std::string &n) { return n == known; }))
        given = known;
    if (given.empty()) index = r.choice("-scheme", "Time scheme", names, index, "scheme");
  });
  return given.empty() ? names[size_t(index)] : given;
}

std::vector<std::string> readSchemeListOption(MPI_Comm comm, const std::vector<std::string> &defaults) {
  std::string all;
  for (const auto &n : defaults) all += (all.empty() ? "" : ",") + n;
  // Case ignored, as PETSc does for -scheme and every other choice; the registry's spelling kept.
  auto canonical = [](std::vector<std::string> names) {
    for (auto &name : names)
      for (const auto &known : schemeNames())
        if (strcasecmp(known.c_str(), name.c_str()) == 0) name = known;
    return names;
  };
  auto problem = [&](const std::vector<std::string> &given) {
    const std::vector<std::string> schemes = canonical(given);
    for (const auto &name : schemes) {
      try {
        (void)makeScheme(name, "-schemes"); // an unknown name: an input error listing the schemes
      } catch (const Error &e) {
        return std::string(e.what());
      }
    }
    // Twice: its second run would overwrite the first's files and take a second row of the table.
    if (const std::string *twice = firstRepeated(schemes))
      return "-schemes: '" + *twice + "' is listed twice; accepted: each scheme once";
    return std::string();
  };
  std::vector<std::string> schemes;
  readOptions(comm, "Time schemes", "", [&](OptionReader &r) {
    schemes = canonical(r.names("-schemes", "Comma-separated schemes to run", all, problem));
  });
  return schemes;
}

void readOutputOptions(MPI_Comm comm, OutputOptions &o, const OutputChoices &c) {
  readOptions(comm, "Output", "", [&](OptionReader &r) {
    o.dir = r.text("-output_dir", "Directory of the run's files", o.dir, &o.dir_given);
    if (o.dir.empty()) r.fail("-output_dir: empty; accepted: a directory path");
    if (!c.snapshot_help) return; // a lab without a time history: only the directory
    o.quiet = r.flag("-quiet", "No energy lines and no progress display on the console", o.quiet);
    o.save_final = r.path("-save_final", "File for the final state (beam and discrete labs: Matrix Market N x 2 array of position, velocity; mass_spring, multibody: CSV, see the README)");
    o.snapshot_every = int(r.integer("-snapshot_every", c.snapshot_help, o.snapshot_every, c.snapshot_min));
    if (c.console) o.console_every = int(r.integer("-console_every", "Print the energy every N steps", o.console_every, 1));
  });
}

void readCheckpointOptions(MPI_Comm comm, RunSettings &run, OutputOptions &output, bool restart) {
  readOptions(comm, "Checkpoints", "", [&](OptionReader &r) {
    run.checkpoint_every = r.integer("-checkpoint_every",
                                     "Save the full state every N steps to <output_dir>/checkpoint.bin (0 = only at "
                                     "the end and on SIGINT/SIGTERM)",
                                     run.checkpoint_every, 0);
    if (!restart) return;
    const std::string dir =
        r.path("-restart", "Continue the run whose output directory is DIR from its checkpoint (writes into DIR)", "a directory name");
    if (dir.empty()) return;
    namespace fs = std::filesystem;
    std::error_code ec;
    // A missing directory was created (as the run's output directory) before the checkpoint was missed.
    if (!fs::exists(dir, ec))
      r.fail("-restart: '" + dir + "' does not exist; accepted: the output directory of a run made with checkpoints");
    else if (!fs::is_directory(dir, ec)) // the checkpoint file itself, say
      r.fail("-restart: '" + dir + "' is not a directory; accepted: the output directory of the run to continue (it "
             "holds checkpoint.bin)");
    // The same directory however written (ck, ck/, ./ck, a link to it).
    auto place = [](const std::string &d) {
      std::error_code e;
      const fs::path p = fs::weakly_canonical(fs::path(d), e);
      return (e ? fs::path(d).lexically_normal() : p).string();
    };
    if (output.dir_given && place(output.dir) != place(dir))
      r.fail("-restart: writes into the run's own directory '" + dir + "'; accepted: no -output_dir, or the same one");
    output.dir = dir;
    run.restart_path = dir + "/checkpoint.bin";
  });
  // Checkpoints always have a place, so a signal can stop any run cleanly.
  run.checkpoint_path = output.dir + "/checkpoint.bin";
  run.series_every = output.snapshot_every;
}

std::string readModelRunOptions(MPI_Comm comm, RunSettings &run, OutputOptions &output, const std::string &default_scheme,
                                bool linear_solver, const std::vector<std::string> &accepted) {
  readRunOptions(comm, run);
  if (linear_solver) readLinearSolverOption(comm, run);
  const std::string scheme = readSchemeOption(comm, default_scheme, accepted);
  readOutputOptions(comm, output, {"Write a snapshot every N steps (0 = none)", 0, true});
  readCheckpointOptions(comm, run, output, true);
  return scheme;
}

} // namespace beam
