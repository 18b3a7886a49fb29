// Scheme parameters from the options database (-newmark_beta, -hht_alpha, -rho_inf, ...), read by a
// scheme in its setup so the scheme stays free of lab and mesh knowledge. They are read with PETSc's
// typed calls in one block per scheme under the scheme instance's options prefix ("" by default, so the
// names are -newmark_beta; with "p_", -p_newmark_beta), so -help lists them. Parsing is strict: the
// whole value must be a finite real inside the accepted range, otherwise an input error (exit 2) names
// the option, the value and the range; nothing is clamped.
#pragma once
#include <functional>
#include <string>

#include "common/Options.hpp"

namespace beam {

// One options block titled "<scheme> parameters" under `prefix`.
void readSchemeParameters(const std::string &scheme, const std::string &prefix,
                          const std::function<void(OptionReader &)> &body);

} // namespace beam
