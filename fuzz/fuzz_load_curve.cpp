// libFuzzer harness: the -load_curve CSV reader (solvers/LoadInTime.hpp, LoadCurve::read).
//
// An accepted curve has strictly increasing finite times; g(t) must be finite for every finite t and
// lie between the smallest and the largest value of the curve (it is piecewise linear, constant beyond
// the ends).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

#include "fuzz/FuzzInput.hpp"
#include "solvers/LoadInTime.hpp"

using namespace beam;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const std::string &path = fuzz::writeInput(data, size);
  std::optional<LoadCurve> curve;
  if (!fuzz::acceptsInput([&] { curve.emplace(LoadCurve::read(path)); })) return 0;

  const std::vector<double> &t = curve->times();
  BEAM_FUZZ_CHECK(!t.empty());
  std::vector<double> g;
  for (size_t i = 0; i < t.size(); ++i) {
    BEAM_FUZZ_CHECK(std::isfinite(t[i]));
    BEAM_FUZZ_CHECK(i == 0 || t[i] > t[i - 1]);
    g.push_back((*curve)(t[i]));
    BEAM_FUZZ_CHECK(std::isfinite(g.back()));
  }
  const double lo = *std::min_element(g.begin(), g.end()), hi = *std::max_element(g.begin(), g.end());
  const double slack = 1e-12 * std::max(std::abs(lo), std::abs(hi));
  std::vector<double> probes = {-std::numeric_limits<double>::max(), t.front() - 1, t.back() + 1,
                                std::numeric_limits<double>::max()};
  for (size_t i = 1; i < t.size() && i < 64; ++i) {
    probes.push_back(t[i - 1] + (t[i] - t[i - 1]) / 2); // may overflow to inf for extreme times:
    probes.push_back(t[i - 1] / 2 + t[i] / 2);          // the second form never does
    probes.push_back(t[i - 1] / 4 + t[i] / 4 * 3);
  }
  for (double p : probes) {
    if (!std::isfinite(p)) continue;
    const double v = (*curve)(p);
    BEAM_FUZZ_CHECK(std::isfinite(v));
    BEAM_FUZZ_CHECK(v >= lo - slack && v <= hi + slack);
  }
  return 0;
}
