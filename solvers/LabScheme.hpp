// Common part of the four schemes of the lab "Równania ruchu" (reference 003). Each step is
//   (M + (1 - e) dt C + c dt^2 S) y_{n+1} = M y_n + dt (f(t_f) - S x - e C y_n)
// for some x; undamped, this is exactly the lab's equations. Damping C (not in the lab) is taken the
// natural way for each scheme, at the time level the scheme uses for the other forces:
//   almost explicit, semi-implicit: C y_n explicit (e = 1), load at t_n;
//   fully implicit: C y_{n+1} implicit (e = 0), load at t_{n+1};
//   midpoint: C (y_n + y_{n+1})/2 (e = 1/2), load at t_n + dt/2.
//
// It is solved in increment form. With y_{n+1} = y_n + D the system's M y_n cancel, and the C and S
// terms of the system matrix A applied to y_n join the right-hand side's:
//   A D = dt (f(t_f) - C y_n - S xs),   xs = x + c dt y_n,   A = M + (1 - e) dt C + c dt^2 S,
// the same equation, with one product per step (S xs) instead of three (M y_n and S x for the
// right-hand side, A y_n for the residual of an iterative solve's start y_n). Each scheme places its
// x at xs itself. An iterative solve (CG) starts from D = 0 or from the previous step's D, and stops at
// 1e-9 relative to the increment (kIncrementRtol): the same CG iterates as the former solve for y_{n+1}
// from y_n, stopped where that one stopped at 1e-10 relative to y (midpoint, 2000x50, dt = 0.01: 5
// iterations a step and energy drift 4.6e-11 over 1000 steps in both forms).
#pragma once
#include <optional>

#include "solvers/TimeScheme.hpp"

namespace beam {

class LabScheme : public TimeScheme {
public:
  void setup(const Model &model, const SchemeSettings &settings) override;
  // M + (1 - e) dt C + c dt^2 S assembled and solved (M's own solver when it is M).
  Footprint footprint() const override { return {1, 1}; }

  // Relative tolerance of the increment's iterative solve unless -<prefix>shifted_ksp_rtol says otherwise.
  static constexpr double kIncrementRtol = 1e-9;

protected:
  // impulse_ = dt (f(t_load) - C y - S xs), xs = x + c dt y placed by the scheme.
  void impulse(Vec xs, Vec y, double t_load);
  // y += D with A D = impulse_; D stays in increment_. from_last: an iterative solve starts from the
  // previous step's D (else from zero).
  void addIncrement(Vec y, bool from_last);
  // c in M + (1 - e) dt C + c dt^2 S (c = 0 and e = 1 give M itself).
  virtual double stiffnessShift() const = 0;
  // e: the weight of C y_n on the right-hand side of the lab's form.
  virtual double explicitDamping() const = 0;

  const SecondOrderSystem *system_ = nullptr;
  double dt_ = 0;
  PMat shifted_;                     // the system matrix when it is not M
  std::optional<LinearSolver> solver_;
  PVec impulse_, increment_, work_;
};

} // namespace beam
