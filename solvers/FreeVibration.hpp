// Free vibration of M x'' + S x = 0: the generalized symmetric eigenproblem  S phi = omega^2 M phi
// (GHEP), solved with SLEPc on the free DOFs only.
//
// Why the free DOFs only: frozen DOFs are imposed as identity rows and columns in both S and M
// (SecondOrderSystem.hpp), which decouples each of them into its own pencil (1, 1), i.e. an exact
// eigenpair omega^2 = 1, phi = e_i. These are not vibrations of the structure: depending on the units
// they can sit above omega_max or below omega_min and would then be reported as the extreme frequency
// (with E = 1e6 the "lowest mode" would be a frozen DOF at omega = 1), and a cluster of |frozen| equal
// eigenvalues slows the Krylov solver. Because the frozen rows and columns carry nothing but the
// identity, the spectrum of (S, M) is exactly that of (S_ff, M_ff) plus the spurious 1s, where _ff keeps
// the rows and columns of the free DOFs (MatCreateSubMatrix with an IS of free DOFs). Deflating by
// restriction therefore loses nothing and needs no tolerance to tell spurious from real eigenvalues.
//
// Options: each solver has its own prefix (ModalSettings::prefix), so `-<prefix>eps_tol`,
// `-<prefix>eps_type`, `-<prefix>st_ksp_type`, `-<prefix>eps_view` ... tune one solve without touching
// another (a `-<prefix>eps_target` or `-<prefix>eps_interval` is in the scaled pencil's units, lambda'). The linear solves inside SLEPc (with M for the largest eigenvalues, with S for shift-and-invert
// at 0) are a direct Cholesky factorization: CHOLMOD serially, MUMPS in parallel, as in LinearSolver.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "solvers/SecondOrderSystem.hpp"

namespace beam {

// The pencil (S_ff, M_ff) of a system restricted to its free DOFs.
class FreeVibration {
public:
  // `frozen`: global indices of the frozen DOFs (every rank may pass the whole list; each keeps the rows
  // it owns). The system's damping and load are ignored.
  FreeVibration(const SecondOrderSystem &system, const std::vector<PetscInt> &frozen);

  // S_ff / s_S and M_ff / s_M, s the largest diagonal entries: the eigenvalues lambda' = omega^2 s_M / s_S
  // are then of order one in any units, so shift-and-invert's S^-1 M v neither overflows nor underflows
  // (E = 1e-300 gave omega = inf for every mode, exit 0; E = 1e200 stopped inside SLEPc). Scaled in place:
  // no second copy (the modes lab's memory estimate counts one).
  Mat stiffness() const { return stiffness_; }
  Mat mass() const { return mass_; }
  double stiffnessScale() const { return stiffness_scale_; } // s_S
  double massScale() const { return mass_scale_; }           // s_M
  PetscInt freeCount() const;
  // A vector with the free-DOF layout.
  PVec createFreeVector() const;
  // A vector with the full system's layout.
  PVec createFullVector() const;
  // Full-length vector (the system's layout) holding `free` at the free DOFs and 0 at the frozen ones.
  void expand(Vec free, Vec full) const;

private:
  PIS free_;
  PMat stiffness_, mass_;
  double stiffness_scale_ = 1, mass_scale_ = 1;
  PVec full_template_;
};

enum class SpectrumEnd { Largest, Smallest };

struct ModalSettings {
  SpectrumEnd end = SpectrumEnd::Largest;
  PetscInt count = 1;       // wanted eigenpairs
  double tol = 1e-10;       // SLEPc's relative residual tolerance
  PetscInt max_it = 0;      // 0: SLEPc's default
  std::string prefix;       // options prefix, e.g. "omega_max_"
  std::string count_name = "number of eigenpairs"; // how errors about `count` name it (e.g. "-modes")
};

// One SLEPc eigensolver (EPS, GHEP) on a FreeVibration pencil.
//   Largest:  Krylov-Schur on M_ff^{-1} S_ff, largest magnitude (omega_max; its accuracy is what the
//             critical step 2/omega_max needs).
//   Smallest: shift-and-invert at target 0, (S_ff)^{-1} M_ff, nearest to the target: the low modes
//             converge in a few iterations and S_ff is SPD once supports remove the rigid-body modes.
// The constructor configures the solver from the options database (so unknown options can be rejected
// before anything runs); solve() runs it.
class ModalSolver {
public:
  ModalSolver(const FreeVibration &problem, const ModalSettings &settings);
  ~ModalSolver();
  ModalSolver(const ModalSolver &) = delete;
  ModalSolver &operator=(const ModalSolver &) = delete;

  // Solves; fewer than `count` converged eigenpairs is a run error naming the solver and the iterations
  // it used.
  void solve();
  // Circular frequencies omega_i = sqrt(lambda_i), i < count: descending for Largest, ascending for
  // Smallest.
  const std::vector<double> &omegas() const { return omegas_; }
  // Mode shape i as a full-length vector (0 at frozen DOFs), mass-normalized (phi' M phi = 1), with the
  // sign fixed so that its largest-magnitude entry is positive.
  PVec shape(PetscInt i) const;

private:
  void checkSpectrumEnd() const; // the first eigenvalue found is the extreme asked for (input error if not)
  struct Impl; // the EPS handle, kept out of this header so users need not include SLEPc
  const FreeVibration &problem_;
  ModalSettings settings_;
  std::unique_ptr<Impl> impl_;
  std::vector<double> omegas_;
};

// omega_max of the free DOFs (one Largest solve with the given prefix and tolerance).
double largestOmega(const FreeVibration &problem, const std::string &prefix, double tol);
// The same from the system's own operators, assembled or matrix-free, with nothing restricted or
// factored: Krylov-Schur on the pencil (P S P, M), P zeroing the `frozen` DOFs, solves with M by the
// system's mass solver (the Kronecker inverse on the beam's default path, the diagonal of a lumped
// mass, CG + Jacobi to 1e-10 under `<prefix>mass_` otherwise). What the scheme labs' stability check
// uses: a Cholesky factor of M at 8e5 DOFs held the run's peak memory at 4.2 times the estimate.
double largestOmegaMasked(const SecondOrderSystem &system, const std::vector<PetscInt> &frozen,
                          const std::string &prefix, double tol);

} // namespace beam
