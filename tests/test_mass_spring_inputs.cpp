// Inputs of a mass-spring network: the CSV readers (good files, and a table of bad ones with the line
// and message fragment each must report), network validation (zero-length spring, zero plane normal,
// NaN), built-in model names and parameters, and the CSV writers (a written network reads back
// bitwise). Every bad input is a beam::Error with exit code 2 and a one-line message.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <set>
#include <string>

#include "MassSpring/BuiltinModels.hpp"
#include "MassSpring/Readers.hpp"
#include "MassSpring/Writers.hpp"
#include "common/Error.hpp"

using namespace beam;

namespace {

std::string writeFile(const std::string &name, const std::string &text) {
  int rank = 0;
  MPI_Comm_rank(PETSC_COMM_WORLD, &rank);
  const std::string path = testing::TempDir() + "mass_spring_inputs_" + std::to_string(rank) + "_" + name;
  std::ofstream(path) << text;
  return path;
}

template <class F> void expectInputError(F &&f, const std::string &fragment) {
  try {
    f();
    ADD_FAILURE() << "accepted, expected '" << fragment << "'";
  } catch (const Error &e) {
    const std::string what = e.what();
    EXPECT_EQ(e.exitCode(), 2) << what;
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;
    EXPECT_NE(what.find(fragment), std::string::npos) << what;
  }
}

const std::string kParticles = "x,y,z,mass,fixed\n0,0,0,1,1\n1,0,0,2,0\n";

} // namespace

TEST(MassSpringReaders, ReadGoodFiles) {
  const auto particles =
      readParticles(writeFile("p.csv", "# three particles\nfixed, mass ,x,y,z,vz\r\n1,1,0,0,0,0\n\n0,2,1,0,0,-3\r\n0,0.5,1,1,0,0\n"));
  ASSERT_EQ(particles.size(), 3u);
  EXPECT_TRUE(particles[0].fixed);
  EXPECT_EQ(particles[1].mass, 2.0);
  EXPECT_EQ(particles[1].x[0], 1.0);
  EXPECT_EQ(particles[1].v[2], -3.0);
  EXPECT_EQ(particles[1].v[0], 0.0);
  const auto springs = readSprings(writeFile("s.csv", "i,j,stiffness,damping\n0,1,100,0.5\n1,2,50,0\n"), 3);
  ASSERT_EQ(springs.size(), 2u);
  EXPECT_EQ(springs[1].i, 1);
  EXPECT_EQ(springs[1].j, 2);
  EXPECT_EQ(springs[0].damping, 0.5);
  EXPECT_LT(springs[0].rest_length, 0); // the initial distance, resolved by validate()
  Network net;
  net.particles = particles;
  net.springs = springs;
  net.validate();
  EXPECT_DOUBLE_EQ(net.springs[1].rest_length, 1.0);
}

TEST(MassSpringReaders, BadFilesNameTheLineAndTheProblem) {
  struct Case {
    const char *name, *text, *fragment;
  };
  const Case particle_cases[] = {
      {"missing_column", "x,y,z,mass\n0,0,0,1\n", ":1: missing column 'fixed'"},
      {"unknown_column", "x,y,z,mass,fixed,w\n0,0,0,1,0,0\n", ":1: unknown column 'w'"},
      {"twice", "x,y,z,mass,fixed,x\n0,0,0,1,0,0\n", "column 'x' twice"},
      {"field_count", "x,y,z,mass,fixed\n0,0,0,1\n", ":2: 4 fields"},
      {"nan", "x,y,z,mass,fixed\n0,nan,0,1,0\n", ":2: y 'nan' is not a finite real number"},
      {"text", "x,y,z,mass,fixed\n0,0,0,1,0\n0,0,abc,1,0\n", ":3: z 'abc'"},
      {"zero_mass", "x,y,z,mass,fixed\n0,0,0,0,0\n", ":2: mass 0"},
      {"negative_mass", "x,y,z,mass,fixed\n0,0,0,-1,0\n", ":2: mass -1"},
      {"fixed", "x,y,z,mass,fixed\n0,0,0,1,2\n", ":2: fixed 2"},
      {"fixed_half", "x,y,z,mass,fixed\n0,0,0,1,0.5\n", ":2: fixed 0.5"},
      {"no_rows", "x,y,z,mass,fixed\n", "no data lines"},
      {"only_comments", "# nothing\n", "no header line"},
  };
  for (const auto &c : particle_cases) {
    const std::string path = writeFile(c.name, c.text);
    expectInputError([&] { readParticles(path); }, c.fragment);
  }
  const Case spring_cases[] = {
      {"s_missing", "i,j\n0,1\n", "missing column 'stiffness'"},
      {"s_range", "i,j,stiffness\n0,3,1\n", ":2: j 3"},
      {"s_negative_index", "i,j,stiffness\n-1,1,1\n", ":2: i '-1' is not a particle index"},
      {"s_fraction", "i,j,stiffness\n0.5,1,1\n", "not a particle index"},
      // Integral values not written as integers, refused as -track refuses them (they were taken).
      {"s_point_zero", "i,j,stiffness\n1.0,2,1\n", ":2: i '1.0' is not a particle index"},
      {"s_hex", "i,j,stiffness\n0,0x1,1\n", ":2: j '0x1' is not a particle index"},
      {"s_plus", "i,j,stiffness\n+1,2,1\n", ":2: i '+1' is not a particle index"},
      {"s_exponent", "i,j,stiffness\n0,1e0,1\n", ":2: j '1e0' is not a particle index"},
      {"s_self", "i,j,stiffness\n1,1,1\n", "i = j"},
      {"s_negative_k", "i,j,stiffness\n0,1,-1\n", "stiffness is negative"},
      {"s_rest", "i,j,stiffness,rest_length\n0,1,1,0\n", "rest_length is not positive"},
      {"s_damping", "i,j,stiffness,damping\n0,1,1,-2\n", "damping is negative"},
      {"s_no_force", "i,j,stiffness,damping\n0,1,1,0\n1,2,0,0\n", ":3: stiffness and damping are both 0"},
      {"s_inf", "i,j,stiffness\n0,1,inf\n", "not a finite real number"},
  };
  for (const auto &c : spring_cases) {
    const std::string path = writeFile(c.name, c.text);
    expectInputError([&] { readSprings(path, 3); }, c.fragment);
  }
  // A springs file may have no rows: particles alone (a particle dropped on a plane); a particles file may not.
  EXPECT_TRUE(readSprings(writeFile("s_header_only", "i,j,stiffness\n"), 3).empty());
  EXPECT_EQ(readSprings(writeFile("s_leading_zero", "i,j,stiffness\n00,2,1\n"), 3)[0].i, 0);
  expectInputError([] { readParticles(testing::TempDir()); }, "not a regular file");
  expectInputError([] { readParticles("/dev/zero"); }, "not a regular file");
  expectInputError([] { readParticles(writeFile("empty", "")); }, "empty file");
  expectInputError([] { readParticles("/nonexistent/p.csv"); }, "cannot open the file");
}

TEST(MassSpringValidation, BadNetworks) {
  const auto particles = readParticles(writeFile("good_p.csv", kParticles));
  Network net;
  net.particles = particles;
  net.particles.push_back(net.particles[1]); // coincides with particle 1
  net.springs = readSprings(writeFile("zero.csv", "i,j,stiffness\n0,1,1\n1,2,1\n"), 3);
  expectInputError([&] { Network n = net; n.validate(); }, "spring 1 (1, 2): zero length");
  net.springs.clear();
  net.planes = {Plane{{0, 0, 0}, {0, 0, 0}}};
  expectInputError([&] { Network n = net; n.validate(); }, "zero normal");
  net.planes = {Plane{{0, 0, NAN}, {0, 0, 1}}};
  expectInputError([&] { Network n = net; n.validate(); }, "-plane 0");
  net.planes.clear();
  net.gravity = {0, NAN, 0};
  expectInputError([&] { Network n = net; n.validate(); }, "-gravity");
  net.gravity = {0, 0, -9.81};
  net.contact.stiffness = -1;
  expectInputError([&] { Network n = net; n.validate(); }, "-contact_stiffness");
  net.contact.stiffness = 1;
  net.particles[0].mass = 0;
  expectInputError([&] { Network n = net; n.validate(); }, "particle 0: mass");
  Network empty;
  expectInputError([&] { empty.validate(); }, "no particles");
}

TEST(MassSpringValidation, BuiltinModelsAndTheirParameters) {
  expectInputError([] { builtinParameters("sphere"); }, "unknown model 'sphere'; accepted: disk, chain, cloth, beam_lattice");
  for (const auto &name : builtinModelNames()) {
    Network net = builtinNetwork(name, builtinParameters(name));
    EXPECT_NO_THROW(net.validate()) << name;
  }
  auto params = builtinParameters("cloth");
  for (auto &p : params)
    if (p.name == "cloth_nx") p.value = 1;
  expectInputError([&] { builtinNetwork("cloth", params); }, "-cloth_nx: 1 is out of range; accepted: an integer in [2, 100000000]");
  // A particle count past PETSc's indices (3 per particle), refused before anything is allocated (the
  // disk's 32-bit count wrapped and the lab crashed).
  params = builtinParameters("disk");
  for (auto &p : params)
    if (p.name == "disk_rings" || p.name == "disk_segments") p.value = p.name == "disk_rings" ? 2000000 : 2148;
  if (sizeof(PetscInt) == 4)
    expectInputError([&] { builtinNetwork("disk", params); }, "-disk_rings x -disk_segments: 4296000001 particles; accepted: at most 715827882");
  params = builtinParameters("chain");
  for (auto &p : params)
    if (p.name == "damping") p.value = -0.1;
  expectInputError([&] { builtinNetwork("chain", params); }, "-damping: -0.1 is out of range; accepted: a real >= 0");
  params = builtinParameters("beam_lattice");
  for (auto &p : params)
    if (p.name == "beam_hx") p.value = 2;
  expectInputError([&] { builtinNetwork("beam_lattice", params); }, "aspect ratio");
}

// The built-in networks' geometry and defaults as the README gives them (a fifth mutation audit,
// 2026-11-28: each of these changed passed every test): the chain's free particles carry its total mass
// 1; the beam lattice's load sits at its bottom-right node (20, 0); the disk's ring r of S particles
// lies at radius R r / rings about its centre (0, h), neighbours 2 rho sin(pi/S) apart, each pair joined
// once and both diagonals of every ring quad present; the cloth's three stiffnesses are 1000.
TEST(MassSpringBuiltins, GeometryAndDefaultsAsDocumented) {
  const Network chain = builtinNetwork("chain", builtinParameters("chain"));
  double free_mass = 0;
  for (const auto &p : chain.particles)
    if (!p.fixed) free_mass += p.mass;
  EXPECT_NEAR(free_mass, 1.0, 1e-14);

  const Network lattice = builtinNetwork("beam_lattice", builtinParameters("beam_lattice"));
  ASSERT_EQ(lattice.loads.size(), 1u);
  const Vec3 loaded = lattice.particles[size_t(lattice.loads[0].particle)].x;
  EXPECT_EQ(loaded[0], 20.0);
  EXPECT_EQ(loaded[1], 0.0);

  const Network disk = builtinNetwork("disk", builtinParameters("disk"));
  const int S = 16, rings = 4;
  const double R = 0.5, h = 1, pi = std::acos(-1.0);
  auto at = [&](int r, int s) { return PetscInt(1 + (r - 1) * S + (s + S) % S); };
  for (int r = 1; r <= rings; ++r)
    for (int s = 0; s < S; ++s) {
      const Vec3 p = disk.particles[size_t(at(r, s))].x, q = disk.particles[size_t(at(r, s + 1))].x;
      const double rho = R * r / rings;
      EXPECT_NEAR(std::hypot(p[0], p[2] - h), rho, 1e-14);
      EXPECT_NEAR(std::hypot(p[0] - q[0], p[2] - q[2]), 2 * rho * std::sin(pi / S), 1e-14) << r << "," << s;
    }
  std::set<std::pair<PetscInt, PetscInt>> pairs;
  for (const auto &sp : disk.springs) EXPECT_TRUE(pairs.insert({std::min(sp.i, sp.j), std::max(sp.i, sp.j)}).second) << sp.i << "-" << sp.j;
  auto joined = [&](PetscInt a, PetscInt b) { return pairs.count({std::min(a, b), std::max(a, b)}); };
  for (int r = 1; r < rings; ++r)
    for (int s = 0; s < S; ++s) {
      EXPECT_EQ(joined(at(r, s), at(r + 1, s + 1)), 1u);
      EXPECT_EQ(joined(at(r, s + 1), at(r + 1, s)), 1u);
    }

  int stiffnesses = 0;
  for (const auto &p : builtinParameters("cloth"))
    if (p.name == "stiffness" || p.name == "shear_stiffness" || p.name == "bend_stiffness") {
      EXPECT_EQ(p.value, 1000) << p.name;
      ++stiffnesses;
    }
  EXPECT_EQ(stiffnesses, 3);
}

// A built-in spring with neither stiffness nor damping is left out, so the network written reads back
// (the springs reader refuses such a row): the 3 x 3 cloth without shear springs keeps 6 + 6 structural
// and 3 + 3 bend springs.
TEST(MassSpringWriters, ClothWithoutShearSpringsReadsBack) {
  auto params = builtinParameters("cloth");
  for (auto &p : params) {
    if (p.name == "cloth_nx" || p.name == "cloth_ny") p.value = 3;
    if (p.name == "shear_stiffness") p.value = 0;
  }
  Network net = builtinNetwork("cloth", params);
  net.validate();
  EXPECT_EQ(net.springs.size(), 18u);
  EXPECT_EQ(readSprings(writeFile("cloth_noshear_s.csv", springsCsv(net)), PetscInt(net.particles.size())).size(), 18u);
}

// -write_network: every built-in network written as CSV (with dashpots, so no column is trivially 0)
// reads back as the same doubles.
TEST(MassSpringWriters, BuiltinNetworksReadBackBitwise) {
  for (const auto &name : builtinModelNames()) {
    auto params = builtinParameters(name);
    for (auto &p : params)
      if (p.name == "damping") p.value = 0.3;
    Network net = builtinNetwork(name, params);
    net.particles[1].v = {0.1, -1.0 / 3, 2e-17};
    net.validate();
    const auto particles = readParticles(writeFile(name + "_p.csv", particlesCsv(net)));
    const auto springs = readSprings(writeFile(name + "_s.csv", springsCsv(net)), PetscInt(particles.size()));
    ASSERT_EQ(particles.size(), net.particles.size()) << name;
    ASSERT_EQ(springs.size(), net.springs.size()) << name;
    for (size_t k = 0; k < particles.size(); ++k) {
      EXPECT_EQ(particles[k].x, net.particles[k].x) << name << " particle " << k;
      EXPECT_EQ(particles[k].v, net.particles[k].v) << name << " particle " << k;
      EXPECT_EQ(particles[k].mass, net.particles[k].mass) << name << " particle " << k;
      EXPECT_EQ(particles[k].fixed, net.particles[k].fixed) << name << " particle " << k;
    }
    for (size_t k = 0; k < springs.size(); ++k) {
      const Spring &a = springs[k], &b = net.springs[k];
      EXPECT_TRUE(a.i == b.i && a.j == b.j && a.stiffness == b.stiffness && a.rest_length == b.rest_length &&
                  a.damping == b.damping)
          << name << " spring " << k;
    }
  }
}
