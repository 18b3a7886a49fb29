// libFuzzer harness: the strict option-value parsers of common/Options.hpp on the same text: parseReal,
// parseRealList (integers and truth values are read by PETSc's typed calls).
//
// Properties of accepted text: a real is finite and the whole text is the number (no text after it,
// embedded NUL bytes included); a list has one finite real per comma-separated field.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "fuzz/FuzzInput.hpp"
#include "common/Options.hpp"

using namespace beam;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const std::string text(reinterpret_cast<const char *>(data), size);
  const bool has_nul = text.find('\0') != std::string::npos;

  double real = 0;
  if (fuzz::acceptsInput([&] { real = parseReal("-dt", text); })) {
    BEAM_FUZZ_CHECK(std::isfinite(real));
    BEAM_FUZZ_CHECK(!has_nul);
    BEAM_FUZZ_CHECK(std::strtod(text.c_str(), nullptr) == real);
  }

  std::vector<double> list;
  if (fuzz::acceptsInput([&] { list = parseRealList("-point_load", text); })) {
    BEAM_FUZZ_CHECK(!has_nul);
    for (double v : list) BEAM_FUZZ_CHECK(std::isfinite(v));
    const size_t commas = size_t(std::count(text.begin(), text.end(), ','));
    BEAM_FUZZ_CHECK(text.empty() ? list.empty() : list.size() == commas + 1);
  }
  return 0;
}
