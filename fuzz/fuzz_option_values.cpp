// libFuzzer harness: the option-value parsers of labs/OptionParsing.hpp on the same text: parseReal,
// parseInteger, parseBool, parseRealList.
//
// Properties of accepted text: a real is finite and the whole text is the number (no text after it,
// embedded NUL bytes included); an integer likewise; a truth value is one of the documented words; a
// list has one finite real per comma-separated field.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <set>
#include <vector>

#include "fuzz/FuzzInput.hpp"
#include "labs/OptionParsing.hpp"

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

  long integer = 0;
  if (fuzz::acceptsInput([&] { integer = parseInteger("-mx", text); })) {
    BEAM_FUZZ_CHECK(!has_nul);
    BEAM_FUZZ_CHECK(std::strtol(text.c_str(), nullptr, 10) == integer);
  }

  bool truth = false;
  if (fuzz::acceptsInput([&] { truth = parseBool("-quiet", text); })) {
    static const std::set<std::string> yes = {"", "true", "1", "yes"}, no = {"false", "0", "no"};
    BEAM_FUZZ_CHECK(truth ? yes.count(text) == 1 : no.count(text) == 1);
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
