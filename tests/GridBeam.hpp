// The course beam's spec with another grid (every other field at its default), for tests that need a
// small or a particular beam.
#pragma once
#include "MesLib/Beam.hpp"

namespace beam {

inline BeamSpec gridBeam(int mx, int my) {
  BeamSpec spec;
  spec.mx = mx;
  spec.my = my;
  return spec;
}

} // namespace beam
