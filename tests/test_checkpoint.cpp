// Checkpoint and restart: for every registered scheme, a run stopped at step k (checkpoint written)
// and continued by a fresh scheme object from that checkpoint ends in the same state as an
// uninterrupted run — bit for bit on one rank, to 1e-12 relative on several (parallel reductions
// and MUMPS may round differently from run to run). Also: a mismatched restart is rejected (exit 2).
#include <gtest/gtest.h>
#include <sys/resource.h>

#include <csignal>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <functional>
#include <iterator>
#include <optional>
#include <string>

#include "MesLib/BeamSystem.hpp"
#include "output/CsvLog.hpp"
#include "common/StopSignal.hpp"
#include "output/EndFrame.hpp"
#include "solvers/Checkpoint.hpp"
#include "solvers/LinearModel.hpp"
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
  SecondOrderSystem damped = beamSystem(beam);
  BEAM_PETSC(MatDuplicate(damped.mass, MAT_COPY_VALUES, damped.damping.out())); // C = 0.05 M
  BEAM_PETSC(MatScale(damped.damping, 0.05));
  damped.load_factor = [](double t) { return std::sin(0.3 * t); };
  const LinearModel system(std::move(damped), LinearSolverKind::Direct);
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
    // What the verdict reads: the drift's signed extremes and its largest drawdown.
    EXPECT_EQ(whole.result.max_drift, resumed.result.max_drift);
    EXPECT_EQ(whole.result.min_drift, resumed.result.min_drift);
    EXPECT_EQ(whole.result.max_drawdown, resumed.result.max_drawdown);
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
  const LinearModel system(beamSystem(beam), LinearSolverKind::Direct);
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
    EXPECT_NE(std::string(e.what()).find("scheme was midpoint, now semi_implicit"), std::string::npos) << e.what();
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

// A checkpoint must not lie: one flipped bit anywhere (data or header), a truncated file, another
// run's identity, a directory — each is refused with an input error, and the vectors are not trusted.
class CorruptCheckpoint : public ::testing::Test {
protected:
  void SetUp() override {
    spec_.mx = 4;
    spec_.my = 1;
    beam_.emplace(spec_, PETSC_COMM_WORLD);
    model_.emplace(beamSystem(*beam_), LinearSolverKind::Direct);
    settings_.T = 0.05;
    settings_.identity = {{"lab", "test"}, {"E", "100"}};
    settings_.checkpoint_path = checkpointPath("corrupt");
    PVec x = model_->createVector(), y = model_->createVector();
    BEAM_PETSC(VecSet(x, 0.0));
    BEAM_PETSC(VecSet(y, 0.0));
    auto scheme = makeScheme("newmark"); // one history vector
    TimeLoop(*scheme, *model_, settings_).run(x, y, {});
    MPI_Barrier(PETSC_COMM_WORLD);
    std::ifstream in(settings_.checkpoint_path, std::ios::binary);
    bytes_.assign(std::istreambuf_iterator<char>(in), {});
    ASSERT_GT(bytes_.size(), 200u);
  }
  void TearDown() override {
    MPI_Barrier(PETSC_COMM_WORLD);
    if (rank() == 0) std::remove(settings_.checkpoint_path.c_str());
  }
  static int rank() {
    int r = 0;
    MPI_Comm_rank(PETSC_COMM_WORLD, &r);
    return r;
  }
  void writeBytes(const std::string &b) {
    MPI_Barrier(PETSC_COMM_WORLD);
    if (rank() == 0) std::ofstream(settings_.checkpoint_path, std::ios::binary) << b;
    MPI_Barrier(PETSC_COMM_WORLD);
  }
  // The error message of restarting from the file as it is now (empty when accepted).
  std::string restartError(const Identity &identity) {
    RunSettings s = settings_;
    s.identity = identity;
    s.restart_path = s.checkpoint_path;
    s.checkpoint_path.clear();
    PVec x = model_->createVector(), y = model_->createVector();
    auto scheme = makeScheme("newmark");
    try {
      TimeLoop(*scheme, *model_, s).run(x, y, {});
    } catch (const Error &e) {
      EXPECT_EQ(e.exitCode(), 2) << e.what();
      return e.what();
    }
    return "";
  }
  BeamSpec spec_;
  std::optional<Beam> beam_;
  std::optional<LinearModel> model_;
  RunSettings settings_;
  std::string bytes_;
};

TEST_F(CorruptCheckpoint, IntactOneIsAccepted) { EXPECT_EQ(restartError(settings_.identity), ""); }

TEST_F(CorruptCheckpoint, EveryFlippedBitIsRefused) {
  // Bits spread over the whole file: header, identity, checksum and the vectors' data.
  for (size_t at = 0; at < bytes_.size(); at += std::max<size_t>(1, bytes_.size() / 40)) {
    for (int bit : {0, 5}) {
      std::string b = bytes_;
      b[at] = char(b[at] ^ (1 << bit));
      writeBytes(b);
      EXPECT_NE(restartError(settings_.identity), "") << "byte " << at << " bit " << bit << " was accepted";
    }
  }
}

TEST_F(CorruptCheckpoint, TruncatedOrEmptyIsRefused) {
  for (size_t keep : {size_t(0), size_t(10), size_t(100), bytes_.size() / 2, bytes_.size() - 1}) {
    writeBytes(bytes_.substr(0, keep));
    EXPECT_NE(restartError(settings_.identity), "") << keep << " bytes were accepted";
  }
}

TEST_F(CorruptCheckpoint, AnotherRunIsRefusedNamingTheField) {
  const std::string e = restartError({{"lab", "test"}, {"E", "200"}});
  EXPECT_NE(e.find("E was 100, now 200"), std::string::npos) << e;
  const std::string f = restartError({{"lab", "other"}, {"E", "100"}});
  EXPECT_NE(f.find("lab was test, now other"), std::string::npos) << f;
}

TEST_F(CorruptCheckpoint, DirectoryIsRefused) {
  RunSettings s = settings_;
  s.restart_path = "/tmp";
  s.checkpoint_path.clear();
  PVec x = model_->createVector(), y = model_->createVector();
  auto scheme = makeScheme("newmark");
  try {
    TimeLoop(*scheme, *model_, s).run(x, y, {});
    FAIL() << "a directory was accepted as a checkpoint";
  } catch (const Error &e) {
    EXPECT_EQ(e.exitCode(), 2);
    EXPECT_NE(std::string(e.what()).find("not a regular file"), std::string::npos) << e.what();
  }
}

// A disk that fills in the middle of the checkpoint's vectors (here rank 0's file-size limit, half the
// checkpoint's size, inside x's values; only rank 0 writes): every rank stops together with rank 0's
// error (exit 3), no '<path>.tmp' is left and the previous checkpoint stays. Through VecView the other
// ranks waited for a rank 0 that had given up (on two ranks this test then hangs).
TEST(Checkpoint, AFullDiskInTheVectorsStopsEveryRankTogether) {
  int rank = 0;
  MPI_Comm_rank(PETSC_COMM_WORLD, &rank);
  const std::string path = checkpointPath("full_disk"), tmp = path + ".tmp";
  PVec x, y;
  BEAM_PETSC(VecCreateMPI(PETSC_COMM_WORLD, PETSC_DECIDE, 10000, x.out()));
  BEAM_PETSC(VecDuplicate(x, y.out()));
  BEAM_PETSC(VecSet(x, 1.5));
  BEAM_PETSC(VecSet(y, -2.5));
  CheckpointHeader header;
  header.scheme = "midpoint";
  header.size = 10000;
  header.step = 3;
  header.dt = 0.01;
  writeCheckpoint(path, header, x, y, {}); // the previous checkpoint
  std::string previous;
  if (rank == 0) {
    std::ifstream in(path, std::ios::binary);
    previous.assign(std::istreambuf_iterator<char>(in), {});
    ASSERT_GT(previous.size(), 160000u);
  }
  header.step = 4;
  BEAM_PETSC(VecSet(x, 3.0));
  rlimit old{};
  ASSERT_EQ(getrlimit(RLIMIT_FSIZE, &old), 0);
  const auto old_handler = std::signal(SIGXFSZ, SIG_IGN);
  if (rank == 0) {
    rlimit tight = old;
    tight.rlim_cur = previous.size() / 2;
    ASSERT_EQ(setrlimit(RLIMIT_FSIZE, &tight), 0);
  }
  std::string error;
  int code = 0;
  try {
    writeCheckpoint(path, header, x, y, {});
  } catch (const Error &e) {
    error = e.what();
    code = e.exitCode();
  }
  setrlimit(RLIMIT_FSIZE, &old);
  std::signal(SIGXFSZ, old_handler);
  EXPECT_EQ(code, 3) << error;
  EXPECT_NE(error.find("cannot write checkpoint '" + path + "'"), std::string::npos) << error;
  MPI_Barrier(PETSC_COMM_WORLD);
  if (rank == 0) {
    std::ifstream in(path, std::ios::binary);
    EXPECT_EQ(std::string(std::istreambuf_iterator<char>(in), {}), previous) << "the previous checkpoint must stay";
    EXPECT_FALSE(std::ifstream(tmp).good()) << tmp << " left behind";
    std::remove(path.c_str());
  }
}

// The header's own checks (a fifth mutation audit, 2026-11-28: each removed passed every test): a
// non-finite accumulator is refused when read, an identity field of another name is another field (not
// the same value under any name), and a checkpoint with more history vectors than the scheme keeps says
// how many it holds. Collective, as the labs write and read them.
TEST(CheckpointHeader, OwnChecksNameTheField) {
  auto vector = [](double value) {
    PVec v;
    BEAM_PETSC(VecCreateMPI(PETSC_COMM_WORLD, PETSC_DECIDE, 6, v.out()));
    BEAM_PETSC(VecSet(v, value));
    return v;
  };
  PVec x = vector(1), y = vector(2), h1 = vector(3), h2 = vector(4), h3 = vector(5);
  CheckpointHeader h;
  h.scheme = "midpoint";
  h.size = 6;
  h.dt = 0.1;
  h.identity = {{"model", "m"}};
  auto errorOf = [](const std::function<void()> &f) {
    try {
      f();
    } catch (const Error &e) {
      return std::string(e.what());
    }
    return std::string();
  };
  const std::string nan_path = checkpointPath("header_nan");
  h.dissipated = NAN;
  writeCheckpoint(nan_path, h, x, y, {});
  EXPECT_NE(errorOf([&] { readCheckpointHeader(PETSC_COMM_WORLD, nan_path); }).find("not finite"), std::string::npos);
  h.dissipated = 0;
  EXPECT_NE(errorOf([] { checkIdentity("p", {{"model", "m"}, {"a", "1"}}, {{"model", "m"}, {"b", "1"}}); }).find("b was (none), now 1"),
            std::string::npos);
  const std::string history_path = checkpointPath("header_history");
  h.history = 3;
  writeCheckpoint(history_path, h, x, y, {h1, h2, h3});
  EXPECT_NE(errorOf([&] { readCheckpointState(history_path, x, y, {h1, h2}); }).find("scheme history has 3 vectors"), std::string::npos);
  // The writing run's -snapshot_every comes back; a negative one is a corrupted header.
  const std::string grid_path = checkpointPath("header_grid");
  h.history = 0;
  h.series_every = 7;
  writeCheckpoint(grid_path, h, x, y, {});
  EXPECT_EQ(readCheckpointHeader(PETSC_COMM_WORLD, grid_path).series_every, 7);
  h.series_every = -1;
  writeCheckpoint(grid_path, h, x, y, {});
  EXPECT_NE(errorOf([&] { readCheckpointHeader(PETSC_COMM_WORLD, grid_path); }).find("count out of range"), std::string::npos);
  MPI_Barrier(PETSC_COMM_WORLD);
  int rank = 0;
  MPI_Comm_rank(PETSC_COMM_WORLD, &rank);
  if (rank == 0) {
    std::remove(nan_path.c_str());
    std::remove(history_path.c_str());
    std::remove(grid_path.c_str());
  }
}

// The entry an interrupted run wrote where it ended goes when the restart goes on, judged by that run's
// grid: off it (5 of every 7) dropped, on it (14) kept, whatever the entries before it say.
TEST(EndFrame, DroppedOnlyOffTheWritingRunsGrid) {
  EXPECT_TRUE(dropEndEntry({0, 5}, 5, 20, 7));          // two entries: still the end frame
  EXPECT_TRUE(dropEndEntry({0, 5, 7, 9}, 9, 20, 7));    // spacing 2 before it, grid 7
  EXPECT_FALSE(dropEndEntry({0, 7, 14}, 14, 20, 7));    // on the grid
  EXPECT_FALSE(dropEndEntry({0, 5, 10}, 10, 20, 5));    // on a grid the new run may not share
  EXPECT_FALSE(dropEndEntry({0, 7, 9}, 9, 9, 7));       // no step left: the series ends there
  EXPECT_FALSE(dropEndEntry({0, 7, 9}, 9, 20, 0));      // the writing run wrote no series
  EXPECT_FALSE(dropEndEntry({0, 7}, 9, 20, 7));         // no entry at the checkpoint
  EXPECT_FALSE(dropEndEntry({}, 9, 20, 7));
  EXPECT_FALSE(dropEndEntry({0}, 0, 20, 7));            // the initial state
}

// A row that does not fit (a full disk, here the file-size limit) is cut off again: the log stays valid
// CSV up to its last complete row, and the next row that fits continues it. One rank (the limit is the
// process's; on more ranks only rank 0 writes, the same code).
TEST(CsvLog, AFailedRowIsCutOffSoTheFileStaysValid) {
  int size = 1;
  MPI_Comm_size(PETSC_COMM_WORLD, &size);
  if (size > 1) GTEST_SKIP() << "the file-size limit is per process";
  char dir[] = "/tmp/csvlog_XXXXXX";
  ASSERT_NE(mkdtemp(dir), nullptr);
  const std::string path = std::string(dir) + "/log.csv";
  auto contents = [&] {
    std::ifstream in(path);
    return std::string(std::istreambuf_iterator<char>(in), {});
  };
  {
    CsvLog log(PETSC_COMM_WORLD, path, "a,b\n");
    log.write("0,1\n"); // 8 bytes with the header
    rlimit old{};
    ASSERT_EQ(getrlimit(RLIMIT_FSIZE, &old), 0);
    rlimit tight = old;
    tight.rlim_cur = 13; // room for 5 of the next row's 12 bytes: a partial write, then EFBIG
    const auto previous = std::signal(SIGXFSZ, SIG_IGN);
    ASSERT_EQ(setrlimit(RLIMIT_FSIZE, &tight), 0);
    std::string error;
    try {
      log.write("1,123456789\n");
    } catch (const Error &e) {
      error = e.what();
    }
    setrlimit(RLIMIT_FSIZE, &old);
    std::signal(SIGXFSZ, previous);
    EXPECT_NE(error.find("cannot write '" + path + "'"), std::string::npos) << error;
    EXPECT_EQ(contents(), "a,b\n0,1\n");
    log.write("2,3\n");
    log.close();
  }
  EXPECT_EQ(contents(), "a,b\n0,1\n2,3\n");
  std::remove(path.c_str());
  std::remove(dir);
}

} // namespace
} // namespace beam

// A sweep of runs (energy_drift's schemes) holds handlers around its runs' own: a signal that a run did
// not act on (it came during its last step) is still there for the sweep, not cleared by the next run's
// handlers (energy_drift went on to its next scheme, exit 0). Only the outermost clears a stale one.
TEST(StopSignal, NestedHandlersKeepASignalForTheSweep) {
  {
    const beam::StopHandlers sweep;
    EXPECT_EQ(beam::stopRequested(PETSC_COMM_WORLD), 0);
    {
      const beam::StopHandlers run;
      std::raise(SIGTERM); // recorded, not fatal: the run's handler
    }
    {
      const beam::StopHandlers next_run;
      EXPECT_EQ(beam::stopRequested(PETSC_COMM_WORLD), SIGTERM);
    }
    EXPECT_EQ(beam::stopRequested(PETSC_COMM_WORLD), SIGTERM);
  }
  const beam::StopHandlers fresh_sweep; // a new outermost one starts clean
  EXPECT_EQ(beam::stopRequested(PETSC_COMM_WORLD), 0);
}
