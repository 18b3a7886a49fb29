// RAII handles for PETSc objects and the error bridge between PETSc's error codes and beam::Error.
//
// Every PETSc call in the project goes through BEAM_PETSC(...): a non-zero code becomes a beam::Error
// carrying PETSc's own one-line message (captured by the error handler installed by PetscSession), so
// a lab prints one line instead of a PETSc traceback. `-debug` keeps PETSc's traceback handler.
#pragma once
#include <petscksp.h>

#include <functional>
#include <memory>
#include <vector>
#include <string>
#include <utility>

#include "common/Agree.hpp" // agreeOn, for steps whose failure may differ between ranks
#include "common/Error.hpp"

namespace beam {

// Message of the most recent PETSc error on this rank (set by the capturing error handler); `clear`
// forgets it (for callers that replace it by their own message).
std::string lastPetscMessage(bool clear = false);
[[noreturn]] void throwPetscError(PetscErrorCode code, const char *expr, const char *file, int line);
// PETSc's codes for a refused argument or combination (PETSC_ERR_SUP, PETSC_ERR_ARG_OUTOFRANGE, ...): raised
// when a solver is set up or first applied with options PETSc checks only then (-ms_ksp_gcr_restart 0,
// -shifted_pc_type fieldsplit, CG with -ksp_pc_side right), they are bad input, not a failed run.
bool isArgumentError(PetscErrorCode code);

#define BEAM_PETSC(...)                                                                            \
  do {                                                                                             \
    const PetscErrorCode beam_ierr_ = (__VA_ARGS__);                                               \
    if (PetscUnlikely(beam_ierr_)) ::beam::throwPetscError(beam_ierr_, #__VA_ARGS__, __FILE__, __LINE__); \
  } while (0)

// Guards the destroy of a PETSc object while an exception unwinds the stack (std::uncaught_exceptions)
// on a communicator of more than one rank. Such a destroy may be collective and blocking (MUMPS's
// termination broadcasts): when every rank fails alike, or the others end an agreed step
// (agreeOn), they destroy the same object and it completes; when this rank failed alone and the
// others wait in a later collective, it never would, and runMain's arrival check would never be
// reached. So the watch arms PetscSession's watchdog for the destroy's duration: if the destroy has not
// returned after kUnwindDestroySeconds, the watchdog prints this rank's error (the last beam::Error
// raised) and ends the job with MPI_Abort and the error's exit code. Elsewhere it costs one check.
inline constexpr double kUnwindDestroySeconds = 10.0;
class UnwindWatch {
public:
  explicit UnwindWatch(PetscObject obj);
  ~UnwindWatch();
  UnwindWatch(const UnwindWatch &) = delete;
  UnwindWatch &operator=(const UnwindWatch &) = delete;

private:
  bool armed_ = false;
};

// Owning handle for a PETSc object destroyed by `Destroy(&obj)`.
template <typename T, PetscErrorCode (*Destroy)(T *)>
class Handle {
public:
  Handle() = default;
  explicit Handle(T obj) : obj_(obj) {}
  ~Handle() { reset(); }
  Handle(const Handle &) = delete;
  Handle &operator=(const Handle &) = delete;
  Handle(Handle &&other) noexcept : obj_(std::exchange(other.obj_, nullptr)) {}
  Handle &operator=(Handle &&other) noexcept {
    if (this != &other) {
      reset();
      obj_ = std::exchange(other.obj_, nullptr);
    }
    return *this;
  }
  T get() const { return obj_; }
  operator T() const { return obj_; } // NOLINT: pass straight to PETSc calls
  // For PETSc creation calls: `VecCreate(comm, v.out())`. Releases any held object first.
  T *out() {
    reset();
    return &obj_;
  }
  explicit operator bool() const { return obj_ != nullptr; }
  void reset() {
    if (obj_) {
      const UnwindWatch watch(reinterpret_cast<PetscObject>(obj_));
      (void)Destroy(&obj_); // destructors must not throw
    }
    obj_ = nullptr;
  }

private:
  T obj_ = nullptr;
};

using PVec = Handle<Vec, VecDestroy>;
using PMat = Handle<Mat, MatDestroy>;
using PKSP = Handle<KSP, KSPDestroy>;
using PIS = Handle<IS, ISDestroy>;
using PScatter = Handle<VecScatter, VecScatterDestroy>;

// Registers `name` under the project's log class "Beam" (-log_view; bench/Traffic.cpp charges each
// event's passes) unless already done: *event < 0 means not yet. PETSc-style, so PETSc callbacks use it.
PetscErrorCode registerLogEvent(const char *name, PetscLogEvent *event);

// A new vector with the same layout as `like`.
PVec duplicate(Vec like);

// y = A x and x . y (global). An operator that gets the dot from its product's own pass composes it as
// kMultDotFunction (the beam's stencil, MesLib/MatrixFreeOperator.cpp): one pass instead of two, for
// CG's p'Ap and the energy's quadratic forms. Any other operator: MatMult, then VecDot.
using MultDotFunction = PetscErrorCode (*)(Mat A, Vec x, Vec y, PetscReal *dot);
inline constexpr const char *kMultDotFunction = "BeamMultDot_C";
double multDot(Mat A, Vec x, Vec y);

// x'Ax (global), for the energy's quadratic forms. An operator that computes it without storing Ax
// composes kQuadraticFormFunction (the beam's stencil, a row at a time: one vector read instead of one
// read and one written); any other goes through multDot, with Ax left in `work`.
using QuadraticFormFunction = PetscErrorCode (*)(Mat A, Vec x, PetscReal *value);
inline constexpr const char *kQuadraticFormFunction = "BeamQuadraticForm_C";
double quadraticForm(Mat A, Vec x, Vec work);

// y = alpha v + beta A x (y other than x and v), for the schemes' impulse f - S x. An operator that
// finishes its product's rows in cache composes kMultAffineFunction (the beam's stencil); any other:
// MatMult, then VecAXPBY. Both give the same bits.
using MultAffineFunction = PetscErrorCode (*)(Mat A, Vec x, PetscScalar alpha, PetscScalar beta, Vec v, Vec y);
inline constexpr const char *kMultAffineFunction = "BeamMultAffine_C";
void multAffine(Mat A, Vec x, double alpha, double beta, Vec v, Vec y);

// Initializes PETSc for the lifetime of the object and installs the capturing error handler.
//
// The command line is checked before PETSc sees it, because PETSc either aborts with a banner or
// silently ignores what is checked here: an -options_file that is missing or not a regular file, a
// -log_view :FILE that cannot be written (PETSc would only fail at the very end, exit 0), a value
// longer than the options database keeps (4095 characters), and stray words that are neither an
// option nor its value (`lab leftover`, `-mx 2 3`). A bad command line starts PETSc without its
// arguments and leaves the error for runMain, which reports it as bad input (exit 2). So does a command
// line that differs between MPI ranks (program name, options, PETSC_OPTIONS), compared before PETSc
// starts: ranks given different valid options would hang, crash or mix their physics.
class Watchdog;
class PetscSession {
public:
  PetscSession(int *argc, char ***argv, const char *help);
  ~PetscSession();
  PetscSession(const PetscSession &) = delete;
  PetscSession &operator=(const PetscSession &) = delete;
  int rank() const { return rank_; }
  int size() const { return size_; }
  const std::string &commandLineError() const { return command_line_error_; }
  // A communicator of its own for runMain's "do all ranks arrive" check, so its non-blocking barrier
  // can never be matched against a collective another rank is waiting in.
  MPI_Comm arrivalComm() const { return arrival_; }

private:
  int rank_ = 0;
  int size_ = 1;
  std::string command_line_error_;
  // argv[0] and -skip_petscrc, when the command line was refused (with PETSC_OPTIONS unset: PETSc would
  // still read a refused PETSC_OPTIONS or .petscrc and abort on it).
  int bare_argc_ = 2;
  std::vector<char *> bare_args_;
  char **bare_argv_ = nullptr;
  MPI_Comm arrival_ = MPI_COMM_NULL;
  bool owns_mpi_ = false; // MPI_Init was called here (before PETSc), so MPI_Finalize is called here too
  std::unique_ptr<Watchdog> watchdog_; // on more than one rank (UnwindWatch)
};

// The problem with a command line (argv[1..argc-1]) as described above, or "" when it is fine.
std::string commandLineProblem(int argc, char **argv);
// The option words PETSc read as it started, in its order: the .petscrc files (unless -skip_petscrc),
// PETSC_OPTIONS, the command line with each -options_file's options where it stands; null before a
// PetscSession has vetted them (a test's own PetscInitialize).
const std::vector<std::string> *givenOptionWords();
// The same for what PETSc reads besides the command line: PETSC_OPTIONS, PETSC_OPTIONS_YAML (refused)
// and, unless `skip_rc` (-skip_petscrc), the files ~/.petscrc, ./.petscrc and ./petscrc.
std::string environmentOptionsProblem(bool skip_rc);
// PETSc's rule for a word that names an option (PetscOptionsValidKey): '-' or '--', then a letter, and
// not a number ("-inf" and "-1e3" are values).
bool isOptionName(const char *word);

// Runs `body` and maps every failure to the documented exit code, printing one line
// "<program>: error: <what>" on rank 0's stderr (errors are detected collectively: options, files and
// energy checks are the same on every rank).
int runMain(const PetscSession &session, const char *program, const std::function<int()> &body);

} // namespace beam
