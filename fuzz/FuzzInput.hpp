// Helpers shared by the libFuzzer harnesses of fuzz/.
//
// The file readers take a path, so each input is written to one scratch file per process and read back
// from there. Every parser reports bad input by throwing beam::Error with exit code 2; a harness catches
// exactly that and lets anything else (another exception, a sanitizer report, a failed check) crash.
#pragma once
#include <unistd.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "common/Error.hpp"

namespace beam::fuzz {

inline void removeScratch();

// The scratch file of this process (in $TMPDIR, else /tmp), rewritten with each input and removed at
// a normal exit.
inline const std::string &scratchPath() {
  static const std::string path = [] {
    const char *dir = std::getenv("TMPDIR");
    return std::string(dir && *dir ? dir : "/tmp") + "/beam-fuzz-" + std::to_string(getpid()) + ".txt";
  }();
  static const bool cleanup_registered = std::atexit(removeScratch) == 0;
  (void)cleanup_registered;
  return path;
}

inline void removeScratch() { std::remove(scratchPath().c_str()); }

inline const std::string &writeInput(const uint8_t *data, size_t size) {
  const std::string &path = scratchPath();
  FILE *f = std::fopen(path.c_str(), "wb");
  if (!f) std::abort();
  if (size && std::fwrite(data, 1, size, f) != size) std::abort();
  if (std::fclose(f)) std::abort();
  return path;
}

// A violated property of an accepted input: print it and abort, so libFuzzer records the input.
[[noreturn]] inline void fail(const char *what) {
  std::fprintf(stderr, "fuzz check failed: %s\n", what);
  std::abort();
}
#define BEAM_FUZZ_CHECK(cond)                                                                      \
  do {                                                                                             \
    if (!(cond)) ::beam::fuzz::fail(#cond);                                                        \
  } while (0)

// Runs `body`; a beam::Error must be an input error (exit code 2), anything else propagates.
template <typename Body>
bool acceptsInput(Body &&body) {
  try {
    body();
    return true;
  } catch (const Error &e) {
    if (e.exitCode() != kExitBadInput) fail("a parser threw a beam::Error that is not an input error (exit 2)");
    if (std::string(e.what()).empty()) fail("an input error without a message");
    return false;
  }
}

} // namespace beam::fuzz
