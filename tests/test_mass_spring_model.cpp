// The mass-spring model (MassSpring/): forces, energies and dissipation on small configurations
// against hand values, contact with and without -contact_no_pull, the exact Jacobian against central
// finite differences, exact preallocation, the beam lattice against the continuum it stands for, the
// drawing, and the same numbers on 1 and 2 ranks (run under mpiexec -n 2 too).
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "MassSpring/BuiltinModels.hpp"
#include "MassSpring/MassSpringModel.hpp"
#include "NetworkHelpers.hpp"
#include "MassSpring/Physics.hpp"

using namespace beam;
using namespace beam::testing_helpers;

namespace {

// Every entry of a distributed vector, on every rank.
// Sets a distributed vector from the full list of values (every rank holds them all).
void setValues(Vec v, const std::vector<double> &values) {
  PetscInt lo = 0, hi = 0;
  BEAM_PETSC(VecGetOwnershipRange(v, &lo, &hi));
  PetscScalar *a = nullptr;
  BEAM_PETSC(VecGetArray(v, &a));
  for (PetscInt i = lo; i < hi; ++i) a[i - lo] = values[size_t(i)];
  BEAM_PETSC(VecRestoreArray(v, &a));
}

// A random direction w for the network's coordinates: |w_i| <= 1, zero on fixed particles (they never move).
void randomDirection(const Network &net, unsigned seed, Vec w) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<double> wv(3 * net.particles.size());
  for (size_t k = 0; k < wv.size(); ++k) wv[k] = net.particles[k / 3].fixed ? 0.0 : u(gen);
  setValues(w, wv);
}

struct Evaluated {
  std::vector<double> force, energy;
  double dissipation;
};

Evaluated evaluate(Network net, MPI_Comm comm) {
  net.validate();
  MassSpringModel model(net, comm);
  PVec x = model.createVector(), v = model.createVector(), F = model.createVector();
  model.initialState(x, v);
  model.force(0, x, v, F);
  Evaluated e;
  e.force = allValues(F);
  model.storedEnergy(0, x, v, e.energy);
  e.dissipation = model.dissipationRate(0, x, v);
  return e;
}

// A cloth with dashpots, a fixed corner pair, touching a tilted plane, with random velocities and a
// random displacement: every term of the force at work.
Network testCloth(int n, unsigned seed) {
  auto params = builtinParameters("cloth");
  for (auto &p : params) {
    if (p.name == "cloth_nx" || p.name == "cloth_ny") p.value = n;
    if (p.name == "damping") p.value = 0.3;
  }
  Network net = builtinNetwork("cloth", params);
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  for (auto &q : net.particles) {
    if (q.fixed) continue;
    for (int d = 0; d < 3; ++d) {
      q.x[size_t(d)] += 0.05 * u(gen);
      q.v[size_t(d)] = u(gen);
    }
  }
  for (auto &s : net.springs) s.rest_length = 1.1 / (n - 1); // every spring stretched or compressed
  net.planes = {Plane{{0, 0, 0.01}, {0.1, 0.2, 1}}};
  net.contact.stiffness = 500;
  net.contact.damping = 3;
  return net;
}

} // namespace

TEST(MassSpringForces, OneSpringByHand) {
  // A = (0,0,0), B = (3,4,0): l = 5, u = (0.6, 0.8, 0); l0 = 4, k = 2: tension 2.
  // Dashpot c = 0.5 with v_B - v_A = (1, 2, 0): (w . u) = 2.2, force 1.1 more along u.
  Network net;
  net.particles = {particle({0, 0, 0}, 2, {0, 0, 0}), particle({3, 4, 0}, 3, {1, 2, 0})};
  net.springs = {spring(0, 1, 2, 4, 0.5)};
  net.gravity = {0, 0, -10};
  for (MPI_Comm comm : {PETSC_COMM_SELF, PETSC_COMM_WORLD}) {
    const Evaluated e = evaluate(net, comm);
    const double t = 2 * 1 + 0.5 * 2.2;
    const std::vector<double> expected = {t * 0.6, t * 0.8, -20, -t * 0.6, -t * 0.8, -30};
    for (size_t k = 0; k < 6; ++k) EXPECT_NEAR(e.force[k], expected[k], 1e-14) << k;
    EXPECT_NEAR(e.energy[0], 0.5 * 3 * 5, 1e-14);          // kinetic: |v_B|^2 = 5
    EXPECT_NEAR(e.energy[1], 0.0, 1e-14);                   // both at z = 0
    EXPECT_NEAR(e.energy[2], 0.5 * 2 * 1 * 1, 1e-14);       // elastic
    EXPECT_NEAR(e.energy[3], 0.0, 1e-14);                   // no plane
    EXPECT_NEAR(e.dissipation, 0.5 * 2.2 * 2.2, 1e-14);
  }
}

TEST(MassSpringForces, DefaultRestLengthIsTheInitialDistanceAndFixedParticlesFeelNothing) {
  Network net;
  net.particles = {particle({0, 0, 1}, 1, {0, 0, 0}, true), particle({0, 0, 0}, 0.5)};
  net.springs = {spring(0, 1, 100)};
  net.validate();
  EXPECT_DOUBLE_EQ(net.springs[0].rest_length, 1.0);
  const Evaluated e = evaluate(net, PETSC_COMM_SELF);
  for (size_t k = 0; k < 3; ++k) EXPECT_EQ(e.force[k], 0.0); // fixed: no gravity, no spring force
  EXPECT_NEAR(e.force[5], -0.5 * 9.81, 1e-14);               // the free one: gravity only (spring at rest)
  EXPECT_NEAR(e.energy[1], 0.0, 1e-14);                      // gravity energy -m g . x of free particles, z = 0
}

// A dashpot dissipates c (du/dt . e)^2 whether the spring lengthens or shortens: two particles closing
// at relative speed 1 with c = 2 dissipate exactly 2 (a sign slip made it -2 while shortening).
TEST(MassSpringForces, DashpotDissipatesWhenCompressing) {
  Network net;
  net.particles.resize(2);
  net.particles[0].x = {0, 0, 0};
  net.particles[0].v = {0.5, 0, 0};
  net.particles[1].x = {1, 0, 0};
  net.particles[1].v = {-0.5, 0, 0};
  Spring s;
  s.i = 0;
  s.j = 1;
  s.stiffness = 100;
  s.rest_length = 1;
  s.damping = 2;
  net.springs = {s};
  net.gravity = {0, 0, 0};
  net.validate();
  const MassSpringModel model(net, PETSC_COMM_SELF);
  PVec x = model.createVector(), v = model.createVector();
  model.initialState(x, v);
  EXPECT_DOUBLE_EQ(model.dissipationRate(0, x, v), 2.0);
}

// The energy offset (gravity's potential, left out of the drift scale) is -m g . x of the free
// particles only: a spring with a fixed end adds nothing to it (a pre-stretched one did, by mutation).
TEST(MassSpringEnergy, OffsetIsGravityOfTheFreeParticles) {
  Network net;
  net.particles.resize(2);
  net.particles[0].x = {0, 0, 0};
  net.particles[0].fixed = true;
  net.particles[1].x = {0, 0, -1};
  net.particles[1].mass = 2;
  Spring s;
  s.i = 0;
  s.j = 1;
  s.stiffness = 10;
  s.rest_length = 0.5;
  net.springs = {s};
  net.validate();
  const MassSpringModel model(net, PETSC_COMM_SELF);
  PVec x = model.createVector(), v = model.createVector();
  model.initialState(x, v);
  EXPECT_NEAR(model.offsetEnergy(0, x, v), -2 * 9.81, 1e-13);
}

TEST(MassSpringContact, PenaltyDampingAndNoPull) {
  // s = -0.01, k_c = 1000, b_c = 10.
  const Plane plane{{0, 0, 0}, {0, 0, 1}};
  const ContactLaw law{1000, 10, 0, false}, clamp{1000, 10, 0, true};
  const ContactEval in = evalContact(plane, law, {0, 0, -0.01}, {0, 0, -2}); // moving in
  EXPECT_NEAR(in.normal_force, 10 + 20, 1e-12);
  EXPECT_NEAR(in.energy, 0.5 * 1000 * 1e-4, 1e-15);
  EXPECT_NEAR(in.power, 10 * 4, 1e-12); // b_c (v . n)^2
  const ContactEval out = evalContact(plane, law, {0, 0, -0.01}, {0, 0, 2}); // leaving fast
  EXPECT_NEAR(out.normal_force, 10 - 20, 1e-12); // the damper pulls
  EXPECT_TRUE(out.pushing);
  const ContactEval clamped = evalContact(plane, clamp, {0, 0, -0.01}, {0, 0, 2});
  EXPECT_EQ(clamped.normal_force, 0.0);
  EXPECT_FALSE(clamped.pushing);
  EXPECT_NEAR(clamped.power, -1000 * -0.01 * 2, 1e-12); // the spring energy released is lost: -(k_c s) v.n
  const ContactEval free = evalContact(plane, law, {0, 0, 0.01}, {0, 0, -2});
  EXPECT_FALSE(free.touching);
  EXPECT_EQ(free.normal_force, 0.0);

  // A damping depth delta = 0.04: at s = -0.01, t = 1/4, r = t^2 (3 - 2t) = 5/32.
  const ContactLaw ramp{1000, 10, 0.04, false};
  const ContactEval shallow = evalContact(plane, ramp, {0, 0, -0.01}, {0, 0, -2});
  EXPECT_NEAR(shallow.normal_force, 10 + 10 * (5.0 / 32) * 2, 1e-12);
  EXPECT_NEAR(shallow.power, 10 * (5.0 / 32) * 4, 1e-12);
  EXPECT_NEAR(shallow.normal_damping, 10 * 5.0 / 32, 1e-14);
  EXPECT_NEAR(shallow.normal_stiffness, 1000 + 10 * 2 * 6 * 0.25 * 0.75 / 0.04, 1e-9); // k_c - b_c vn r'(t) / delta
  const ContactEval deep = evalContact(plane, ramp, {0, 0, -0.05}, {0, 0, -2}); // beyond delta: the report's law
  EXPECT_NEAR(deep.normal_force, 50 + 20, 1e-12);
  EXPECT_NEAR(deep.normal_stiffness, 1000, 1e-12);
  EXPECT_NEAR(deep.normal_damping, 10, 1e-14);
  // Continuous at touchdown (the report's law jumps by b_c |v.n| = 20 there) and at -s = delta.
  EXPECT_NEAR(evalContact(plane, ramp, {0, 0, -1e-12}, {0, 0, -2}).normal_force, 0, 1e-8);
  EXPECT_NEAR(evalContact(plane, law, {0, 0, -1e-12}, {0, 0, -2}).normal_force, 20, 1e-8);
  const double edge = evalContact(plane, ramp, {0, 0, -0.04 + 1e-12}, {0, 0, -2}).normal_force;
  EXPECT_NEAR(edge, evalContact(plane, ramp, {0, 0, -0.04 - 1e-12}, {0, 0, -2}).normal_force, 1e-8);
  EXPECT_NEAR(edge, 40 + 20, 1e-8);

  // In the model: a particle under a tilted plane gets its force along the unit normal.
  Network net;
  net.particles = {particle({0, 0, -0.03}, 2, {0, 0, -1})};
  net.gravity = {0, 0, 0};
  net.planes = {Plane{{0, 0, 0}, {0, 3, 4}}}; // normalized to (0, 0.6, 0.8)
  net.contact.stiffness = 100;
  net.contact.damping = 5;
  const Evaluated e = evaluate(net, PETSC_COMM_SELF);
  const double s = -0.03 * 0.8, vn = -0.8, fn = -100 * s - 5 * vn;
  EXPECT_NEAR(e.force[1], fn * 0.6, 1e-13);
  EXPECT_NEAR(e.force[2], fn * 0.8, 1e-13);
  EXPECT_NEAR(e.energy[3], 0.5 * 100 * s * s, 1e-15);
  EXPECT_NEAR(e.dissipation, 5 * vn * vn, 1e-13);
}

namespace {

// The shifted Jacobian a M - b dF/dv - c dF/dx of `net` along a random direction against central
// differences of the forces.
void expectJacobianMatchesCentralDifferences(Network net) {
  net.validate();
  MassSpringModel model(net, PETSC_COMM_WORLD);
  PVec x = model.createVector(), v = model.createVector(), w = model.createVector();
  model.initialState(x, v);
  randomDirection(net, 3, w);

  const double a = 1.3, b = 0.02, c = 4e-4;
  PMat J = model.createJacobian();
  model.shiftedJacobian(0, x, v, a, b, c, J);
  PVec Jw = model.createVector();
  BEAM_PETSC(MatMult(J, w, Jw));

  // Central differences: J w ~ a M w - b (F(x, v + e w) - F(x, v - e w)) / 2e - c (F(x + e w, v) - ...) / 2e.
  const double eps = 1e-5;
  auto F = [&](double ex, double ev) {
    PVec xp = model.createVector(), vp = model.createVector(), Fp = model.createVector();
    BEAM_PETSC(VecWAXPY(xp, ex, w, x));
    BEAM_PETSC(VecWAXPY(vp, ev, w, v));
    model.force(0, xp, vp, Fp);
    return allValues(Fp);
  };
  const auto Fxp = F(eps, 0), Fxm = F(-eps, 0), Fvp = F(0, eps), Fvm = F(0, -eps), F0 = F(0, 0);
  PVec Mw = model.createVector();
  model.massMult(x, w, Mw);
  const auto mw = allValues(Mw), jw = allValues(Jw);
  // Truncation of a central difference: e^2/6 |F'''| |w|^3; F''' of a spring ~ 15 k / l^2 (|w| <= 1,
  // each particle has <= 12 springs, and relative velocities enter the dashpot terms); round-off
  // ~ 2 u |F| / e. The contact force is linear (no particle sits within e of its switch), or inside a
  // damping depth cubic in s (truncation e^2/6 12 b_c |v.n| / delta^3, 5e-9 at delta = 0.5: negligible).
  double fmax = 0;
  for (double f : F0) fmax = std::max(fmax, std::fabs(f));
  const double k = 1000, l = 0.2 * 0.8;
  const double trunc = eps * eps / 6 * 12 * 15 * k / (l * l), roundoff = 2 * 2.2e-16 * fmax / eps;
  const double tol_x = c * (trunc + roundoff), tol_v = b * roundoff + b * eps * eps * 12 * 0.3 * 10;
  for (size_t q = 0; q < jw.size(); ++q) {
    const double fd = a * mw[q] - b * (Fvp[q] - Fvm[q]) / (2 * eps) - c * (Fxp[q] - Fxm[q]) / (2 * eps);
    if (net.particles[q / 3].fixed) {
      EXPECT_EQ(jw[q], 0.0) << q; // w = 0 there, and fixed rows do not couple
      continue;
    }
    EXPECT_NEAR(jw[q], fd, tol_x + tol_v) << "entry " << q;
  }
  // The check is not empty: the spring part is far above the tolerance.
  double spring_part = 0;
  for (size_t q = 0; q < jw.size(); ++q) spring_part = std::max(spring_part, std::fabs(jw[q] - a * mw[q]));
  EXPECT_GT(spring_part, 1e4 * (tol_x + tol_v));
}

} // namespace

TEST(MassSpringJacobian, MatchesCentralDifferences) { expectJacobianMatchesCentralDifferences(testCloth(6, 7)); }

// A fixed particle stays where the network put it, at rest, whatever state the model is given (a Newton
// iterate x_n + dt (v_n + dv) with dv nonzero there): its neighbours' forces, the energy and the
// Jacobian do not read x or v at a fixed particle, so the Jacobian, which has no column for it, is the
// exact derivative (PETSc's -snes_test_jacobian read 0.075 on a 4-particle chain until 2026-11-30).
TEST(MassSpringForces, AFixedParticleIsNotMovedByTheStateGiven) {
  Network net = testCloth(6, 7);
  net.validate();
  MassSpringModel model(net, PETSC_COMM_WORLD);
  PVec x = model.createVector(), v = model.createVector(), w = model.createVector();
  model.initialState(x, v);
  std::vector<double> wv(3 * net.particles.size(), 0.0);
  int fixed = 0;
  for (size_t k = 0; k < wv.size(); ++k)
    if (net.particles[k / 3].fixed) wv[k] = 0.1 * double(k % 3 + 1), fixed += k % 3 == 0;
  ASSERT_GT(fixed, 0);
  setValues(w, wv);
  PVec xp = model.createVector(), vp = model.createVector();
  BEAM_PETSC(VecWAXPY(xp, 1.0, w, x));
  BEAM_PETSC(VecWAXPY(vp, 1.0, w, v));
  auto evaluated = [&](Vec xs, Vec vs) {
    PVec F = model.createVector();
    model.force(0, xs, vs, F);
    std::vector<double> parts;
    model.storedEnergy(0, xs, vs, parts);
    PMat J = model.createJacobian();
    model.shiftedJacobian(0, xs, vs, 1.0, 0.01, 1e-4, J);
    PVec Jw = model.createVector(), probe = model.createVector();
    randomDirection(net, 5, probe);
    BEAM_PETSC(MatMult(J, probe, Jw));
    std::vector<double> all = allValues(F), jw = allValues(Jw);
    all.insert(all.end(), parts.begin() + 1, parts.end()); // (kinetic: the state's own v, fixed rows included)
    all.insert(all.end(), jw.begin(), jw.end());
    return all;
  };
  const std::vector<double> at_rest = evaluated(x, v), moved = evaluated(xp, vp);
  ASSERT_EQ(at_rest.size(), moved.size());
  for (size_t q = 0; q < at_rest.size(); ++q) EXPECT_EQ(at_rest[q], moved[q]) << q; // bitwise: not read at all
}

TEST(MassSpringJacobian, MatchesCentralDifferencesInsideTheDampingDepth) {
  // Every particle under the plane within the ramp (-s < 0.07 here, delta = 0.5): the damping's
  // dependence on the depth enters dF/dx, c b_c (v.n) 6 t (1 - t) / delta ~ 1e-3, far above the
  // tolerance (~1e-7). The force is linear in x and in v separately there, as without the ramp.
  Network net = testCloth(6, 7);
  net.contact.damping_depth = 0.5;
  expectJacobianMatchesCentralDifferences(net);
}

TEST(MassSpringEnergy, ConservativeForceIsMinusTheGradientOfThePotential) {
  // The promise behind Model::conservative() (Newton's energy line search, solvers/EnergyLineSearch.hpp):
  // without dashpots or contact damping, F = -grad U with U the stored energies after the kinetic one
  // (springs, gravity and the point loads, the contact penalty). Central differences of U along a random
  // direction w against -F'w, on the test cloth with its dashpots and contact damping removed and a
  // point load added; x + e w keeps every particle on its side of the plane's switch.
  Network net = testCloth(6, 11);
  for (auto &spring : net.springs) spring.damping = 0;
  net.contact.damping = 0;
  net.loads = {ParticleLoad{5, {0.3, -0.2, 0.7}}};
  net.validate();
  MassSpringModel model(net, PETSC_COMM_WORLD);
  ASSERT_TRUE(model.conservative());
  PVec x = model.createVector(), v = model.createVector(), w = model.createVector(), F = model.createVector();
  model.initialState(x, v);
  randomDirection(net, 5, w);
  auto potential = [&](double e) {
    PVec xe = model.createVector();
    BEAM_PETSC(VecWAXPY(xe, e, w, x));
    std::vector<double> parts;
    model.storedEnergy(0, xe, v, parts);
    double total = 0;
    for (size_t k = 1; k < parts.size(); ++k) total += parts[k];
    return total;
  };
  model.force(0, x, v, F);
  PetscScalar Fw;
  BEAM_PETSC(VecDot(F, w, &Fw));
  // Relative error of the central difference: truncation e^2/6 U'''/U' ~ e^2 / l^2 (l ~ 0.2, each
  // derivative of a spring's energy along w brings a factor ~ |w| / l), 2.5e-9 at e = 1e-5; round-off
  // u |U| / (e |F'w|), about 2e-11 here. The tolerance 1e-7 |F'w| leaves a factor 40.
  const double e = 1e-5;
  const double fd = (potential(e) - potential(-e)) / (2 * e);
  EXPECT_NEAR(fd, -Fw, 1e-7 * std::fabs(Fw));
  EXPECT_GT(std::fabs(Fw), 1.0); // not an empty check

  // Any velocity-dependent force makes the model non-conservative.
  Network dashpot = net;
  dashpot.springs[3].damping = 0.1;
  EXPECT_FALSE(MassSpringModel(dashpot, PETSC_COMM_WORLD).conservative());
  Network damped_contact = net;
  damped_contact.contact.damping = 1;
  EXPECT_FALSE(MassSpringModel(damped_contact, PETSC_COMM_WORLD).conservative());
  damped_contact.planes.clear(); // contact damping without a plane acts on nothing
  EXPECT_TRUE(MassSpringModel(damped_contact, PETSC_COMM_WORLD).conservative());
}

TEST(MassSpringJacobian, ExactPreallocationAndFixedRows) {
  Network net = testCloth(8, 11);
  net.validate();
  MassSpringModel model(net, PETSC_COMM_WORLD);
  PVec x = model.createVector(), v = model.createVector();
  model.initialState(x, v);
  PMat J = model.createJacobian();
  model.shiftedJacobian(0, x, v, 1, 0.01, 1e-4, J);
  MatInfo info;
  BEAM_PETSC(MatGetInfo(J, MAT_GLOBAL_SUM, &info));
  EXPECT_EQ(info.nz_unneeded, 0.0);
  EXPECT_EQ(info.mallocs, 0.0);
  // A fixed particle's rows: a m I only.
  for (PetscInt l = 0; l < model.ownedParticles(); ++l) {
    if (!model.fixed(l)) continue;
    const PetscInt row = 3 * (model.firstParticle() + l);
    PetscInt ncols = 0;
    const PetscInt *cols = nullptr;
    const PetscScalar *vals = nullptr;
    BEAM_PETSC(MatGetRow(J, row, &ncols, &cols, &vals));
    ASSERT_EQ(ncols, 3);
    EXPECT_EQ(cols[0], row);
    EXPECT_DOUBLE_EQ(vals[0], model.mass(l));
    EXPECT_EQ(vals[1], 0.0);
    BEAM_PETSC(MatRestoreRow(J, row, &ncols, &cols, &vals));
  }
  // Without dashpots the Jacobian is symmetric (CG, GAMG).
  Network undamped = testCloth(8, 11);
  for (auto &s : undamped.springs) s.damping = 0;
  undamped.validate();
  MassSpringModel m2(undamped, PETSC_COMM_WORLD);
  PMat J2 = m2.createJacobian();
  m2.shiftedJacobian(0, x, v, 1, 0.01, 1e-4, J2);
  PetscBool symmetric = PETSC_FALSE;
  BEAM_PETSC(MatIsSymmetric(J2, 1e-12, &symmetric));
  EXPECT_TRUE(symmetric);
}

TEST(MassSpringMpi, SameNumbersOnEveryPartition) {
  // The whole network on this rank alone against the network spread over every rank.
  const Network net = testCloth(9, 5);
  const Evaluated self = evaluate(net, PETSC_COMM_SELF), world = evaluate(net, PETSC_COMM_WORLD);
  for (size_t k = 0; k < self.force.size(); ++k) EXPECT_NEAR(world.force[k], self.force[k], 1e-10) << k;
  for (size_t k = 0; k < 4; ++k) EXPECT_NEAR(world.energy[k], self.energy[k], 1e-10 * (1 + std::fabs(self.energy[k])));
  EXPECT_NEAR(world.dissipation, self.dissipation, 1e-10 * (1 + self.dissipation));

  // The Jacobian too, through its action on one vector.
  Network valid = net;
  valid.validate();
  std::vector<double> results[2];
  int r = 0;
  for (MPI_Comm comm : {PETSC_COMM_SELF, PETSC_COMM_WORLD}) {
    MassSpringModel model(valid, comm);
    PVec x = model.createVector(), v = model.createVector(), y = model.createVector();
    model.initialState(x, v);
    PMat J = model.createJacobian();
    model.shiftedJacobian(0, x, v, 1, 0.1, 0.01, J);
    BEAM_PETSC(MatMult(J, v, y));
    results[r++] = allValues(y);
  }
  for (size_t k = 0; k < results[0].size(); ++k) EXPECT_NEAR(results[1][k], results[0][k], 1e-10) << k;
}

TEST(MassSpringBuiltins, SizesOfTheBuiltInNetworks) {
  auto set = [](std::vector<BuiltinParameter> p, const std::string &name, double value) {
    for (auto &q : p)
      if (q.name == name) q.value = value;
    return p;
  };
  // Cloth n x n: 2n(n-1) structural + 2(n-1)^2 shear + 2n(n-2) bend; 128 x 128 -> 97026.
  auto cloth = builtinParameters("cloth");
  cloth = set(set(cloth, "cloth_nx", 128), "cloth_ny", 128);
  Network c = builtinNetwork("cloth", cloth);
  EXPECT_EQ(c.particles.size(), 16384u);
  EXPECT_EQ(c.springs.size(), 97026u);
  // Disk: S centre springs, R*S ring springs, 3 S radial and diagonal springs.
  Network d = builtinNetwork("disk", builtinParameters("disk"));
  EXPECT_EQ(d.particles.size(), 1u + 4 * 16);
  EXPECT_EQ(d.springs.size(), 16u + 4 * 16 + 3 * 16 * 3);
  EXPECT_NO_THROW(d.validate());
  Network ch = builtinNetwork("chain", builtinParameters("chain"));
  EXPECT_EQ(ch.particles.size(), 11u);
  EXPECT_TRUE(ch.particles[0].fixed);
}

TEST(MassSpringBuiltins, BeamLatticeIsTheContinuumUnderUniformStrain) {
  // Uniaxial stress along x: strain eps along x, -eps/3 along y (nu = 1/3). Interior particles are in
  // equilibrium and the elastic energy is E eps^2 / 2 per unit volume, to O(eps) (springs are linear in
  // length, not in strain). A rectangle hx != hy exercises the general stiffness formulas.
  auto params = builtinParameters("beam_lattice");
  for (auto &q : params) {
    if (q.name == "beam_hy") q.value = 0.8;
    if (q.name == "beam_E") q.value = 250;
    if (q.name == "beam_thickness") q.value = 0.5;
  }
  Network net = builtinNetwork("beam_lattice", params);
  net.loads.clear();
  const double eps = 1e-6;
  for (auto &p : net.particles) {
    p.fixed = false;
    p.x[0] *= 1 + eps;
    p.x[1] *= 1 - eps / 3;
  }
  // Rest lengths of the undeformed lattice: the initial distances before the strain.
  Network rest = builtinNetwork("beam_lattice", params);
  rest.validate();
  for (size_t k = 0; k < net.springs.size(); ++k) net.springs[k].rest_length = rest.springs[k].rest_length;
  const Evaluated e = evaluate(net, PETSC_COMM_WORLD);
  const double volume = 20 * 1.0 * 5 * 0.8 * 0.5, expected = 0.5 * 250 * eps * eps * volume;
  EXPECT_NEAR(e.energy[2], expected, 1e-5 * expected);
  // Interior node (10, 2): zero net force, against forces of order k eps h ~ 1e-4.
  const PetscInt node = 2 * 21 + 10;
  for (int d = 0; d < 3; ++d) EXPECT_NEAR(e.force[size_t(3 * node + d)], 0.0, 1e-9);
  // Lumped mass: rho t hx hy in total per element.
  double total = 0;
  for (const auto &p : rest.particles) total += p.mass;
  EXPECT_NEAR(total, 1.0 * 0.5 * 20 * 1.0 * 5 * 0.8, 1e-12);
}

// The drawing of a network's initial state on `comm` (each rank its piece).
static Drawing initialDrawing(Network net, MPI_Comm comm) {
  net.validate();
  MassSpringModel model(net, comm);
  PVec x = model.createVector(), v = model.createVector();
  model.initialState(x, v);
  Drawing drawing;
  model.draw(x, v, drawing);
  return drawing;
}

TEST(MassSpringDrawing, PointsVerticesAndSprings) {
  Network net;
  net.particles = {particle({0, 0, 0}, 1), particle({2, 0, 0}, 1, {0, 1, 0}), particle({2, 2, 0}, 1)};
  net.springs = {spring(0, 1, 10, 1), spring(1, 2, 10, 4)};
  const Drawing drawing = initialDrawing(net, PETSC_COMM_SELF);
  EXPECT_EQ(drawing.kind, Drawing::Kind::PolyData);
  ASSERT_EQ(drawing.points.size(), 3u);
  ASSERT_EQ(drawing.cell_types.size(), 5u); // 3 vertices, 2 lines
  EXPECT_EQ(drawing.cell_types[3], 3);
  EXPECT_EQ(drawing.connectivity, (std::vector<std::int64_t>{0, 1, 2, 0, 1, 1, 2}));
  ASSERT_EQ(drawing.cell_data.size(), 2u);
  EXPECT_DOUBLE_EQ(drawing.cell_data[0].values[3], 10 * (2 - 1.0)); // tension
  EXPECT_DOUBLE_EQ(drawing.cell_data[1].values[4], (2 - 4.0) / 4);  // strain
  EXPECT_EQ(drawing.point_data[0].values[4], 1.0);                  // velocity of particle 1, y
}

// Under MPI a rank draws the ghost particles its springs reach, which their owners draw too: those copies
// are marked duplicates, so the unmarked points are every particle exactly once (ParaView's statistics
// count them once). On one rank nothing is marked.
TEST(MassSpringDrawing, GhostCopiesAreMarkedDuplicates) {
  const Network net = builtinNetwork("chain", builtinParameters("chain"));
  const Drawing drawing = initialDrawing(net, PETSC_COMM_WORLD);
  int size = 1;
  MPI_Comm_size(PETSC_COMM_WORLD, &size);
  if (size == 1) {
    EXPECT_TRUE(drawing.duplicate_points.empty());
    return;
  }
  ASSERT_EQ(drawing.duplicate_points.size(), drawing.points.size());
  std::vector<int> count(net.particles.size(), 0);
  for (size_t p = 0; p < drawing.points.size(); ++p)
    if (!drawing.duplicate_points[p]) ++count[size_t(drawing.point_data[1].values[p])]; // "particle": the global index
  std::vector<int> total(count.size());
  MPI_Allreduce(count.data(), total.data(), int(count.size()), MPI_INT, MPI_SUM, PETSC_COMM_WORLD);
  for (size_t i = 0; i < total.size(); ++i) EXPECT_EQ(total[i], 1) << "particle " << i;
}

TEST(MassSpringIdentity, NamesEveryDefiningParameter) {
  Network a = builtinNetwork("chain", builtinParameters("chain"));
  Network b = a;
  b.springs[3].stiffness *= 1.0000001;
  Network c = a;
  c.contact.no_pull = true;
  a.validate();
  b.validate();
  c.validate();
  const auto ia = MassSpringModel(a, PETSC_COMM_SELF).identity(), ib = MassSpringModel(b, PETSC_COMM_SELF).identity(),
             ic = MassSpringModel(c, PETSC_COMM_SELF).identity();
  EXPECT_NE(ia, ib); // the data hash
  EXPECT_NE(ia, ic);
  EXPECT_EQ(ia.front().second, "mass_spring");
}
