// The matrix-free beam operator against the assembled matrices: same products and diagonal to
// round-off, frozen DOFs handled identically, and the lumped mass a row-sum diagonal with the right
// total. Runs on 1, 2 and 5 ranks: on 5 the 4 node rows split inside rows, so a rank's ghosts come from
// several ranks (MesLib/GhostExchange.hpp), and with one thickness the product is the node stencil where
// ranks own whole node rows.
#include <gtest/gtest.h>

#include <cmath>

#include "MesLib/BeamSystem.hpp"
#include "MesLib/GhostExchange.hpp"
#include "MesLib/MatrixFreeOperator.hpp"

namespace beam {
namespace {

struct Case {
  bool lumped, varying_thickness;
};

BeamSpec spec(Case c) {
  BeamSpec s;
  s.mx = 7;
  s.my = 3;
  s.hx = 0.5;
  s.hy = 0.8;
  s.material = {210.0, 0.25, 2.5};
  s.lumped_mass = c.lumped;
  if (c.varying_thickness)
    for (int q = 0; q < s.mx * s.my; ++q) s.element_thickness.push_back(1.0 + 0.1 * (q % 4));
  return s;
}

// ||A x - B x||_inf / (||A||-scale) for a random x.
double relativeDifference(Mat A, Mat B, Vec like) {
  PVec x = duplicate(like), ya = duplicate(like), yb = duplicate(like);
  PetscRandom rnd;
  BEAM_PETSC(PetscRandomCreate(PETSC_COMM_WORLD, &rnd));
  BEAM_PETSC(PetscRandomSetSeed(rnd, 7));
  BEAM_PETSC(PetscRandomSeed(rnd));
  BEAM_PETSC(VecSetRandom(x, rnd));
  BEAM_PETSC(PetscRandomDestroy(&rnd));
  BEAM_PETSC(MatMult(A, x, ya));
  BEAM_PETSC(MatMult(B, x, yb));
  PetscReal scale, diff;
  BEAM_PETSC(VecNorm(ya, NORM_INFINITY, &scale));
  BEAM_PETSC(VecAXPY(yb, -1.0, ya));
  BEAM_PETSC(VecNorm(yb, NORM_INFINITY, &diff));
  return diff / scale;
}

class MatrixFree : public ::testing::TestWithParam<Case> {};

TEST_P(MatrixFree, ProductsEqualAssembled) {
  const Beam beam(spec(GetParam()), PETSC_COMM_WORLD);
  const SecondOrderSystem assembled = beamSystem(beam, OperatorKind::Assembled);
  const SecondOrderSystem shell = beamSystem(beam, OperatorKind::MatrixFree);
  // 8 terms of size |K_e||x| summed per row: round-off well below 1e-13.
  EXPECT_LT(relativeDifference(assembled.mass, shell.mass, assembled.load), 1e-13);
  EXPECT_LT(relativeDifference(assembled.stiffness, shell.stiffness, assembled.load), 1e-13);
  const PMat a = assembled.combination(1.0, 0.0, 0.3), s = shell.combination(1.0, 0.0, 0.3);
  EXPECT_LT(relativeDifference(a, s, assembled.load), 1e-13);
}

TEST_P(MatrixFree, DiagonalEqualsAssembled) {
  const Beam beam(spec(GetParam()), PETSC_COMM_WORLD);
  const SecondOrderSystem assembled = beamSystem(beam, OperatorKind::Assembled);
  const SecondOrderSystem shell = beamSystem(beam, OperatorKind::MatrixFree);
  const PMat a = assembled.combination(1.0, 0.0, 0.25), s = shell.combination(1.0, 0.0, 0.25);
  PVec da = assembled.createVector(), ds = assembled.createVector();
  BEAM_PETSC(MatGetDiagonal(a, da));
  BEAM_PETSC(MatGetDiagonal(s, ds));
  PetscReal scale, diff;
  BEAM_PETSC(VecNorm(da, NORM_INFINITY, &scale));
  BEAM_PETSC(VecAXPY(ds, -1.0, da));
  BEAM_PETSC(VecNorm(ds, NORM_INFINITY, &diff));
  EXPECT_LT(diff / scale, 1e-14);
}

INSTANTIATE_TEST_SUITE_P(ConsistentAndLumped, MatrixFree,
                         ::testing::Values(Case{false, true}, Case{true, true}, Case{false, false}, Case{true, false}));

// Two node rows (mx = 8, my = 1): on 2 ranks each owns one, so the lower rank's only row is the top one
// of its part with the upper rank's row as its ghost (a sixth mutation audit: waiting for that ghost only
// below the row my - 1 passed every other partition).
TEST(MatrixFreeStencil, RankBoundaryBelowTheTopRow) {
  BeamSpec s = spec({false, false});
  s.mx = 8;
  s.my = 1;
  const Beam beam(s, PETSC_COMM_WORLD);
  const SecondOrderSystem assembled = beamSystem(beam, OperatorKind::Assembled);
  const SecondOrderSystem shell = beamSystem(beam, OperatorKind::MatrixFree);
  EXPECT_LT(relativeDifference(assembled.stiffness, shell.stiffness, assembled.load), 1e-13);
  const PMat a = assembled.combination(1.0, 0.0, 0.3), m = shell.combination(1.0, 0.0, 0.3);
  EXPECT_LT(relativeDifference(a, m, assembled.load), 1e-13);
}

TEST(LumpedMass, DiagonalWithTheConsistentRowSums) {
  BeamSpec s = spec({true, false});
  s.thickness = 0.7;
  const Beam beam(s, PETSC_COMM_WORLD);
  const PMat M = beam.mass(false);
  PVec ones = beam.createVector(), row = beam.createVector();
  BEAM_PETSC(VecSet(ones, 1.0));
  BEAM_PETSC(MatMult(M, ones, row));
  PVec diag = beam.createVector();
  BEAM_PETSC(MatGetDiagonal(M, diag));
  BEAM_PETSC(VecAXPY(row, -1.0, diag)); // off-diagonal row sums
  PetscReal off;
  BEAM_PETSC(VecNorm(row, NORM_INFINITY, &off));
  EXPECT_EQ(off, 0.0);
  PetscScalar total;
  BEAM_PETSC(VecSum(diag, &total));
  const double area = s.mx * s.hx * s.my * s.hy;
  // Both directions: 2 rho t area.
  EXPECT_NEAR(PetscRealPart(total), 2 * s.material.rho * s.thickness * area, 1e-12 * area);
}

// The exchange alone: every rank holds every other rank's values as ghosts (an all-gather), 1000 per
// rank so each message goes in three eager pieces of at most 480; three products in a row, each with
// new values, so a piece of one product taking another's place would show.
TEST(GhostExchange, EveryOtherRanksValuesInPieces) {
  int rank = 0, size = 1;
  MPI_Comm_rank(PETSC_COMM_WORLD, &rank);
  MPI_Comm_size(PETSC_COMM_WORLD, &size);
  const PetscInt per_rank = 1000;
  std::vector<PetscInt> ownership;
  for (int q = 0; q <= size; ++q) ownership.push_back(q * per_rank);
  auto others = [&](int q) {
    std::vector<GhostExchange::Range> r;
    if (q > 0) r.push_back({0, q * per_rank});
    if (q + 1 < size) r.push_back({(q + 1) * per_rank, size * per_rank});
    return r;
  };
  GhostExchange exchange(PETSC_COMM_WORLD, ownership, others);
  ASSERT_EQ(exchange.ghostCount(), (size - 1) * per_rank);
  std::vector<double> owned(per_rank);
  for (int product = 0; product < 3; ++product) {
    for (PetscInt i = 0; i < per_rank; ++i) owned[size_t(i)] = 1e6 * product + double(rank * per_rank + i);
    ASSERT_EQ(exchange.begin(owned.data()), 0);
    ASSERT_EQ(exchange.end(), 0);
    PetscInt k = 0, wrong = 0;
    for (const auto &[first, last] : others(rank))
      for (PetscInt g = first; g < last; ++g, ++k) wrong += exchange.ghosts()[k] != 1e6 * product + double(g);
    EXPECT_EQ(wrong, 0) << "product " << product;
  }
}

// Bad layouts, the same on every rank (so every rank throws, before the collective duplicate of the
// communicator): beam::Error, and a good exchange still works afterwards.
TEST(GhostExchange, RefusesBadLayouts) {
  int size = 1;
  MPI_Comm_size(PETSC_COMM_WORLD, &size);
  std::vector<PetscInt> ownership;
  for (int q = 0; q <= size; ++q) ownership.push_back(q * 4);
  const auto none = [](int) { return std::vector<GhostExchange::Range>{}; };
  std::vector<PetscInt> too_long = ownership;
  too_long.push_back(too_long.back() + 4);
  EXPECT_THROW(GhostExchange(PETSC_COMM_WORLD, too_long, none), Error) << "ownership with size + 2 entries";
  const auto own_first = [&](int q) { return std::vector<GhostExchange::Range>{{ownership[size_t(q)], ownership[size_t(q)] + 1}}; };
  EXPECT_THROW(GhostExchange(PETSC_COMM_WORLD, ownership, own_first), Error) << "a ghost range holding owned DOFs";
  GhostExchange fine(PETSC_COMM_WORLD, ownership, none);
  const std::vector<double> owned(4, 1.0);
  EXPECT_EQ(fine.begin(owned.data()), 0);
  EXPECT_EQ(fine.end(), 0);
}

} // namespace
} // namespace beam
