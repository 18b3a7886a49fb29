// One exception type for everything a lab reports to its user, carrying the documented exit code:
// 2 = bad input (options, files), 3 = the run failed (divergence, solver failure, write error).
#pragma once
#include <mutex>
#include <stdexcept>
#include <string>

namespace beam {

enum ExitCode : int { kExitOk = 0, kExitBadInput = 2, kExitRunFailed = 3 };

// The last Error raised in this process (any thread): what the MPI watchdog reports when a rank is stuck
// unwinding it (common/Petsc.hpp, UnwindWatch), since an exception in flight cannot be inspected.
struct LastError {
  int code = kExitRunFailed;
  std::string what;
};
namespace detail {
inline std::mutex &lastErrorMutex() {
  static std::mutex m;
  return m;
}
inline LastError &lastErrorStore() {
  static LastError e;
  return e;
}
} // namespace detail
inline LastError lastError() {
  const std::lock_guard<std::mutex> lock(detail::lastErrorMutex());
  return detail::lastErrorStore();
}

namespace detail {
// what() is a C string: a NUL byte quoted from a bad file ended the message there, losing what is wrong
// and what is accepted ("K.mtx:4: '-5"). It becomes a blank, as the other control characters do when printed.
inline std::string withoutNul(std::string text) {
  for (char &c : text)
    if (c == '\0') c = ' ';
  return text;
}
} // namespace detail

class Error : public std::runtime_error {
public:
  Error(int exit_code, const std::string &what) : std::runtime_error(detail::withoutNul(what)), exit_code_(exit_code) {
    const std::lock_guard<std::mutex> lock(detail::lastErrorMutex());
    detail::lastErrorStore() = LastError{exit_code, detail::withoutNul(what)};
  }
  int exitCode() const { return exit_code_; }

private:
  int exit_code_;
};

// Bad input: "what is wrong, what is accepted".
inline Error inputError(const std::string &what) { return Error(kExitBadInput, what); }
// The run itself failed.
inline Error runError(const std::string &what) { return Error(kExitRunFailed, what); }

} // namespace beam
