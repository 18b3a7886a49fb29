#include "solvers/SchemeOptions.hpp"

#include "common/Petsc.hpp"

namespace beam {

void readSchemeParameters(const std::string &scheme, const std::string &prefix,
                          const std::function<void(OptionReader &)> &body) {
  readOptions(PETSC_COMM_WORLD, scheme + " parameters", prefix, body);
}

} // namespace beam
