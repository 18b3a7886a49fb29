// The lab's interface (reference 003): each scheme as
//   void Dynamics...(int n, double *x, double *y, double T, double dt);
// with x, y the initial displacement and velocity (overwritten with the final ones), T the total time
// and dt the step. A thin facade over integrate(): it binds the system and the monitors once, since the
// lab's signature has no room for them; n is the number of DOFs this rank owns.
#pragma once
#include <vector>

#include "solvers/TimeLoop.hpp"

namespace beam {

class Dynamics {
public:
  Dynamics(const SecondOrderSystem &system, std::vector<Monitor *> monitors = {},
           LinearSolverKind solver = LinearSolverKind::Direct)
      : system_(system), monitors_(std::move(monitors)), solver_(solver) {}

  void DynamicsAlmostExplicit(int n, double *x, double *y, double T, double dt) { run("almost_explicit", n, x, y, T, dt); }
  void DynamicsSemiImplicit(int n, double *x, double *y, double T, double dt) { run("semi_implicit", n, x, y, T, dt); }
  void DynamicsFullyImplicit(int n, double *x, double *y, double T, double dt) { run("fully_implicit", n, x, y, T, dt); }
  void DynamicsMidpoint(int n, double *x, double *y, double T, double dt) { run("midpoint", n, x, y, T, dt); }

  // Result of the last run (divergence, drift).
  const RunResult &lastRun() const { return last_; }

private:
  void run(const char *scheme, int n, double *x, double *y, double T, double dt);

  const SecondOrderSystem &system_;
  std::vector<Monitor *> monitors_;
  LinearSolverKind solver_;
  RunResult last_;
};

} // namespace beam
