// A mass-spring network as a beam::Model (solvers/Model.hpp): coordinates x = the particles' positions,
// three per particle (particle p owns entries 3p, 3p+1, 3p+2), v their velocities, M diagonal.
//
// Forces (Physics.hpp): springs and their dashpots, gravity m g, constant point loads, penalty
// contact with every plane. A fixed particle gets no force and no acceleration; its Jacobian row and
// column are a m_p I (no coupling), so the Jacobian of a network without dashpots stays symmetric for
// CG and GAMG, and Newton never moves a fixed particle.
//
// MPI: particles are distributed in contiguous blocks; a rank computes the forces and Jacobian rows of
// its own particles from every spring touching one of them (a spring between two ranks is evaluated on
// both), with the other ends' positions and velocities fetched by one VecScatter. Each particle's force
// is summed in the global spring order on any number of ranks, so the forces do not depend on the
// partition. Energies, dissipation and drawing count a spring once, on the rank owning its first
// particle i.
#pragma once
#include <array>
#include <string>
#include <utility>
#include <vector>

#include "MassSpring/Network.hpp"
#include "solvers/Model.hpp"

namespace beam {

class MassSpringModel : public Model {
public:
  // `network` must be validated and the same on every rank of `comm`.
  MassSpringModel(const Network &network, MPI_Comm comm);

  std::string name() const override { return "mass_spring"; }
  MPI_Comm comm() const override { return comm_; }
  PVec createVector() const override;

  void force(double t, Vec x, Vec v, Vec F) const override;
  void acceleration(double t, Vec x, Vec v, Vec a) const override;
  void massMult(Vec x, Vec v, Vec Mv) const override;

  bool hasJacobian() const override { return true; }
  PMat createJacobian() const override;
  void shiftedJacobian(double t, Vec x, Vec v, double a, double b, double c, Mat J) const override;

  // No dashpot on any spring, and no contact damping where there are planes.
  bool conservative() const override { return conservative_; }

  std::vector<std::string> energyNames() const override { return {"kinetic", "gravity", "elastic", "contact"}; }
  void storedEnergy(double t, Vec x, Vec v, std::vector<double> &parts) const override;
  // The gravity column: gravity and the point loads.
  double offsetEnergy(double t, Vec x, Vec v) const override;
  std::string implicitStepHint() const override;
  double dissipationRate(double t, Vec x, Vec v) const override;
  // The work gravity and the loads can do across the network's initial extent L (from the particle
  // farthest from the centroid to the particle farthest from that one): sum over free particles of
  // |m g| L, plus sum |f| L. The drift scale of a network at rest; it does not change when the network
  // is moved, turned or renumbered.
  double referenceEnergy() const override;
  std::string referenceEnergyFormula() const override { return "(sum of m |g| and |loads|) x the network's extent"; }

  std::vector<std::pair<std::string, std::string>> identity() const override { return identity_; }
  void draw(Vec x, Vec v, Drawing &drawing) const override;

  // The network's initial positions and velocities.
  void initialState(Vec x, Vec v) const;
  // CSV particle,x,y,z,vx,vy,vz of every particle, in index order; collective, rank 0 writes (atomically).
  void saveFinal(Vec x, Vec v, const std::string &path) const;
  PetscInt particleCount() const { return particle_count_; }
  PetscInt springCount() const { return spring_count_; }
  // This rank's particles: [firstParticle(), firstParticle() + ownedParticles()).
  PetscInt firstParticle() const { return first_; }
  PetscInt ownedParticles() const { return owned_; }
  double mass(PetscInt local) const { return mass_[size_t(local)]; }
  bool fixed(PetscInt local) const { return fixed_[size_t(local)]; }
  // Global indices of the coordinates of this rank's fixed particles (FreeVibration's frozen DOFs).
  std::vector<PetscInt> fixedDofs() const;

private:
  struct LocalSpring {
    Spring spring;   // spring.i, spring.j: local indices (owned first, then ghosts)
    bool owned;      // counted here for energies and drawing (its first particle is this rank's)
  };
  // Where the Jacobian's 3x3 blocks live in its value arrays, so that shiftedJacobian writes them in
  // place: with MatSetValuesBlocked every block cost a search of three rows, and the assembly of a
  // million-particle cloth took longer than the linear solve it feeds. Every matrix createJacobian
  // makes has the same layout (AIJ, block size 3, exact preallocation: a block (P, Q) is the three rows
  // 3P..3P+2, each holding the columns 3Q..3Q+2 side by side, in the diagonal part of the rank's rows
  // when Q is owned, in the off-diagonal part otherwise), so the slots are found once.
  // A slot is the index, in its part's value array, of the block's entry (3P, 3Q); row r of the block
  // starts row_start[3P + r] - row_start[3P] further on.
  struct JacobianSlots {
    PetscInt diagonal_nnz = -1, off_diagonal_nnz = -1; // the layout the slots were found in
    std::vector<PetscInt> diagonal;                    // owned particle p: its block (p, p)
    std::vector<std::array<PetscInt, 2>> spring;       // springs_[s]: blocks (i, j) and (j, i), -1 if not a row here
  };
  struct JacobianArrays; // J's value arrays and row starts while it is filled (MassSpringModel.cpp)
  void locateBlocks(const JacobianArrays &arrays) const;
  // Positions and velocities of the local particles (owned, then ghosts) from x and v.
  void gather(Vec x, Vec v) const;
  Vec3 localX(PetscInt l) const { return {xl_array_[3 * l], xl_array_[3 * l + 1], xl_array_[3 * l + 2]}; }
  Vec3 localV(PetscInt l) const { return {vl_array_[3 * l], vl_array_[3 * l + 1], vl_array_[3 * l + 2]}; }
  PetscInt globalIndex(PetscInt l) const { return l < owned_ ? first_ + l : ghosts_[size_t(l - owned_)]; }
  bool owns(PetscInt l) const { return l < owned_; }

  MPI_Comm comm_;
  bool distributed_ = false; // more than one rank: every piece marks its ghost particles
  PetscInt particle_count_ = 0, spring_count_ = 0, first_ = 0, owned_ = 0;
  std::vector<PetscInt> ghosts_;          // global indices of the ghost particles
  std::vector<double> mass_;              // local particles (owned, then ghosts)
  std::vector<char> fixed_;
  std::vector<Vec3> x0_, v0_;             // owned particles' initial state
  // Local fixed particles (owned and ghosts) and their place: gather() puts them there at rest, so no
  // state (a Newton iterate's x_n + dt (v_n + dv) included) moves them, and the Jacobian, which has no
  // column for them, is the exact derivative of the forces (-ms_snes_test_jacobian: 0.075 on a 4-particle
  // chain before, the finite differences filling those columns).
  std::vector<std::pair<PetscInt, Vec3>> anchors_;
  std::vector<LocalSpring> springs_;      // every spring touching an owned particle, in global order
  std::vector<std::pair<PetscInt, Vec3>> loads_; // owned particle (local), force
  Vec3 gravity_;
  std::vector<Plane> planes_;
  ContactLaw contact_;
  bool conservative_ = false;
  std::vector<std::pair<std::string, std::string>> identity_;

  PVec layout_;                 // a global vector: the layout of x and v
  PScatter scatter_;            // global -> local (owned + ghosts)
  PVec xl_, vl_;                // local sequential copies
  mutable std::vector<double> xl_array_, vl_array_;
  mutable JacobianSlots slots_;
};

} // namespace beam
