// The extent of a mechanism, for its energy scale (MultibodyModel::referenceEnergy).
#pragma once
#include <vector>

#include "Multibody/Quaternion.hpp"

namespace beam::multibody {

// The largest distance between two of the points, the same double as the scan over all pairs, without
// its n^2 cost (a 20 000-link chain spent seconds here): two sweeps give a pair at distance `lower`; a
// pair farther apart needs |p - c| + |q - c| > lower about the centroid c, so both of its points have
// |p - c| >= lower - R, R the largest |q - c|. Only those are scanned (a chain's two ends; every point of
// a ring, whose set-up stays quadratic), with a margin far above the round-off of these sums.
double largestDistance(const std::vector<Vec3> &points);

} // namespace beam::multibody
