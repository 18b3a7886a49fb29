// Checkpoint and restart: for every registered scheme, a run stopped at step k (checkpoint written)
// and continued by a fresh scheme object from that checkpoint ends in the same state as an
// uninterrupted run — bit for bit on one rank, to 1e-12 relative on several (parallel reductions
// and MUMPS may round differently from run to run). Also: a mismatched restart is rejected (exit 2).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>

#include "MesLib/BeamSystem.hpp"
#include "solvers/TimeLoop.hpp"

namespace beam {
namespace {

int ranks() {
  int size = 1;
  MPI_Comm_size(PETSC_COMM_WORLD, &size);
  return size;
}

std::string checkpointPath(const std::string &scheme) {
  return "checkpoint_test_" + scheme + "_np" + std::to_string(ranks()) + ".bin";
}

struct Final {
  PVec x, y;
  RunResult result;
};

// Runs `scheme` on a damped, loaded beam to T; with stop_at > 0 first to stop_at (checkpointing there),
// then from the checkpoint with a new scheme object.
Final run(const Beam &beam, const std::string &scheme, double T, double stop_at) {
  SecondOrderSystem system = beamSystem(beam);
  BEAM_PETSC(MatDuplicate(system.mass, MAT_COPY_VALUES, system.damping.out())); // C = 0.05 M
  BEAM_PETSC(MatScale(system.damping, 0.05));
  system.load_factor = [](double t) { return std::sin(0.3 * t); };
  RunSettings settings;
  settings.dt = 0.01;
  Final out{system.createVector(), system.createVector(), {}};
  BEAM_PETSC(VecSet(out.x, 0.0));
  BEAM_PETSC(VecSet(out.y, 0.0));
  if (stop_at > 0) {
    settings.T = stop_at;
    settings.checkpoint_path = checkpointPath(scheme);
    auto first = makeScheme(scheme);
    TimeLoop(*first, system, settings).run(out.x, out.y, {});
    BEAM_PETSC(VecSet(out.x, 123.0)); // the restart must not depend on what the vectors hold
    BEAM_PETSC(VecSet(out.y, -7.0));
    settings.restart_path = settings.checkpoint_path;
  }
  settings.T = T;
  auto second = makeScheme(scheme);
  out.result = TimeLoop(*second, system, settings).run(out.x, out.y, {});
  return out;
}

double relativeDifference(Vec a, Vec b) {
  PVec d = duplicate(a);
  BEAM_PETSC(VecWAXPY(d, -1.0, a, b));
  PetscReal nd, na;
  BEAM_PETSC(VecNorm(d, NORM_INFINITY, &nd));
  BEAM_PETSC(VecNorm(a, NORM_INFINITY, &na));
  return na > 0 ? nd / na : nd;
}

class Restart : public ::testing::TestWithParam<std::string> {};

TEST_P(Restart, ContinuesExactly) {
  BeamSpec spec;
  spec.mx = 8;
  spec.my = 2;
  const Beam beam(spec, PETSC_COMM_WORLD);
  const Final whole = run(beam, GetParam(), 0.6, 0);
  const Final resumed = run(beam, GetParam(), 0.6, 0.23);
  ASSERT_FALSE(whole.result.diverged);
  EXPECT_EQ(resumed.result.restarted_from, 23);
  EXPECT_EQ(resumed.result.steps_done, whole.result.steps_done);
  if (ranks() == 1) {
    PetscBool same_x, same_y;
    BEAM_PETSC(VecEqual(whole.x, resumed.x, &same_x));
    BEAM_PETSC(VecEqual(whole.y, resumed.y, &same_y));
    EXPECT_TRUE(same_x && same_y) << "not bitwise: " << relativeDifference(whole.x, resumed.x);
    EXPECT_EQ(whole.result.final_drift, resumed.result.final_drift);
    EXPECT_EQ(whole.result.max_abs_drift, resumed.result.max_abs_drift);
  } else {
    EXPECT_LT(relativeDifference(whole.x, resumed.x), 1e-12);
    EXPECT_LT(relativeDifference(whole.y, resumed.y), 1e-12);
  }
  int rank = 0;
  MPI_Comm_rank(PETSC_COMM_WORLD, &rank);
  if (rank == 0) std::remove(checkpointPath(GetParam()).c_str());
}

INSTANTIATE_TEST_SUITE_P(EveryScheme, Restart, ::testing::ValuesIn(schemeNames()));

TEST(RestartValidation, RejectsAnotherSchemeOrStep) {
  BeamSpec spec;
  spec.mx = 4;
  spec.my = 1;
  const Beam beam(spec, PETSC_COMM_WORLD);
  const SecondOrderSystem system = beamSystem(beam);
  RunSettings settings;
  settings.T = 0.05;
  settings.checkpoint_path = checkpointPath("validation");
  PVec x = system.createVector(), y = system.createVector();
  BEAM_PETSC(VecSet(x, 0.0));
  BEAM_PETSC(VecSet(y, 0.0));
  auto midpoint = makeScheme("midpoint");
  TimeLoop(*midpoint, system, settings).run(x, y, {});
  settings.restart_path = settings.checkpoint_path;
  settings.checkpoint_path.clear();
  auto other = makeScheme("semi_implicit");
  TimeLoop wrong_scheme(*other, system, settings);
  try {
    wrong_scheme.run(x, y, {});
    FAIL() << "a checkpoint of another scheme was accepted";
  } catch (const Error &e) {
    EXPECT_EQ(e.exitCode(), 2);
    EXPECT_NE(std::string(e.what()).find("written by midpoint"), std::string::npos) << e.what();
  }
  settings.dt = 0.02;
  TimeLoop wrong_dt(*midpoint, system, settings);
  EXPECT_THROW(wrong_dt.run(x, y, {}), Error);
  settings.dt = 0.01;
  settings.restart_path = "no_such_checkpoint.bin";
  TimeLoop missing(*midpoint, system, settings);
  EXPECT_THROW(missing.run(x, y, {}), Error);
  int rank = 0;
  MPI_Comm_rank(PETSC_COMM_WORLD, &rank);
  if (rank == 0) std::remove(checkpointPath("validation").c_str());
}

} // namespace
} // namespace beam
