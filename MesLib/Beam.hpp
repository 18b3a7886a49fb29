// A beam case: mesh, material, thickness, supports (frozen DOFs) and loads, and its assembly into
// distributed PETSc matrices.
//
// Layout: rows are distributed by whole node rows of the mesh (by whole nodes when there are more ranks
// than node rows) in the course's numbering (both DOFs of a node on one rank); each rank computes and inserts only the rows it owns, so assembly needs no communication.
// Frozen DOFs (the course's `fix`, 1 = frozen) get an identity row and column in S and M and a zero load,
// so every scheme keeps them exactly at zero.
#pragma once
#include <petscmat.h>

#include <string>
#include <vector>

#include "MesLib/BeamMesh.hpp"
#include "MesLib/ElementMatrices.hpp"
#include "common/Petsc.hpp"

namespace beam {

enum class Supports { ClampedLeft, ClampedBoth, SimplySupported };
// Names accepted by -supports, and their parser (throws an input error naming the accepted ones).
const char *supportsName(Supports s);
Supports parseSupports(const std::string &name);

struct PointLoad {
  int x = 0, y = 0;   // node grid position
  double fx = 0, fy = 0;
};

struct BeamSpec {
  int mx = 20, my = 5;
  double hx = 1, hy = 1;
  Material material;
  double thickness = 1;                   // uniform thickness ...
  std::vector<double> element_thickness;  // ... or one per element, in Q(x, y) order (overrides)
  MassScaling mass_scaling = MassScaling::Consistent;
  bool lumped_mass = false; // row-sum lumped (diagonal) mass instead of the consistent one
  Supports supports = Supports::ClampedLeft;
  // Loads. With no point load and no top load the default applies: a vertical force -0.1 at the
  // bottom-right node P(MX, 0, 1) (for beams supported at both ends, simply or clamped, at the bottom
  // node of mid-span, P(MX/2, 0, 1): the right end takes a load there).
  std::vector<PointLoad> point_loads;
  // The point loads applied: point_loads, or the default one when no load is given.
  std::vector<PointLoad> appliedPointLoads() const;
  double top_load = 0; // vertical load per unit length along the top edge (consistent nodal forces)

  // Checks ranges; throws an input error naming the offending value and the accepted range.
  void validate() const;
  double elementThickness(PetscInt q) const {
    return element_thickness.empty() ? thickness : element_thickness[size_t(q)];
  }
};

class Beam {
public:
  Beam(const BeamSpec &spec, MPI_Comm comm);

  const BeamSpec &spec() const { return spec_; }
  const BeamMesh &mesh() const { return mesh_; }
  MPI_Comm comm() const { return comm_; }
  // Owned node range [nodeBegin, nodeEnd) of this rank; DOF rows are twice these.
  PetscInt nodeBegin() const { return node_begin_; }
  PetscInt nodeEnd() const { return node_end_; }
  // Frozen DOFs (global indices, sorted), all of them and this rank's.
  const std::vector<PetscInt> &frozenDofs() const { return frozen_; }
  std::vector<PetscInt> ownedFrozenDofs() const;

  // Assembled global matrices with frozen DOFs applied (apply_frozen = false gives the raw course
  // matrices, as in the reference fixture).
  PMat stiffness(bool apply_frozen = true) const;
  PMat mass(bool apply_frozen = true) const;
  // Load vector f (zero at frozen DOFs).
  PVec load() const;
  // A vector with this beam's row layout.
  PVec createVector() const;

  // Element matrices of unit thickness (every element is hx x hy; thickness scales them): the one
  // place both the assembled matrices and the matrix-free operator take them from.
  ElementMatrix elementStiffness() const;
  ElementMatrix elementMass() const;

  // The elements this rank owns for output: those whose bottom-left node it owns.
  std::vector<PetscInt> ownedElements() const;

  // Prints one warning line (stderr, rank 0) per point-load component on a frozen DOF.
  void warnFrozenLoads() const;

private:
  PMat assemble(bool stiffness, bool apply_frozen) const;

  BeamSpec spec_;
  BeamMesh mesh_;
  MPI_Comm comm_;
  PetscInt node_begin_ = 0, node_end_ = 0;
  std::vector<PetscInt> frozen_;
};

} // namespace beam
