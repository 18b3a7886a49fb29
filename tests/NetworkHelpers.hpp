// Small builders for the mass-spring tests: a particle, a spring, and every entry of a distributed
// vector gathered on each rank.
#pragma once
#include <petscvec.h>

#include <vector>

#include "MassSpring/BuiltinModels.hpp"
#include "MassSpring/Network.hpp"
#include "common/Petsc.hpp"

namespace beam::testing_helpers {

inline std::vector<double> allValues(Vec v) {
  PScatter scatter;
  PVec all;
  BEAM_PETSC(VecScatterCreateToAll(v, scatter.out(), all.out()));
  BEAM_PETSC(VecScatterBegin(scatter, v, all, INSERT_VALUES, SCATTER_FORWARD));
  BEAM_PETSC(VecScatterEnd(scatter, v, all, INSERT_VALUES, SCATTER_FORWARD));
  PetscInt n = 0;
  BEAM_PETSC(VecGetSize(all, &n));
  const PetscScalar *a = nullptr;
  BEAM_PETSC(VecGetArrayRead(all, &a));
  std::vector<double> out(a, a + n);
  BEAM_PETSC(VecRestoreArrayRead(all, &a));
  return out;
}

// The built-in cloth (stiffness 1000, total mass 1, two corners fixed, gravity) at n x n, validated (rest
// lengths: the initial distances).
inline Network squareCloth(int n) {
  auto params = builtinParameters("cloth");
  for (auto &p : params)
    if (p.name == "cloth_nx" || p.name == "cloth_ny") p.value = n;
  Network net = builtinNetwork("cloth", params);
  net.validate();
  return net;
}

inline Particle particle(Vec3 x, double m, Vec3 v = {0, 0, 0}, bool fixed = false) {
  Particle p;
  p.x = x;
  p.v = v;
  p.mass = m;
  p.fixed = fixed;
  return p;
}

inline Spring spring(PetscInt i, PetscInt j, double k, double l0 = -1, double c = 0) {
  Spring s;
  s.i = i;
  s.j = j;
  s.stiffness = k;
  s.rest_length = l0;
  s.damping = c;
  return s;
}

} // namespace beam::testing_helpers
