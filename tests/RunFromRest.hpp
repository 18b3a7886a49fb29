// A scheme's run on a beam from rest (x = y = 0), the start most scheme tests share: the run's result
// and the final state.
#pragma once
#include <string>
#include <vector>

#include "MesLib/Beam.hpp"
#include "solvers/TimeLoop.hpp"

namespace beam {

struct FromRest {
  RunResult result;
  PVec x, y;
};

inline FromRest runFromRest(const Beam &beam, const SecondOrderSystem &sys, const std::string &scheme_name,
                            const RunSettings &settings, const std::vector<Monitor *> &monitors = {}) {
  FromRest run{{}, beam.createVector(), beam.createVector()};
  BEAM_PETSC(VecSet(run.x, 0.0));
  BEAM_PETSC(VecSet(run.y, 0.0));
  const auto scheme = makeScheme(scheme_name);
  run.result = integrate(*scheme, sys, run.x, run.y, settings, monitors);
  return run;
}

} // namespace beam
