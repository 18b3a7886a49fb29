// libFuzzer harness: readRealFile (labs/OptionParsing.hpp), the reader of -thickness_file.
//
// An accepted file yields only finite reals, one per whitespace-separated word before a '#'.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "fuzz/FuzzInput.hpp"
#include "labs/OptionParsing.hpp"

using namespace beam;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const std::string &path = fuzz::writeInput(data, size);
  std::vector<double> values;
  if (!fuzz::acceptsInput([&] { values = readRealFile("-thickness_file", path); })) return 0;
  for (double v : values) BEAM_FUZZ_CHECK(std::isfinite(v));
  // A number needs at least one byte and a separator after every number but the last.
  BEAM_FUZZ_CHECK(values.size() <= size / 2 + 1);
  return 0;
}
