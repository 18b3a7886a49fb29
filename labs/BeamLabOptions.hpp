// The options of the beam labs, as option sets (common/Options.hpp, solvers/RunOptions.hpp): each
// set reads its options in its own PETSc block, so -help lists exactly the sets a lab takes and an
// option of a set it does not take is refused as unknown.
//
//   set          options                                                     labs
//   beam mesh    -mx -my -hx -hy -thickness -thickness_file -supports         all beam labs
//   material     -E -nu -rho -course_mass -lumped_mass                        all beam labs
//   operator     -operator                                                    all beam labs
//   loads        -point_load -top_load -load_curve -load_harmonic              scheme labs, energy_drift, stability
//   damping      -rayleigh_alpha -rayleigh_beta                               scheme labs, energy_drift, stability
//   run          -dt -T -divergence_factor (RunOptions.hpp)                   scheme labs, energy_drift
//   solver       -linear_solver                                               scheme labs, energy_drift, stability
//   output       -output_dir; -quiet -save_final -snapshot_every -console_every  (scheme labs, energy_drift)
//   export       -export_system                                               scheme labs, energy_drift
//   checkpoints  -checkpoint_every; -restart (one-scheme labs)                scheme labs, energy_drift
//   schemes      -schemes                                                     energy_drift
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "MesLib/BeamSystem.hpp"
#include "solvers/LoadInTime.hpp"
#include "solvers/RunOptions.hpp"

namespace beam {

// Which beam lab reads its options: decides the sets taken (table above).
enum class BeamLabKind { OneScheme, AllSchemes, Stability, Modes };

struct BeamLabOptions {
  BeamSpec beam;
  OperatorKind operator_kind = OperatorKind::Assembled; // -operator assembled|matfree
  RunSettings run;           // dt, T, divergence bound, linear solver kind
  int snapshot_every = 10;   // 0 disables snapshots
  int console_every = 10;
  bool quiet = false;        // -quiet: no console energy lines, no progress display
  std::string output_dir;    // default out/<lab>
  std::string export_dir;    // -export_system DIR: M.mtx, K.mtx, F.mtx, fixed.txt
  std::string solver_path_line; // set by beamModel(); printed once nothing more can refuse the run
  std::string save_final;    // -save_final FILE: N x 2 Matrix Market array (x, y)
  std::vector<std::string> schemes; // -schemes a,b,... (multi-scheme labs only; default: every scheme)
  // Rayleigh damping C = alpha M + beta S (both >= 0; 0, 0 = undamped), zero at frozen DOFs.
  double rayleigh_alpha = 0, rayleigh_beta = 0;
  // f(t) = f0 g(t): -load_curve FILE (piecewise linear, see solvers/LoadInTime.hpp) or
  // -load_harmonic A,omega (g = A sin(omega t)); empty = constant load.
  std::function<double(double)> load_factor;
  LoadIdentity load_identity; // what it is, for checkpoints; the curve's data agreed on by every rank
};

// Defaults of the beam labs: the course's 20x5 beam, dt = 0.01, T = 50 (about one period of the first
// bending mode, 2 pi / 0.1229 = 51). Agreed on by every rank (agreeOn): a value bad on one
// rank only ends all of them with its error.
BeamLabOptions readBeamLabOptions(MPI_Comm comm, const std::string &lab, BeamLabKind kind = BeamLabKind::OneScheme);

// -load_curve FILE or -load_harmonic A,omega (at most one): g(t), or empty for a constant load. Shared
// with the discrete systems; `exclusive_with` names options that exclude both (e.g. "-load_history").
// `identity` receives what the load is ("no", "harmonic A,omega", "curve FILE, hash H").
std::function<double(double)> readLoadInTimeOptions(MPI_Comm comm, LoadIdentity &identity, bool exclusive_given = false,
                                                    const char *exclusive_with = "");
// Every rank read the same -load_curve (collective; call outside agreeOn).
void agreeOnLoadCurve(MPI_Comm comm, const LoadIdentity &identity);

} // namespace beam
