// MesLib assembly: the course fixture, symmetry, rigid-body modes, total mass, the closed-form element
// stiffness, per-element thickness, frozen DOFs, preallocation and loads.
//
// Every test runs unchanged on any number of ranks (registered on 1 and 2): distributed matrices and
// vectors are gathered to every rank (collective), so all ranks check the same global objects; checks
// of rank-local quantities are reduced over PETSC_COMM_WORLD before asserting. No ASSERT_* precedes a
// collective call unless its condition is the same on every rank, so a failure cannot deadlock.
#include <gtest/gtest.h>

#include <Eigen/Dense>

#include <algorithm>
#include <cstdio>
#include <cmath>
#include <fstream>
#include <functional>
#include <limits>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "tests/GridBeam.hpp"
#include "MesLib/Beam.hpp"
#include "MesLib/BeamSystem.hpp"
#include "MesLib/ElementMatrices.hpp"

using namespace beam;

namespace {

constexpr double kEps = std::numeric_limits<double>::epsilon();

// The whole matrix as a dense Eigen matrix on every rank (collective).
Eigen::MatrixXd gather(Mat A) {
  PetscInt m, n;
  BEAM_PETSC(MatGetSize(A, &m, &n));
  PIS rows, cols;
  BEAM_PETSC(ISCreateStride(PETSC_COMM_SELF, m, 0, 1, rows.out()));
  BEAM_PETSC(ISCreateStride(PETSC_COMM_SELF, n, 0, 1, cols.out()));
  IS r = rows, c = cols;
  Mat *sub = nullptr;
  BEAM_PETSC(MatCreateSubMatrices(A, 1, &r, &c, MAT_INITIAL_MATRIX, &sub));
  Eigen::MatrixXd D = Eigen::MatrixXd::Zero(m, n);
  for (PetscInt i = 0; i < m; ++i) {
    PetscInt nc;
    const PetscInt *c;
    const PetscScalar *v;
    BEAM_PETSC(MatGetRow(sub[0], i, &nc, &c, &v));
    for (PetscInt k = 0; k < nc; ++k) D(i, c[k]) = PetscRealPart(v[k]);
    BEAM_PETSC(MatRestoreRow(sub[0], i, &nc, &c, &v));
  }
  BEAM_PETSC(MatDestroySubMatrices(1, &sub));
  return D;
}

// The whole vector on every rank (collective).
std::vector<double> gather(Vec v) {
  PScatter scatter;
  PVec all;
  BEAM_PETSC(VecScatterCreateToAll(v, scatter.out(), all.out()));
  BEAM_PETSC(VecScatterBegin(scatter, v, all, INSERT_VALUES, SCATTER_FORWARD));
  BEAM_PETSC(VecScatterEnd(scatter, v, all, INSERT_VALUES, SCATTER_FORWARD));
  PetscInt n;
  BEAM_PETSC(VecGetSize(all, &n));
  const PetscScalar *a;
  BEAM_PETSC(VecGetArrayRead(all, &a));
  std::vector<double> out(a, a + n);
  BEAM_PETSC(VecRestoreArrayRead(all, &a));
  return out;
}

// A dense whitespace-separated n x n matrix.
Eigen::MatrixXd readDense(const std::string &path, int n) {
  std::ifstream in(path);
  EXPECT_TRUE(in.good()) << "cannot open " << path;
  Eigen::MatrixXd A = Eigen::MatrixXd::Zero(n, n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) in >> A(i, j);
  EXPECT_FALSE(in.fail()) << path << ": fewer than " << n * n << " numbers";
  double extra;
  EXPECT_FALSE(in >> extra) << path << ": more than " << n * n << " numbers";
  return A;
}

long globalSum(long local) {
  long sum = 0;
  MPI_Allreduce(&local, &sum, 1, MPI_LONG, MPI_SUM, PETSC_COMM_WORLD);
  return sum;
}

double maxAbs(const Eigen::MatrixXd &A) { return A.cwiseAbs().maxCoeff(); }

// v(dof) = g(node grid x, node grid y, d) on the owned rows.
template <class G>
PVec nodalVector(const Beam &beam, G g) {
  PVec v = beam.createVector();
  PetscInt lo, hi;
  BEAM_PETSC(VecGetOwnershipRange(v, &lo, &hi));
  for (PetscInt dof = lo; dof < hi; ++dof) {
    const auto [x, y] = beam.mesh().nodeXY(dof / 2);
    BEAM_PETSC(VecSetValue(v, dof, g(x, y, int(dof % 2)), INSERT_VALUES));
  }
  BEAM_PETSC(VecAssemblyBegin(v));
  BEAM_PETSC(VecAssemblyEnd(v));
  return v;
}

// u'Av
double form(Mat A, Vec u, Vec v) {
  PVec w = duplicate(u);
  BEAM_PETSC(MatMult(A, v, w));
  PetscScalar s;
  BEAM_PETSC(VecDot(u, w, &s));
  return PetscRealPart(s);
}

// The course's closed-form unit-square stiffness K (without Md): entry (i, j) is k[kIndex[i][j]].
// The index pattern follows from integrating B'DB for the bilinear shape functions on [0,1]^2 with the
// nodes counter-clockwise from bottom-left; e.g. K(u0,u0) = 1/3 + (1-nu)/6 = 1/2 - nu/6,
// K(u0,v0) = (nu + (1-nu)/2)/4 = 1/8 + nu/8, K(u0,u1) = -1/3 + (1-nu)/12 = -1/4 - nu/12.
const int kIndex[8][8] = {{0, 1, 2, 3, 4, 5, 6, 7}, {1, 0, 7, 6, 5, 4, 3, 2}, {2, 7, 0, 5, 6, 3, 4, 1},
                          {3, 6, 5, 0, 7, 2, 1, 4}, {4, 5, 6, 7, 0, 1, 2, 3}, {5, 4, 3, 2, 1, 0, 7, 6},
                          {6, 3, 4, 1, 2, 7, 0, 5}, {7, 2, 1, 4, 3, 6, 5, 0}};
std::array<double, 8> courseK(double nu) {
  return {0.5 - nu / 6,  0.125 + nu / 8,  -0.25 - nu / 12, -0.125 + 3 * nu / 8,
          -0.25 + nu / 12, -0.125 - nu / 8, nu / 6,          0.125 - 3 * nu / 8};
}

// Dense reference assembly: sum over elements of thickness * element matrix.
Eigen::MatrixXd denseAssembly(const BeamSpec &spec, bool stiffness) {
  const BeamMesh mesh(spec.mx, spec.my, spec.hx, spec.hy);
  const ElementMatrix Ke = stiffness ? q4Stiffness(spec.material, spec.hx, spec.hy, 1.0)
                                     : q4Mass(spec.material, spec.hx, spec.hy, 1.0, spec.mass_scaling);
  Eigen::MatrixXd A = Eigen::MatrixXd::Zero(mesh.dofCount(), mesh.dofCount());
  for (int ey = 0; ey < spec.my; ++ey)
    for (int ex = 0; ex < spec.mx; ++ex) {
      const auto dofs = mesh.elementDofs(ex, ey);
      const double t = spec.elementThickness(mesh.Q(ex, ey));
      for (int i = 0; i < 8; ++i)
        for (int j = 0; j < 8; ++j) A(dofs[size_t(i)], dofs[size_t(j)]) += t * Ke[size_t(8 * i + j)];
    }
  return A;
}

} // namespace

// (a) Course-compatible assembly reproduces the course's 20x5 matrices entry by entry.
TEST(MesLib, MatchesCourseFixture) {
  BeamSpec spec; // 20x5 unit squares, E = 100, nu = 0.3, rho = 1, t = 1
  spec.mass_scaling = MassScaling::Course;
  const Beam beam(spec, PETSC_COMM_WORLD);
  const int n = int(beam.mesh().dofCount());
  ASSERT_EQ(n, 252);
  const std::string dir = std::string(BEAM_TEST_DATA) + "/course-beam-20x5/";
  const Eigen::MatrixXd Sref = readDense(dir + "S.txt", n), Mref = readDense(dir + "M.txt", n);

  const PMat S = beam.stiffness(false), M = beam.mass(false);
  const Eigen::MatrixXd Sd = gather(S), Md = gather(M);

  // S is printed with 10 significant digits: a printed entry differs from the exact one by at most
  // 5e-10 of its own magnitude, far below 1e-8 of the largest entry.
  const double tolS = 1e-8 * maxAbs(Sref);
  long badS = 0, badM = 0;
  std::string firstS, firstM;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      if (std::abs(Sd(i, j) - Sref(i, j)) > tolS && badS++ == 0)
        firstS = "S(" + std::to_string(i) + "," + std::to_string(j) + ") = " + std::to_string(Sd(i, j)) +
                 ", course " + std::to_string(Sref(i, j));
      // Course mass entries are sums of the integers 4, 2, 1: exact in floating point.
      if (Md(i, j) != Mref(i, j) && badM++ == 0)
        firstM = "M(" + std::to_string(i) + "," + std::to_string(j) + ") = " + std::to_string(Md(i, j)) +
                 ", course " + std::to_string(Mref(i, j));
    }
  EXPECT_EQ(badS, 0) << "first mismatch: " << firstS;
  EXPECT_EQ(badM, 0) << "first mismatch: " << firstM;
  // Sanity of the fixture itself: it is not trivially zero.
  EXPECT_GT(maxAbs(Sref), 10.0);
  EXPECT_EQ(Mref(0, 0), 4.0);
}

// (b) S and M are symmetric to round-off. MatIsSymmetric trusts the MAT_SYMMETRIC flag the assembly
// sets, so the check compares A with its explicit transpose.
TEST(MesLib, MatricesAreSymmetric) {
  BeamSpec spec;
  spec.mx = 7;
  spec.my = 4;
  spec.hx = 0.5;
  spec.hy = 2;
  spec.material.nu = 0.27;
  for (bool frozen : {false, true}) {
    const Beam beam(spec, PETSC_COMM_WORLD);
    for (bool stiff : {true, false}) {
      const PMat A = stiff ? beam.stiffness(frozen) : beam.mass(frozen);
      PMat At;
      BEAM_PETSC(MatTranspose(A, MAT_INITIAL_MATRIX, At.out()));
      PetscReal norm, diff;
      BEAM_PETSC(MatNorm(A, NORM_FROBENIUS, &norm));
      BEAM_PETSC(MatAXPY(At, -1.0, A, DIFFERENT_NONZERO_PATTERN));
      BEAM_PETSC(MatNorm(At, NORM_FROBENIUS, &diff));
      EXPECT_LE(diff, 1e-13 * norm) << (stiff ? "S" : "M") << (frozen ? " (frozen)" : "");
      // The same on the gathered matrix, entry by entry.
      const Eigen::MatrixXd D = gather(A);
      EXPECT_LE(maxAbs(D - D.transpose()), 1e-13 * maxAbs(D));
    }
  }
}

// (c) The free stiffness has exactly the three rigid-body modes as its null space.
TEST(MesLib, StiffnessHasThreeRigidBodyModes) {
  BeamSpec spec;
  spec.mx = 6;
  spec.my = 3;
  spec.hx = 0.5;
  spec.hy = 2;
  const Beam beam(spec, PETSC_COMM_WORLD);
  const PMat S = beam.stiffness(false);
  const double hx = spec.hx, hy = spec.hy;
  PVec tx = nodalVector(beam, [](int, int, int d) { return d == 0 ? 1.0 : 0.0; });
  PVec ty = nodalVector(beam, [](int, int, int d) { return d == 1 ? 1.0 : 0.0; });
  PVec r = nodalVector(beam, [&](int x, int y, int d) { return d == 0 ? -y * hy : x * hx; });
  PetscReal Snorm;
  BEAM_PETSC(MatNorm(S, NORM_INFINITY, &Snorm));
  const char *names[] = {"t_x", "t_y", "r"};
  int k = 0;
  for (Vec v : {tx.get(), ty.get(), r.get()}) {
    PVec Sv = duplicate(v);
    BEAM_PETSC(MatMult(S, v, Sv));
    PetscReal res, vn;
    BEAM_PETSC(VecNorm(Sv, NORM_INFINITY, &res));
    BEAM_PETSC(VecNorm(v, NORM_INFINITY, &vn));
    // Round-off of a row sum of ~18 terms with entries carrying a few ulps from the quadrature:
    // |S v|_inf <= c eps |S|_inf |v|_inf with c well below 1e-12 / eps.
    EXPECT_LE(res, 1e-12 * Snorm * vn) << "S * " << names[k];
    ++k;
  }

  // Spectrum: three zero eigenvalues (round-off, |lambda| <= n eps |S|), the fourth clearly positive.
  const Eigen::MatrixXd D = gather(S);
  Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(D, Eigen::EigenvaluesOnly);
  ASSERT_EQ(eig.info(), Eigen::Success);
  const Eigen::VectorXd lam = eig.eigenvalues(); // ascending
  const double lmax = lam(lam.size() - 1);
  for (int i = 0; i < 3; ++i) EXPECT_LE(std::abs(lam(i)), 1e-12 * lmax) << "eigenvalue " << i;
  EXPECT_GT(lam(3), 1e-6 * lmax) << "a fourth (mechanism) zero mode";
}

// (d) Consistent mass: u'Mu with u a unit translation is the total mass rho * t * area, per direction.
TEST(MesLib, ConsistentMassSumsToTotalMass) {
  BeamSpec spec;
  spec.mx = 4;
  spec.my = 3;
  spec.hx = 0.5;
  spec.hy = 2;
  spec.material.rho = 2.5;
  spec.thickness = 0.3;
  const Beam beam(spec, PETSC_COMM_WORLD);
  const double total = spec.material.rho * spec.thickness * (spec.mx * spec.hx) * (spec.my * spec.hy);
  const PMat M = beam.mass(false);
  PVec ex = nodalVector(beam, [](int, int, int d) { return d == 0 ? 1.0 : 0.0; });
  PVec ey = nodalVector(beam, [](int, int, int d) { return d == 1 ? 1.0 : 0.0; });
  // A sum of positive terms: relative round-off at most (number of terms) * eps.
  EXPECT_NEAR(form(M, ex, ex), total, 1e-12 * total);
  EXPECT_NEAR(form(M, ey, ey), total, 1e-12 * total);
  EXPECT_EQ(form(M, ex, ey), 0.0); // no x-y coupling in the mass: every product is an exact zero

  // The course scaling omits the 1/36 of the consistent mass.
  spec.mass_scaling = MassScaling::Course;
  const Beam course(spec, PETSC_COMM_WORLD);
  const PMat Mc = course.mass(false);
  EXPECT_NEAR(form(Mc, ex, ex), 36 * total, 36e-12 * total);
}

// (e) Element stiffness of a unit square is Md * K with the course's closed-form entries.
TEST(MesLib, UnitSquareElementMatchesCourseClosedForm) {
  for (double nu : {0.3, 0.0, 0.45}) {
    Material mat;
    mat.E = 100;
    mat.nu = nu;
    const double Md = mat.E / (1 - nu * nu);
    const auto k = courseK(nu);
    const ElementMatrix K = q4Stiffness(mat, 1, 1, 1);
    double kmax = 0;
    for (double v : K) kmax = std::max(kmax, std::abs(v));
    // 2x2 Gauss quadrature is exact for the bilinear element on a rectangle: only round-off remains.
    const double tol = 1e-13 * kmax;
    for (int j = 0; j < 8; ++j) EXPECT_NEAR(K[size_t(j)], Md * k[size_t(j)], tol) << "row 0, col " << j;
    for (int i = 0; i < 8; ++i) EXPECT_NEAR(K[size_t(9 * i)], Md * k[0], tol) << "diagonal " << i;
    for (int i = 0; i < 8; ++i)
      for (int j = 0; j < 8; ++j)
        EXPECT_NEAR(K[size_t(8 * i + j)], Md * k[size_t(kIndex[i][j])], tol) << "nu " << nu << " (" << i << "," << j << ")";
  }
  // Thickness is a plain factor.
  Material mat;
  const ElementMatrix K1 = q4Stiffness(mat, 0.5, 2, 1), K3 = q4Stiffness(mat, 0.5, 2, 3);
  for (size_t i = 0; i < 64; ++i) EXPECT_NEAR(K3[i], 3 * K1[i], 1e-13 * 3 * std::abs(K1[0]));
}

// (f) Per-element thickness scales each element's contribution to S and M.
TEST(MesLib, PerElementThicknessScalesContribution) {
  BeamSpec spec;
  spec.mx = 3;
  spec.my = 2;
  spec.hx = 0.5;
  spec.hy = 2;
  spec.material.rho = 1.7;
  spec.thickness = 99; // overridden by the per-element values
  for (int q = 0; q < spec.mx * spec.my; ++q) spec.element_thickness.push_back(0.5 + 0.25 * q);
  const Beam beam(spec, PETSC_COMM_WORLD);
  for (bool stiff : {true, false}) {
    const PMat A = stiff ? beam.stiffness(false) : beam.mass(false);
    const Eigen::MatrixXd D = gather(A), R = denseAssembly(spec, stiff);
    // Same sums in possibly another order: round-off only.
    EXPECT_LE(maxAbs(D - R), 1e-13 * maxAbs(R)) << (stiff ? "S" : "M");
  }
  // Total mass with varying thickness: sum over elements of rho * t_q * hx * hy.
  double total = 0;
  for (double t : spec.element_thickness) total += spec.material.rho * t * spec.hx * spec.hy;
  const PMat M = beam.mass(false);
  PVec ex = nodalVector(beam, [](int, int, int d) { return d == 0 ? 1.0 : 0.0; });
  EXPECT_NEAR(form(M, ex, ex), total, 1e-12 * total);

  // Changing one element's thickness changes S only inside that element's 8x8 block, by (t' - t) Ke.
  BeamSpec one = spec;
  one.element_thickness[4] *= 3; // element (1, 1)
  const Beam beam1(one, PETSC_COMM_WORLD);
  const PMat S0 = beam.stiffness(false), S1 = beam1.stiffness(false);
  const Eigen::MatrixXd diff = gather(S1) - gather(S0);
  const auto dofs = beam.mesh().elementDofs(1, 1);
  const ElementMatrix Ke = q4Stiffness(spec.material, spec.hx, spec.hy, 1.0);
  const double dt = one.element_thickness[4] - spec.element_thickness[4];
  Eigen::MatrixXd expected = Eigen::MatrixXd::Zero(diff.rows(), diff.cols());
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 8; ++j) expected(dofs[size_t(i)], dofs[size_t(j)]) = dt * Ke[size_t(8 * i + j)];
  EXPECT_LE(maxAbs(diff - expected), 1e-13 * maxAbs(gather(S1)));
}

// (g) Frozen DOFs: identity rows and columns in S and M, zero load; everything else untouched.
TEST(MesLib, FrozenDofsAreIdentityAndUnloaded) {
  BeamSpec spec;
  spec.mx = 4;
  spec.my = 3;
  spec.hx = 0.7;
  spec.hy = 1.3;
  spec.supports = Supports::ClampedLeft;
  spec.point_loads = {{0, 1, 2.0, 1.0}, {4, 0, 0.0, -0.1}, {2, 3, 0.5, 0.0}}; // the first on a frozen node
  const Beam beam(spec, PETSC_COMM_WORLD);
  const BeamMesh &mesh = beam.mesh();

  std::vector<PetscInt> expectedFrozen;
  for (int y = 0; y <= spec.my; ++y)
    for (int d = 0; d < 2; ++d) expectedFrozen.push_back(mesh.P(0, y, d));
  std::sort(expectedFrozen.begin(), expectedFrozen.end());
  EXPECT_EQ(beam.frozenDofs(), expectedFrozen);
  const std::set<PetscInt> frozen(expectedFrozen.begin(), expectedFrozen.end());
  EXPECT_EQ(globalSum(long(beam.ownedFrozenDofs().size())), long(frozen.size()));

  for (bool stiff : {true, false}) {
    const PMat A = stiff ? beam.stiffness(true) : beam.mass(true);
    const PMat R = stiff ? beam.stiffness(false) : beam.mass(false);
    const Eigen::MatrixXd D = gather(A), Raw = gather(R);
    long bad = 0;
    const int n = int(D.rows());
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) {
        const bool f = frozen.count(i) || frozen.count(j);
        const double want = f ? (i == j ? 1.0 : 0.0) : Raw(i, j);
        if (D(i, j) != want) ++bad; // exact: identity entries and untouched copies
      }
    EXPECT_EQ(bad, 0) << (stiff ? "S" : "M");
  }

  const std::vector<double> f = gather(beam.load().get());
  for (PetscInt d : expectedFrozen) EXPECT_EQ(f[size_t(d)], 0.0) << "load at frozen DOF " << d;
  EXPECT_EQ(f[size_t(mesh.P(4, 0, 1))], -0.1);
  EXPECT_EQ(f[size_t(mesh.P(2, 3, 0))], 0.5);
  double rest = 0;
  for (size_t i = 0; i < f.size(); ++i)
    if (PetscInt(i) != mesh.P(4, 0, 1) && PetscInt(i) != mesh.P(2, 3, 0)) rest += std::abs(f[i]);
  EXPECT_EQ(rest, 0.0);
}

// (h) Exact preallocation: assembly performs no mallocs (on every rank) and leaves no unused slots.
TEST(MesLib, AssemblyDoesNotMalloc) {
  BeamSpec spec;
  spec.mx = 9;
  spec.my = 4;
  for (bool stiff : {true, false})
    for (bool frozen : {false, true}) {
      const Beam beam(spec, PETSC_COMM_WORLD);
      const PMat A = stiff ? beam.stiffness(frozen) : beam.mass(frozen);
      MatInfo info;
      BEAM_PETSC(MatGetInfo(A, MAT_LOCAL, &info));
      EXPECT_EQ(globalSum(long(info.mallocs)), 0) << (stiff ? "S" : "M") << (frozen ? " frozen" : "");
      EXPECT_EQ(globalSum(long(info.nz_unneeded)), 0) << (stiff ? "S" : "M") << (frozen ? " frozen" : "");
      // Each row couples with the 3x3 node block around its node: 18 columns for an interior node.
      MatInfo g;
      BEAM_PETSC(MatGetInfo(A, MAT_GLOBAL_SUM, &g));
      const long nx = spec.mx + 1, ny = spec.my + 1;
      // Sum over nodes of 2 DOFs x 2 * (neighbours in x) * (neighbours in y), neighbours counted with self.
      const long perAxisX = 3 * nx - 2, perAxisY = 3 * ny - 2;
      EXPECT_EQ(long(g.nz_used), 4 * perAxisX * perAxisY);
    }
}

// (i) Loads: the default point load, and a uniform top load's total force.
// The stress drawn for ParaView is the element's centre value: u_x = a X Y on an hx x hy element gives
// eps_xx = a Y and gamma_xy = a X, at the centre a hy/2 and a hx/2, so sigma_xx = E/(1-nu^2) a hy/2,
// sigma_yy = nu sigma_xx, sigma_xy = E/(2(1+nu)) a hx/2 (a corner's value passed every test until a
// mutation audit on 2026-11-28). Round-off of a few products: 1e-13.
TEST(MesLib, CentreStressOfABilinearField) {
  Material m;
  m.E = 200;
  m.nu = 0.25;
  const double hx = 2, hy = 0.5, a = 1e-3;
  const double ue[8] = {0, 0, 0, 0, a * hx * hy, 0, 0, 0}; // only the top-right node moves: X Y = hx hy
  const auto s = q4CentreStress(m, hx, hy, ue);
  const double sxx = m.E / (1 - m.nu * m.nu) * a * hy / 2, sxy = m.E / (2 * (1 + m.nu)) * a * hx / 2;
  EXPECT_NEAR(s[0], sxx, 1e-13 * sxx);
  EXPECT_NEAR(s[1], m.nu * sxx, 1e-13 * sxx);
  EXPECT_NEAR(s[2], sxy, 1e-13 * sxy);
}

// A point load on a node above the top edge is refused as outside the beam (one past the last row of
// nodes was dropped silently by a mutant: the beam ran unloaded, exit 0).
TEST(MesLib, PointLoadAboveTheTopIsRefused) {
  BeamSpec spec;
  spec.mx = 4;
  spec.my = 2;
  spec.point_loads = {{1, 3, 0, -1}};
  try {
    spec.validate();
    ADD_FAILURE() << "accepted a load at node (1, 3) of a 4 x 2 beam";
  } catch (const Error &e) {
    EXPECT_NE(std::string(e.what()).find("outside the beam"), std::string::npos) << e.what();
  }
}

TEST(MesLib, DefaultAndTopLoads) {
  {
    const BeamSpec spec; // 20x5, clamped left, no loads given
    const Beam beam(spec, PETSC_COMM_WORLD);
    const std::vector<double> f = gather(beam.load().get());
    const PetscInt at = beam.mesh().P(spec.mx, 0, 1);
    for (size_t i = 0; i < f.size(); ++i) EXPECT_EQ(f[i], PetscInt(i) == at ? -0.1 : 0.0) << "DOF " << i;
  }
  {
    // Simply supported: no top node is frozen, so the whole top load reaches the beam.
    BeamSpec spec;
    spec.mx = 5;
    spec.my = 2;
    spec.hx = 0.7;
    spec.supports = Supports::SimplySupported;
    spec.top_load = -0.3;
    const Beam beam(spec, PETSC_COMM_WORLD);
    const std::vector<double> f = gather(beam.load().get());
    double fy = 0, fx = 0;
    for (size_t i = 0; i < f.size(); ++i) (i % 2 ? fy : fx) += f[i];
    const double q = spec.top_load, hx = spec.hx;
    EXPECT_NEAR(fy, q * spec.mx * hx, 1e-14 * std::abs(q * spec.mx * hx));
    EXPECT_EQ(fx, 0.0);
    // Consistent nodal forces of a uniform edge load: half an edge at the ends, a full edge inside.
    const BeamMesh &mesh = beam.mesh();
    for (int x = 0; x <= spec.mx; ++x) {
      const double want = (x == 0 || x == spec.mx ? 0.5 : 1.0) * q * hx;
      EXPECT_NEAR(f[size_t(mesh.P(x, spec.my, 1))], want, 1e-15 * std::abs(want)) << "top node " << x;
    }
    // Nothing anywhere else (in particular no default point load once a top load is given).
    double rest = 0;
    for (int y = 0; y < spec.my; ++y)
      for (int x = 0; x <= spec.mx; ++x) rest += std::abs(f[size_t(mesh.P(x, y, 1))]);
    EXPECT_EQ(rest, 0.0);
  }
  {
    // Clamped left: the top-left node is frozen, so its half-edge share is zeroed.
    BeamSpec spec;
    spec.mx = 5;
    spec.my = 2;
    spec.hx = 0.7;
    spec.top_load = -0.3;
    const Beam beam(spec, PETSC_COMM_WORLD);
    const std::vector<double> f = gather(beam.load().get());
    double fy = 0;
    for (size_t i = 1; i < f.size(); i += 2) fy += f[i];
    const double want = spec.top_load * (spec.mx - 0.5) * spec.hx;
    EXPECT_NEAR(fy, want, 1e-14 * std::abs(want));
  }
}

namespace {
// The memory check's refusal of a run: its message ("" when the run goes on), exit code 2 asserted.
std::string refusal(const std::function<void()> &check) {
  try {
    check();
  } catch (const Error &e) {
    EXPECT_EQ(e.exitCode(), kExitBadInput);
    return e.what();
  }
  return "";
}
// The beam both memory tests check (its estimate is what matters, not its size).
BeamSpec checkedBeam() { return gridBeam(200, 10); }
} // namespace

// The memory check's verdict is the same on every rank: each node's first rank reads what the node has
// available, so two reads that differ near the limit cannot refuse one rank alone (which would leave
// the others waiting in the setup's collectives). Here every rank is on one node, rank 0 its first.
TEST(MemoryCheck, RanksAgreeOnTheVerdict) {
  int rank = 0;
  MPI_Comm_rank(PETSC_COMM_WORLD, &rank);
  const BeamSpec spec = checkedBeam();
  RunNeeds needs;
  needs.kind = OperatorKind::MatrixFree;
  const unsigned long long need = estimatedRunBytes(spec, needs);
  auto check = [&](const std::function<unsigned long long()> &available) {
    return refusal([&] { checkMemory(PETSC_COMM_WORLD, spec, needs, nullptr, false, available); });
  };
  // Rank 0 reads enough, the others (never asked) would say too little: every rank goes on.
  EXPECT_EQ(check([&] { return rank == 0 ? need + 1 : need / 2; }), "");
  // Rank 0 reads too little: every rank refuses with the estimate.
  EXPECT_NE(check([&] { return rank == 0 ? need - 1 : 2 * need; }).find("this machine has"), std::string::npos)
      << "rank " << rank << " went on";
  // Unknown (no MemAvailable): no refusal.
  EXPECT_EQ(check([] { return 0ULL; }), "");
}

// A time loop's checkpoint gathers each state vector whole on rank 0 (on several ranks only), so the
// node of rank 0 needs that on top of its share: a run that fits until its final checkpoint would
// otherwise die writing it. Here every rank is on one node.
TEST(MemoryCheck, RankZerosNodeAlsoHoldsTheCheckpointGather) {
  int size = 1;
  MPI_Comm_size(PETSC_COMM_WORLD, &size);
  const BeamSpec spec = checkedBeam();
  const RunNeeds needs; // assembled, CG
  const unsigned long long need = estimatedRunBytes(spec, needs);
  const unsigned long long gather = checkpointGatherBytes(spec);
  EXPECT_EQ(gather, 24ULL * 2 * 201 * 11); // 24 bytes per DOF
  const unsigned long long fits = size > 1 ? need + gather : need;
  auto check = [&](unsigned long long available, bool checkpoints) {
    return refusal([&] {
      checkMemory(PETSC_COMM_WORLD, spec, needs, nullptr, checkpoints, [=] { return available; });
    });
  };
  EXPECT_EQ(check(fits, true), "");
  EXPECT_EQ(check(need, false), ""); // no time loop: no gather
  // One byte short: refused, and the message's total includes the gather (once, on rank 0's node).
  char total[32];
  std::snprintf(total, sizeof total, "needs about %.1f GiB", double(fits) / (1 << 30));
  EXPECT_NE(check(fits - 1, true).find(total), std::string::npos) << "went on or said another total on " << size << " ranks";
}
