// Schemes whose state is more than (x, y) keep the rest between steps: the acceleration of the
// Newmark family, x_{n-1} of the three-level central difference. They may use it only when the next
// step() continues the sequence they produced, i.e. it is called at the time they reached with exactly
// the (x, y) they returned. Any other call (a new run, a state changed from outside) must restart the
// scheme from (x, y) alone. This records the last state handed out and answers that question.
#pragma once
#include <petscvec.h>

#include "common/Petsc.hpp"

namespace beam {

class StepContinuity {
public:
  // True when (t, x, y) is the state recorded by the last record().
  bool continues(double t, Vec x, Vec y) const;
  // Records the state a step produced, ending at time t.
  void record(double t, Vec x, Vec y);
  // Forgets the recorded state (the next step restarts).
  void reset() { valid_ = false; }

private:
  PVec x_, y_;
  double t_ = 0;
  bool valid_ = false;
};

} // namespace beam
