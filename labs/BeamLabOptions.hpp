// The options of the beam labs, read in one PetscOptionsBegin block so -help lists them all.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "MesLib/BeamSystem.hpp"
#include "solvers/TimeLoop.hpp"

namespace beam {

struct BeamLabOptions {
  BeamSpec beam;
  OperatorKind operator_kind = OperatorKind::Assembled; // -operator assembled|matfree
  RunSettings run;           // dt, T, divergence bound, linear solver kind
  int snapshot_every = 10;   // 0 disables snapshots
  int console_every = 10;
  bool quiet = false;        // -quiet: no console energy lines, no progress display
  std::string output_dir;    // default out/<lab>
  std::string export_dir;    // -export_system DIR: M.mtx, K.mtx, F.mtx, fixed.txt
  std::string save_final;    // -save_final FILE: N x 2 Matrix Market array (x, y)
  std::vector<std::string> schemes; // -schemes a,b,... (multi-scheme labs only; default: every scheme)
  bool help = false;         // -help given: options were listed, do not run
  // Rayleigh damping C = alpha M + beta S (both >= 0; 0, 0 = undamped), zero at frozen DOFs.
  double rayleigh_alpha = 0, rayleigh_beta = 0;
  // f(t) = f0 g(t): -load_curve FILE (piecewise linear, see solvers/LoadInTime.hpp) or
  // -load_harmonic A,omega (g = A sin(omega t)); empty = constant load.
  std::function<double(double)> load_factor;
};

// Defaults of the beam labs: the course's 20x5 beam, dt = 0.01, T = 50 (about one period of the first
// bending mode, 2 pi / 0.1229 = 51).
// multi_scheme adds -schemes (a comma-separated list of scheme names).
BeamLabOptions readBeamLabOptions(MPI_Comm comm, const std::string &lab, bool multi_scheme = false);

} // namespace beam
