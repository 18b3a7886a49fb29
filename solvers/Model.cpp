#include "solvers/Model.hpp"

#include "common/Error.hpp"

namespace beam {

PMat Model::createJacobian() const { throw inputError("model '" + name() + "' gives no Jacobian"); }

void Model::shiftedJacobian(double, Vec, Vec, double, double, double, Mat) const {
  throw inputError("model '" + name() + "' gives no Jacobian");
}

} // namespace beam
