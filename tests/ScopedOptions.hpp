// Options for a test's scope: `text` ("-newmark_beta 0.3 -dt 1") in a database of its own, pushed as
// the default for the object's lifetime, so tests never leave options behind.
#pragma once
#include <petscsys.h>

#include <string>

#include "common/Petsc.hpp"

namespace beam {

class ScopedOptions {
public:
  explicit ScopedOptions(const std::string &text) {
    BEAM_PETSC(PetscOptionsCreate(&options_));
    BEAM_PETSC(PetscOptionsInsertString(options_, text.c_str()));
    BEAM_PETSC(PetscOptionsPush(options_));
  }
  ~ScopedOptions() {
    PetscOptionsPop();
    PetscOptionsDestroy(&options_);
  }
  ScopedOptions(const ScopedOptions &) = delete;
  ScopedOptions &operator=(const ScopedOptions &) = delete;

private:
  PetscOptions options_ = nullptr;
};

} // namespace beam
