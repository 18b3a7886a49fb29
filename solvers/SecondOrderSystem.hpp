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
  PVec load;      // f0 (with a load_field: a reference load, used only for scales)
  // f(t) = f0 * load_factor(t); empty = constant load f0.
  std::function<double(double)> load_factor;
  // f(t) written into the vector, for loads that are not f0 g(t) (a sampled per-DOF history); when set
  // it replaces f0 * load_factor(t).
  std::function<void(double, Vec)> load_field;
  // M is diagonal (lumped): solves with M alone need no factorization or iteration.
  bool diagonal_mass = false;
  // Matrix-free systems build a M + b C + c S themselves (a shell operator); empty = assembled.
  std::function<PMat(double a, double b, double c)> combine;

  bool damped() const { return bool(damping); }
  bool constantLoad() const { return !load_factor && !load_field; }
  // f(t) into `f`.
  void force(double t, Vec f) const {
    if (load_field) return load_field(t, f);
    BEAM_PETSC(VecCopy(load, f));
    if (load_factor) BEAM_PETSC(VecScale(f, load_factor(t)));
  }
  // r = f(t) - S x - c C y: the net force of the equation of motion, M x'' = r with c = 1. Schemes that
  // take damping at another time level pass another weight c. `work` is scratch of the same layout.
  void netForce(double t, Vec x, Vec y, double c, Vec r, Vec work) const;
  PVec createVector() const { return duplicate(load); }
  // a M + b C + c S: the system matrix of an implicit scheme. Assembled systems sum the matrices on
  // the union of their patterns (a diagonal M with a banded S is fine); matrix-free systems return
  // their own operator. Marked SPD when a > 0 and b, c >= 0.
  PMat combination(double a, double b, double c) const;
  MPI_Comm comm() const { return PetscObjectComm(PetscObject(load.get())); }
};

} // namespace beam
