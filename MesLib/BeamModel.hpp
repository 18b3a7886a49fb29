// The beam as a Model (solvers/Model.hpp): a linear model over its SecondOrderSystem (the schemes of
// the course use its matrices, the others its forces), plus what only the beam knows — its identity
// for checkpoints and its picture.
//
// Picture (draw): the undeformed quads of this rank's elements (those whose bottom-left node it owns),
// point data `displacement` and `velocity` (3-vectors, z = 0, so ParaView's "Warp By Vector" shows the
// motion), cell data `von_mises` (stress at the element centre) and `strain_energy_density`
// (1/2 u_e'K_e u_e / element volume), both from MesLib's element formulas (ElementFields).
#pragma once
#include <vector>

#include "MesLib/Beam.hpp"
#include "MesLib/ElementMatrices.hpp"
#include "solvers/LinearModel.hpp"

namespace beam {

// Element fields of a displacement: the one place the beam's stresses and energy densities are computed.
class ElementFields {
public:
  ElementFields(const Material &material, double hx, double hy);
  // u_e: the element's 8 displacements (course's local order).
  double vonMisesStress(const double ue[8]) const;
  double strainEnergyDensity(const double ue[8]) const;

private:
  ElementMatrix k_unit_{};               // element stiffness for unit thickness
  std::array<double, 24> stress_unit_{}; // centre stress (3 x 8, row-major) per element displacement
  double volume_unit_;                   // hx * hy
};

class BeamModel final : public LinearModel {
public:
  // `beam` must outlive the model; `system` is its operator (beamSystem(), with damping and loads in time).
  BeamModel(const Beam &beam, SecondOrderSystem &&system, LinearSolverKind solver);
  // Refers to `system`, which must outlive the model (the eigenvalue labs keep their own).
  BeamModel(const Beam &beam, const SecondOrderSystem &system, LinearSolverKind solver);
  std::string name() const override { return "beam"; }
  std::vector<std::pair<std::string, std::string>> identity() const override;
  void draw(Vec x, Vec v, Drawing &drawing) const override;
  const Beam &beam() const { return beam_; }

private:
  void setupDrawing();

  const Beam &beam_;
  ElementFields fields_;
  std::vector<PetscInt> elements_;    // this rank's elements
  std::vector<PetscInt> local_nodes_; // the nodes of those elements, sorted
  std::vector<std::array<std::int64_t, 4>> cells_; // local point ids of each element, counter-clockwise
  PScatter scatter_;                  // global DOFs -> both DOFs of every local node
  std::vector<std::uint8_t> duplicate_; // under MPI: the local nodes another rank's piece owns (Drawing)
  PVec local_;
  mutable std::vector<double> u_, w_;
};

} // namespace beam
