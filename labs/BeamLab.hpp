// The pieces every beam lab is made of: the beam's operator, the standard outputs of a run (console
// energy, energy.csv, VTU snapshots, exports) and the final report.
#pragma once
#include <string>
#include <vector>

#include <functional>
#include <memory>

#include "MesLib/BeamModel.hpp"
#include "MesLib/BeamSystem.hpp"
#include "labs/ModelLab.hpp"
#include "labs/BeamLabOptions.hpp"
#include "solvers/TimeLoop.hpp"

namespace beam {

// beamSystem(beam, options.operator_kind) plus the options' Rayleigh damping C = alpha M + beta S (zero
// rows and columns at frozen DOFs) and load in time f(t) = f0 g(t).
SecondOrderSystem beamSystem(const Beam &beam, const BeamLabOptions &options);
// The options' run settings with the run's identity for checkpoints (the lab, the operator, damping,
// whether the load varies in time).
RunSettings labRunSettings(const std::string &lab, const BeamLabOptions &options);
// The lab's model: that system on the solver path of the options, or, where they leave it open, the
// path chosen by size, ranks and mass kind (MesLib/BeamSystem.hpp chooseSolverPath; printed as the
// run header; options.operator_kind and options.run.solver are set to it). Refuses a run that cannot
// fit in memory before allocating its matrices, counting what the largest of `schemes` adds (the lab
// runs them one at a time).
std::unique_ptr<BeamModel> beamModel(const Beam &beam, BeamLabOptions &options, const std::vector<std::string> &schemes);

// Writes M.mtx, K.mtx, F.mtx (Matrix Market, frozen DOFs applied) and fixed.txt (0-based) into dir; the
// labs call it once every refusal is behind them (a refused run left the files, over a user's M.mtx).
void exportSystem(const Beam &beam, const SecondOrderSystem &system, const std::string &dir);

// Runs `loop` from rest with the lab's monitors writing into `dir` (energy.csv, snapshots), printing
// the energy every options.console_every steps when `console`; honours -save_final. `at_start` is done
// when the run starts, after every refusal.
RunResult runBeamLab(TimeLoop &loop, const BeamModel &model, const BeamLabOptions &options, const std::string &dir,
                     bool console, const std::function<void()> &at_start = {});

// main() of a one-scheme lab: options, beam, run, summary; exit 3 when the run diverged.
int schemeLabMain(int argc, char **argv, const char *scheme, const char *help);

} // namespace beam
