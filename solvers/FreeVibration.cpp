#include "solvers/FreeVibration.hpp"

#include <slepceps.h>
#include <strings.h>

#include "common/Exact.hpp"
#include "common/Options.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

namespace beam {
namespace {

// The eigensolver types that find the lab's frequencies with its spectral transformation.
const std::string kSolvingTypes = "krylovschur, arnoldi, lanczos, subspace, power, lapack or arpack";

// Principal submatrices of SPD matrices are SPD (and so are their positive multiples); telling PETSc
// lets Cholesky be used on them.
void markSpd(Mat A) {
  BEAM_PETSC(MatSetOption(A, MAT_SYMMETRIC, PETSC_TRUE));
  BEAM_PETSC(MatSetOption(A, MAT_SYMMETRY_ETERNAL, PETSC_TRUE));
  BEAM_PETSC(MatSetOption(A, MAT_SPD, PETSC_TRUE));
}

// A /= (its largest diagonal entry), in place, returning that entry.
double scaleToUnitDiagonal(Mat A, const std::string &role) {
  PVec d;
  BEAM_PETSC(MatCreateVecs(A, d.out(), nullptr));
  BEAM_PETSC(MatGetDiagonal(A, d));
  PetscReal largest = 0;
  BEAM_PETSC(VecMax(d, nullptr, &largest));
  if (!(largest > 0 && std::isfinite(largest)))
    throw inputError("the " + role + " matrix's largest diagonal entry on the free DOFs is " + exactDecimal(largest) +
                     "; accepted: a positive definite " + role + " matrix with finite entries");
  BEAM_PETSC(MatScale(A, 1 / largest));
  return largest;
}

} // namespace

FreeVibration::FreeVibration(const SecondOrderSystem &system, const std::vector<PetscInt> &frozen) {
  PetscInt lo = 0, hi = 0;
  BEAM_PETSC(MatGetOwnershipRange(system.stiffness, &lo, &hi));
  std::vector<PetscInt> sorted(frozen);
  std::sort(sorted.begin(), sorted.end());
  std::vector<PetscInt> free;
  for (PetscInt i = lo; i < hi; ++i)
    if (!std::binary_search(sorted.begin(), sorted.end(), i)) free.push_back(i);
  const MPI_Comm comm = system.comm();
  BEAM_PETSC(ISCreateGeneral(comm, PetscInt(free.size()), free.data(), PETSC_COPY_VALUES, free_.out()));
  BEAM_PETSC(MatCreateSubMatrix(system.stiffness, free_, free_, MAT_INITIAL_MATRIX, stiffness_.out()));
  BEAM_PETSC(MatCreateSubMatrix(system.mass, free_, free_, MAT_INITIAL_MATRIX, mass_.out()));
  markSpd(stiffness_);
  markSpd(mass_);
  stiffness_scale_ = scaleToUnitDiagonal(stiffness_, "stiffness");
  mass_scale_ = scaleToUnitDiagonal(mass_, "mass");
  full_template_ = system.createVector();
}

PetscInt FreeVibration::freeCount() const {
  PetscInt n = 0;
  BEAM_PETSC(ISGetSize(free_, &n));
  return n;
}

PVec FreeVibration::createFullVector() const { return duplicate(full_template_); }

PVec FreeVibration::createFreeVector() const {
  PVec v;
  BEAM_PETSC(MatCreateVecs(stiffness_, v.out(), nullptr));
  return v;
}

void FreeVibration::expand(Vec free, Vec full) const {
  BEAM_PETSC(VecSet(full, 0.0));
  BEAM_PETSC(VecISCopy(full, free_, SCATTER_FORWARD, free)); // forward = reduced into full: full[free_] = free
}

struct ModalSolver::Impl {
  Handle<EPS, EPSDestroy> eps;
};

namespace {

// The KSP and PC of SLEPc's inner solves (its spectral transformation's).
std::pair<KSP, PC> innerSolver(EPS eps) {
  ST st;
  KSP ksp;
  PC pc;
  BEAM_PETSC(EPSGetST(eps, &st));
  BEAM_PETSC(STGetKSP(st, &ksp));
  BEAM_PETSC(KSPGetPC(ksp, &pc));
  return {ksp, pc};
}

// The factorization SLEPc uses for its inner solves: direct Cholesky, as LinearSolver does. A
// -<prefix>st_pc_type that is not a factorization, given without -<prefix>st_ksp_type, runs inside CG to
// 1e-12, as the schemes' solvers do (LinearSolver): applied once (preonly), -modes_st_pc_type jacobi gave
// omega_1 = 14.07 for 0.1229 and the stability lab an unsafe critical step, exit 0.
void useDirectSolves(EPS eps, MPI_Comm comm, const std::string &prefix) {
  const auto [ksp, pc] = innerSolver(eps);
  if (LinearSolver::optionsChooseInexactPreconditioner(prefix + "st_")) {
    BEAM_PETSC(KSPSetType(ksp, KSPCG));
    BEAM_PETSC(KSPSetTolerances(ksp, 1e-12, 1e-300, PETSC_DEFAULT, 10000));
    BEAM_PETSC(PCSetType(pc, PCJACOBI)); // until the options' type replaces it
    return;
  }
  BEAM_PETSC(KSPSetType(ksp, KSPPREONLY));
  BEAM_PETSC(PCSetType(pc, PCCHOLESKY));
  PetscMPIInt size = 1;
  MPI_Comm_size(comm, &size);
  BEAM_PETSC(PCFactorSetMatSolverType(pc, size == 1 ? MATSOLVERCHOLMOD : MATSOLVERMUMPS));
}

// Whether the user gave options under -<prefix><part>: a failure is then theirs (exit 2), else the run's (3).
bool givenOptions(const std::string &prefix, const std::string &part) {
  const std::string start = "-" + prefix + part;
  for (const auto &[name, value] : databaseOptions())
    if (strncasecmp(name.c_str(), start.c_str(), start.size()) == 0) return true; // (PETSc ignores case)
  return false;
}

// What the options may not change: which eigenvalues are sought (the labs want an end of the spectrum:
// -modes_eps_target 1e-3 listed mode 1 third and unsorted, -modes_eps_largest_magnitude failed inside
// SLEPc with a message naming options without their prefix, exit 3), how many (-modes_eps_nev: the lab's
// own count option says it), SLEPc's tolerance beyond 1e-6 (-modes_eps_tol 0.5: modes off by 2e-5,
// printed to 17 digits), and an exact solve replaced by one preconditioner application.
void refuseRetargeting(EPS eps, EPSWhich which, PetscInt count, const std::string &prefix, const std::string &count_name,
                       double largest_tol) {
  const std::string p = "-" + prefix;
  const char *wanted = which == EPS_LARGEST_MAGNITUDE ? "the largest" : "the smallest";
  EPSWhich now;
  BEAM_PETSC(EPSGetWhichEigenpairs(eps, &now));
  PetscScalar target = 0;
  if (which == EPS_TARGET_MAGNITUDE) BEAM_PETSC(EPSGetTarget(eps, &target));
  if (now != which || PetscRealPart(target) != 0)
    throw inputError(p + "eps_target, " + p + "eps_interval or a " + p + "eps_<which> option: this eigensolver finds " +
                     wanted + " frequencies and the lab reads them so; accepted: options that keep that (" + p + "eps_type, " +
                     p + "eps_tol, " + p + "eps_ncv, " + p + "eps_max_it, " + p + "st_ksp_*, " + p + "st_pc_*)");
  // A region keeps only the eigenvalues inside it: -omega_max_rg_type interval with endpoints 0,1.5 gave
  // omega_max = 25.3 for 42.0 and an unsafe critical step, exit 0. (The lab sets none: any -<p>rg_* option
  // is refused, also one keeping every eigenvalue, as a bare -omega_max_rg_type ellipse does.)
  if (givenOptions(prefix, "rg_"))
    throw inputError(p + "rg_type and " + p + "rg_*: a region keeps only the eigenvalues inside it, and this eigensolver finds " +
                     wanted + " frequencies of all; accepted: no " + p + "rg_* options");
  // So does a shift: the transformation looks around it (-omega_min_st_shift 0.5 did not converge, with a
  // hint naming eps_max_it; a shift of 1e9 made the inner solves inexact), and the lab's is 0.
  if (givenOptions(prefix, "st_shift"))
    throw inputError(p + "st_shift: a shift moves where this eigensolver looks, and it finds " + wanted +
                     " frequencies with the lab's shift 0; accepted: no " + p + "st_shift");
  ST st;
  STType st_type = nullptr;
  BEAM_PETSC(EPSGetST(eps, &st));
  BEAM_PETSC(STGetType(st, &st_type));
  const std::string transform = which == EPS_LARGEST_MAGNITUDE ? STSHIFT : STSINVERT;
  EPSType eps_type = nullptr;
  BEAM_PETSC(EPSGetType(eps, &eps_type));
  PetscBool preconditioned = PETSC_FALSE; // solvers that want their own transformation, precond
  BEAM_PETSC(PetscObjectTypeCompareAny(PetscObject(eps), &preconditioned, EPSLOBPCG, EPSGD, EPSJD, EPSRQCG, ""));
  // SLEPc failed later, blaming the st_type, or (where the lab had set sinvert, as modes does) with its
  // own "This solver requires ST=PRECOND". (lapack, arpack and the Krylov solvers take the lab's.)
  if (preconditioned)
    throw inputError(p + "eps_type " + (eps_type ? eps_type : "none") + " sets its own spectral transformation ('precond'): " +
                     "this eigensolver finds " + wanted + " frequencies with '" + transform + "'; accepted: " + p +
                     "eps_type " + kSolvingTypes);
  if (!st_type || transform != st_type) { // sinvert for the largest failed inside SLEPc, exit 3
    PetscBool st_given = PETSC_FALSE;
    BEAM_PETSC(PetscOptionsHasName(nullptr, nullptr, (p + "st_type").c_str(), &st_given));
    if (!st_given) // the method chose it (ciss, lyapii): the refusal named an -st_type nobody gave
      throw inputError(p + "eps_type " + (eps_type ? eps_type : "none") + " sets the spectral transformation '" +
                       (st_type ? st_type : "none") + "' itself: this eigensolver finds " + wanted + " frequencies with '" +
                       transform + "'; accepted: " + p + "eps_type " + kSolvingTypes);
    throw inputError(p + "st_type " + (st_type ? st_type : "none") + ": this eigensolver finds " + wanted +
                     " frequencies with the spectral transformation '" + transform + "'; accepted: " + p + "st_type " + transform);
  }
  // SLEPc's Lanczos wants its reorthogonalization named, and said so in a garbled message naming the
  // option without the prefix (until 2026-11-30).
  PetscBool lanczos = PETSC_FALSE, reorthog = PETSC_FALSE;
  BEAM_PETSC(PetscObjectTypeCompare(PetscObject(eps), EPSLANCZOS, &lanczos));
  BEAM_PETSC(PetscOptionsHasName(nullptr, nullptr, (p + "eps_lanczos_reorthog").c_str(), &reorthog));
  if (lanczos && !reorthog)
    throw inputError(p + "eps_type lanczos: needs its reorthogonalization named; accepted: with " + p +
                     "eps_lanczos_reorthog local, full, selective, periodic, partial or delayed (or " + p +
                     "eps_type krylovschur, the default: Lanczos with thick restart)");
  PetscInt nev = 0, ncv = 0, mpd = 0;
  BEAM_PETSC(EPSGetDimensions(eps, &nev, &ncv, &mpd));
  if (nev != count) {
    if (count_name.rfind('-', 0) == 0) // the lab's own option sets the count
      throw inputError(p + "eps_nev " + std::to_string(nev) + ": the number of eigenpairs is " + count_name + " (" +
                       std::to_string(count) + "); accepted: " + count_name + " in place of " + p + "eps_nev");
    throw inputError(p + "eps_nev " + std::to_string(nev) + ": the lab sets the number of eigenpairs (" +
                     std::to_string(count) + ") itself; accepted: no " + p + "eps_nev");
  }
  PetscReal tol = 0;
  PetscInt max_it = 0;
  BEAM_PETSC(EPSGetTolerances(eps, &tol, &max_it));
  if (!(tol > 0 && tol <= largest_tol))
    refuseOptionValue(prefix, "eps_tol", tol, largest_tol < 1e-3 ? "a real in (0, 1e-6] (the lab prints 8 digits)" : "a real in (0, 1e-3]");
}

// The eigensolver `prefix` failed (at its set-up or solve): an input error where its options were given.
Error failure(const std::string &prefix, const std::string &how) {
  LinearSolver::refuseGivenOutOfRange(prefix); // (throws where one option is named so)
  // PETSc's line may say what it accepts already (an unknown type, common/Petsc.cpp): one accepted part.
  const std::string what = "eigensolver '" + prefix + "' " + how +
                           (how.find("; accepted: ") != std::string::npos
                                ? ""
                                : "; accepted: its default options, or -" + prefix + "eps_* and -" + prefix +
                                      "st_* options that solve (see -" + prefix + "eps_view)");
  // Any option under the prefix: -omega_max_ds_method 5 (SLEPc: "the specified method number does not
  // exist") was the run's failure, exit 3, until 2026-11-30.
  return givenOptions(prefix, "") ? inputError(what) : runError(what);
}

// The inner solves of ModalSolver (Cholesky by default): one preconditioner application is refused.
void refuseInexactInnerSolve(EPS eps, Mat like, const std::string &prefix) {
  const auto [ksp, pc] = innerSolver(eps);
  // Diagonal scaling rescales the operator's matrices in place, which the lab's other eigensolver shares:
  // -omega_min_st_ksp_diagonal_scale failed omega_max_'s solve ("Cannot retrieve original matrices"),
  // exit 3, until 2026-11-30.
  PetscBool scaled = PETSC_FALSE;
  BEAM_PETSC(KSPGetDiagonalScale(ksp, &scaled));
  if (scaled)
    throw inputError("-" + prefix + "st_ksp_diagonal_scale: scales the eigenproblem's matrices in place, and the lab's "
                     "solvers share them; accepted: no -" + prefix + "st_ksp_diagonal_scale");
  LinearSolver::refuseOneApplication(ksp, like, prefix + "st_", {}, ", or -" + prefix + "st_pc_type alone: CG to 1e-12");
  LinearSolver::checkTolerances(ksp, prefix + "st_");
  LinearSolver::checkPreconditionerOptions(ksp, like, prefix + "st_"); // `like`: a matrix of the ST operator's type
}

} // namespace

ModalSolver::ModalSolver(const FreeVibration &problem, const ModalSettings &settings)
    : problem_(problem), settings_(settings), impl_(std::make_unique<Impl>()) {
  if (settings.count < 1 || settings.count > problem.freeCount())
    throw inputError(settings.count_name + ": " + std::to_string(settings.count) +
                     " is out of range; accepted: an integer from 1 to the " + std::to_string(problem.freeCount()) +
                     " free DOFs");
  const MPI_Comm comm = PetscObjectComm(PetscObject(problem.stiffness()));
  BEAM_PETSC(EPSCreate(comm, impl_->eps.out()));
  const EPS eps = impl_->eps;
  BEAM_PETSC(EPSSetOptionsPrefix(eps, settings.prefix.c_str()));
  BEAM_PETSC(EPSSetOperators(eps, problem.stiffness(), problem.mass()));
  BEAM_PETSC(EPSSetProblemType(eps, EPS_GHEP));
  BEAM_PETSC(EPSSetDimensions(eps, settings.count, PETSC_DEFAULT, PETSC_DEFAULT));
  BEAM_PETSC(EPSSetTolerances(eps, settings.tol, settings.max_it > 0 ? settings.max_it : PETSC_DEFAULT));
  ST st;
  BEAM_PETSC(EPSGetST(eps, &st));
  if (settings.end == SpectrumEnd::Largest) {
    BEAM_PETSC(EPSSetWhichEigenpairs(eps, EPS_LARGEST_MAGNITUDE)); // every EPS type takes it (power, subspace)
  } else {
    BEAM_PETSC(STSetType(st, STSINVERT));
    BEAM_PETSC(EPSSetTarget(eps, 0.0));
    BEAM_PETSC(EPSSetWhichEigenpairs(eps, EPS_TARGET_MAGNITUDE));
  }
  useDirectSolves(eps, comm, settings.prefix);
  LinearSolver::refuseValuesThatCrash(settings.prefix);
  try {
    BEAM_PETSC(EPSSetFromOptions(eps));
  } catch (const Error &e) { // e.g. -omega_max_eps_type nonsense
    LinearSolver::refuseGivenOutOfRange(settings.prefix);
    const std::string what = e.what();
    const std::string accepted = what.find("Unknown EPS type") != std::string::npos
                                     ? "; accepted: -" + settings.prefix + "eps_type " + kSolvingTypes
                                 : what.find("Unknown ST type") != std::string::npos
                                     ? "; accepted: -" + settings.prefix + "st_type " + (settings.end == SpectrumEnd::Largest ? "shift" : "sinvert")
                                     : "";
    throw inputError("options of the '" + settings.prefix + "' eigensolver: " + what + accepted);
  }
  refuseRetargeting(eps, settings.end == SpectrumEnd::Largest ? EPS_LARGEST_MAGNITUDE : EPS_TARGET_MAGNITUDE,
                    settings.count, settings.prefix, settings.count_name, 1e-6);
  refuseInexactInnerSolve(eps, problem.stiffness(), settings.prefix);
  // -<prefix>eps_view, -<prefix>eps_converged_reason are read by EPSSolve; the inner solvers' options
  // (-<prefix>st_sub_*, -<prefix>st_mg_levels_*) by the set-up, done here so that they are judged now:
  // their ranges, and those no part of the solver as set up reads refused (-modes_st_sub_pc_type with the
  // default Cholesky ran without a word until 2026-11-29).
  acceptSolveTimeOptions(settings.prefix, {"eps"});
  const auto [ksp, pc] = innerSolver(eps);
  try {
    BEAM_PETSC(EPSSetUp(eps));
    BEAM_PETSC(LinearSolver::setUp(ksp));
  } catch (const Error &e) { // the factorization of a singular pencil, or an inner option PETSc refuses
    throw failure(settings.prefix, "failed at its set-up: " + std::string(e.what()));
  }
  LinearSolver::checkSetUp(ksp, settings.prefix + "st_");
  EPSType eps_type = nullptr;
  BEAM_PETSC(EPSGetType(eps, &eps_type));
  const std::set<std::string> no_other_solvers; // (the inner solver's reports were judged by checkSetUp)
  refuseUnreadSolverOptions(comm, settings.prefix, "-" + settings.prefix + "eps_type " + (eps_type ? eps_type : "?"), 0,
                            &no_other_solvers);
}

ModalSolver::~ModalSolver() = default;

void ModalSolver::solve() {
  const EPS eps = impl_->eps;
  try {
    BEAM_PETSC(EPSSolve(eps));
  } catch (const Error &e) { // named no solver ("KSPSolve has not converged"), or options without prefix
    throw failure(settings_.prefix, "failed: " + std::string(e.what()));
  }
  PetscInt converged = 0, its = 0;
  EPSConvergedReason reason;
  BEAM_PETSC(EPSGetConverged(eps, &converged));
  BEAM_PETSC(EPSGetIterationNumber(eps, &its));
  BEAM_PETSC(EPSGetConvergedReason(eps, &reason));
  if (converged < settings_.count || reason < 0)
    throw runError("eigensolver '" + settings_.prefix + "' did not converge: " + std::to_string(converged) +
                   " of " + std::to_string(settings_.count) + " eigenpairs after " + std::to_string(its) +
                   " iterations (" + EPSConvergedReasons[reason] + "); try -" + settings_.prefix +
                   "eps_max_it or -" + settings_.prefix + "eps_ncv");
  // Each pair's backward error ||S x - lambda M x|| / ((||S|| + |lambda| ||M||) ||x||), recomputed from the
  // pencil itself: inner solves looser than the options allow for (-modes_st_ksp_type cg
  // -modes_st_ksp_rtol 0.5 gave omega_6 = 2.568 for 2.368, exit 0) leave pairs SLEPc calls converged.
  double tol = settings_.tol;
  BEAM_PETSC(EPSGetTolerances(eps, &tol, nullptr));
  // SLEPc's test bounds it by about its tolerance (measured with the default Cholesky: 1e-16).
  const double allowed = std::max(1e-12, 10 * tol);
  for (PetscInt i = 0; i < settings_.count; ++i) {
    PetscReal error = 0;
    BEAM_PETSC(EPSComputeError(eps, i, EPS_ERROR_BACKWARD, &error));
    if (error <= allowed) continue;
    // The default solves are exact: a bad pair comes from the inner solver's options when some were given.
    // With the default factorization the pencil itself is to blame (a nearly disconnected beam: a
    // thickness of 1e-250), and naming the default as the cure would mislead.
    const bool inner_options = givenOptions(settings_.prefix, "st_");
    const std::string what = "eigensolver '" + settings_.prefix + "': eigenpair " + std::to_string(i + 1) +
                             " has a backward error of " + gText(error) + ", above 10 x its tolerance (" + gText(allowed) + "): " +
                             (inner_options ? "the inner solves are not exact enough; accepted: -" + settings_.prefix +
                                                  "st_ksp_rtol 1e-12 or tighter, or a factorization (-" + settings_.prefix +
                                                  "st_pc_type cholesky)"
                                            : "the default factorization's round-off on this pencil (stiffness or mass "
                                              "scales too far apart) is above it");
    throw inner_options ? inputError(what) : runError(what);
  }
  omegas_.clear();
  for (PetscInt i = 0; i < settings_.count; ++i) {
    PetscScalar kr, ki;
    BEAM_PETSC(EPSGetEigenvalue(eps, i, &kr, &ki));
    // S is positive semidefinite for the beams (a round-off negative is clamped to omega = 0; an
    // indefinite S, a linearized network unstable at rest, is refused by checkSpectrumEnd below). Square
    // roots of the scales taken apart, so their ratio cannot overflow on its own.
    const double omega = std::sqrt(std::max(0.0, double(PetscRealPart(kr)))) * std::sqrt(problem_.stiffnessScale()) /
                         std::sqrt(problem_.massScale());
    if (!std::isfinite(omega))
      throw runError("eigensolver '" + settings_.prefix + "': a frequency overflows double precision (the largest " +
                     "stiffness and mass entries are " + exactDecimal(problem_.stiffnessScale()) + " and " +
                     exactDecimal(problem_.massScale()) + "); accepted: units in which omega is finite");
    omegas_.push_back(omega);
  }
  checkSpectrumEnd();
}

// Options can send SLEPc elsewhere in the spectrum (-omega_max_eps_target 0 or -omega_max_st_type
// sinvert reported omega_min as omega_max, and the stability lab a critical dt 340 times too large,
// exit 0). Every diagonal ratio S_ii / M_ii is a Rayleigh quotient (of e_i), so the largest eigenvalue is
// at least the largest ratio and the smallest at most the smallest: a found extreme on the wrong side of
// its bound is not that extreme. The margin is ten times SLEPc's tolerance (at least 1e-8, relative).
void ModalSolver::checkSpectrumEnd() const {
  PVec ds = problem_.createFreeVector(), dm = problem_.createFreeVector();
  BEAM_PETSC(MatGetDiagonal(problem_.stiffness(), ds));
  BEAM_PETSC(MatGetDiagonal(problem_.mass(), dm));
  BEAM_PETSC(VecPointwiseDivide(ds, ds, dm));
  PetscReal bound = 0;
  const bool largest = settings_.end == SpectrumEnd::Largest;
  BEAM_PETSC(largest ? VecMax(ds, nullptr, &bound) : VecMin(ds, nullptr, &bound));
  PetscScalar kr, ki;
  BEAM_PETSC(EPSGetEigenvalue(impl_->eps, 0, &kr, &ki));
  double tol = settings_.tol; // SLEPc's, which options may loosen
  BEAM_PETSC(EPSGetTolerances(impl_->eps, &tol, nullptr));
  const double found = PetscRealPart(kr), margin = std::max(1e-8, 10 * tol);
  auto omega = [&](double lambda) {
    return gText(std::sqrt(std::max(0.0, lambda)) * std::sqrt(problem_.stiffnessScale()) / std::sqrt(problem_.massScale()));
  };
  // A negative eigenvalue of largest magnitude: S is indefinite, the state unstable (a mass-spring
  // network with a compressed spring: -200 beside 100), which no step limit describes. It was reported
  // as "omega = 0, below the bound: its options look elsewhere in the spectrum".
  if (largest && found < 0)
    throw inputError("the stiffness at the initial state has a negative eigenvalue (omega^2 = " +
                     gText(found * problem_.stiffnessScale() / problem_.massScale()) +
                     "): the state is unstable (a compressed spring, a buckled shape), and no critical step describes it; "
                     "accepted: an initial state whose stiffness is positive semidefinite");
  if (largest ? found >= bound * (1 - margin) : found <= bound * (1 + margin)) return;
  throw inputError("eigensolver '" + settings_.prefix + "' found omega = " + omega(found) + ", " +
                   (largest ? "below" : "above") + " the bound sqrt(" + (largest ? "max" : "min") +
                   "_i S_ii/M_ii) = " + omega(bound) + " that the " + (largest ? "largest" : "smallest") +
                   " frequency cannot pass: its options look elsewhere in the spectrum; accepted: -" + settings_.prefix +
                   "eps_* and -" + settings_.prefix + "st_* options that keep the " + (largest ? "largest" : "smallest"));
}

PVec ModalSolver::shape(PetscInt i) const {
  if (i < 0 || i >= PetscInt(omegas_.size())) throw runError("mode " + std::to_string(i) + " was not computed");
  PVec v = problem_.createFreeVector(), mv = problem_.createFreeVector();
  BEAM_PETSC(EPSGetEigenvector(impl_->eps, i, v, nullptr));
  // Mass normalization phi' M phi = 1 (SLEPc already B-normalizes GHEP vectors; redone so the contract
  // does not depend on it), then a deterministic sign: largest-magnitude entry positive.
  PetscScalar norm2;
  BEAM_PETSC(MatMult(problem_.mass(), v, mv)); // M_ff / s_M
  BEAM_PETSC(VecDot(v, mv, &norm2));
  norm2 *= problem_.massScale();
  PetscReal vmax, vmin;
  BEAM_PETSC(VecMax(v, nullptr, &vmax));
  BEAM_PETSC(VecMin(v, nullptr, &vmin));
  const double sign = std::abs(vmin) > std::abs(vmax) ? -1.0 : 1.0;
  BEAM_PETSC(VecScale(v, sign / std::sqrt(PetscRealPart(norm2))));
  PVec full = problem_.createFullVector();
  problem_.expand(v, full);
  return full;
}

namespace {

// x -> P S P x, P zeroing the frozen DOFs: with M, a symmetric pencil whose frozen DOFs give eigenvalue
// 0 (not the spurious 1 of their identity rows) and whose largest eigenvalue is omega_max^2.
struct MaskedStiffness {
  Mat stiffness;
  PVec mask, work;
  static PetscErrorCode mult(Mat A, Vec x, Vec y) {
    PetscFunctionBeginUser;
    MaskedStiffness *op = nullptr;
    PetscCall(MatShellGetContext(A, &op));
    PetscCall(VecPointwiseMult(op->work, op->mask, x));
    PetscCall(MatMult(op->stiffness, op->work, y));
    PetscCall(VecPointwiseMult(y, op->mask, y));
    PetscFunctionReturn(0);
  }
};

} // namespace

double largestOmegaMasked(const SecondOrderSystem &system, const std::vector<PetscInt> &frozen,
                          const std::string &prefix, double tol) {
  MaskedStiffness op{system.stiffness, system.createVector(), system.createVector()};
  BEAM_PETSC(VecSet(op.mask, 1.0));
  PetscInt lo, hi, n, N;
  BEAM_PETSC(VecGetOwnershipRange(op.mask, &lo, &hi));
  for (PetscInt d : frozen)
    if (d >= lo && d < hi) BEAM_PETSC(VecSetValue(op.mask, d, 0.0, INSERT_VALUES));
  BEAM_PETSC(VecAssemblyBegin(op.mask));
  BEAM_PETSC(VecAssemblyEnd(op.mask));
  BEAM_PETSC(VecGetLocalSize(op.mask, &n));
  BEAM_PETSC(VecGetSize(op.mask, &N));
  const MPI_Comm comm = system.comm();
  PMat A;
  BEAM_PETSC(MatCreateShell(comm, n, n, N, N, &op, A.out()));
  BEAM_PETSC(MatShellSetOperation(A, MATOP_MULT, (void (*)(void))MaskedStiffness::mult));
  BEAM_PETSC(MatSetOption(A, MAT_SYMMETRIC, PETSC_TRUE));
  // Symmetric Lanczos in the M inner product (GHEP): the Ritz value's error is of the order of the
  // residual squared, so a loose tolerance is enough. M^{-1} is the system's mass solver (the Kronecker
  // sweeps on the beam's default path: one application).
  const LinearSolver mass = system.massSolver(prefix + "mass_", LinearSolverKind::CG);
  Handle<EPS, EPSDestroy> eps;
  BEAM_PETSC(EPSCreate(comm, eps.out()));
  BEAM_PETSC(EPSSetOptionsPrefix(eps, prefix.c_str()));
  BEAM_PETSC(EPSSetOperators(eps, A, system.mass));
  BEAM_PETSC(EPSSetProblemType(eps, EPS_GHEP));
  BEAM_PETSC(EPSSetWhichEigenpairs(eps, EPS_LARGEST_MAGNITUDE));
  BEAM_PETSC(EPSSetDimensions(eps, 1, PETSC_DEFAULT, PETSC_DEFAULT));
  BEAM_PETSC(EPSSetTolerances(eps, tol, PETSC_DEFAULT));
  ST st;
  BEAM_PETSC(EPSGetST(eps, &st));
  BEAM_PETSC(STSetKSP(st, mass.ksp()));
  LinearSolver::refuseValuesThatCrash(prefix);
  BEAM_PETSC(EPSSetFromOptions(eps));
  refuseRetargeting(eps, EPS_LARGEST_MAGNITUDE, 1, prefix, "one (the largest)", 1e-3); // a warning's estimate
  BEAM_PETSC(EPSSolve(eps));
  PetscInt converged = 0;
  BEAM_PETSC(EPSGetConverged(eps, &converged));
  if (converged < 1) throw runError("eigensolver '" + prefix + "' did not converge on the masked pencil");
  PetscScalar kr, ki;
  BEAM_PETSC(EPSGetEigenvalue(eps, 0, &kr, &ki));
  return std::sqrt(std::max(0.0, double(PetscRealPart(kr))));
}

double largestOmega(const FreeVibration &problem, const std::string &prefix, double tol) {
  ModalSolver solver(problem, {SpectrumEnd::Largest, 1, tol, 0, prefix});
  solver.solve();
  return solver.omegas().front();
}

} // namespace beam
