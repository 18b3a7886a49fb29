// A rigid multibody system as a beam::Model (reference 001, eqs. 6-12): coordinates q = (x_k, p_k),
// 7 per body (centre of mass, unit quaternion), v = qdot. Every evaluation of the accelerations solves
// the augmented system
//     [ M  G^T ] [ qddot  ]   [ F - J ]
//     [ G  0   ] [ lambda ] = [ L + W ]          W = -2 xi omega gdot - omega^2 g   (eq. 12)
// over the quaternion norm rows (one per body, eqs. 9-11) and the joint rows (Constraints.hpp), with
// Eigen: dense for small systems (a rank decision on G: the dependent rows of redundant joints, such as
// planar loops', are dropped), sparse LU for large ones (chains: cost linear in the number of bodies).
//
// The model is sequential: the whole state lives on rank 0 (the vectors have all their entries there
// and none on other ranks); other ranks take part in the collective calls and get the scalars by
// broadcast.
#pragma once
#include <cstdint>
#include <Eigen/Sparse>
#include <Eigen/SparseLU>

#include <memory>

#include "Multibody/Constraints.hpp"
#include "solvers/Model.hpp"

namespace beam::multibody {

struct Baumgarte {
  double xi = 1, omega = 5; // alpha = beta = 5 in Baumgarte's W = -2 alpha gdot - beta^2 g; omega = 0: off
};

class MultibodyModel : public Model {
public:
  MultibodyModel(Description description, MPI_Comm comm, Baumgarte baumgarte = {}, bool projection = false);

  std::string name() const override { return "multibody"; }
  MPI_Comm comm() const override { return comm_; }
  PVec createVector() const override;

  void force(double t, Vec x, Vec v, Vec F) const override;
  void acceleration(double t, Vec x, Vec v, Vec a) const override;
  void massMult(Vec x, Vec v, Vec Mv) const override;

  std::vector<std::string> energyNames() const override { return {"kinetic", "potential"}; }
  void storedEnergy(double t, Vec x, Vec v, std::vector<double> &parts) const override;
  // Gravity's part of the potential (its zero is the origin's).
  double offsetEnergy(double t, Vec x, Vec v) const override;
  double dissipationRate(double t, Vec x, Vec v) const override;
  // The torques' generalized forces: their work is logged as external work (no potential in 3D).
  bool hasExternalWork() const override { return !d_.torques.empty(); }
  void externalForce(double t, Vec x, Vec f) const override;
  // The work gravity can do across the mechanism's extent L (the largest distance between the bodies'
  // centres and joint points at t = 0, at least the largest body's shape): sum
  // |m_k g| L, plus the initial kinetic energy. The drift scale when E0 (gravity's potential left out) is
  // near 0; it does not change when the mechanism is moved, turned or measured in other units.
  double referenceEnergy() const override;
  std::string referenceEnergyFormula() const override { return "(sum of m |g|) x the mechanism's extent + the initial kinetic energy"; }
  std::vector<std::string> diagnosticNames() const override {
    return {"position_violation", "velocity_violation", "quaternion_norm_error"};
  }
  void diagnostics(double t, Vec x, Vec v, std::vector<double> &values) const override;
  std::vector<std::pair<std::string, std::string>> identity() const override;
  void draw(Vec x, Vec v, Drawing &drawing) const override;
  // -projection: positions and velocities back onto the constraints (M-orthogonal) after each step.
  void afterStep(double t, Vec x, Vec v) const override;

  // The state of the model file at t = 0 (velocities projected onto the constraints' tangent).
  void initialState(Vec x, Vec v) const;
  // CSV body,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz (world angular velocity); collective, rank 0 writes.
  void saveFinal(Vec x, Vec v, const std::string &path) const;

  const Description &description() const { return d_; }
  int bodyCount() const { return static_cast<int>(d_.bodies.size()); }
  int jointRowCount() const { return static_cast<int>(rows_.size()); }
  const Baumgarte &baumgarte() const { return baumgarte_; }
  // Augmented systems up to this size are solved dense (G's rank decided), larger ones by sparse LU.
  static constexpr int kDenseLimit = 150;
  static constexpr int kEquilibrationSweeps = 6; // Ruiz sweeps before the dense solve
  static constexpr double kRankThreshold = 1e-10; // G's rows below it, relative to the largest, are dependent
  // A sparse solve whose residual exceeds this fraction of the right-hand side is not trusted (dependent
  // rows met as round-off pivots); G's rank is then decided.
  static constexpr double kResidualTrust = 1e-6;
  static bool solvesDense(long unknowns) { return unknowns <= kDenseLimit; }
  bool projection() const { return projection_; }

  // --- the physics on plain arrays (rank 0; used by the Vec interface and by the tests) --------
  using Vector = Eigen::VectorXd;
  Vector initialCoordinates() const;
  Vector initialRates() const; // before projection
  Vector accelerations(double t, const Vector &q, const Vector &qd) const;
  Vector forces(const Vector &q, const Vector &qd) const; // F - J
  // Generalized forces of the torques alone: 2 Gw(p)^T tau on each quaternion (power tau . omega).
  Vector torqueForces(const Vector &q) const;
  Eigen::MatrixXd massMatrix(const Vector &q) const;
  double kinetic(const Vector &q, const Vector &qd) const;
  double potential(const Vector &q) const; // gravity's and the springs'
  double gravityPotential(const Vector &q) const;
  // Joint rows then norm rows: g, gdot, L and the dense gradient G (tests, small models).
  struct ConstraintValues {
    Vector g, gdot, rhs;
    std::vector<Eigen::Triplet<double>> gradient;
  };
  ConstraintValues constraints(const Vector &q, const Vector &qd) const;
  // M-orthogonal projection of (q, qd) onto g = 0 and G qd = 0.
  void project(Vector &q, Vector &qd) const;
  // World angular velocity of body b.
  Vec3 angularVelocity(const Vector &q, const Vector &qd, int b) const;
  // Angular momentum of the system about the world origin: sum of m x cross xdot + R(p) I Omega.
  Vec3 angularMomentum(const Vector &q, const Vector &qd) const;

private:
  Vector solveAugmented(const Vector &q, const ConstraintValues &c, const Vector &top) const;
  Vector coordinateScaling(const Vector &mass_diagonal) const;
  std::vector<int> independentRows(int nq, int nc, int rank, const Eigen::VectorXi &order) const;
  Eigen::SparseMatrix<double> scaledGradient(const Eigen::SparseMatrix<double> &K, int nq, int nc) const;
  Eigen::SparseMatrix<double> rankTestMatrix(const Eigen::SparseMatrix<double> &K, int nq, int nc) const;
  void chooseSparseRows(const Eigen::SparseMatrix<double> &K, int nq, int nc) const;
  bool sparseSolve(const Eigen::SparseMatrix<double> &K, const Vector &rhs, Vector &solution, bool reduced) const;
  bool droppedRowsImplied(const Eigen::SparseMatrix<double> &K, int nq, int nc) const;
  void keepRows(int N, std::vector<int> keep) const;
  void springForces(const StateView &s, double *F) const;

  Description d_;
  MPI_Comm comm_;
  int rank_ = 0;
  std::uint64_t data_hash_ = 0; // of the description's physics (identity, and the ranks' agreement)
  Baumgarte baumgarte_;
  bool projection_;
  std::vector<ConstraintRow> rows_;
  std::vector<int> row_joint_; // joint index of each row (drawing)
  struct SpringEnds {
    Attachment a, b;
  };
  std::vector<SpringEnds> spring_ends_;
  // Sparse LU of the augmented matrix: the pattern is fixed, analysed once.
  struct SparseSolver;
  std::shared_ptr<SparseSolver> sparse_;
};

} // namespace beam::multibody
