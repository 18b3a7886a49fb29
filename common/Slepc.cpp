#include "common/Slepc.hpp"

#include <slepcsys.h>

namespace beam {

SlepcSession::SlepcSession(int *argc, char ***argv, const char *help) : PetscSession(argc, argv, help) {
  // PETSc is running, so SLEPc registers its packages and leaves PETSc (and argv, already parsed) alone.
  BEAM_PETSC(SlepcInitialize(argc, argv, nullptr, help));
}

SlepcSession::~SlepcSession() { (void)SlepcFinalize(); } // then ~PetscSession stops PETSc

SlepcScope::SlepcScope() {
  PetscBool running = PETSC_FALSE;
  BEAM_PETSC(SlepcInitialized(&running));
  if (running) return;
  BEAM_PETSC(SlepcInitialize(nullptr, nullptr, nullptr, nullptr));
  started_ = true;
}

SlepcScope::~SlepcScope() {
  if (started_) (void)SlepcFinalize();
}

} // namespace beam
