// Common part of the four schemes of the lab "Równania ruchu" (reference 003). Each step builds
//   b = M y_n + dt (f(t_f) - S x - e C y_n)
// for some x, and solves one system with  M + (1 - e) dt C + c dt^2 S.
// Undamped, this is exactly the lab's equations. Damping C (not in the lab) is taken the natural way for
// each scheme, at the time level the scheme uses for the other forces:
//   almost explicit, semi-implicit: C y_n explicit (e = 1), load at t_n;
//   fully implicit: C y_{n+1} implicit (e = 0), load at t_{n+1};
//   midpoint: C (y_n + y_{n+1})/2 (e = 1/2), load at t_n + dt/2.
#pragma once
#include <optional>

#include "solvers/TimeScheme.hpp"

namespace beam {

class LabScheme : public TimeScheme {
public:
  void setup(const Model &model, const SchemeSettings &settings) override;

protected:
  // b = M y + dt (f(t_load) - S x - e C y), e = explicitDamping()
  void rightHandSide(Vec x, Vec y, double t_load, Vec b) const;
  // c in M + (1 - e) dt C + c dt^2 S (c = 0 and e = 1 give M itself).
  virtual double stiffnessShift() const = 0;
  // e: the weight of C y_n on the right-hand side.
  virtual double explicitDamping() const = 0;

  const SecondOrderSystem *system_ = nullptr;
  double dt_ = 0;
  PMat shifted_;                     // the system matrix when it is not M
  std::optional<LinearSolver> solver_;
  PVec b_, r_;                       // work vectors
};

} // namespace beam
