// Theoretical against measured critical step for the semi-implicit scheme on a small beam: theory
// 2 / omega_max (Omega_crit = 2 from the amplification matrix, omega_max from SLEPc), measured by
// bisection on 1000-step runs from a rough displacement (solvers/CriticalStep.hpp). The brief asks for
// 1%; the criterion resolves ~1e-4 (semi-implicit grows like 1 + 2.8 sqrt(e) per step just above the
// limit), so 1% leaves a wide margin. Also the scheme labs' warning: printed above the limit only.
// Rank-count independent (the initial field hashes global indices): registered on 1 and 2 ranks.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "tests/GridBeam.hpp"
#include "common/Exact.hpp"
#include "MesLib/Beam.hpp"
#include "MesLib/BeamSystem.hpp"
#include "SlepcEnvironment.hpp"
#include "solvers/Amplification.hpp"
#include "solvers/CriticalStep.hpp"
#include "solvers/FreeVibration.hpp"

using namespace beam;

namespace {

[[maybe_unused]] const auto *slepc_env = registerSlepcEnvironment();

struct Case {
  Beam beam;
  SecondOrderSystem system;
  explicit Case(const BeamSpec &spec) : beam(spec, PETSC_COMM_WORLD), system(beamSystem(beam)) {}
};

BeamSpec smallBeam() { return gridBeam(8, 2); }

} // namespace

TEST(CriticalStep, SemiImplicitMeasuredMatchesTheory) {
  const Case c(smallBeam());
  const FreeVibration problem(c.system, c.beam.frozenDofs());
  const double omega_max = largestOmega(problem, "test_max_", 1e-10);
  const double theory = criticalStep(criticalOmega("semi_implicit"), omega_max);
  EXPECT_NEAR(theory, 2 / omega_max, 1e-12 * theory);
  CriticalStepSearch search;
  search.steps = 400; // enough here: 1e-4 above the limit already grows the energy by e^22 in 400 steps
  const MeasuredStep m = measureCriticalStep(c.system, c.beam.frozenDofs(), "semi_implicit", theory, search);
  ASSERT_TRUE(m.found) << m.why;
  EXPECT_NEAR(m.dt / theory, 1.0, 0.01) << "measured " << m.dt << " theory " << theory;
  EXPECT_LT(m.dt, m.unstable_dt);
  // The bracket closed to the search's precision (a bisection stopped at 10x it passed the 1 % above).
  EXPECT_LE((m.unstable_dt - m.dt) / m.unstable_dt, search.precision);
}

// A bracket that never closes says which way and where it stopped, that end exact (the CSV note of
// mass_spring_stability printed it to 6 digits): after `widenings` moves of x1.1 up from 1.1 x guess, or
// of x0.9 down from 0.9 x guess.
TEST(CriticalStep, BracketThatNeverClosesReportsItsEndExactly) {
  CriticalStepSearch search;
  search.widenings = 3;
  const MeasuredStep up = bisectStableStep([](double) { return true; }, 0.1, search);
  EXPECT_FALSE(up.found);
  EXPECT_EQ(up.bound, 0.1 * 1.1 * 1.1 * 1.1 * 1.1);
  EXPECT_EQ(up.why, "stable up to dt = " + exactDecimal(up.bound));
  const MeasuredStep down = bisectStableStep([](double) { return false; }, 0.1, search);
  EXPECT_FALSE(down.found);
  EXPECT_EQ(down.bound, 0.1 * 0.9 * 0.9 * 0.9 * 0.9);
  EXPECT_EQ(down.why, "unstable down to dt = " + exactDecimal(down.bound));
}

TEST(CriticalStep, PassesZeroAndInfinityThrough) {
  EXPECT_EQ(criticalStep(0.0, 42.0), 0.0);
  EXPECT_TRUE(std::isinf(criticalStep(INFINITY, 42.0)));
  EXPECT_DOUBLE_EQ(criticalStep(2.0, 40.0), 0.05);
}

namespace {
int eventCount(const char *name) { // calls of a logged PETSc/SLEPc event so far (PetscLogDefaultBegin)
  PetscLogEvent id;
  BEAM_PETSC(PetscLogEventGetId(name, &id));
  PetscEventPerfInfo info;
  BEAM_PETSC(PetscLogEventGetPerfInfo(PETSC_DETERMINE, id, &info));
  return info.count;
}
} // namespace

TEST(CriticalStep, WarningAboveTheLimitOnly) {
  // The default 20x5 beam: the check must stay cheap there. Its cost is counted, not timed (the CPU time
  // asserted under 0.1 s took 0.106 s in a sanitized CI run): fewer applications of the eigensolver's
  // operator than there are free DOFs, the work after which a Krylov method has done no better than a
  // dense eigendecomposition (65 applications on 1 rank, 73 on 2, for 240 free DOFs).
  const Case c(BeamSpec{});
  const FreeVibration problem(c.system, c.beam.frozenDofs());
  const double limit = 2 / largestOmega(problem, "test_max_", 1e-10);
  int rank = 0;
  MPI_Comm_rank(PETSC_COMM_WORLD, &rank);

  BEAM_PETSC(PetscLogDefaultBegin());
  const int applies_before = eventCount("STApply");
  ::testing::internal::CaptureStderr();
  warnIfUnstable(c.system, c.beam.frozenDofs(), "semi_implicit", 1.01 * limit);
  std::fflush(stderr);
  const int applies = eventCount("STApply") - applies_before;
  const std::string above = ::testing::internal::GetCapturedStderr();
  ::testing::internal::CaptureStderr();
  warnIfUnstable(c.system, c.beam.frozenDofs(), "semi_implicit", 0.99 * limit);
  warnIfUnstable(c.system, c.beam.frozenDofs(), "midpoint", 100 * limit);
  std::fflush(stderr);
  const std::string below = ::testing::internal::GetCapturedStderr();
  if (rank == 0) { // PetscFPrintf on the communicator writes on rank 0 only (to stderr)
    EXPECT_EQ(above.rfind("warning: dt = ", 0), 0u) << above;
    EXPECT_NE(above.find("of semi_implicit (omega_max = "), std::string::npos) << above;
  } else {
    EXPECT_EQ(above, "");
  }
  EXPECT_EQ(below, "");
  // Up to 1e4 DOFs the check's omega_max is the converged one: 1e-4 above the limit warns (a 1e-3
  // residual left omega_max 1.3e-3 low here, and this dt unwarned).
  ::testing::internal::CaptureStderr();
  warnIfUnstable(c.system, c.beam.frozenDofs(), "semi_implicit", (1 + 1e-4) * limit);
  std::fflush(stderr);
  const std::string just_above = ::testing::internal::GetCapturedStderr();
  if (rank == 0) {
    EXPECT_EQ(just_above.rfind("warning: dt = ", 0), 0u) << "no warning at 1e-4 above the limit";
    EXPECT_NE(just_above.find(" exceeds the critical step "), std::string::npos) << just_above;
  }
  // Up to 1e4 DOFs omega_max is converged: no margin below the limit (the large systems' "within 5e-4
  // of" warning would fire here at 1e-4 below it).
  ::testing::internal::CaptureStderr();
  warnIfUnstable(c.system, c.beam.frozenDofs(), "semi_implicit", (1 - 1e-4) * limit);
  std::fflush(stderr);
  EXPECT_EQ(::testing::internal::GetCapturedStderr(), "");
  PetscInt n;
  BEAM_PETSC(MatGetSize(c.system.stiffness, &n, nullptr));
  EXPECT_LT(applies, n - PetscInt(c.beam.frozenDofs().size()));
}

// The scheme labs' check, largestOmegaMasked to a 1e-3 residual (Krylov-Schur on the pencil (P S P, M),
// nothing restricted or factored), on the matrix-free default path (M^-1 by the Kronecker inverse) and on
// the assembled system (M^-1 by CG): omega_max within 5e-4 of the restricted pencil's converged value
// (|lambda - theta| <= |r| for a self-adjoint pencil) and not above it (a Ritz value of a symmetric
// pencil never exceeds the largest eigenvalue; round-off allowed).
TEST(CriticalStep, MaskedOmegaMaxMatchesTheRestrictedPencil) {
  BeamSpec spec;
  spec.mx = 100;
  spec.my = 10;
  const Beam beam(spec, PETSC_COMM_WORLD);
  const SecondOrderSystem assembled = beamSystem(beam, OperatorKind::Assembled);
  const double exact = largestOmega(FreeVibration(assembled, beam.frozenDofs()), "test_exact_", 1e-12);
  SolverPath path;
  path.operator_kind = OperatorKind::MatrixFree;
  path.solver = LinearSolverKind::CG;
  path.kronecker_mass = true;
  SecondOrderSystem free_system = beamSystem(beam, OperatorKind::MatrixFree);
  attachSolverPath(beam, path, free_system);
  const SecondOrderSystem *const systems[] = {&free_system, &assembled};
  for (const SecondOrderSystem *system : systems) {
    const double masked = largestOmegaMasked(*system, beam.frozenDofs(), "test_masked_", 1e-3);
    const char *which = system == &assembled ? "assembled" : "matrix-free";
    EXPECT_NEAR(masked / exact, 1.0, 5e-4) << which << ": " << masked << ", restricted: " << exact;
    EXPECT_LE(masked, exact * (1 + 1e-12)) << which;
  }
}

// The trials' initial state: the rough field is a function of the global index alone (the same values
// on any rank count, checked against a one-rank vector on every rank), 0 exactly at the frozen indices;
// the displacement made from it has strain energy 1/2 x'S x equal to the compliance asked for (1 without
// a load), to round-off, and is 0 at every frozen DOF (neither was tested: a frozen DOF left at its hash
// value, or the energy halved, passed).
TEST(CriticalStep, RoughInitialStateIsRankIndependentFrozenAndScaled) {
  PVec everywhere, local;
  BEAM_PETSC(VecCreateMPI(PETSC_COMM_WORLD, PETSC_DECIDE, 6, everywhere.out()));
  BEAM_PETSC(VecCreateSeq(PETSC_COMM_SELF, 6, local.out()));
  roughField(everywhere, {0, 3});
  roughField(local, {});
  PetscInt lo = 0, hi = 0;
  BEAM_PETSC(VecGetOwnershipRange(everywhere, &lo, &hi));
  const PetscScalar *a = nullptr, *b = nullptr;
  BEAM_PETSC(VecGetArrayRead(everywhere, &a));
  BEAM_PETSC(VecGetArrayRead(local, &b));
  for (PetscInt i = lo; i < hi; ++i) {
    if (i == 0 || i == 3) {
      EXPECT_EQ(PetscRealPart(a[i - lo]), 0.0) << i;
      EXPECT_NE(PetscRealPart(b[i]), 0.0) << i; // zeroed because frozen, not by chance
    } else {
      EXPECT_EQ(PetscRealPart(a[i - lo]), PetscRealPart(b[i])) << i;
    }
    EXPECT_LT(std::abs(PetscRealPart(b[i])), 1.0);
  }
  BEAM_PETSC(VecRestoreArrayRead(local, &b));
  BEAM_PETSC(VecRestoreArrayRead(everywhere, &a));

  const Case c(smallBeam());
  const std::vector<PetscInt> frozen = c.beam.frozenDofs();
  for (const double compliance : {0.37, 0.0}) {
    const PVec x = roughDisplacement(c.system, frozen, compliance);
    PVec Sx = c.system.createVector();
    BEAM_PETSC(MatMult(c.system.stiffness, x, Sx));
    PetscScalar xSx = 0;
    BEAM_PETSC(VecDot(x, Sx, &xSx));
    const double expected = compliance > 0 ? compliance : 1.0;
    EXPECT_NEAR(0.5 * PetscRealPart(xSx), expected, 1e-13 * expected) << compliance;
    BEAM_PETSC(VecGetOwnershipRange(x, &lo, &hi));
    BEAM_PETSC(VecGetArrayRead(x, &a));
    for (PetscInt d : frozen)
      if (d >= lo && d < hi) {
        EXPECT_EQ(PetscRealPart(a[d - lo]), 0.0) << d;
      }
    BEAM_PETSC(VecRestoreArrayRead(x, &a));
  }
}

// Rayleigh damping C = alpha M + beta S: each mode is the oscillator of damping ratio
// xi = alpha/(2 omega) + beta omega/2, and the critical step is the smallest limit over the frequencies in
// (0, omega_max]. Closed forms (h = dt, W = omega h):
// - semi-implicit: W_crit = 2 (sqrt(1 + xi^2) - xi) (test_amplification), decreasing in omega with beta, so
//   set by omega_max;
// - almost explicit (forward Euler in x): |1 + lambda h| <= 1 for lambda = omega (-xi +- i sqrt(1 - xi^2))
//   gives W <= 2 xi, so with beta alone h <= beta for every mode: damping makes it conditionally stable;
// - rk4 with alpha only: xi -> inf as omega -> 0, the fast root -omega (xi + sqrt(xi^2 - 1)) -> -alpha must
//   stay in RK4's real stability interval [-L, 0], L = 2.785293563... (the real root of
//   z^3 + 4 z^2 + 12 z + 24 = 0), so dt_crit -> L / alpha from the overdamped modes, below the 2.785 / omega_max
//   of omega_max itself at alpha = 2 omega_max (xi = 1 there). The grid stops at xi >= 100, where the fast
//   root is alpha (1 - 1/(4 xi^2)) to within 2.5e-5.
TEST(CriticalStep, RayleighDampedTheory) {
  const double omega_max = 40.0;
  // Undamped: Omega_crit / omega_max, set by omega_max.
  const TheoreticalStep plain = theoreticalStep("semi_implicit", omega_max, std::nullopt);
  EXPECT_NEAR(plain.dt, 2 / omega_max, 1e-12);
  EXPECT_EQ(plain.omega, omega_max);
  EXPECT_EQ(plain.xi, 0.0);
  EXPECT_EQ(dampedModes(omega_max, std::nullopt).size(), 1u);
  EXPECT_EQ(dampedModes(omega_max, RayleighDamping{0, 0}).size(), 1u);

  const double beta = 0.003, xi_top = beta * omega_max / 2;
  const TheoreticalStep semi = theoreticalStep("semi_implicit", omega_max, RayleighDamping{0, beta});
  // Damped, rho - 1 grows linearly past the limit, so the allowance 1e-10 moves it by ~1e-11 relative.
  EXPECT_NEAR(semi.dt * omega_max, 2 * (std::sqrt(1 + xi_top * xi_top) - xi_top), 1e-9);
  EXPECT_EQ(semi.omega, omega_max);
  EXPECT_NEAR(semi.xi, xi_top, 1e-15);

  const TheoreticalStep euler = theoreticalStep("almost_explicit", omega_max, RayleighDamping{0, beta});
  // Past W = 2 xi, rho - 1 ~ W (W - 2 xi) / 2, so the allowance 1e-10 moves the limit by 1e-10 / (2 xi W)
  // relative: 1.4e-8 here.
  EXPECT_NEAR(euler.dt, beta, 1e-7 * beta);

  // Lighter: xi = 2.1e-5 at the lowest sampled mode, below the scan's first point 1e-4, where the mode is
  // checked at the best step alone (its scan read 0, "unstable at every dt", until 2026-11-30). The allowance
  // 1e-10 moves the limit by 1e-10 / (2 xi W), 1.2e-5 relative at omega_max here.
  EXPECT_NEAR(theoreticalStep("almost_explicit", omega_max, RayleighDamping{0, 1e-4}).dt, 1e-4, 1e-4 * 1e-4);
  // alpha and beta: W_crit = 2 xi gives dt = alpha/omega^2 + beta, smallest at omega_max.
  EXPECT_NEAR(theoreticalStep("almost_explicit", omega_max, RayleighDamping{0.5, 1e-4}).dt,
              0.5 / (omega_max * omega_max) + 1e-4, 1e-4 * 4e-4);
  // Damping ratios or matrices that overflow: refused, not read as a limit (beta 1e304 read the central
  // difference's NaN at Omega = 426 as its limit; 5e306 was "-xi: inf is out of range").
  for (double b : {1e304, 5e306}) {
    try {
      (void)theoreticalStep("central_difference", 42.0, RayleighDamping{0, b});
      ADD_FAILURE() << "beta " << b << " accepted";
    } catch (const Error &e) {
      EXPECT_EQ(e.exitCode(), kExitBadInput);
      const std::string what = e.what();
      EXPECT_TRUE(what.find("is not finite (it overflows)") != std::string::npos ||
                  what.find("Rayleigh damping alpha = 0, beta = 5e+306: the damping ratio") != std::string::npos) << what;
    }
  }

  const double alpha = 2 * omega_max, L = 2.785293563405282;
  const TheoreticalStep rk4 = theoreticalStep("rk4", omega_max, RayleighDamping{alpha, 0});
  EXPECT_NEAR(rk4.dt * alpha / L, 1.0, 1e-4) << rk4.dt;
  EXPECT_GE(rk4.dt, L / alpha * (1 - 1e-10)); // the grid's modes are all above omega -> 0
  EXPECT_LE(rk4.omega, omega_max / 100 * (1 + 1e-12));
  EXPECT_GE(rk4.xi, 100.0);
  // At omega_max alone the limit would be about twice as large (xi = 1 there).
  EXPECT_GT(criticalOmega("rk4", 1.0) / omega_max, 1.9 * rk4.dt);

  // The sampled frequencies: omega_max first, 10 per decade, two decades with beta alone; with alpha on to
  // xi >= 100, at most six decades.
  const auto beta_only = dampedModes(omega_max, RayleighDamping{0, beta});
  ASSERT_EQ(beta_only.size(), 21u);
  EXPECT_EQ(beta_only.front(), omega_max);
  EXPECT_NEAR(beta_only.back(), omega_max / 100, 1e-12);
  const auto with_alpha = dampedModes(omega_max, RayleighDamping{alpha, 0});
  EXPECT_GE(alpha / (2 * with_alpha.back()), 100.0);
  EXPECT_LT(alpha / (2 * with_alpha[with_alpha.size() - 2]), 100.0);
  EXPECT_EQ(dampedModes(omega_max, RayleighDamping{1e-300, 0}).size(), 61u);
  // alpha = 0.8: xi = 100 at omega = 0.004 = omega_max / 1e4, four decades down.
  const auto four_decades = dampedModes(omega_max, RayleighDamping{0.8, 0});
  ASSERT_EQ(four_decades.size(), 41u);
  EXPECT_NEAR(four_decades.back(), omega_max / 1e4, 1e-15);
}

// A heavily damped mode's limit falls like 1/xi; the scan's first point follows it (at xi = 5000 the
// semi-implicit limit 2 (sqrt(1 + xi^2) - xi) = 2e-4 was below the first point 1e-3 and read as 0,
// "unstable for every dt").
TEST(CriticalStep, HeavilyDampedLimitIsFound) {
  for (double xi : {10.0, 5000.0, 1e8}) {
    const double exact = 2 / (std::sqrt(1 + xi * xi) + xi);
    EXPECT_NEAR(criticalOmega("semi_implicit", xi) / exact, 1.0, 1e-8) << xi;
  }
}

TEST(CriticalStep, WarningWithRayleighDamping) {
  // The hostile pass's case: semi_implicit -rayleigh_beta 0.003 -dt 0.045 on the default beam diverged at
  // step 51 without a warning (the undamped limit 0.0474). Damped, the limit is 0.0445 there.
  Case c(BeamSpec{});
  addRayleighDamping(c.system, c.beam, 0, 0.003);
  const FreeVibration problem(c.system, c.beam.frozenDofs());
  const double omega_max = largestOmega(problem, "test_max_", 1e-10);
  const double limit = theoreticalStep("semi_implicit", omega_max, RayleighDamping{0, 0.003}).dt;
  EXPECT_LT(limit, 0.045);
  EXPECT_GT(limit, 0.044);
  int rank = 0;
  MPI_Comm_rank(PETSC_COMM_WORLD, &rank);
  ::testing::internal::CaptureStderr();
  warnIfUnstable(c.system, c.beam.frozenDofs(), "semi_implicit", (1 + 1e-4) * limit);
  std::fflush(stderr);
  const std::string above = ::testing::internal::GetCapturedStderr();
  ::testing::internal::CaptureStderr();
  warnIfUnstable(c.system, c.beam.frozenDofs(), "semi_implicit", (1 - 1e-4) * limit);
  std::fflush(stderr);
  EXPECT_EQ(::testing::internal::GetCapturedStderr(), "");
  if (rank == 0) {
    EXPECT_EQ(above.rfind("warning: dt = ", 0), 0u) << above;
    EXPECT_NE(above.find("with the Rayleigh damping, the limit of the mode at omega = "), std::string::npos) << above;
  }
  // Steps six digits print alike are printed in full (dt = 0.0445079 "exceeded" 0.0445079).
  ::testing::internal::CaptureStderr();
  warnIfUnstable(c.system, c.beam.frozenDofs(), "semi_implicit", (1 + 1e-9) * limit);
  std::fflush(stderr);
  const std::string close = ::testing::internal::GetCapturedStderr();
  if (rank == 0) { // (the check's own omega_max, to a 1e-6 residual, moves its limit in the 9th digit)
    char dt_text[40] = "", limit_text[40] = "";
    ASSERT_EQ(std::sscanf(close.c_str(), "warning: dt = %39s exceeds the critical step %39s ", dt_text, limit_text), 2) << close;
    EXPECT_NE(std::string(dt_text), std::string(limit_text)) << close;
    EXPECT_GE(std::string(dt_text).size(), 15u) << close;
    EXPECT_GT(std::stod(dt_text), std::stod(limit_text)) << close;
  }
}
