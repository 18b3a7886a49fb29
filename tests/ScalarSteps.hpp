// Explicit schemes' steps written in scalars for one DOF, x'' = a(t, x, v): the references that the
// scheme tests hold the solvers' steps to, exactly (a load or a force taken at the wrong time level keeps
// a scheme's order, so only a step-by-step comparison sees it).
#pragma once
#include <functional>

namespace beam::testing_helpers {

using ScalarAcceleration = std::function<double(double t, double x, double v)>;
using ScalarStep = std::function<void(double t, double &x, double &v)>;

// v1 = v + dt a(t, x, v), x1 = x + dt v1: reference 004's "explicit Euler" (the symplectic one), and
// reference 003's semi-implicit scheme.
inline ScalarStep symplecticEulerStep(ScalarAcceleration a, double dt) {
  return [a = std::move(a), dt](double t, double &x, double &v) {
    v += dt * a(t, x, v);
    x += dt * v;
  };
}

// x1 = x + dt v, v1 = v + dt a(t, x, v): forward Euler, and reference 003's almost explicit scheme.
inline ScalarStep forwardEulerStep(ScalarAcceleration a, double dt) {
  return [a = std::move(a), dt](double t, double &x, double &v) {
    const double v1 = v + dt * a(t, x, v);
    x += dt * v;
    v = v1;
  };
}

// The classical fourth-order Runge-Kutta step of (x, v)' = (v, a(t, x, v)).
inline ScalarStep rk4Step(ScalarAcceleration a, double dt) {
  return [a = std::move(a), dt](double t, double &x, double &v) {
    const double k1x = v, k1v = a(t, x, v);
    const double k2x = v + dt / 2 * k1v, k2v = a(t + dt / 2, x + dt / 2 * k1x, k2x);
    const double k3x = v + dt / 2 * k2v, k3v = a(t + dt / 2, x + dt / 2 * k2x, k3x);
    const double k4x = v + dt * k3v, k4v = a(t + dt, x + dt * k3x, k4x);
    x += dt / 6 * (k1x + 2 * k2x + 2 * k3x + k4x);
    v += dt / 6 * (k1v + 2 * k2v + 2 * k3v + k4v);
  };
}

} // namespace beam::testing_helpers
