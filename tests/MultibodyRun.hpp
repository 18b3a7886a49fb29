// Runs a multibody model on one rank with a named scheme, as the time loop does (step, then the
// model's afterStep), and shows the state after every step to a visitor as Eigen vectors; and a small
// classical RK4 for the one-degree-of-freedom references the tests integrate in minimal coordinates.
#pragma once
#include <functional>
#include <string>

#include "Multibody/MultibodyModel.hpp"
#include "solvers/TimeScheme.hpp"

namespace beam::testing_helpers {

using MultibodyVisitor = std::function<void(int step, double t, const Eigen::VectorXd &q, const Eigen::VectorXd &qd)>;

inline Eigen::VectorXd eigenCopy(Vec x) {
  PetscInt n = 0;
  BEAM_PETSC(VecGetLocalSize(x, &n));
  const PetscScalar *a = nullptr;
  BEAM_PETSC(VecGetArrayRead(x, &a));
  Eigen::VectorXd out = Eigen::Map<const Eigen::VectorXd>(a, n);
  BEAM_PETSC(VecRestoreArrayRead(x, &a));
  return out;
}

// `model` must live on PETSC_COMM_SELF (all its entries on this rank). Visits step 0 (the initial
// state, velocities projected) and every step up to `steps`.
inline void runMultibody(const multibody::MultibodyModel &model, const std::string &scheme_name, double dt, int steps,
                         const MultibodyVisitor &visit) {
  auto scheme = makeScheme(scheme_name);
  scheme->setup(model, SchemeSettings(dt));
  PVec x = model.createVector(), v = model.createVector();
  model.initialState(x, v);
  visit(0, 0.0, eigenCopy(x), eigenCopy(v));
  for (int n = 1; n <= steps; ++n) {
    scheme->step((n - 1) * dt, x, v);
    model.afterStep(n * dt, x, v);
    visit(n, n * dt, eigenCopy(x), eigenCopy(v));
  }
}

// One classical RK4 step of u'' = f(u, u') for a scalar u (the minimal-coordinate references).
template <class F> void rk4Step(const F &f, double h, double &u, double &w) {
  const double k1u = w, k1w = f(u, w);
  const double k2u = w + 0.5 * h * k1w, k2w = f(u + 0.5 * h * k1u, w + 0.5 * h * k1w);
  const double k3u = w + 0.5 * h * k2w, k3w = f(u + 0.5 * h * k2u, w + 0.5 * h * k2w);
  const double k4u = w + h * k3w, k4w = f(u + h * k3u, w + h * k3w);
  u += h / 6 * (k1u + 2 * k2u + 2 * k3u + k4u);
  w += h / 6 * (k1w + 2 * k2w + 2 * k3w + k4w);
}

} // namespace beam::testing_helpers
