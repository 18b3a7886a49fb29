// The operator every time scheme sees: M x'' = f - S x (schemes never see the mesh).
// Frozen DOFs are already built into M and S (identity rows and columns) and f (zero there).
#pragma once
#include <petscmat.h>

#include "common/Petsc.hpp"

namespace beam {

struct SecondOrderSystem {
  PMat mass;      // M
  PMat stiffness; // S (K in the Newmark documents)
  PVec load;      // f, constant in time

  PVec createVector() const { return duplicate(load); }
  MPI_Comm comm() const { return PetscObjectComm(PetscObject(load.get())); }
};

} // namespace beam
