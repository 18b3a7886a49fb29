// Scheme parameters from the options database (-newmark_beta, -hht_alpha, -rho_inf, ...), read by a
// scheme in its setup so the scheme stays free of lab and mesh knowledge. Parsing is strict: the whole
// value must be a finite real inside [lo, hi], otherwise an input error (exit 2) names the option, the
// value and the accepted range; nothing is clamped.
#pragma once
#include <string>

namespace beam {

// The value of `option` (e.g. "-newmark_beta"), or `default_value` when it is not given.
// `accepted` describes [lo, hi] for the error message, e.g. "a real in [-1/3, 0]".
double schemeParameter(const char *option, double default_value, double lo, double hi, const std::string &accepted);

} // namespace beam
