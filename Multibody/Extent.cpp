#include "Multibody/Extent.hpp"

#include <algorithm>
#include <cstddef>
#include <limits>

namespace beam::multibody {

// Norms by stableNorm: the squares of coordinates above 1e154 overflow (a mechanism at +-1e160 m had an
// infinite extent, so an infinite energy scale and drifts of 0 while it diverged).
double largestDistance(const std::vector<Vec3> &points) {
  if (points.empty()) return 0;
  Vec3 c = Vec3::Zero();
  for (const auto &p : points) c += p;
  c /= double(points.size());
  double R = 0;
  for (const auto &p : points) R = std::max(R, (p - c).stableNorm());
  double lower = 0;
  std::size_t from = 0;
  for (int sweep = 0; sweep < 2; ++sweep) {
    std::size_t farthest = from;
    for (std::size_t k = 0; k < points.size(); ++k)
      if ((points[k] - points[from]).stableNorm() > (points[farthest] - points[from]).stableNorm()) farthest = k;
    lower = std::max(lower, (points[farthest] - points[from]).stableNorm());
    from = farthest;
  }
  if (lower == 0) return 0; // every point is the first one
  // The margin covers the round-off of |p - c| and R, relative to the coordinates' size, not the extent's.
  double size = c.stableNorm();
  for (const auto &p : points) size = std::max(size, p.stableNorm());
  const double margin = 1e-9 * lower + 64 * std::numeric_limits<double>::epsilon() * size;
  std::vector<Vec3> candidates;
  for (const auto &p : points)
    if ((p - c).stableNorm() + R >= lower - margin) candidates.push_back(p);
  double largest = lower;
  for (const auto &p : candidates)
    for (const auto &q : candidates) largest = std::max(largest, (p - q).stableNorm());
  return largest;
}

} // namespace beam::multibody
