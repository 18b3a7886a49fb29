#include "output/ConsoleEnergy.hpp"

#include "common/Petsc.hpp"

namespace beam {

void ConsoleEnergy::observe(const StepState &s) {
  if (s.step % every_ != 0 && !s.last()) return;
  BEAM_PETSC(PetscPrintf(comm_, "step %7lld  t = %-10.5g  E = % .9e  kinetic = %.6e  drift = % .3e\n",
                         (long long)s.step, s.time, s.energy.total(), s.energy.kinetic, s.drift));
}

void ConsoleEnergy::finish(const RunResult &r) {
  if (r.diverged) BEAM_PETSC(PetscPrintf(comm_, "%s\n", r.divergence.c_str()));
}

} // namespace beam
