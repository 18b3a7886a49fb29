#include "common/Petsc.hpp"

#include <chrono>
#include <cstdio>
#include <thread>
#include <cstring>
#include <exception>

namespace beam {
namespace {

std::string g_last_message; // per-process: the message PETSc produced for the error being thrown

// Error handler that records PETSc's message instead of printing a traceback.
PetscErrorCode captureHandler(MPI_Comm, int, const char *, const char *, PetscErrorCode n, PetscErrorType p,
                              const char *mess, void *) {
  if (p == PETSC_ERROR_INITIAL && mess && *mess) g_last_message = mess;
  else if (p == PETSC_ERROR_INITIAL) {
    const char *text = nullptr;
    PetscErrorMessage(n, &text, nullptr);
    g_last_message = text ? text : "PETSc error";
  }
  return n;
}

// True when every rank of comm reaches this call within `seconds` (a barrier with a time limit).
bool allRanksArrive(MPI_Comm comm, double seconds) {
  MPI_Request request;
  MPI_Ibarrier(comm, &request);
  const auto start = std::chrono::steady_clock::now();
  int done = 0;
  while (!done) {
    MPI_Test(&request, &done, MPI_STATUS_IGNORE);
    if (done) break;
    if (std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() > seconds) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return true;
}

} // namespace

std::string lastPetscMessage() { return g_last_message; }

void throwPetscError(PetscErrorCode code, const char *expr, const char *file, int line) {
  std::string msg = g_last_message;
  if (msg.empty()) {
    const char *text = nullptr;
    PetscErrorMessage(code, &text, nullptr);
    msg = text ? text : "PETSc error";
  }
  g_last_message.clear();
  (void)expr;
  (void)file;
  (void)line;
  // Errors from PETSc calls are failures of the run unless a caller reclassifies them.
  throw runError(msg);
}

PVec duplicate(Vec like) {
  PVec v;
  BEAM_PETSC(VecDuplicate(like, v.out()));
  return v;
}

PetscSession::PetscSession(int *argc, char ***argv, const char *help) {
  const PetscErrorCode ierr = PetscInitialize(argc, argv, nullptr, help);
  if (ierr) throw runError("PETSc initialization failed");
  PetscBool debug = PETSC_FALSE;
  PetscOptionsHasName(nullptr, nullptr, "-debug", &debug);
  if (!debug) PetscPushErrorHandler(captureHandler, nullptr);
  MPI_Comm_rank(PETSC_COMM_WORLD, &rank_);
  MPI_Comm_size(PETSC_COMM_WORLD, &size_);
}

PetscSession::~PetscSession() {
  PetscPopErrorHandler(); // frees the capturing handler (no-op with -debug, where none was pushed)
  PetscFinalize();
}

int runMain(const PetscSession &session, const char *program, const std::function<int()> &body) {
  int code = kExitOk;
  std::string message;
  try {
    code = body();
  } catch (const Error &e) {
    code = e.exitCode();
    message = e.what();
  } catch (const std::bad_alloc &) {
    code = kExitRunFailed;
    message = "out of memory";
  } catch (const std::exception &e) {
    code = kExitRunFailed;
    message = e.what();
  }
  if (message.empty()) return code;
  // One printable line: newlines (PETSc's multi-line messages), NUL bytes and control characters quoted
  // from a bad file become spaces, and a huge quoted line is cut.
  for (char &c : message)
    if ((unsigned char)c < 0x20 || c == 0x7f) c = ' ';
  if (message.size() > 600) message = message.substr(0, 600) + " ...";
  // Most errors are collective (options, files and energy checks are the same on every rank): every
  // rank arrives here, rank 0 reports, and all finish normally. An error on some ranks only would leave
  // the others waiting in a collective call: if the others do not arrive within a few seconds, this
  // rank reports and ends the whole job.
  if (session.size() > 1 && !allRanksArrive(PETSC_COMM_WORLD, 5.0)) {
    std::fprintf(stderr, "%s: error (rank %d): %s\n", program, session.rank(), message.c_str());
    std::fflush(stderr);
    MPI_Abort(PETSC_COMM_WORLD, code);
  }
  if (session.rank() == 0) std::fprintf(stderr, "%s: error: %s\n", program, message.c_str());
  return code;
}

} // namespace beam
