#include "solvers/SchemeOptions.hpp"

#include <petscsys.h>

#include <cerrno>
#include <cmath>
#include <cstdlib>

#include "common/Petsc.hpp"

namespace beam {

double schemeParameter(const char *option, double default_value, double lo, double hi, const std::string &accepted) {
  char buf[256] = "";
  PetscBool set = PETSC_FALSE;
  BEAM_PETSC(PetscOptionsGetString(nullptr, nullptr, option, buf, sizeof buf, &set));
  if (!set) return default_value;
  // Read as text and parsed here: PETSc's own real parser would accept "0.2x" or give no range check.
  const std::string text = buf;
  char *end = nullptr;
  errno = 0;
  const double v = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || errno == ERANGE || !std::isfinite(v))
    throw inputError(std::string(option) + ": '" + text + "' is not a finite real number; accepted: " + accepted);
  if (!(v >= lo && v <= hi))
    throw inputError(std::string(option) + ": " + text + " is out of range; accepted: " + accepted);
  return v;
}

} // namespace beam
