// Natural frequencies of a slender Q4 cantilever converge towards Euler-Bernoulli under refinement.
//
// Beam: L = 20, H = 1 (L/H = 20), square elements h = 1/my with my = 1, 2, 4 and mx = 20 my, E = 100,
// nu = 0.3, rho = 1, left edge clamped. Euler-Bernoulli: omega_n = (beta_n L)^2 sqrt(E I / (rho A L^4)),
// (beta_n L)^2 = 3.5160, 22.0345, 61.6972.
// Expect: Q4/EB decreases monotonically with refinement for each of the first three bending modes. The
// bilinear quad cannot bend without a parasitic shear strain proportional to the element length over
// the depth, so it is too stiff (ratio 1.2 at my = 1) and the excess falls roughly like (h/H)^2.
// Bound for the finest mesh (my = 4): |Q4/EB - 1| < 0.03. It is the sum of the locking that is left,
// ~1.4% for mode 1 at h/H = 1/4 (a quarter of the 5.8% at my = 2), and of what Euler-Bernoulli
// leaves out: shear deformation and rotary inertia lower omega_n by about
// (beta_n L)^2 (H/L)^2 (1 + E/(kappa G)) / 24, 0.15%, 1% and 2.6% for n = 1, 2, 3 at L/H = 20
// (kappa = 5/6): the two effects have opposite signs, each below 3%.
#include <gtest/gtest.h>

#include <vtkDataArray.h>
#include <vtkPointData.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "MesLib/Beam.hpp"
#include "MesLib/BeamSystem.hpp"
#include "ReadSnapshot.hpp"
#include "SlepcEnvironment.hpp"
#include "labs/ModalLab.hpp"

using namespace beam;

namespace {

[[maybe_unused]] const auto *slepc_env = registerSlepcEnvironment();

BeamSpec slender(int my) {
  BeamSpec s;
  s.my = my;
  s.mx = 20 * my;
  s.hx = s.hy = 1.0 / my;
  return s;
}

// Q4/EB for the first three bending modes (vertical share > 0.5) among the lowest five modes.
std::vector<double> ratios(const BeamSpec &spec) {
  const Beam beam(spec, PETSC_COMM_WORLD);
  const SecondOrderSystem system = beamSystem(beam);
  const FreeVibration problem(system, beam.frozenDofs());
  ModalSolver solver(problem, {SpectrumEnd::Smallest, 5, 1e-10, 0, "test_modes_"});
  solver.solve();
  const auto eb = eulerBernoulliOmegas(spec, 3);
  std::vector<double> r;
  for (PetscInt k = 0; k < 5 && r.size() < 3; ++k) {
    const PVec phi = solver.shape(k);
    if (verticalShare(system, phi) > 0.5) r.push_back(solver.omegas()[size_t(k)] / eb[r.size()]);
  }
  return r;
}

} // namespace

TEST(Modes, EulerBernoulliReferenceOfTheDefaultBeam) {
  // 20x5 beam: EI = 100 * 125 / 12, rho A = 5, L = 20: omega_1 = 3.5160 sqrt(EI / (rho A L^4)).
  const auto eb = eulerBernoulliOmegas(BeamSpec{}, 3);
  ASSERT_EQ(eb.size(), 3u);
  EXPECT_NEAR(eb[0], 3.5160 * std::sqrt(100.0 * 125 / 12 / (5.0 * 160000)), 1e-12);
  EXPECT_NEAR(eb[1] / eb[0], 22.0345 / 3.5160, 1e-12);
  BeamSpec course;
  course.mass_scaling = MassScaling::Course; // 36x the consistent mass: frequencies 6x lower
  EXPECT_NEAR(eulerBernoulliOmegas(course, 1)[0] * 6, eb[0], 1e-12);
}

// The constants (beta_n L)^2 of every support against the roots of the frequency equations, found here
// by bisection: cos(bL) cosh(bL) = -1 clamped-free, = +1 clamped-clamped, sin(bL) = 0 simply supported
// (n^2 pi^2 exactly). The lab writes them to 4 decimals: 2e-5 relative at most.
TEST(Modes, EulerBernoulliConstantsAreTheFrequencyEquationsRoots) {
  auto root = [](double sign, double lo, double hi) {
    auto f = [sign](double b) { return std::cos(b) * std::cosh(b) - sign; };
    for (int i = 0; i < 200; ++i) {
      const double mid = 0.5 * (lo + hi);
      (f(lo) * f(mid) <= 0 ? hi : lo) = mid;
    }
    return 0.5 * (lo + hi);
  };
  const double free_end[] = {root(-1, 1.5, 2.5), root(-1, 4.5, 5), root(-1, 7.5, 8)};
  const double clamped[] = {root(1, 4.5, 5), root(1, 7.5, 8), root(1, 10.5, 11.5)};
  const double simply[] = {M_PI, 2 * M_PI, 3 * M_PI};
  const std::pair<Supports, const double *> cases[] = {
      {Supports::ClampedLeft, free_end}, {Supports::ClampedBoth, clamped}, {Supports::SimplySupported, simply}};
  for (const auto &[supports, b] : cases) {
    BeamSpec spec;
    spec.supports = supports;
    const auto eb = eulerBernoulliOmegas(spec, 3);
    ASSERT_EQ(eb.size(), 3u);
    for (int n = 1; n < 3; ++n)
      EXPECT_NEAR(eb[n] / eb[0], b[n] * b[n] / (b[0] * b[0]), 4e-5 * eb[n] / eb[0]) << "supports " << int(supports) << ", mode " << n + 1;
  }
  EXPECT_NEAR(free_end[0] * free_end[0], 3.5160, 2e-5 * 3.5160); // the first constant itself (the default beam's test)
}

TEST(Modes, Q4CantileverConvergesToEulerBernoulli) {
  std::vector<std::vector<double>> r;
  for (int my : {1, 2, 4}) {
    r.push_back(ratios(slender(my)));
    ASSERT_EQ(r.back().size(), 3u) << "my = " << my << ": fewer than three bending modes in the lowest five";
  }
  for (size_t n = 0; n < 3; ++n) {
    EXPECT_GT(r[0][n], r[1][n]) << "mode " << n + 1;
    EXPECT_GT(r[1][n], r[2][n]) << "mode " << n + 1;
    EXPECT_GT(r[0][n], 1.1) << "mode " << n + 1 << ": one element through the depth locks";
    EXPECT_NEAR(r[2][n], 1.0, 0.03) << "mode " << n + 1;
  }
}

TEST(Modes, WritesCsvAndSeries) {
  const BeamSpec spec = slender(1);
  const Beam beam(spec, PETSC_COMM_WORLD);
  const SecondOrderSystem system = beamSystem(beam);
  const FreeVibration problem(system, beam.frozenDofs());
  ModalSolver solver(problem, {SpectrumEnd::Smallest, 2, 1e-10, 0, "test_modes_"});
  solver.solve();
  std::vector<PVec> shapes;
  for (PetscInt k = 0; k < 2; ++k) shapes.push_back(solver.shape(k));
  int size = 1;
  MPI_Comm_size(PETSC_COMM_WORLD, &size);
  const std::string dir = (std::filesystem::temp_directory_path() / ("beam_test_modes_np" + std::to_string(size))).string();
  writeModes(beam, solver.omegas(), shapes, dir);
  MPI_Barrier(PETSC_COMM_WORLD);
  std::ifstream csv(dir + "/modes.csv");
  std::string header, first;
  std::getline(csv, header);
  std::getline(csv, first);
  EXPECT_EQ(header, "mode,omega,frequency");
  EXPECT_EQ(first.rfind("1,", 0), 0u) << first;
  // omega as the solver found it (17 digits round-trip) and the frequency omega / 2 pi.
  std::istringstream row(first);
  std::string mode, omega, frequency;
  std::getline(row, mode, ',');
  std::getline(row, omega, ',');
  std::getline(row, frequency, ',');
  EXPECT_EQ(std::stod(omega), solver.omegas()[0]);
  EXPECT_NEAR(std::stod(frequency) * 2 * M_PI, std::stod(omega), 4e-16 * std::stod(omega));
  std::ifstream pvd(dir + "/modes.pvd");
  const std::string text((std::istreambuf_iterator<char>(pvd)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("timestep=\"2\""), std::string::npos) << text;
  const std::string first_mode = dir + (size > 1 ? "/modes_000001.pvtu" : "/modes_000001.vtu");
  EXPECT_TRUE(std::filesystem::exists(first_mode));
  // A mode shape is drawn as a displacement only: no velocity array (it was all zeros until 2026-11-28).
  std::ifstream vtu(first_mode);
  const std::string xml((std::istreambuf_iterator<char>(vtu)), std::istreambuf_iterator<char>());
  EXPECT_NE(xml.find("Name=\"displacement\""), std::string::npos);
  EXPECT_EQ(xml.find("Name=\"velocity\""), std::string::npos);
  // Each shape is scaled so that its largest nodal displacement (both components: a bending mode's
  // sections rotate, so ux is not zero) has length 1.
  const auto grid = readSnapshot(first_mode);
  vtkDataArray *u = grid->GetPointData()->GetArray("displacement");
  ASSERT_NE(u, nullptr);
  double largest = 0, largest_uy = 0;
  for (vtkIdType p = 0; p < u->GetNumberOfTuples(); ++p) {
    largest = std::max(largest, std::hypot(u->GetComponent(p, 0), u->GetComponent(p, 1)));
    largest_uy = std::max(largest_uy, std::abs(u->GetComponent(p, 1)));
  }
  EXPECT_NEAR(largest, 1.0, 1e-12);
  EXPECT_LT(largest_uy, 1.0 - 1e-9); // the largest nodal displacement is not purely vertical
}
