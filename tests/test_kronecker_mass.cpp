// The default fast path of the structured beam (issue 13): the Kronecker inverse of the consistent mass
// (MesLib/KroneckerMass.hpp), the node stencil of the matrix-free operator, CG preconditioned by the mass
// inverse (iterations within the bound of its condition number), the path chosen by size, ranks and
// mass kind, and the schemes on it. Runs on 1 and 2 ranks (the SPIKE split of the column solves).
#include <gtest/gtest.h>

#include <Eigen/Dense>

#include <cmath>
#include <memory>
#include <tuple>

#include "MesLib/BeamSystem.hpp"
#include "MesLib/KroneckerMass.hpp"
#include "MesLib/MatrixFreeOperator.hpp"
#include "common/LargeVector.hpp"
#include "solvers/LinearModel.hpp"
#include "solvers/TimeLoop.hpp"

namespace beam {
namespace {

constexpr double kEps = 2.220446049250313e-16;

BeamSpec spec(int mx, int my, Supports supports = Supports::ClampedLeft) {
  BeamSpec s;
  s.mx = mx;
  s.my = my;
  s.hx = 0.5;
  s.hy = 0.8;
  s.material = {210.0, 0.25, 2.5};
  s.thickness = 0.7;
  s.supports = supports;
  return s;
}

// The beam's matrix-free system on the Kronecker path (the default path's solvers attached).
SecondOrderSystem kroneckerSystem(const Beam &beam) {
  SecondOrderSystem system = beamSystem(beam, OperatorKind::MatrixFree);
  SolverPath path;
  path.kronecker_mass = true;
  attachSolverPath(beam, path, system);
  return system;
}

PVec randomVector(const Beam &beam, const std::vector<PetscInt> &zero_at = {}, unsigned long seed = 11) {
  PVec x = beam.createVector();
  PetscRandom rnd;
  BEAM_PETSC(PetscRandomCreate(beam.comm(), &rnd));
  BEAM_PETSC(PetscRandomSetSeed(rnd, seed));
  BEAM_PETSC(PetscRandomSeed(rnd));
  BEAM_PETSC(VecSetRandom(x, rnd));
  BEAM_PETSC(PetscRandomDestroy(&rnd));
  for (PetscInt d : zero_at) BEAM_PETSC(VecSetValue(x, d, 0.0, INSERT_VALUES));
  BEAM_PETSC(VecAssemblyBegin(x));
  BEAM_PETSC(VecAssemblyEnd(x));
  return x;
}

double norm(Vec v) {
  PetscReal n;
  BEAM_PETSC(VecNorm(v, NORM_2, &n));
  return n;
}

// ||A x - B x|| / ||A x||.
double productDifference(Mat A, Mat B, Vec x) {
  PVec ya = duplicate(x), yb = duplicate(x);
  BEAM_PETSC(MatMult(A, x, ya));
  BEAM_PETSC(MatMult(B, x, yb));
  const double scale = norm(ya);
  BEAM_PETSC(VecAXPY(yb, -1.0, ya));
  return norm(yb) / scale;
}

// The node stencil (uniform thickness, clamped ends) and the element kernel (simply supported) give the
// assembled products: each entry sums at most 4 element terms of the same sign pattern, round-off a few
// eps of the row's scale.
class Stencil : public ::testing::TestWithParam<Supports> {};

TEST_P(Stencil, ProductsEqualAssembled) {
  const Beam beam(spec(9, 6, GetParam()), PETSC_COMM_WORLD);
  const SecondOrderSystem assembled = beamSystem(beam, OperatorKind::Assembled);
  const SecondOrderSystem shell = beamSystem(beam, OperatorKind::MatrixFree);
  const PVec x = randomVector(beam);
  EXPECT_LT(productDifference(assembled.mass, shell.mass, x), 1e-14);
  EXPECT_LT(productDifference(assembled.stiffness, shell.stiffness, x), 1e-13);
  const PMat a = assembled.combination(1.0, 0.0, 0.3), s = shell.combination(1.0, 0.0, 0.3);
  EXPECT_LT(productDifference(a, s, x), 1e-13);
}

INSTANTIATE_TEST_SUITE_P(Supports, Stencil,
                         ::testing::Values(Supports::ClampedLeft, Supports::ClampedBoth, Supports::SimplySupported));

// The stencil's fused forms are the products they replace, to the bit: x'Ax without storing Ax is the sum
// multDot takes from its own pass, and alpha v + beta A x finishes each row with VecAXPBY's expression.
// The assembled matrices (no fused form) go through MatMult and VecDot / VecAXPBY themselves. The
// quadratic form against the assembled one: the products' round-off (1e-14 relative, above) times |x|.
TEST_P(Stencil, FusedFormsAreTheProductsToTheBit) {
  const Beam beam(spec(9, 6, GetParam()), PETSC_COMM_WORLD);
  const SecondOrderSystem assembled = beamSystem(beam, OperatorKind::Assembled);
  const SecondOrderSystem shell = beamSystem(beam, OperatorKind::MatrixFree);
  const PVec x = randomVector(beam), v = randomVector(beam), y = duplicate(x), work = duplicate(x);
  BEAM_PETSC(VecScale(v, -3.7)); // another vector than x
  for (const SecondOrderSystem *system : {&shell, &assembled})
    for (Mat A : {system->mass.get(), system->stiffness.get()}) {
      const double form = quadraticForm(A, x, work);
      BEAM_PETSC(VecSet(work, 0.0));
      EXPECT_EQ(form, multDot(A, x, work));
      for (const auto &[alpha, beta] : {std::pair{0.01, -0.01}, std::pair{1.0, -2.5}, std::pair{0.0, 0.5}}) {
        multAffine(A, x, alpha, beta, v, y);
        BEAM_PETSC(MatMult(A, x, work));
        BEAM_PETSC(VecAXPBY(work, alpha, beta, v));
        BEAM_PETSC(VecAXPY(work, -1.0, y));
        PetscReal diff;
        BEAM_PETSC(VecNorm(work, NORM_INFINITY, &diff));
        EXPECT_EQ(diff, 0.0) << "alpha " << alpha << " beta " << beta;
      }
    }
  for (int k = 0; k < 2; ++k) {
    const Mat As = k ? shell.stiffness.get() : shell.mass.get(), Aa = k ? assembled.stiffness.get() : assembled.mass.get();
    const double fs = quadraticForm(As, x, work), fa = quadraticForm(Aa, x, work);
    EXPECT_NEAR(fs, fa, 1e-13 * std::abs(fa) + 1e-13 * norm(x) * norm(work));
  }
}

// Vectors of kLargeVectorBytes or more per rank get their own huge-page mapping (common/LargeVector.hpp):
// zeroed like VecCreateMPI's, usable as any vector, duplicate() gives another such vector with the same
// layout, VecDuplicate an ordinary one; smaller ones and BEAM_HUGE_PAGES=0 stay PETSc's own. Every value is
// written and read back (a mapping too short would fault or, under the sanitizers, be reported).
TEST(LargeVector, OwnMappingAboveTheThresholdOnly) {
  const PetscInt n = PetscInt(kLargeVectorBytes / sizeof(PetscScalar)) + 3;
  const PVec v = createVectorMPI(PETSC_COMM_WORLD, n, PETSC_DETERMINE);
  EXPECT_TRUE(onLargePages(v));
  PetscReal nrm;
  BEAM_PETSC(VecNorm(v, NORM_INFINITY, &nrm));
  EXPECT_EQ(nrm, 0.0);
  PetscInt lo, hi;
  BEAM_PETSC(VecGetOwnershipRange(v, &lo, &hi));
  PetscScalar *a;
  BEAM_PETSC(VecGetArray(v, &a));
  for (PetscInt i = 0; i < hi - lo; ++i) a[i] = double(lo + i);
  BEAM_PETSC(VecRestoreArray(v, &a));
  const PVec w = duplicate(v);
  EXPECT_TRUE(onLargePages(w));
  PetscInt wlo, whi;
  BEAM_PETSC(VecGetOwnershipRange(w, &wlo, &whi));
  EXPECT_EQ(wlo, lo);
  EXPECT_EQ(whi, hi);
  BEAM_PETSC(VecCopy(v, w));
  PetscScalar sum;
  BEAM_PETSC(VecSum(w, &sum));
  PetscInt N;
  BEAM_PETSC(VecGetSize(w, &N));
  EXPECT_EQ(sum, 0.5 * double(N) * double(N - 1)); // integers below 2^53: exact in any order
  PVec ordinary;
  BEAM_PETSC(VecDuplicate(v, ordinary.out()));
  EXPECT_FALSE(onLargePages(ordinary));
  EXPECT_FALSE(onLargePages(createVectorMPI(PETSC_COMM_WORLD, n / 2, PETSC_DETERMINE)));
  setenv("BEAM_HUGE_PAGES", "0", 1);
  EXPECT_FALSE(onLargePages(createVectorMPI(PETSC_COMM_WORLD, n, PETSC_DETERMINE)));
  unsetenv("BEAM_HUGE_PAGES");
}

// Ranks that disagree on huge pages: a partition with the threshold between two ranks' parts, and
// BEAM_HUGE_PAGES=0 on the last rank only. duplicate() must stay collective-consistent (it hung two ranks
// when one took VecDuplicate and the other createVectorMPI) and give each rank what its own part asks.
// On one rank there is nothing to disagree with; the checks still run.
TEST(LargeVector, RanksThatDisagreeStillDuplicate) {
  int rank = 0, ranks = 1;
  MPI_Comm_rank(PETSC_COMM_WORLD, &rank);
  MPI_Comm_size(PETSC_COMM_WORLD, &ranks);
  const PetscInt large = PetscInt(kLargeVectorBytes / sizeof(PetscScalar)) + 3;
  for (const bool by_env : {false, true}) {
    const bool last = rank == ranks - 1 && ranks > 1;
    const PetscInt n = (!by_env && last) ? large / 2 : large;
    if (by_env && last) setenv("BEAM_HUGE_PAGES", "0", 1);
    const PVec v = createVectorMPI(PETSC_COMM_WORLD, n, PETSC_DETERMINE);
    const bool expect_large = !last;
    EXPECT_EQ(onLargePages(v), expect_large) << (by_env ? "env" : "partition");
    BEAM_PETSC(VecSet(v, 2.0));
    const PVec w = duplicate(v);
    unsetenv("BEAM_HUGE_PAGES");
    EXPECT_EQ(onLargePages(w), expect_large) << (by_env ? "env" : "partition");
    PetscInt vn, wn;
    BEAM_PETSC(VecGetLocalSize(v, &vn));
    BEAM_PETSC(VecGetLocalSize(w, &wn));
    EXPECT_EQ(wn, vn);
    BEAM_PETSC(VecCopy(v, w));
    PetscScalar dot;
    BEAM_PETSC(VecDot(v, w, &dot)); // collective: both ranks got here
    PetscInt N;
    BEAM_PETSC(VecGetSize(w, &N));
    EXPECT_EQ(dot, 4.0 * double(N));
  }
}

// M (M^-1 r) = r. The sweeps are LDL^T solves of Tx and Ty, whose Gershgorin discs lie in [0.5, 3]:
// cond(Ty (x) Tx) <= 36, and a backward-stable solve leaves a relative residual of a few eps times that.
// 61 node rows: on 2 ranks the spikes are truncated (0.27^30 < 1e-17), which must not show either.
class MassInverse : public ::testing::TestWithParam<std::pair<int, Supports>> {};

TEST_P(MassInverse, IsTheInverseOfTheAssembledMass) {
  const auto [my, supports] = GetParam();
  int ranks = 1;
  MPI_Comm_size(PETSC_COMM_WORLD, &ranks);
  if (my + 1 < ranks) GTEST_SKIP() << "fewer node rows than ranks: refused (RefusedWhere...)";
  const Beam beam(spec(13, my, supports), PETSC_COMM_WORLD);
  ASSERT_EQ(KroneckerMassInverse::whyNot(beam), "");
  const KroneckerMassInverse inverse(beam);
  const PMat M = beam.mass();
  const PVec r = randomVector(beam), z = beam.createVector(), back = beam.createVector();
  inverse.apply(r, z);
  BEAM_PETSC(MatMult(M, z, back));
  BEAM_PETSC(VecAXPY(back, -1.0, r));
  EXPECT_LT(norm(back) / norm(r), 10 * 36 * kEps);
  // In place as well.
  BEAM_PETSC(VecCopy(r, back));
  inverse.apply(back, back);
  BEAM_PETSC(VecAXPY(back, -1.0, z));
  EXPECT_EQ(norm(back), 0.0);
}

INSTANTIATE_TEST_SUITE_P(RowsAndSupports, MassInverse,
                         ::testing::Values(std::make_pair(1, Supports::ClampedLeft), std::make_pair(4, Supports::ClampedBoth),
                                           std::make_pair(60, Supports::ClampedLeft)));

TEST(MassInverse, CourseScalingToo) {
  BeamSpec s = spec(20, 5);
  s.mass_scaling = MassScaling::Course;
  const Beam beam(s, PETSC_COMM_WORLD);
  const KroneckerMassInverse inverse(beam);
  const PVec r = randomVector(beam), z = beam.createVector(), back = beam.createVector();
  inverse.apply(r, z);
  BEAM_PETSC(MatMult(beam.mass(), z, back));
  BEAM_PETSC(VecAXPY(back, -1.0, r));
  EXPECT_LT(norm(back) / norm(r), 10 * 36 * kEps);
}

TEST(MassInverse, RefusedWhereTheMassIsNoKroneckerProduct) {
  BeamSpec lumped = spec(8, 3);
  lumped.lumped_mass = true;
  EXPECT_NE(KroneckerMassInverse::whyNot(Beam(lumped, PETSC_COMM_WORLD)), "");
  EXPECT_NE(KroneckerMassInverse::whyNot(Beam(spec(8, 3, Supports::SimplySupported), PETSC_COMM_WORLD)), "");
  BeamSpec varying = spec(8, 3);
  for (int q = 0; q < 24; ++q) varying.element_thickness.push_back(1.0 + 0.1 * (q % 3));
  EXPECT_NE(KroneckerMassInverse::whyNot(Beam(varying, PETSC_COMM_WORLD)), "");
  EXPECT_THROW(KroneckerMassInverse(Beam(varying, PETSC_COMM_WORLD)), Error);
}

// The fused CG iteration (one or two ranks) against the unfused one it replaces: r -= alpha q, z = M^-1 r
// with r'z, p = z + beta p, x += alpha p. The same operations on the same values (the forward half is
// shared, the backward recurrence and the updates are written alike), so r, p and x must be equal
// bitwise. r'z differs in its summation: the fused one sums u_k' Tx^-1 u_k / D_k (the elimination's
// values), the unfused one r_i z_i. Each is within n eps of the exact value times the sum of absolute
// terms, which here (r'M^-1 r of a vector with entries of both signs, M^-1's entries of both signs) is
// bounded by cond(M) <= 36 times the value: |difference| <= 2 n eps 36 |r'z|.
class FusedIteration : public ::testing::TestWithParam<std::pair<int, Supports>> {};

TEST_P(FusedIteration, IsTheUnfusedIterationBitwise) {
  const auto [my, supports] = GetParam();
  int ranks = 1;
  MPI_Comm_size(PETSC_COMM_WORLD, &ranks);
  if (my + 1 < ranks) GTEST_SKIP() << "fewer node rows than ranks: refused";
  const Beam beam(spec(17, my, supports), PETSC_COMM_WORLD);
  const KroneckerMassInverse inverse(beam);
  if (!inverse.fusable()) {
    EXPECT_GT(ranks, 2);
    GTEST_SKIP() << "more than two ranks: CG takes the unfused iteration";
  }
  const double alpha = 0.37, beta = 0.61;
  const PVec r0 = randomVector(beam, {}, 3), q = randomVector(beam, {}, 5), p0 = randomVector(beam, {}, 7),
             x0 = randomVector(beam, {}, 9);
  // Unfused.
  const PVec r1 = duplicate(r0), z = beam.createVector(), p1 = duplicate(p0), x1 = duplicate(x0);
  BEAM_PETSC(VecCopy(r0, r1));
  BEAM_PETSC(VecCopy(p0, p1));
  BEAM_PETSC(VecCopy(x0, x1));
  BEAM_PETSC(VecAXPY(r1, -alpha, q));
  const double rz1 = inverse.applyDot(r1, z);
  BEAM_PETSC(VecAXPY(x1, alpha, p1));
  BEAM_PETSC(VecAYPX(p1, beta, z));
  // Fused.
  const PVec r2 = duplicate(r0), w = beam.createVector(), p2 = duplicate(p0), x2 = duplicate(x0);
  BEAM_PETSC(VecCopy(r0, r2));
  BEAM_PETSC(VecCopy(p0, p2));
  BEAM_PETSC(VecCopy(x0, x2));
  const double rz2 = inverse.residualForward(alpha, q, r2, w);
  inverse.directionBackward(w, alpha, beta, p2, x2);
  PetscInt n;
  BEAM_PETSC(VecGetSize(r0, &n));
  EXPECT_NEAR(rz2, rz1, 2 * double(n) * kEps * 36 * std::abs(rz1));
  for (const auto &[fused, unfused, name] : {std::make_tuple(Vec(r2), Vec(r1), "r"), std::make_tuple(Vec(p2), Vec(p1), "p"),
                                             std::make_tuple(Vec(x2), Vec(x1), "x")}) {
    BEAM_PETSC(VecAXPY(fused, -1.0, unfused));
    EXPECT_EQ(norm(fused), 0.0) << name;
  }
}

INSTANTIATE_TEST_SUITE_P(RowsAndSupports, FusedIteration,
                         ::testing::Values(std::make_pair(1, Supports::ClampedLeft), std::make_pair(6, Supports::ClampedBoth),
                                           std::make_pair(9, Supports::ClampedLeft)));

// CG on a M + c S preconditioned by (a M)^-1: the preconditioned operator I + (c/a) M^-1 S has its
// spectrum in [1, kappa], kappa = 1 + (c/a) lambda_max(M^-1 S), and lambda_max(M^-1 S) <= the largest
// element eigenvalue of Me^-1 Ke (the Rayleigh quotient of a sum of element terms; frozen rows: 1).
// From x0 = 0, ||r_k||_P <= sqrt(kappa) ||e_k||_A <= 2 sqrt(kappa) rho^k ||b||_P, rho = (sqrt kappa - 1) /
// (sqrt kappa + 1): CG stops (natural norm, rtol 1e-10) by k = ceil(ln(2 sqrt(kappa) / 1e-10) / ln(1 / rho)).
TEST(PreconditionedCG, IterationsWithinTheConditionBound) {
  BeamSpec s = spec(40, 8);
  const Beam beam(s, PETSC_COMM_WORLD);
  const ElementMatrix me = q4Mass(s.material, s.hx, s.hy, 1.0, s.mass_scaling),
                      ke = q4Stiffness(s.material, s.hx, s.hy, 1.0);
  Eigen::MatrixXd Me(8, 8), Ke(8, 8);
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 8; ++j) {
      Me(i, j) = me[size_t(8 * i + j)];
      Ke(i, j) = ke[size_t(8 * i + j)];
    }
  const double lambda = std::max(1.0, Eigen::GeneralizedSelfAdjointEigenSolver<Eigen::MatrixXd>(Ke, Me).eigenvalues().maxCoeff());
  SecondOrderSystem system = kroneckerSystem(beam);
  for (double c : {1e-4, 1e-3, 1e-2}) { // dt^2/4 and dt^2 of the midpoint and fully implicit runs, and more
    const PMat A = system.combination(1.0, 0.0, c);
    const double kappa = 1 + c * lambda, rho = (std::sqrt(kappa) - 1) / (std::sqrt(kappa) + 1);
    const int bound = int(std::ceil(std::log(2 * std::sqrt(kappa) / 1e-10) / std::log(1 / rho)));
    const PVec b = randomVector(beam, beam.frozenDofs());
    // The fused CG (the default) and PETSc's KSPCG with the same preconditioner, both from x0 = 0.
    const LinearSolver fused = system.shiftedSolver(A, "test_", LinearSolverKind::Direct);
    const LinearSolver ksp(A, "test_", system.mass_inverse, false);
    PVec x[2] = {beam.createVector(), beam.createVector()};
    int k = 0;
    for (const LinearSolver *solver : {&fused, &ksp}) {
      BEAM_PETSC(VecSet(x[k], 0.0));
      solver->solve(b, x[k]);
      EXPECT_LE(solver->lastIterations(), bound) << "c = " << c << ", kappa <= " << kappa;
      EXPECT_GE(solver->lastIterations(), 1);
      ++k;
    }
    // Both stop at ||r||_P <= 1e-10 ||b||_P, so ||x - x*||_A <= 1e-10 ||b||_P (P A >= 1) and their
    // difference is below 2e-10 ||b||_P in the A-norm: 1e-9 relative in the 2-norm leaves room for
    // cond(A) of these small beams.
    const double scale = norm(x[0]);
    BEAM_PETSC(VecAXPY(x[1], -1.0, x[0]));
    EXPECT_LT(norm(x[1]) / scale, 1e-9);
  }
}

// Start::Zero (the lab schemes' increment solves) ignores the values in x and needs no product A x0: it
// must give, operation for operation, the solve started from an x that holds zeros (r0 = b - A 0 = b
// exactly, b'x0 = 0), for the fused CG and for PETSc's KSPCG alike, so the results are equal bitwise.
// Also with a heavy material (rho = 1e4: M's smallest eigenvalue >= m0/4 ~ 78 by Gershgorin on the 1D
// factors, so b'b >= 78 b'M^-1 b; the stiffness's share scaled with it, so the same 27 iterations): a
// warm start's stopping threshold taken from b'b instead of b'x0 then stops the fused CG after 23
// iterations (it passed with the light material, where b'M^-1 b dominates either way).
TEST(PreconditionedCG, StartFromZeroIgnoresTheValuesInX) {
  for (const double rho : {2.5, 1e4}) {
    BeamSpec s = spec(40, 8);
    s.material.rho = rho;
    const Beam beam(s, PETSC_COMM_WORLD);
    SecondOrderSystem system = kroneckerSystem(beam);
    const PMat A = system.combination(1.0, 0.0, 1e-3 * rho / 2.5); // the same conditioning: 27 iterations
    const PVec b = randomVector(beam, beam.frozenDofs());
    const LinearSolver fused = system.shiftedSolver(A, "test_", LinearSolverKind::Direct);
    const LinearSolver ksp(A, "test_", system.mass_inverse, false);
    for (const LinearSolver *solver : {&fused, &ksp}) {
      PVec given = beam.createVector(), zero = beam.createVector();
      BEAM_PETSC(VecSet(given, 0.0));
      solver->solve(b, given);
      const PetscInt its = solver->lastIterations();
      BEAM_PETSC(VecSet(zero, 1e30)); // would dominate any result it reached
      solver->solve(b, zero, true, LinearSolver::Start::Zero);
      EXPECT_EQ(solver->lastIterations(), its);
      BEAM_PETSC(VecAXPY(zero, -1.0, given));
      EXPECT_EQ(norm(zero), 0.0) << (solver == &fused ? "fused CG" : "KSPCG") << ", rho " << rho;
    }
  }
}

// The mass solve on the Kronecker path is one PCApply, without KSPSolve (whose preonly solve first zeroes
// x: a pass over the state per step). It must give KSPSolve's result bitwise (the same single application
// of the inverse), ignore what x held, and step aside for KSPSolve when an option asks KSPSolve for
// output (here -..._ksp_monitor, which a preonly KSP never prints).
TEST(MassInverse, ExactSolveIsKSPSolveWithoutIt) {
  const Beam beam(spec(40, 8), PETSC_COMM_WORLD);
  SecondOrderSystem system = kroneckerSystem(beam);
  const PVec b = randomVector(beam, beam.frozenDofs());
  const LinearSolver direct = system.massSolver("apply_mass_", LinearSolverKind::Direct);
  BEAM_PETSC(PetscOptionsSetValue(nullptr, "-ksp_mass_ksp_monitor", nullptr));
  const LinearSolver via_ksp = system.massSolver("ksp_mass_", LinearSolverKind::Direct);
  BEAM_PETSC(PetscOptionsClearValue(nullptr, "-ksp_mass_ksp_monitor"));
  PVec x[2] = {beam.createVector(), beam.createVector()};
  int k = 0;
  for (const LinearSolver *solver : {&direct, &via_ksp}) {
    BEAM_PETSC(VecSet(x[k], std::nan(""))); // ignored: a value read from x would spread
    solver->solve(b, x[k], true, LinearSolver::Start::Zero);
    EXPECT_EQ(solver->lastIterations(), 1);
    ++k;
  }
  // M x = b to round-off: cond(M) <= 36 on every component (above), so 1e-13 relative leaves room.
  PVec r = beam.createVector();
  BEAM_PETSC(MatMult(system.mass, x[0], r));
  BEAM_PETSC(VecAXPY(r, -1.0, b));
  EXPECT_LT(norm(r) / norm(b), 1e-13);
  BEAM_PETSC(VecAXPY(x[1], -1.0, x[0]));
  EXPECT_EQ(norm(x[1]), 0.0);
  PetscInt ran[2] = {-1, -1}; // KSPSolve's own count: 0 where it never ran
  BEAM_PETSC(KSPGetIterationNumber(direct.ksp(), &ran[0]));
  BEAM_PETSC(KSPGetIterationNumber(via_ksp.ksp(), &ran[1]));
  EXPECT_EQ(ran[0], 0);
  EXPECT_EQ(ran[1], 1);
}

// Semi-implicit solves with M alone: on the Kronecker path by one application of the exact inverse, so
// it follows the direct path to round-off (50 steps of a bounded, oscillating solution; each step's
// solve is backward stable with cond <= 36 for M, as above, amplified by at most the steps taken).
TEST(DefaultPath, SemiImplicitMatchesDirect) {
  const Beam beam(spec(30, 6), PETSC_COMM_WORLD);
  const SecondOrderSystem direct = beamSystem(beam, OperatorKind::Assembled);
  SecondOrderSystem fast = kroneckerSystem(beam);
  PVec x[2], y[2];
  int k = 0;
  for (const SecondOrderSystem *sys : {&direct, static_cast<const SecondOrderSystem *>(&fast)}) {
    const auto scheme = makeScheme("semi_implicit");
    const LinearModel model(*sys, k == 0 ? LinearSolverKind::Direct : LinearSolverKind::CG);
    scheme->setup(model, {0.002, k == 0 ? LinearSolverKind::Direct : LinearSolverKind::CG});
    x[k] = sys->createVector();
    y[k] = sys->createVector();
    BEAM_PETSC(VecSet(x[k], 0.0));
    BEAM_PETSC(VecSet(y[k], 0.0));
    for (int n = 0; n < 50; ++n) scheme->step(n * 0.002, x[k], y[k]);
    ++k;
  }
  const double scale = norm(x[0]);
  BEAM_PETSC(VecAXPY(x[1], -1.0, x[0]));
  EXPECT_LT(norm(x[1]) / scale, 50 * 10 * 36 * kEps);
}

// Midpoint on the default path conserves the energy to the CG tolerance: 200 steps of a 60 x 10 beam
// under the end load, drift below 1e-10 of the scale (CG to 1e-10 per step; the error of a step enters
// the energy to first order, and measured runs stay at 1e-11 after 1000 steps, README).
TEST(DefaultPath, MidpointConservesEnergy) {
  const Beam beam(spec(60, 10), PETSC_COMM_WORLD);
  SecondOrderSystem system = kroneckerSystem(beam);
  const auto scheme = makeScheme("midpoint");
  RunSettings run;
  run.dt = 0.01;
  run.T = 2.0;
  run.solver = LinearSolverKind::CG;
  BEAM_PETSC(PetscOptionsSetValue(nullptr, "-static_ksp_rtol", "1e-12")); // the scale itself converged
  const LinearModel model(system, run.solver);
  TimeLoop loop(*scheme, model, run);
  BEAM_PETSC(PetscOptionsClearValue(nullptr, "-static_ksp_rtol"));
  PVec x = system.createVector(), y = system.createVector();
  BEAM_PETSC(VecSet(x, 0.0));
  BEAM_PETSC(VecSet(y, 0.0));
  const RunResult result = loop.run(x, y, {});
  EXPECT_EQ(result.steps_done, 200);
  EXPECT_LT(result.max_abs_drift, 1e-10);
}

// The path: direct on the course beam (exact, round-off drift), the Kronecker path above the size limit, CG + Jacobi for a large lumped mass, direct where the Kronecker form fails, and
// the user's options always.
TEST(DefaultPath, ChosenBySizeRanksAndMass) {
  const auto choose = [](const BeamSpec &s) {
    const Beam beam(s, PETSC_COMM_WORLD);
    return chooseSolverPath(beam, OperatorKind::Assembled, LinearSolverKind::Direct);
  };
  BeamSpec course = spec(20, 5);
  EXPECT_EQ(choose(course).name, "direct");
  const SolverPath large = choose(spec(400, 20));
  EXPECT_EQ(large.name, "mf_kron");
  EXPECT_TRUE(large.kronecker_mass);
  EXPECT_EQ(large.operator_kind, OperatorKind::MatrixFree);
  EXPECT_NE(large.reason.find("16842 DOFs"), std::string::npos) << large.reason;
  BeamSpec lumped = spec(400, 20);
  lumped.lumped_mass = true;
  EXPECT_EQ(choose(lumped).name, "mf_cg");
  EXPECT_EQ(choose(spec(400, 20, Supports::SimplySupported)).name, "direct");
  BEAM_PETSC(PetscOptionsSetValue(nullptr, "-linear_solver", "direct"));
  EXPECT_EQ(choose(spec(400, 20)).name, "direct");
  BEAM_PETSC(PetscOptionsClearValue(nullptr, "-linear_solver"));
  BEAM_PETSC(PetscOptionsSetValue(nullptr, "-operator", "assembled"));
  const SolverPath requested = choose(spec(400, 20));
  BEAM_PETSC(PetscOptionsClearValue(nullptr, "-operator"));
  EXPECT_EQ(requested.name, "direct");
  EXPECT_FALSE(requested.kronecker_mass);
}

} // namespace
} // namespace beam
