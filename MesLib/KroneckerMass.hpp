// The exact inverse of the consistent mass of a uniform structured beam, applied by tridiagonal sweeps.
//
// The consistent Q4 mass of an hx x hy rectangle is a Kronecker product (ElementMatrices.hpp: pattern
// 4 same node, 2 edge neighbour, 1 opposite corner = [2 1; 1 2] (x) [2 1; 1 2]), separately for each
// displacement component. Summed over a uniform structured mesh, for each component
//   M = m0 t (Ty (x) Tx),   Tx = tridiag(r, d_i, r) over the node columns, Ty over the node rows,
// with d_i = 1 at a free end and 2 inside (the 1D consistent mass h/6 [2 1; 1 2] summed over elements,
// divided by its diagonal h/3), r = 1/2 and m0 the element's diagonal entry. The clamped supports
// freeze whole node columns, so the free DOFs are a Cartesian product of node columns and rows and the
// mass restricted to them is the Kronecker product of the restricted 1D matrices: still exact. Frozen DOFs
// have identity rows (Beam.hpp), so there M^{-1} is the identity.
//
// Applying M^{-1} = (Ty^{-1} (x) Tx^{-1}) / (m0 t) takes two tridiagonal solves (LDL^T, Thomas): along
// every node row (x) and every node column (y). Both components of a node share Tx and Ty, and the y
// solve works on whole node rows at a time, so both are plain loops over contiguous memory. The y
// solve's forward elimination and the x solves are one pass (the two commute: a block of rows is
// eliminated, then x-solved while in cache), so one application reads r once and writes z twice.
//
// Distribution: ranks own whole node rows (Beam.hpp), so the x solves are local. On two ranks the y
// solve runs forward from the beam's bottom on the lower block and from its top on the upper one; at the
// interface rows the two blocks exchange one row, solve a 2 x 2 system per column and sweep back from
// the exact interface values: as many passes as on one rank, and one message of a row each way. On more
// ranks the y solve is split by the partition method (SPIKE): each rank solves with its own block of Ty, and the couplings to the
// neighbouring blocks are removed by the exact correction z_p -= v_p L_{p-1} + w_p F_{p+1}, where v_p, w_p
// are the block's solutions for its coupling entries ("spikes") and F, L the first and last rows of every
// block, from a reduced 2P x 2P system (the same for every column; its right-hand sides gathered from
// every rank, one MPI_Allgather of two rows per rank). The spikes decay like (2 - sqrt 3)^k = 0.27^k away
// from the block's ends, so the correction touches only the rows where they exceed 1e-17.
#pragma once
#include <petscpc.h>

#include <memory>
#include <string>
#include <vector>

#include "MesLib/Beam.hpp"

namespace beam {

class KroneckerMassInverse {
public:
  // Empty when it applies (consistent mass, one thickness, frozen DOFs forming whole node columns,
  // every rank owning whole node rows); otherwise why not, for the run header.
  static std::string whyNot(const Beam &beam);

  explicit KroneckerMassInverse(const Beam &beam); // throws a run error if whyNot() is not empty
  // z = M^{-1} r (z may be r).
  void apply(Vec r, Vec z) const;
  // The same, z other than r, returning r . z (global): CG's natural norm from the same pass.
  double applyDot(Vec r, Vec z) const;
  // The number of applications so far (tests, benchmark).
  long applications() const { return applications_; }

  // One CG iteration's preconditioning fused with the vector updates around it, on one or two ranks
  // (fusable()): 9 passes over the state instead of 14 (KroneckerCG.hpp).
  // residualForward: r -= alpha q, then the forward half of M^{-1} r into w (x solves, y elimination,
  // the interface), returning r . M^{-1} r (global) from that half alone: with Ty = N B N^T (N the
  // elimination, B the pivots, a 2 x 2 block at the interface on two ranks),
  //   r' M^{-1} r = (1 / (m0 t)) sum_k u_k' Tx^{-1} u_k / D_k (all rows but the last) + u' z (the last row,
  // the interface on two ranks), u = (N^{-1} (x) I) r; u_k' Tx^{-1} u_k comes from the x solve's own
  // forward elimination (sum_i v_i^2 / D_i). Frozen DOFs add r'r.
  // directionBackward: the backward half from w, z = M^{-1} r held one row at a time (never stored),
  // fused with x += alpha p and p = z + beta p.
  bool fusable() const { return ranks_ <= 2; }
  double residualForward(double alpha, Vec q, Vec r, Vec w) const;
  void directionBackward(Vec w, double alpha, double beta, Vec p, Vec x) const;

private:
  double sweep(Vec r, Vec z, bool dot) const; // this rank's r . z if dot
  // The forward half of every application: from the rows of r (first r -= alpha q in place, row by row,
  // if r_update) into z, the last logical row finished (scaled, the interface solved on two ranks).
  // Returns this rank's share of r' M^{-1} r if dot (fusable() only; see residualForward), else 0.
  double forwardHalf(const double *rv, double *r_update, const double *qv, double alpha, double *zv, bool dot) const;
  PetscInt physicalRow(int j) const { return reversed_ ? rows_ - 1 - j : j; }

  MPI_Comm comm_;
  int rank_ = 0, ranks_ = 1;
  PetscInt row_stride_ = 0;         // DOFs per node row, 2 (mx + 1)
  PetscInt first_free_ = 0;         // first free DOF of a row (2 x the first free node column)
  PetscInt free_width_ = 0;         // free DOFs per row
  int rows_ = 0;                    // node rows this rank owns
  double inverse_scale_ = 1;        // 1 / (m0 t)
  double rx_ = 0.5, ry_ = 0.5;       // the off-diagonals of Tx and Ty
  std::vector<double> x_inv_d_, x_l_; // LDL^T of Tx on the free columns: 1/D_i and L_{i,i-1}
  std::vector<double> y_inv_d_, y_l_; // the same for this rank's block of Ty
  // Two ranks: the upper block's rows are swept in reverse order; the spikes' values at the interface.
  bool reversed_ = false;
  double my_spike_ = 0, peer_spike_ = 0;
  // SPIKE (more than two ranks): this block's spikes, truncated where they fall below 1e-17, and the inverse
  // of the reduced system (2P x 2P, row-major), rows F_p = 2p, L_p = 2p + 1.
  std::vector<double> spike_up_, spike_down_; // T_p^{-1} r e_first (coupling to rank p-1), T_p^{-1} r e_last
  std::vector<double> reduced_inverse_;
  mutable std::vector<double> gathered_, ends_; // work: every rank's first and last rows; mine
  mutable std::vector<double> row_work_; // two free rows: the backward half's z; the forward half's u_{k-1}
  mutable long applications_ = 0;
};

// Makes `pc` a PCSHELL applying inverse->apply (the shell keeps a share of it).
void setMassInversePreconditioner(PC pc, std::shared_ptr<const KroneckerMassInverse> inverse);

} // namespace beam
