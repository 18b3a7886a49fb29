// The operator every time scheme sees: M x'' + C x' + S x = f(t) (schemes never see the mesh).
// Frozen DOFs are already built into M, C and S (identity rows and columns in M and S, zero in C) and
// into f (zero there).
#pragma once
#include <petscmat.h>

#include <functional>
#include <optional>

#include "common/Petsc.hpp"
#include "solvers/LinearSolver.hpp"

namespace beam {

// C = alpha M + beta S: the undamped modes stay the system's modes, mode i an oscillator of damping
// ratio xi_i = alpha / (2 omega_i) + beta omega_i / 2 (what the critical step uses, CriticalStep.hpp).
struct RayleighDamping {
  double alpha = 0, beta = 0;
  double ratio(double omega) const { return alpha / (2 * omega) + beta * omega / 2; }
};

struct SecondOrderSystem {
  PMat mass;      // M
  PMat stiffness; // S (K in the Newmark documents)
  PMat damping;   // C; empty for an undamped system
  std::optional<RayleighDamping> rayleigh; // set when C was made as alpha M + beta S (MesLib's beam)
  PVec load;      // f0 (with a load_field: a reference load, used only for scales)
  // f(t) = f0 * load_factor(t); empty = constant load f0.
  std::function<double(double)> load_factor;
  // The largest |load_factor(t)|: the energy scale's reference load is f0 times it (with f0 alone a
  // curve g = 1e12 on a unit load called a conserving run diverged, exit 3, and the same load given as
  // f0 = 1e12 conserved).
  double load_factor_bound = 1;
  // f(t) written into the vector, for loads that are not f0 g(t) (a sampled per-DOF history); when set
  // it replaces f0 * load_factor(t).
  std::function<void(double, Vec)> load_field;
  // M is diagonal (lumped): solves with M alone need no factorization or iteration.
  bool diagonal_mass = false;
  // Matrix-free systems build a M + b C + c S themselves (a shell operator); empty = assembled.
  std::function<PMat(double a, double b, double c)> combine;
  // Set by a model that chose its own solver path (MesLib/BeamSystem.hpp chooseSolverPath): makes a PC
  // apply M^{-1} exactly (the structured beam's Kronecker mass inverse). Schemes then solve with M by
  // one application and with a M + b C + c S (a > 0) by CG preconditioned by it, whatever
  // SchemeSettings::solver says (massSolver, shiftedSolver); empty = SchemeSettings::solver.
  std::function<void(PC)> mass_inverse;
  // With mass_inverse: the model's own solve for a system matrix it built (combine), in place of KSPSolve
  // where the options leave the solver as configured (LinearSolver::overrideSolve); empty = KSPSolve.
  std::function<LinearSolver::SolveOverride(Mat A)> fused_solve;

  bool damped() const { return bool(damping); }
  bool constantLoad() const { return !load_factor && !load_field; }
  // f(t) into `f`.
  void force(double t, Vec f) const {
    if (load_field) return load_field(t, f);
    BEAM_PETSC(VecCopy(load, f));
    if (load_factor) BEAM_PETSC(VecScale(f, load_factor(t)));
  }
  // r = s (f(t) - S x - c C y): the net force of the equation of motion, M x'' = r with c = 1 and s = 1.
  // Schemes that take damping at another time level pass another weight c; s scales the result in the
  // same pass (an impulse s = dt). `work` is scratch of the same layout.
  void netForce(double t, Vec x, Vec y, double c, Vec r, Vec work, double s = 1.0) const;
  PVec createVector() const { return duplicate(load); }
  // a M + b C + c S: the system matrix of an implicit scheme. Assembled systems sum the matrices on
  // the union of their patterns (a diagonal M with a banded S is fine); matrix-free systems return
  // their own operator. Marked SPD when a > 0 and b, c >= 0.
  PMat combination(double a, double b, double c) const;
  MPI_Comm comm() const { return PetscObjectComm(PetscObject(load.get())); }
  // The solver a scheme uses for M alone and for its system matrix A = a M + b C + c S: with
  // mass_inverse set, the model's (see there); otherwise `kind` (a diagonal M: one Jacobi application).
  LinearSolver massSolver(const std::string &prefix, LinearSolverKind kind) const;
  LinearSolver shiftedSolver(Mat A, const std::string &prefix, LinearSolverKind kind) const;
};

// The size of a matrix's entries: its infinity norm, or for a matrix-free one |A p| for a fixed probe p
// (a non-finite value tells an overflow).
double matrixMagnitude(Mat A);

} // namespace beam
