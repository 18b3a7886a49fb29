// The shortest decimal text of a double that reads back as the same double (0.2, not
// 0.20000000000000001): for identities that must compare exactly (checkpoints) and for files people
// read (.pvd times).
#pragma once
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace beam {

inline std::string exactDecimal(double v) {
  if (v == 0) v = 0; // -0 is 0 (a restart with -rayleigh_alpha -0 was refused: "was 0, now -0")
  char buf[32] = "";
  for (int digits = 15; digits <= 17; ++digits) {
    std::snprintf(buf, sizeof buf, "%.*g", digits, v);
    if (std::strtod(buf, nullptr) == v) break;
  }
  return buf;
}

// A list of reals as comma-separated exact decimals ("1,2,3"), for messages about a list option.
inline std::string joinedDecimals(const std::vector<double> &values) {
  std::string text;
  for (double v : values) text += (text.empty() ? "" : ",") + exactDecimal(v);
  return text;
}

// printf's %g as text, for PetscPrintf: PETSc's own %g writes an integral value with a trailing point
// ("T = 5.", "xi = 1.") in the labs' headers.
inline std::string gText(double v) {
  char buf[32] = "";
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

} // namespace beam
