#include "solvers/LinearSolver.hpp"

#include <algorithm>
#include <cmath>
#include <regex>
#include <sstream>
#include <strings.h>

#include "common/Options.hpp"

namespace beam {

const char *linearSolverName(LinearSolverKind k) {
  switch (k) {
  case LinearSolverKind::Direct: return "direct";
  case LinearSolverKind::CG: return "cg";
  case LinearSolverKind::Diagonal: return "diagonal";
  }
  return "?";
}

LinearSolverKind parseLinearSolver(const std::string &name) {
  if (name == "direct") return LinearSolverKind::Direct;
  if (name == "cg") return LinearSolverKind::CG;
  throw inputError("-linear_solver: unknown value '" + name + "'; accepted: direct, cg");
}

LinearSolver::LinearSolver(Mat A, const std::string &prefix, LinearSolverKind kind) : prefix_(prefix) {
  MPI_Comm comm = PetscObjectComm(PetscObject(A));
  BEAM_PETSC(KSPCreate(comm, ksp_.out()));
  BEAM_PETSC(KSPSetOptionsPrefix(ksp_, prefix.c_str()));
  BEAM_PETSC(KSPSetOperators(ksp_, A, A));
  PC pc;
  BEAM_PETSC(KSPGetPC(ksp_, &pc));
  if (kind == LinearSolverKind::Direct && optionsChooseInexactPreconditioner(prefix)) {
    BEAM_PETSC(PCSetType(pc, PCJACOBI)); // until the options' type replaces it
    configureCG();
  } else if (kind == LinearSolverKind::Diagonal && optionsChooseInexactPreconditioner(prefix, {PCJACOBI})) {
    BEAM_PETSC(PCSetType(pc, PCJACOBI));
    configureCG();
  } else if (kind == LinearSolverKind::Direct) {
    BEAM_PETSC(KSPSetType(ksp_, KSPPREONLY));
    BEAM_PETSC(PCSetType(pc, PCCHOLESKY));
    // CHOLMOD is the faster sequential Cholesky here (bench: 0.10 vs 0.16 s per midpoint step at 2e5
    // DOFs); MUMPS is the parallel one.
    PetscMPIInt size = 1;
    MPI_Comm_size(comm, &size);
    BEAM_PETSC(PCFactorSetMatSolverType(pc, size == 1 ? MATSOLVERCHOLMOD : MATSOLVERMUMPS));
  } else if (kind == LinearSolverKind::Diagonal) {
    BEAM_PETSC(KSPSetType(ksp_, KSPPREONLY));
    BEAM_PETSC(PCSetType(pc, PCJACOBI));
  } else {
    BEAM_PETSC(PCSetType(pc, PCJACOBI));
    configureCG();
  }
  finish(A, prefix, kind == LinearSolverKind::Diagonal ? std::vector<std::string>{PCJACOBI} : std::vector<std::string>{});
}

LinearSolver::LinearSolver(Mat A, const std::string &prefix, const std::function<void(PC)> &pc_setup, bool exact)
    : prefix_(prefix) {
  BEAM_PETSC(KSPCreate(PetscObjectComm(PetscObject(A)), ksp_.out()));
  BEAM_PETSC(KSPSetOptionsPrefix(ksp_, prefix.c_str()));
  BEAM_PETSC(KSPSetOperators(ksp_, A, A));
  PC pc;
  BEAM_PETSC(KSPGetPC(ksp_, &pc));
  pc_setup(pc);
  if (exact && !optionsChooseInexactPreconditioner(prefix, {PCSHELL}))
    BEAM_PETSC(KSPSetType(ksp_, KSPPREONLY));
  else
    configureCG();
  finish(A, prefix, exact ? std::vector<std::string>{PCSHELL} : std::vector<std::string>{});
  if (exact && asConfigured(KSPPREONLY)) {
    // The model's exact inverse, applied as KSPSolve with KSPPREONLY would, less the pass in which
    // KSPSolve zeroes x first (a preonly KSP always starts from zero): 4 % of a semi-implicit step at 2e6
    // DOFs. (PCApply wants x other than b; KSPSolve copes.)
    override_ = [ksp = KSP(ksp_)](Vec b, Vec x, double, PetscInt, bool) -> PetscInt {
      PC pc;
      BEAM_PETSC(KSPGetPC(ksp, &pc));
      if (b == x) BEAM_PETSC(KSPSolve(ksp, b, x));
      else BEAM_PETSC(PCApply(pc, b, x));
      return 1;
    };
  }
}

bool LinearSolver::solvesByItself(const std::string &pc_type) {
  for (const char *direct : {PCLU, PCCHOLESKY, PCQR, PCSVD, PCREDUNDANT})
    if (pc_type == direct) return true;
  return false;
}

void LinearSolver::refuseOneApplication(KSP ksp, Mat A, const std::string &prefix, const std::vector<std::string> &also_exact,
                                        const std::string &krylov_hint) {
  PetscBool preonly = PETSC_FALSE;
  BEAM_PETSC(PetscObjectTypeCompare(PetscObject(ksp), KSPPREONLY, &preonly));
  if (!preonly) return;
  PC pc;
  PCType type = nullptr;
  BEAM_PETSC(KSPGetPC(ksp, &pc));
  BEAM_PETSC(PCGetType(pc, &type));
  const std::string chosen = type ? type : "none";
  // An inner solver the options name (-redundant_pc_type jacobi, -sub_ksp_type richardson) must itself be a
  // factorization applied once (redundant's "gained energy" with Jacobi inside until 2026-11-29).
  const auto exactInside = [&](const std::string &inner, const char *default_pc) {
    char sub_pc[64] = "", sub_ksp[64] = "";
    PetscBool pc_given = PETSC_FALSE, ksp_given = PETSC_FALSE;
    BEAM_PETSC(PetscOptionsGetString(nullptr, prefix.c_str(), ("-" + inner + "pc_type").c_str(), sub_pc, sizeof sub_pc, &pc_given));
    BEAM_PETSC(PetscOptionsGetString(nullptr, prefix.c_str(), ("-" + inner + "ksp_type").c_str(), sub_ksp, sizeof sub_ksp, &ksp_given));
    return solvesByItself(pc_given ? sub_pc : default_pc) && (!ksp_given || std::string(sub_ksp) == KSPPREONLY);
  };
  bool exact = (solvesByItself(chosen) && chosen != PCREDUNDANT) || chosen == PCKSP; // PCKSP: a Krylov solve inside
  if (chosen == PCREDUNDANT) exact = exactInside("redundant_", PCLU);
  for (const auto &e : also_exact) exact = exact || chosen == e;
  // Jacobi inverts a diagonal matrix (the discrete systems' built-in masses, stored in a wider pattern).
  if (chosen == PCJACOBI && !exact) {
    PetscBool shell = PETSC_FALSE;
    BEAM_PETSC(PetscObjectTypeCompare(PetscObject(A), MATSHELL, &shell));
    int diagonal = !shell;
    PetscInt lo = 0, hi = 0;
    if (!shell) BEAM_PETSC(MatGetOwnershipRange(A, &lo, &hi));
    for (PetscInt row = lo; row < hi && diagonal; ++row) {
      PetscInt n;
      const PetscInt *cols;
      const PetscScalar *values;
      BEAM_PETSC(MatGetRow(A, row, &n, &cols, &values));
      for (PetscInt k = 0; k < n; ++k) diagonal = diagonal && (cols[k] == row || values[k] == 0.0);
      BEAM_PETSC(MatRestoreRow(A, row, &n, &cols, &values));
    }
    MPI_Allreduce(MPI_IN_PLACE, &diagonal, 1, MPI_INT, MPI_LAND, PetscObjectComm(PetscObject(A)));
    exact = diagonal != 0;
  }
  // Block Jacobi with one block in all and a factorization inside (-pc_bjacobi_blocks 1 -sub_pc_type lu)
  // is a direct solve (refused until 2026-11-29).
  if (chosen == PCBJACOBI && !exact) {
    PetscInt blocks = 0;
    PetscMPIInt size = 1;
    BEAM_PETSC(PCBJacobiGetTotalBlocks(pc, &blocks, nullptr));
    MPI_Comm_size(PetscObjectComm(PetscObject(A)), &size);
    exact = (blocks > 0 ? blocks : size) == 1 && exactInside("sub_", PCILU);
  }
  if (!exact)
    throw inputError("-" + prefix + "ksp_type preonly with -" + prefix + "pc_type " + chosen +
                     " applies the preconditioner once, not a solve; accepted: a factorization (-" + prefix +
                     "pc_type cholesky or lu" +
                     (chosen == PCBJACOBI ? ", or one block with one inside: -" + prefix + "pc_bjacobi_blocks 1 -" + prefix + "sub_pc_type lu" : "") +
                     ") or a Krylov method (-" + prefix + "ksp_type cg" + krylov_hint + ")");
}

bool LinearSolver::optionsChooseInexactPreconditioner(const std::string &prefix, const std::vector<std::string> &also_exact) {
  char type[64] = "";
  PetscBool pc_chosen = PETSC_FALSE, ksp_chosen = PETSC_FALSE;
  BEAM_PETSC(PetscOptionsGetString(nullptr, prefix.c_str(), "-pc_type", type, sizeof type, &pc_chosen));
  BEAM_PETSC(PetscOptionsHasName(nullptr, prefix.c_str(), "-ksp_type", &ksp_chosen));
  if (!pc_chosen || ksp_chosen) return false;
  const std::string chosen = type;
  if (solvesByItself(chosen)) return false;
  for (const auto &exact : also_exact)
    if (chosen == exact) return false;
  return true;
}

void LinearSolver::configureCG() {
  BEAM_PETSC(KSPSetType(ksp_, KSPCG));
  BEAM_PETSC(KSPSetTolerances(ksp_, 1e-10, 1e-50, PETSC_DEFAULT, 10000));
  BEAM_PETSC(KSPSetInitialGuessNonzero(ksp_, PETSC_TRUE));
  // Converge on the natural norm sqrt(r'Br): CG has it from r'z, so an iteration needs no extra pass
  // over z for ||z|| (the default, preconditioned norm). On the beam: the same iterations with the
  // lumped mass, about one more in 32 with the consistent one (bench/results.md).
  BEAM_PETSC(KSPSetNormType(ksp_, KSP_NORM_NATURAL));
  natural_ = true;
}

namespace {
// PETSc 3.18 takes any -<prefix>ksp_rtol: -1 acts as 1 in CG's squared test, and 1 or more stops every
// solve at once, so a run "converges" without moving. A tolerance of inf (or 1e400) let every solve
// "converge" at once: the beam did not move, exit 0. The ranges that mean something:
const std::vector<OptionRange> &toleranceRanges() {
  static const std::vector<OptionRange> ranges = {
      {"ksp_rtol", 0, false, 1, true, "0 <= rtol < 1"},
      {"ksp_atol", 0, false, HUGE_VAL, true, "a finite atol >= 0"},
      {"ksp_divtol", 1, true, HUGE_VAL, false, "divtol > 1 (a residual growing that many times is divergence)"},
      {"ksp_max_it", 1, false, HUGE_VAL, true, "an integer >= 1"}};
  return ranges;
}

// Values PETSc 3.18 takes without a word (-mass_pc_sor_omega 5, -shifted_pc_gamg_agg_nsmooths -1,
// -shifted_ksp_richardson_scale 0: 10000 iterations to "diverge").
const std::vector<OptionRange> &parameterRanges() {
  const double inf = HUGE_VAL;
  const std::string kept = "an integer from 1 to 1000 (that many directions are kept)";
  static const std::vector<OptionRange> ranges = {{"pc_sor_omega", 0, true, 2, true, "0 < omega < 2"},
                                                  {"pc_sor_its", 1, false, inf, true, "an integer >= 1"},
                                                  {"pc_sor_lits", 1, false, inf, true, "an integer >= 1"},
                                                  {"pc_mg_levels", 1, false, inf, true, "an integer >= 1"},
                                                  {"pc_gamg_agg_nsmooths", 0, false, inf, true, "an integer >= 0"},
                                                  {"pc_gamg_square_graph", 0, false, inf, true, "an integer >= 0"},
                                                  {"pc_gamg_coarse_eq_limit", 1, false, inf, true, "an integer >= 1"},
                                                  {"pc_gamg_process_eq_limit", 1, false, inf, true, "an integer >= 1"},
                                                  {"pc_asm_overlap", 0, false, inf, true, "an integer >= 0"},
                                                  {"ksp_richardson_scale", 0, true, inf, true, "scale > 0"},
                                                  // PETSc refuses these, but without naming the option
                                                  // ("Restart must be positive"): refuseGivenOutOfRange.
                                                  // Above: GMRES allocates its (restart + 2)^2 Hessenberg
                                                  // entries twice at the set-up (a 16x16 cloth with 1e5:
                                                  // 22 GB and 59 s, exit 0; 1e8 crashed, exit 59), and
                                                  // BiCGStab(l) 2 l + 5 vectors (1e5: 3 GB, then exit 3).
                                                  {"ksp_gmres_restart", 1, false, 1000, false,
                                                   "an integer from 1 to 1000 (its Hessenberg matrices, (restart + 2)^2 "
                                                   "entries each, are allocated at the set-up)"},
                                                  {"ksp_gmres_haptol", 0, false, inf, true, "haptol >= 0"},
                                                  {"ksp_lgmres_augment", 0, false, inf, true, "an integer >= 0"},
                                                  {"ksp_bcgsl_ell", 1, false, 100, false,
                                                   "an integer from 1 to 100 (its 2 ell + 5 vectors are allocated at the set-up)"},
                                                  // GCR keeps `restart` directions (1e8: 24 GB, killed),
                                                  // the flexible CGs and pipelined GCR `mmax` (1e8: exit 3).
                                                  {"ksp_gcr_restart", 1, false, 1000, false,
                                                   kept},
                                                  {"ksp_fcg_mmax", 1, false, 1000, false,
                                                   kept},
                                                  {"ksp_pipefcg_mmax", 1, false, 1000, false,
                                                   kept},
                                                  {"ksp_pipegcr_mmax", 1, false, 1000, false,
                                                   kept},
                                                  {"ksp_chebyshev_esteig_steps", 1, false, inf, true, "an integer >= 1"},
                                                  {"pc_factor_fill", 1, false, inf, true, "fill >= 1"},
                                                  {"pc_factor_levels", 0, false, inf, true, "an integer >= 0"},
                                                  {"pc_asm_blocks", 1, false, inf, true, "an integer >= 1"},
                                                  {"pc_gasm_overlap", 0, false, inf, true, "an integer >= 0"},
                                                  {"pc_bjacobi_blocks", 1, false, inf, true, "an integer >= 1"},
                                                  {"pc_gamg_aggressive_coarsening", 0, false, inf, true, "an integer >= 0"}};
  return ranges;
}

std::vector<OptionRange> allRanges() {
  std::vector<OptionRange> ranges = parameterRanges();
  ranges.insert(ranges.end(), toleranceRanges().begin(), toleranceRanges().end());
  return ranges;
}
} // namespace

namespace {
// Adds the options prefix of `ksp` and its inner solvers' to `found` (solverPrefixes); false where a
// preconditioner's inner solvers are not walked here.
bool addSolverPrefixes(KSP ksp, std::set<std::string> &found);

bool addInnerPrefixes(PC pc, std::set<std::string> &found) {
  PCType type = nullptr;
  BEAM_PETSC(PCGetType(pc, &type));
  const std::string kind = type ? type : "";
  PetscInt count = 0, first = 0;
  KSP *inner = nullptr, one = nullptr;
  bool all = true;
  if (kind == PCBJACOBI) BEAM_PETSC(PCBJacobiGetSubKSP(pc, &count, &first, &inner));
  else if (kind == PCASM) BEAM_PETSC(PCASMGetSubKSP(pc, &count, &first, &inner));
  else if (kind == PCGASM) BEAM_PETSC(PCGASMGetSubKSP(pc, &count, &first, &inner));
  else if (kind == PCKSP) BEAM_PETSC(PCKSPGetKSP(pc, &one));
  else if (kind == PCREDUNDANT) BEAM_PETSC(PCRedundantGetKSP(pc, &one));
  else if (kind == PCMG || kind == PCGAMG || kind == PCML) {
    PetscInt levels = 0;
    BEAM_PETSC(PCMGGetLevels(pc, &levels));
    for (PetscInt level = 0; level < levels; ++level) { // (level 0's smoother is the coarse solver)
      KSP smoother;
      BEAM_PETSC(PCMGGetSmoother(pc, level, &smoother));
      all = addSolverPrefixes(smoother, found) && all;
    }
  } else if (kind == PCFIELDSPLIT) {
    BEAM_PETSC(PCFieldSplitGetSubKSP(pc, &count, &inner));
    for (PetscInt i = 0; i < count; ++i) all = addSolverPrefixes(inner[i], found) && all;
    BEAM_PETSC(PetscFree(inner));
    return all;
  } else if (kind == PCCOMPOSITE) {
    BEAM_PETSC(PCCompositeGetNumberPC(pc, &count));
    for (PetscInt i = 0; i < count; ++i) {
      PC part;
      BEAM_PETSC(PCCompositeGetPC(pc, i, &part));
      all = addInnerPrefixes(part, found) && all;
    }
    return all;
  } else { // the preconditioners without inner solvers; any other may have some (telescope's is made later)
    const std::vector<std::string> leaves = {PCNONE, PCJACOBI, PCPBJACOBI, PCVPBJACOBI, PCSOR, PCLU, PCILU, PCICC, PCCHOLESKY,
                                             PCEISENSTAT, PCSHELL, PCMAT, PCSVD, PCQR, PCKACZMARZ, PCHYPRE, PCCP, PCLMVM, ""};
    return std::find(leaves.begin(), leaves.end(), kind) != leaves.end();
  }
  for (PetscInt i = 0; i < count; ++i) all = addSolverPrefixes(inner[i], found) && all;
  if (one) all = addSolverPrefixes(one, found) && all;
  return all;
}

bool addSolverPrefixes(KSP ksp, std::set<std::string> &found) {
  const char *prefix = nullptr;
  BEAM_PETSC(KSPGetOptionsPrefix(ksp, &prefix));
  const std::string name = lowerCase(prefix ? prefix : "");
  found.insert(name);
  // PETSc reads -mg_levels_ksp_view for -mg_levels_1_ksp_view when the numbered name is not given.
  static const std::regex numbered("_[0-9]+_");
  found.insert(std::regex_replace(name, numbered, "_"));
  PC pc;
  BEAM_PETSC(KSPGetPC(ksp, &pc));
  return addInnerPrefixes(pc, found);
}
} // namespace

std::optional<std::set<std::string>> LinearSolver::solverPrefixes(KSP ksp) {
  std::set<std::string> found;
  bool known = false;
  PetscPushErrorHandler(PetscReturnErrorHandler, nullptr);
  try { // an inner solver not made yet is not known (block Jacobi inside a composite, set up at its first use)
    known = addSolverPrefixes(ksp, found);
  } catch (const Error &) {
  }
  PetscPopErrorHandler();
  if (!known) return std::nullopt;
  return found;
}

void LinearSolver::refuseGivenOutOfRange(const std::string &prefix) { checkOptionRangesBelow(prefix, allRanges(), false); }

void LinearSolver::refuseValuesThatCrash(const std::string &prefix) {
  // PCMGSetLevels with fewer than one level writes out of bounds (a segmentation fault, exit 59, for
  // -ms_pc_type mg -ms_pc_mg_levels 0, -1 or mouse): judged before any SetFromOptions reads it.
  for (const OptionRange &r : parameterRanges())
    if (std::string(r.name) == "pc_mg_levels") checkOptionRangesBelow(prefix, {r}, false);
  // Preconditioners PETSc makes from options but can only apply with more (until 2026-12-01 refused at the
  // first step, after the run had written over an earlier one's output, or a crash): a shell has no code
  // (the model's own shell inverse is on the matrix-free path, which a -<prefix>pc_type leaves; inside
  // another, PETSc 3.18 crashed tearing the solver down, SEGV); a composite needs its preconditioners
  // named; Eisenstat inside a composite crashed (it works only as a solver's own preconditioner).
  auto ends = [](const std::string &text, const std::string &tail) {
    return text.size() >= tail.size() && strcasecmp(text.c_str() + text.size() - tail.size(), tail.c_str()) == 0;
  };
  for (const auto &[option, value] : databaseOptions()) {
    const std::string name = option.substr(option.rfind('-', 0) == 0 ? 1 : 0);
    if (strncasecmp(name.c_str(), prefix.c_str(), prefix.size()) != 0) continue;
    const std::string rest = name.substr(prefix.size());
    for (const std::string tail : {"pc_type", "pc_composite_pcs"}) {
      if (!ends(rest, tail)) continue;
      const std::string inner = rest.substr(0, rest.size() - tail.size()); // "" or an inner solver's "sub_", "mg_levels_"
      if (!inner.empty() && (inner.size() < 2 || inner.back() != '_')) continue; // not a solver's name: unknown, later
      if (tail == "pc_type" && strcasecmp(value.c_str(), PCSHELL) == 0)
        throw inputError("-" + name + " " + value + ": a shell preconditioner is the program's code, and " +
                         (inner.empty() ? "this solver has none" : "none is given inside another") + "; accepted: another -" + name);
      if (tail == "pc_type" && strcasecmp(value.c_str(), PCCOMPOSITE) == 0) {
        PetscBool named = PETSC_FALSE;
        BEAM_PETSC(PetscOptionsHasName(nullptr, nullptr, ("-" + prefix + inner + "pc_composite_pcs").c_str(), &named));
        if (!named)
          throw inputError("-" + name + " " + value + ": needs its preconditioners named; accepted: with -" + prefix + inner +
                           "pc_composite_pcs a,b (e.g. jacobi,sor)");
      }
      if (tail == "pc_composite_pcs")
        for (const auto &part : splitList(value))
          if (strcasecmp(part.c_str(), PCSHELL) == 0 || strcasecmp(part.c_str(), PCEISENSTAT) == 0)
            throw inputError("-" + name + " " + value + ": " + part + (strcasecmp(part.c_str(), PCSHELL) == 0
                                 ? " has no code to apply here"
                                 : " works only as a solver's own preconditioner, not inside a composite") +
                             "; accepted: composites of other preconditioners (jacobi, sor, ilu, ...)");
    }
  }
}

void LinearSolver::checkTolerances(KSP ksp, const std::string &prefix) {
  PetscReal rtol, abstol, dtol;
  PetscInt max_it;
  BEAM_PETSC(KSPGetTolerances(ksp, &rtol, &abstol, &dtol, &max_it));
  const std::vector<OptionRange> &ranges = toleranceRanges();
  const double values[] = {rtol, abstol, dtol, double(max_it)};
  for (size_t i = 0; i < ranges.size(); ++i) checkOptionValue(prefix, ranges[i], values[i]);
  // No norm, no convergence test: every solve ran to its iteration limit and failed (exit 3).
  char norm[32] = "";
  PetscBool norm_given = PETSC_FALSE, preonly = PETSC_FALSE;
  BEAM_PETSC(PetscOptionsGetString(nullptr, prefix.c_str(), "-ksp_norm_type", norm, sizeof norm, &norm_given));
  BEAM_PETSC(PetscObjectTypeCompare(reinterpret_cast<PetscObject>(ksp), KSPPREONLY, &preonly));
  if (norm_given && !preonly && strcasecmp(norm, "none") == 0)
    throw inputError("-" + prefix + "ksp_norm_type none: leaves the solver no convergence test; accepted: preconditioned, "
                     "unpreconditioned, natural (as the method allows)");
}

void LinearSolver::checkParameterRanges(const std::string &prefix) { checkOptionRanges(prefix, parameterRanges()); }

void LinearSolver::checkSetUp(KSP ksp, const std::string &prefix) {
  KSPType method = nullptr;
  PCType preconditioner = nullptr;
  PC pc;
  BEAM_PETSC(KSPGetType(ksp, &method));
  BEAM_PETSC(KSPGetPC(ksp, &pc));
  BEAM_PETSC(PCGetType(pc, &preconditioner));
  PetscBool multigrid = PETSC_FALSE;
  PetscInt levels = 0;
  BEAM_PETSC(PetscObjectTypeCompareAny(reinterpret_cast<PetscObject>(pc), &multigrid, PCMG, PCGAMG, PCML, ""));
  if (multigrid) BEAM_PETSC(PCMGGetLevels(pc, &levels));
  // The ranges under the inner solvers' prefixes too, their tolerances included (-<prefix>sub_ksp_rtol 5,
  // -<prefix>mg_levels_2_pc_sor_omega 3, PCKSP's -<prefix>ksp_ksp_max_it -3 ran): checked on the
  // options, since an inner solver's own values are PETSc's defaults for it (a smoother's fixed sweeps).
  checkOptionRangesBelow(prefix, allRanges());
  const std::optional<std::set<std::string>> solvers = solverPrefixes(ksp);
  refuseUnreadSolverOptions(PetscObjectComm(reinterpret_cast<PetscObject>(ksp)), prefix,
                            "-" + prefix + "ksp_type " + (method ? method : "?") + ", -" + prefix + "pc_type " +
                                (preconditioner ? preconditioner : "?") + (multigrid ? " with " + std::to_string(levels) + " levels" : ""),
                            int(levels), solvers ? &*solvers : nullptr);
}

std::string LinearSolver::withAccepted(const std::string &message, const std::string &prefix) {
  // PETSc's line where it names nothing accepted (-ms_ksp_type fetidp: "Amat should be of type MATIS").
  // (PETSc's own list of a bad enum value, "Available options: ...", says it.)
  if (message.find("accepted:") != std::string::npos || message.find("Available options:") != std::string::npos)
    return message;
  return message + "; accepted: the solver's defaults, or -" + prefix + "ksp_* and -" + prefix +
         "pc_* options PETSc can set up on an assembled matrix without a mesh (see -help)";
}

PetscErrorCode LinearSolver::setUp(KSP ksp) {
  // The inner solvers of block Jacobi, ASM, field split and the multigrid levels are set up (and read
  // their options) on the blocks, which KSPSolve does first: done here, so that the options are judged
  // after it (-ms_sub_mat_mumps_icntl_14 was refused as unread).
  PetscErrorCode error = KSPSetUp(ksp);
  if (!error) error = KSPSetUpOnBlocks(ksp);
  // A field split's solvers set their own blocks up at their first solve (-ms_fieldsplit_0_sub_pc_type).
  PC pc;
  PetscBool split = PETSC_FALSE;
  if (!error) error = KSPGetPC(ksp, &pc);
  if (!error) error = PetscObjectTypeCompare(reinterpret_cast<PetscObject>(pc), PCFIELDSPLIT, &split);
  if (error || !split) return error;
  PetscInt count = 0;
  KSP *fields = nullptr;
  error = PCFieldSplitGetSubKSP(pc, &count, &fields);
  for (PetscInt i = 0; i < count && !error; ++i) error = setUp(fields[i]);
  const PetscErrorCode freed = PetscFree(fields);
  return error ? error : freed;
}

void LinearSolver::checkPreconditionerOptions(KSP ksp, Mat A, const std::string &prefix) {
  checkParameterRanges(prefix);
  PC pc;
  BEAM_PETSC(KSPGetPC(ksp, &pc));
  PCType type = nullptr;
  BEAM_PETSC(PCGetType(pc, &type));
  if (!type) return;
  const std::string kind = type;
  PetscInt block = 1;
  BEAM_PETSC(MatGetBlockSize(A, &block));
  if (kind == PCFIELDSPLIT && block == 1) // no fields to split: "Unhandled case", exit 3 (the networks' 3x3 blocks are fields)
    throw inputError("-" + prefix + "pc_type fieldsplit: needs fields, and this matrix has none (block size 1); accepted: another -" + prefix + "pc_type");
  MPI_Comm comm = PetscObjectComm(reinterpret_cast<PetscObject>(A));
  PetscMPIInt size = 1;
  MPI_Comm_size(comm, &size);
  PetscInt blocks = 0;
  if (kind == PCBJACOBI) BEAM_PETSC(PCBJacobiGetTotalBlocks(pc, &blocks, nullptr));
  if (blocks > 0) {
    // PETSc's set-up gives rank r, from one block per rank on, blocks / size blocks (one more for r <
    // blocks % size) of whole block rows of its own: at most b_r size + r blocks in all where the rank has
    // b_r block rows. More failed at the set-up as a run ("Too many blocks given", exit 3).
    PetscMPIInt rank = 0;
    MPI_Comm_rank(comm, &rank);
    PetscInt local_rows = 0;
    BEAM_PETSC(MatGetLocalSize(A, &local_rows, nullptr));
    long long most = (long long)(local_rows / block) * size + rank;
    MPI_Allreduce(MPI_IN_PLACE, &most, 1, MPI_LONG_LONG, MPI_MIN, comm);
    if (blocks >= size && blocks > most)
      refuseOptionValue(prefix, "pc_bjacobi_blocks", double(blocks),
                        ("1 to " + std::to_string(std::max(most, 1LL)) + " (a block needs whole rows of one rank)").c_str());
  }
  if (kind == PCMG) { // levels without interpolation between them: a crash (SEGV) at the set-up
    PetscInt levels = 1;
    BEAM_PETSC(PCMGGetLevels(pc, &levels));
    // Named as given: PETSc's exotic is multigrid too (-ms_pc_type exotic was called "-ms_pc_type mg").
    char given[64] = PCMG;
    BEAM_PETSC(PetscOptionsGetString(nullptr, prefix.c_str(), "-pc_type", given, sizeof given, nullptr));
    const std::string name = std::string(given) == PCMG ? std::string(PCMG) : std::string(given) + " (multigrid)";
    if (levels > 1)
      throw inputError("-" + prefix + "pc_type " + name + " with " + std::to_string(levels) + " levels: needs the interpolation between " +
                       "levels, which the labs do not give; accepted: -" + prefix + "pc_type gamg or ml (algebraic multigrid)");
  }
  if (kind == PCREDUNDANT) { // more copies than ranks, or none: a crash at the set-up on 2 ranks (SEGV)
    PetscInt copies = 0;
    PetscBool given = PETSC_FALSE;
    BEAM_PETSC(PetscOptionsGetInt(nullptr, prefix.c_str(), "-pc_redundant_number", &copies, &given));
    if (given && (copies < 1 || copies > size))
      refuseOptionValue(prefix, "pc_redundant_number", double(copies), ("1 to " + std::to_string(size) + " (the ranks)").c_str());
  }
  if (kind == PCGAMG) { // geometric aggregation needs the nodes' coordinates, which no solver here gives (exit 3 at the set-up)
    char gamg[64] = "";
    PetscBool given = PETSC_FALSE; // (PCGAMGGetType still says agg here: the type is applied at the set-up)
    BEAM_PETSC(PetscOptionsGetString(nullptr, prefix.c_str(), "-pc_gamg_type", gamg, sizeof gamg, &given));
    if (given && std::string(gamg) == PCGAMGGEO)
      throw inputError("-" + prefix + "pc_gamg_type geo: needs the nodes' coordinates, which the labs do not give; accepted: agg, classical");
  }
  if (kind == PCEISENSTAT) { // PETSc 3.18 applies omega != 1 through a block diagonal it never made: a crash
    PetscReal omega = 1;
    BEAM_PETSC(PCEisenstatGetOmega(pc, &omega));
    if (omega != 1) refuseOptionValue(prefix, "pc_eisenstat_omega", omega, "1 (for another omega: -pc_type sor with -pc_sor_omega)");
    return;
  }
  MatFactorType factor;
  if (kind == PCLU) factor = MAT_FACTOR_LU;
  else if (kind == PCCHOLESKY) factor = MAT_FACTOR_CHOLESKY;
  else if (kind == PCILU) factor = MAT_FACTOR_ILU;
  else if (kind == PCICC) factor = MAT_FACTOR_ICC;
  else return;
  // The ordering, which PETSc also checks only at the factorization (the levels of fill: parameterRanges).
  char ordering[64] = "";
  PetscBool ordering_given = PETSC_FALSE;
  BEAM_PETSC(PetscOptionsGetString(nullptr, prefix.c_str(), "-pc_factor_mat_ordering_type", ordering, sizeof ordering, &ordering_given));
  if (ordering_given) {
    auto registered = [](const char *name) {
      PetscErrorCode (*make)(Mat, MatOrderingType, IS *, IS *) = nullptr;
      return PetscFunctionListFind(MatOrderingList, name, &make) == 0 && make;
    };
    if (!registered(ordering)) {
      std::string accepted;
      for (const char *candidate : {MATORDERINGNATURAL, MATORDERINGND, MATORDERING1WD, MATORDERINGRCM, MATORDERINGQMD,
                                    MATORDERINGROWLENGTH, MATORDERINGWBM, MATORDERINGSPECTRAL, MATORDERINGAMD, MATORDERINGMETISND})
        if (registered(candidate)) accepted += (accepted.empty() ? "" : ", ") + std::string(candidate);
      throw inputError("-" + prefix + "pc_factor_mat_ordering_type " + ordering + ": not an ordering; accepted: " + accepted);
    }
  }
  MatSolverType package = nullptr;
  BEAM_PETSC(PCFactorGetMatSolverType(pc, &package));
  PetscBool available = PETSC_FALSE;
  if (!package || (MatGetFactorAvailable(A, package, factor, &available) == 0 && available)) return;
  std::string accepted;
  for (const char *candidate : {MATSOLVERPETSC, MATSOLVERMUMPS, MATSOLVERSUPERLU, MATSOLVERSUPERLU_DIST, MATSOLVERUMFPACK,
                                MATSOLVERCHOLMOD, MATSOLVERKLU, MATSOLVERSTRUMPACK, MATSOLVERMKL_PARDISO, MATSOLVERPASTIX}) {
    PetscBool can = PETSC_FALSE;
    if (MatGetFactorAvailable(A, candidate, factor, &can) == 0 && can) accepted += (accepted.empty() ? "" : ", ") + std::string(candidate);
  }
  MatType matrix;
  BEAM_PETSC(MatGetType(A, &matrix));
  throw inputError("-" + prefix + "pc_factor_mat_solver_type " + package + ": cannot make the " + kind + " factorization of a " +
                   matrix + " matrix; accepted here: " + (accepted.empty() ? "none (choose another -" + prefix + "pc_type)" : accepted));
}

void LinearSolver::finish(Mat A, const std::string &prefix, const std::vector<std::string> &also_exact) {
  PC pc;
  BEAM_PETSC(KSPGetPC(ksp_, &pc));
  refuseValuesThatCrash(prefix);
  try {
    BEAM_PETSC(KSPSetFromOptions(ksp_));
  } catch (const Error &e) { // e.g. -mass_ksp_type nonsense
    refuseGivenOutOfRange(prefix);
    throw inputError("options of the '" + prefix + "' solver: " + withAccepted(e.what(), prefix));
  }
  acceptSolveTimeOptions(prefix, {"ksp"}); // the reports read by KSPSolve; the rest judged after the set-up (checkSetUp)
  checkTolerances(ksp_, prefix);
  // The natural norm is CG's; another -<prefix>ksp_type (gmres, ...) gets its own default norm.
  // (Set, not read first: reading the norm type checks it against the type and fails.)
  PetscBool cg = PETSC_FALSE, preonly = PETSC_FALSE;
  BEAM_PETSC(PetscObjectTypeCompare(PetscObject(ksp_.get()), KSPCG, &cg));
  BEAM_PETSC(PetscObjectTypeCompare(PetscObject(ksp_.get()), KSPPREONLY, &preonly));
  PetscBool norm_chosen = PETSC_FALSE; // the options' own norm is kept (PETSc refuses one the method lacks)
  BEAM_PETSC(PetscOptionsHasName(nullptr, prefix.c_str(), "-ksp_norm_type", &norm_chosen));
  if (!cg && !preonly && natural_ && !norm_chosen) BEAM_PETSC(KSPSetNormType(ksp_, KSP_NORM_DEFAULT));
  // A matrix-free operator offers products and its diagonal only: factorizations and multigrid, which
  // need the entries, are a bad option, not a failed run. A shell preconditioner is the model's own.
  PetscBool shell = PETSC_FALSE, usable = PETSC_FALSE;
  BEAM_PETSC(PetscObjectTypeCompare(PetscObject(A), MATSHELL, &shell));
  BEAM_PETSC(PetscObjectTypeCompareAny(PetscObject(pc), &usable, PCJACOBI, PCNONE, PCSHELL, ""));
  if (shell && !usable) {
    PCType type;
    BEAM_PETSC(PCGetType(pc, &type));
    throw inputError("-" + prefix + "pc_type " + type + ": needs an assembled matrix; accepted with -operator matfree: jacobi, none");
  }
  // -shifted_ksp_type preonly -shifted_pc_type jacobi left the midpoint rule's steps unsolved, "gains
  // energy", exit 0 (the modes lab refused it already).
  refuseOneApplication(ksp_, A, prefix, also_exact, "");
  checkPreconditionerOptions(ksp_, A, prefix);
  const PetscErrorCode set_up = setUp(ksp_); // the factorization happens here, once
  if (set_up && isArgumentError(set_up)) {
    const std::string message = lastPetscMessage(true);
    refuseGivenOutOfRange(prefix);
    throw inputError("options of the '" + prefix + "' solver: " + withAccepted(message, prefix));
  }
  BEAM_PETSC(set_up);
  checkSetUp(ksp_, prefix);
}

bool LinearSolver::asConfigured(KSPType type) const {
  PetscBool same = PETSC_FALSE, shell = PETSC_FALSE;
  PC pc;
  BEAM_PETSC(KSPGetPC(ksp_, &pc));
  BEAM_PETSC(PetscObjectTypeCompare(PetscObject(ksp_.get()), type, &same));
  BEAM_PETSC(PetscObjectTypeCompare(PetscObject(pc), PCSHELL, &shell));
  if (!same || !shell) return false;
  for (const char *output : {"-ksp_monitor", "-ksp_converged_reason", "-ksp_view"}) { // read by KSPSolve
    PetscBool set = PETSC_FALSE;
    BEAM_PETSC(PetscOptionsHasName(nullptr, prefix_.c_str(), output, &set));
    if (set) return false;
  }
  return true;
}

void LinearSolver::overrideSolve(SolveOverride solve) {
  KSPNormType norm;
  BEAM_PETSC(KSPGetNormType(ksp_, &norm));
  PetscBool nonzero = PETSC_FALSE;
  BEAM_PETSC(KSPGetInitialGuessNonzero(ksp_, &nonzero));
  if (asConfigured(KSPCG) && norm == KSP_NORM_NATURAL && nonzero) override_ = std::move(solve);
}

void LinearSolver::solve(Vec b, Vec x, bool require_convergence, Start start) const {
  const bool from_zero = start == Start::Zero;
  if (override_) {
    PetscReal rtol, abstol, dtol;
    PetscInt max_it;
    BEAM_PETSC(KSPGetTolerances(ksp_, &rtol, &abstol, &dtol, &max_it));
    const PetscInt its = override_(b, x, rtol, max_it, from_zero);
    last_iterations_ = its < 0 ? -its : its;
    if (its < 0 && require_convergence)
      throw runError("linear solve (" + prefix_ + ") failed: DIVERGED_ITS after " + std::to_string(-its) + " iterations");
    return;
  }
  PetscBool nonzero = PETSC_FALSE;
  BEAM_PETSC(KSPGetInitialGuessNonzero(ksp_, &nonzero));
  if (from_zero && nonzero) BEAM_PETSC(KSPSetInitialGuessNonzero(ksp_, PETSC_FALSE)); // KSP zeroes x itself
  const PetscErrorCode solved = KSPSolve(ksp_, b, x);
  if (from_zero && nonzero) BEAM_PETSC(KSPSetInitialGuessNonzero(ksp_, PETSC_TRUE));
  if (solved && isArgumentError(solved)) {
    const std::string message = lastPetscMessage(true);
    refuseGivenOutOfRange(prefix_);
    throw inputError("options of the '" + prefix_ + "' solver: " + withAccepted(message, prefix_));
  }
  BEAM_PETSC(solved);
  BEAM_PETSC(KSPGetIterationNumber(ksp_, &last_iterations_));
  KSPConvergedReason reason;
  BEAM_PETSC(KSPGetConvergedReason(ksp_, &reason));
  if (reason < 0 && require_convergence) {
    PetscInt its = 0;
    BEAM_PETSC(KSPGetIterationNumber(ksp_, &its));
    throw runError("linear solve (" + prefix_ + ") failed: " + KSPConvergedReasons[reason] + " after " +
                   std::to_string(its) + " iterations");
  }
}

} // namespace beam
