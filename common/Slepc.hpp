// SLEPc lifetime guards for the eigenvalue labs (stability, modes) and for code that needs SLEPc inside a
// PETSc-only program (the scheme labs' stability warning, the tests).
//
// SLEPc sits on top of PETSc: SlepcInitialize() only starts PETSc itself when PETSc is not running yet,
// and SlepcFinalize() only stops PETSc when it was the one that started it. We always let PetscSession
// start PETSc (with argc/argv, so every command-line option, SLEPc's `-<prefix>eps_*` included, is in the
// options database, and `-help` lists the options blocks as in every lab), then start SLEPc on top, and
// stop SLEPc before PETSc: the reverse order of construction, which C++ gives us for free.
#pragma once
#include "common/Petsc.hpp"

namespace beam {

// PETSc (PetscSession: error bridge, rank, size) plus SLEPc for the lifetime of the object. Use it in
// place of PetscSession in a lab main: runMain(session, ...) takes it as a PetscSession.
class SlepcSession : public PetscSession {
public:
  SlepcSession(int *argc, char ***argv, const char *help);
  ~SlepcSession();
};

// SLEPc for one scope of a program that already runs PETSc: starts SLEPc unless it is already running
// and, on exit, stops it only if this guard started it.
class SlepcScope {
public:
  SlepcScope();
  ~SlepcScope();
  SlepcScope(const SlepcScope &) = delete;
  SlepcScope &operator=(const SlepcScope &) = delete;

private:
  bool started_ = false;
};

} // namespace beam
