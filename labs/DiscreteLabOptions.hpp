// Options of the discrete_system lab, read in one PetscOptionsBegin block so -help lists them all.
#pragma once
#include <string>

#include "DiscreteSystem/DiscreteSystem.hpp"
#include "solvers/TimeLoop.hpp"

namespace beam {

struct DiscreteLabOptions {
  std::string system;       // -system two_dof|fifteen_dof (default two_dof when no -M/-K is given)
  DiscreteFiles files;      // -M -K -C -F -q0 -v0 -load_history -load_dt
  std::string load_curve;   // -load_curve FILE
  std::string load_harmonic; // -load_harmonic A,omega
  std::string scheme = "newmark";
  RunSettings run;          // -dt (0.01), -T (10), -divergence_factor, -linear_solver
  int snapshot_every = 10;  // trajectory.csv every N steps (>= 1; step 0 and the last always)
  std::string output_dir = "out/discrete_system";
  std::string save_final;   // N x 2 Matrix Market array (q, v)
  bool help = false;
};

DiscreteLabOptions readDiscreteLabOptions(MPI_Comm comm);
// The model the options describe: built in or from files, with its load in time.
DiscreteModel discreteModel(const DiscreteLabOptions &options);

} // namespace beam
