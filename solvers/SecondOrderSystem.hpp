// The operator every time scheme sees: M x'' + C x' + S x = f(t) (schemes never see the mesh).
// Frozen DOFs are already built into M, C and S (identity rows and columns in M and S, zero in C) and
// into f (zero there).
#pragma once
#include <petscmat.h>

#include <functional>

#include "common/Petsc.hpp"

namespace beam {

struct SecondOrderSystem {
  PMat mass;      // M
  PMat stiffness; // S (K in the Newmark documents)
  PMat damping;   // C; empty for an undamped system
  PVec load;      // f0
  // f(t) = f0 * load_factor(t); empty = constant load f0.
  std::function<double(double)> load_factor;

  bool damped() const { return bool(damping); }
  bool constantLoad() const { return !load_factor; }
  // f(t) into `f`.
  void force(double t, Vec f) const {
    BEAM_PETSC(VecCopy(load, f));
    if (load_factor) BEAM_PETSC(VecScale(f, load_factor(t)));
  }
  PVec createVector() const { return duplicate(load); }
  MPI_Comm comm() const { return PetscObjectComm(PetscObject(load.get())); }
};

} // namespace beam
