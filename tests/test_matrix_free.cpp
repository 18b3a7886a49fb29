// The matrix-free beam operator against the assembled matrices: same products and diagonal to
// round-off, frozen DOFs handled identically, and the lumped mass a row-sum diagonal with the right
// total. Runs on 1, 2 and 5 ranks: on 5 the 4 node rows split inside rows, so a rank's ghosts come from
// several ranks (MesLib/GhostExchange.hpp), and with one thickness the product is the node stencil where
// ranks own whole node rows.
#include <gtest/gtest.h>

#include <cmath>

#include "MesLib/BeamSystem.hpp"
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

} // namespace
} // namespace beam
