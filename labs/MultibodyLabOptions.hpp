// The options of the multibody labs, as option sets (common/Options.hpp):
//   mechanism  -model NAME|FILE.json (default pendulum), -links N (the chain), -baumgarte_xi,
//              -baumgarte_omega (0 turns Baumgarte off), -projection
//   run, scheme, output, checkpoints (solvers/RunOptions.hpp)
#pragma once
#include <string>
#include <vector>

#include "Multibody/Description.hpp"
#include "Multibody/MultibodyModel.hpp"
#include "solvers/RunOptions.hpp"

namespace beam {

struct MechanismOptions {
  multibody::Description description;
  multibody::Baumgarte baumgarte;
  bool projection = false;
};
// The mechanism set.
// stabilization: read -baumgarte_xi, -baumgarte_omega, -projection (false: a lab that sets them itself).
MechanismOptions readMechanismOptions(MPI_Comm comm, bool stabilization = true);

struct MultibodyLabOptions {
  MechanismOptions mechanism;
  std::string scheme = "rk4";
  RunSettings run;
  OutputOptions output;
};
MultibodyLabOptions readMultibodyLabOptions(MPI_Comm comm);

// energy.csv's leading columns in both multibody labs (constraint_drift's variants had the violations
// last): the energy, then the constraint diagnostics (labOutput's energy_leading).
inline std::vector<std::string> multibodyEnergyColumns() {
  return {"kinetic", "potential", "total", "position_violation", "velocity_violation", "quaternion_norm_error"};
}

} // namespace beam
