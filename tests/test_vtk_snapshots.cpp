// VtkSnapshots: files of the series, the data read back through VTK's own readers, and the error cases.
// Runs on 1 rank (one .vtu per snapshot) and under mpiexec (pieces + .pvtu).
#include <gtest/gtest.h>
#include <vtkCellData.h>
#include <vtkCellType.h>
#include <vtkDataArray.h>
#include <vtkFieldData.h>
#include <vtkNew.h>
#include <vtkPointData.h>
#include <vtkSmartPointer.h>
#include <vtkUnstructuredGrid.h>
#include <vtkPolyData.h>
#include <vtkXMLPPolyDataReader.h>
#include <vtkXMLPUnstructuredGridReader.h>
#include <vtkXMLPolyDataReader.h>
#include <vtkXMLUnstructuredGridReader.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <regex>
#include <set>
#include <sstream>

#include "MesLib/BeamModel.hpp"
#include "MesLib/BeamSystem.hpp"
#include "ReadSnapshot.hpp"
#include "output/VtkSnapshots.hpp"

namespace fs = std::filesystem;
using namespace beam;

namespace {

int commRank() {
  int r = 0;
  MPI_Comm_rank(PETSC_COMM_WORLD, &r);
  return r;
}
int commSize() {
  int s = 1;
  MPI_Comm_size(PETSC_COMM_WORLD, &s);
  return s;
}

// A fresh directory, created by rank 0 and shared with the others; removed at the end of the test.
class TempDir {
public:
  TempDir() {
    char buf[256] = "";
    if (commRank() == 0) {
      std::string pattern = (fs::temp_directory_path() / "beam_vtk_XXXXXX").string();
      const char *made = mkdtemp(pattern.data());
      if (made) std::snprintf(buf, sizeof buf, "%s", made);
    }
    MPI_Bcast(buf, sizeof buf, MPI_CHAR, 0, PETSC_COMM_WORLD);
    path_ = buf;
  }
  ~TempDir() {
    MPI_Barrier(PETSC_COMM_WORLD);
    if (commRank() == 0 && !path_.empty()) fs::remove_all(path_);
  }
  const std::string &path() const { return path_; }

private:
  std::string path_;
};

using Field = std::function<double(double X, double Y, int d)>; // physical coordinates, DOF d

void fill(const Beam &beam, Vec v, const Field &f) {
  PetscScalar *a = nullptr;
  BEAM_PETSC(VecGetArray(v, &a));
  for (PetscInt n = beam.nodeBegin(); n < beam.nodeEnd(); ++n) {
    const auto [x, y] = beam.mesh().nodeXY(n);
    for (int d = 0; d < 2; ++d)
      a[2 * (n - beam.nodeBegin()) + d] = f(x * beam.mesh().hx(), y * beam.mesh().hy(), d);
  }
  BEAM_PETSC(VecRestoreArray(v, &a));
}

StepState stateAt(PetscInt step, PetscInt steps, double time, Vec x, Vec y) {
  StepState s;
  s.step = step;
  s.steps = steps;
  s.time = time;
  s.x = x;
  s.y = y;
  return s;
}

std::string slurp(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// (time, file) entries of a .pvd, in order.
std::vector<std::pair<double, std::string>> readPvd(const std::string &path) {
  const std::string text = slurp(path);
  const std::regex entry(R"re(<DataSet timestep="([^"]+)" group="" part="0" file="([^"]+)"/>)re");
  std::vector<std::pair<double, std::string>> out;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), entry); it != std::sregex_iterator(); ++it)
    out.emplace_back(std::stod((*it)[1].str()), (*it)[2].str());
  return out;
}

// Grid position (X, Y) of a point from its coordinates.
std::array<int, 2> gridPos(vtkUnstructuredGrid *g, vtkIdType p, const BeamMesh &mesh) {
  double c[3];
  g->GetPoint(p, c);
  return {int(std::lround(c[0] / mesh.hx())), int(std::lround(c[1] / mesh.hy()))};
}

BeamSpec smallSpec() {
  BeamSpec spec;
  spec.mx = 4;
  spec.my = 2;
  spec.hx = 0.5;
  spec.hy = 0.25;
  return spec;
}

} // namespace

// Each piece read on its own, as a reader of one file sees it: the points beyond one per node are the
// copies of the borders the pieces share, and exactly those carry VTK's DUPLICATEPOINT mark (a sixth
// mutation audit: all marks 0 passed; the small beam below has one piece on 2 ranks). The default 20x5
// beam on 2 ranks: 147 points for 126 nodes.
TEST(VtkSnapshots, PiecesMarkTheCopiesTheyShare) {
  if (commSize() == 1) GTEST_SKIP() << "one piece: nothing shared";
  const Beam beam(BeamSpec{}, PETSC_COMM_WORLD);
  TempDir dir;
  ASSERT_FALSE(dir.path().empty());
  PVec x = beam.createVector(), y = beam.createVector();
  const BeamModel model(beam, beamSystem(beam), LinearSolverKind::Direct);
  VtkSnapshots snaps(model, dir.path(), 1, "beam");
  snaps.observe(stateAt(0, 1, 0.0, x, y));
  snaps.finish(RunResult{});
  if (commRank() != 0) return;
  vtkIdType points = 0, marked = 0;
  int pieces = 0;
  for (int r = 0; r < commSize(); ++r) {
    const std::string piece = dir.path() + "/beam_000000_" + std::to_string(r) + ".vtu";
    if (!fs::exists(piece)) continue;
    ++pieces;
    auto p = readSnapshot(piece);
    vtkDataArray *marks = p->GetPointData()->GetArray(vtkDataSetAttributes::GhostArrayName());
    ASSERT_TRUE(marks) << piece;
    points += p->GetNumberOfPoints();
    for (vtkIdType i = 0; i < p->GetNumberOfPoints(); ++i) {
      const double mark = marks->GetComponent(i, 0);
      EXPECT_TRUE(mark == 0 || mark == double(vtkDataSetAttributes::DUPLICATEPOINT)) << piece << " point " << i;
      marked += mark != 0;
    }
  }
  const vtkIdType nodes = vtkIdType(beam.mesh().nodeCount());
  EXPECT_GE(pieces, 2);
  EXPECT_GT(points, nodes);
  EXPECT_EQ(marked, points - nodes);
}

TEST(VtkSnapshots, SeriesFilesAndFieldsReadBack) {
  const BeamSpec spec = smallSpec();
  const Beam beam(spec, PETSC_COMM_WORLD);
  const BeamMesh &mesh = beam.mesh();
  TempDir dir;
  ASSERT_FALSE(dir.path().empty());
  PVec x = beam.createVector(), y = beam.createVector();

  // Node (X, Y) in grid units; each step scales the fields so snapshots differ.
  auto u = [](int X, int Y, int d, int n) { return (1 + n) * (d == 0 ? 0.01 * X * Y : -0.02 * X); };
  auto v = [](int X, int Y, int d, int n) { return (1 + n) * (d == 0 ? 0.3 * X + Y : -0.5 * Y); };
  const PetscInt steps = 5;
  const double dt = 0.1;
  const BeamModel model(beam, beamSystem(beam), LinearSolverKind::Direct);
  VtkSnapshots snaps(model, dir.path(), 2, "beam");
  for (PetscInt n = 0; n <= steps; ++n) {
    auto grid = [&](auto f) { // a field in grid units, as a function of physical coordinates
      return [&, f](double X, double Y, int d) {
        return f(int(std::lround(X / spec.hx)), int(std::lround(Y / spec.hy)), d, int(n));
      };
    };
    fill(beam, x, grid(u));
    fill(beam, y, grid(v));
    snaps.observe(stateAt(n, steps, n * dt, x, y));
  }
  snaps.finish(RunResult{});

  const bool parallel = commSize() > 1;
  const std::vector<PetscInt> expected_steps = {0, 2, 4, 5};
  auto snapshotName = [&](PetscInt n) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "beam_%06lld.%s", (long long)n, parallel ? "pvtu" : "vtu");
    return std::string(buf);
  };
  // series() agrees on every rank.
  ASSERT_EQ(snaps.series().size(), expected_steps.size());
  for (size_t i = 0; i < expected_steps.size(); ++i) {
    EXPECT_DOUBLE_EQ(snaps.series()[i].first, expected_steps[i] * dt);
    EXPECT_EQ(snaps.series()[i].second, snapshotName(expected_steps[i]));
  }
  const int has_piece = beam.ownedElements().empty() ? 0 : 1;
  int pieces = 0;
  MPI_Allreduce(&has_piece, &pieces, 1, MPI_INT, MPI_SUM, PETSC_COMM_WORLD);
  if (commRank() != 0) return;

  // The .pvd lists exactly these snapshots with their times; no temporary file is left.
  const auto pvd = readPvd(dir.path() + "/beam.pvd");
  ASSERT_EQ(pvd.size(), expected_steps.size());
  for (size_t i = 0; i < pvd.size(); ++i) {
    EXPECT_EQ(pvd[i].first, expected_steps[i] * dt) << pvd[i].second;
    EXPECT_EQ(pvd[i].second, snapshotName(expected_steps[i]));
    EXPECT_TRUE(fs::exists(dir.path() + "/" + pvd[i].second));
  }
  size_t vtu_count = 0;
  for (const auto &e : fs::directory_iterator(dir.path())) {
    const std::string file = e.path().filename().string();
    EXPECT_EQ(file.find(".tmp"), std::string::npos) << file;
    if (e.path().extension() == ".vtu") {
      ++vtu_count;
      EXPECT_NE(slurp(e.path().string()).find("<AppendedData encoding=\"raw\">"), std::string::npos) << file;
    }
  }
  EXPECT_EQ(vtu_count, expected_steps.size() * size_t(pieces));

  for (PetscInt n : {PetscInt(2), PetscInt(5)}) {
    SCOPED_TRACE("step " + std::to_string(n));
    auto g = readSnapshot(dir.path() + "/" + snapshotName(n));
    ASSERT_TRUE(g);
    ASSERT_EQ(g->GetNumberOfCells(), mesh.elementCount());
    // Pieces repeat the nodes on their borders; together they cover every node exactly once or more.
    std::set<std::array<int, 2>> seen;
    vtkDataArray *disp = g->GetPointData()->GetArray("displacement");
    vtkDataArray *vel = g->GetPointData()->GetArray("velocity");
    ASSERT_TRUE(disp && vel);
    ASSERT_EQ(disp->GetNumberOfComponents(), 3);
    ASSERT_EQ(vel->GetNumberOfComponents(), 3);
    // The displacement is the active vector array (ParaView's Warp By Vector and Glyph take it without a
    // choice), in the .vtu and in the .pvtu's summary.
    ASSERT_NE(g->GetPointData()->GetVectors(), nullptr);
    EXPECT_STREQ(g->GetPointData()->GetVectors()->GetName(), "displacement");
    for (vtkIdType p = 0; p < g->GetNumberOfPoints(); ++p) {
      const auto [X, Y] = gridPos(g, p, mesh);
      seen.insert({X, Y});
      double c[3];
      g->GetPoint(p, c);
      EXPECT_EQ(c[0], X * spec.hx);
      EXPECT_EQ(c[1], Y * spec.hy);
      EXPECT_EQ(c[2], 0.0);
      for (int d = 0; d < 2; ++d) {
        EXPECT_EQ(disp->GetComponent(p, d), u(X, Y, d, int(n))) << X << "," << Y;
        EXPECT_EQ(vel->GetComponent(p, d), v(X, Y, d, int(n))) << X << "," << Y;
      }
      EXPECT_EQ(disp->GetComponent(p, 2), 0.0);
      EXPECT_EQ(vel->GetComponent(p, 2), 0.0);
    }
    EXPECT_EQ(PetscInt(seen.size()), mesh.nodeCount());
    // Under MPI the copies another piece owns are marked (VTK's DUPLICATEPOINT ghosts): the unmarked
    // points are every node exactly once, so ParaView's statistics count each once.
    vtkDataArray *ghosts = g->GetPointData()->GetArray(vtkDataSetAttributes::GhostArrayName());
    if (parallel) {
      ASSERT_TRUE(ghosts);
      std::multiset<std::array<int, 2>> unmarked;
      for (vtkIdType p = 0; p < g->GetNumberOfPoints(); ++p)
        if (ghosts->GetComponent(p, 0) == 0) unmarked.insert(gridPos(g, p, mesh));
        else EXPECT_EQ(ghosts->GetComponent(p, 0), double(vtkDataSetAttributes::DUPLICATEPOINT));
      EXPECT_EQ(PetscInt(unmarked.size()), mesh.nodeCount());
      EXPECT_EQ(PetscInt(std::set<std::array<int, 2>>(unmarked.begin(), unmarked.end()).size()), mesh.nodeCount());
    } else {
      EXPECT_EQ(ghosts, nullptr);
    }
    if (!parallel) {
      EXPECT_EQ(g->GetNumberOfPoints(), mesh.nodeCount());
    }

    // Every element once, as a counter-clockwise quad from its bottom-left node.
    std::set<std::array<int, 2>> elements;
    for (vtkIdType c = 0; c < g->GetNumberOfCells(); ++c) {
      ASSERT_EQ(g->GetCellType(c), VTK_QUAD);
      vtkIdType npts = 0;
      const vtkIdType *pts = nullptr;
      g->GetCellPoints(c, npts, pts);
      ASSERT_EQ(npts, 4);
      const auto p0 = gridPos(g, pts[0], mesh);
      elements.insert(p0);
      EXPECT_EQ(gridPos(g, pts[1], mesh), (std::array<int, 2>{p0[0] + 1, p0[1]}));
      EXPECT_EQ(gridPos(g, pts[2], mesh), (std::array<int, 2>{p0[0] + 1, p0[1] + 1}));
      EXPECT_EQ(gridPos(g, pts[3], mesh), (std::array<int, 2>{p0[0], p0[1] + 1}));
    }
    EXPECT_EQ(PetscInt(elements.size()), mesh.elementCount());
    EXPECT_TRUE(g->GetCellData()->GetArray("von_mises"));
    EXPECT_TRUE(g->GetCellData()->GetArray("strain_energy_density"));

    vtkDataArray *time = g->GetFieldData()->GetArray("TIME");
    vtkDataArray *step = g->GetFieldData()->GetArray("STEP");
    ASSERT_TRUE(time && step);
    ASSERT_EQ(time->GetNumberOfTuples(), 1);
    EXPECT_EQ(time->GetComponent(0, 0), n * dt);
    EXPECT_EQ(step->GetComponent(0, 0), double(n));
  }
}

TEST(VtkSnapshots, RigidMotionHasNoStress) {
  const BeamSpec spec = smallSpec();
  const Beam beam(spec, PETSC_COMM_WORLD);
  TempDir dir;
  PVec x = beam.createVector(), y = beam.createVector();
  const BeamModel model(beam, beamSystem(beam), LinearSolverKind::Direct);
  VtkSnapshots snaps(model, dir.path(), 1, "beam");
  // A translation, then a small rotation (linear theory: no strain either).
  fill(beam, x, [](double, double, int d) { return d == 0 ? 0.3 : -0.7; });
  snaps.observe(stateAt(0, 1, 0.0, x, y));
  const double theta = 1e-3;
  fill(beam, x, [&](double X, double Y, int d) { return d == 0 ? -theta * Y : theta * X; });
  snaps.observe(stateAt(1, 1, 1.0, x, y));
  if (commRank() != 0) return;
  for (const auto &[time, file] : snaps.series()) {
    SCOPED_TRACE(file);
    auto g = readSnapshot(dir.path() + "/" + file);
    vtkDataArray *energy = g->GetCellData()->GetArray("strain_energy_density");
    vtkDataArray *mises = g->GetCellData()->GetArray("von_mises");
    ASSERT_TRUE(energy && mises);
    ASSERT_EQ(energy->GetNumberOfTuples(), beam.mesh().elementCount());
    for (vtkIdType c = 0; c < energy->GetNumberOfTuples(); ++c) {
      EXPECT_NEAR(energy->GetComponent(c, 0), 0.0, 1e-12);
      EXPECT_NEAR(mises->GetComponent(c, 0), 0.0, 1e-12);
    }
  }
}

TEST(VtkSnapshots, UniformStretchMatchesClosedForm) {
  BeamSpec spec = smallSpec();
  spec.material.E = 200;
  spec.material.nu = 0.25;
  // Thickness scales K_e and the volume alike: the density must not depend on it.
  spec.element_thickness.resize(size_t(spec.mx * spec.my));
  for (size_t q = 0; q < spec.element_thickness.size(); ++q) spec.element_thickness[q] = 0.5 + 0.25 * double(q);
  const Beam beam(spec, PETSC_COMM_WORLD);
  TempDir dir;
  PVec x = beam.createVector(), y = beam.createVector();
  const double e = 1e-3;
  fill(beam, x, [&](double X, double, int d) { return d == 0 ? e * X : 0.0; });
  const BeamModel model(beam, beamSystem(beam), LinearSolverKind::Direct);
  VtkSnapshots snaps(model, dir.path(), 3, "stretch");
  snaps.observe(stateAt(0, 0, 0.0, x, y));
  if (commRank() != 0) return;

  const double E = spec.material.E, nu = spec.material.nu;
  const double sxx = E / (1 - nu * nu) * e, syy = nu * sxx;
  const double mises = std::sqrt(sxx * sxx - sxx * syy + syy * syy);
  const double density = 0.5 * sxx * e; // 1/2 sigma : epsilon, with eps_yy = eps_xy = 0
  ASSERT_EQ(snaps.series().size(), 1u);
  auto g = readSnapshot(dir.path() + "/" + snaps.series()[0].second);
  vtkDataArray *energy = g->GetCellData()->GetArray("strain_energy_density");
  vtkDataArray *vm = g->GetCellData()->GetArray("von_mises");
  ASSERT_TRUE(energy && vm);
  ASSERT_EQ(vm->GetNumberOfTuples(), beam.mesh().elementCount());
  for (vtkIdType c = 0; c < vm->GetNumberOfTuples(); ++c) {
    EXPECT_NEAR(vm->GetComponent(c, 0), mises, 1e-10 * mises);
    EXPECT_NEAR(energy->GetComponent(c, 0), density, 1e-10 * density);
  }
}

// Under MPI a rank that owns only top-row nodes has no element: it writes no piece and the .pvtu lists
// only the others.
TEST(VtkSnapshots, RankWithoutElementsWritesNoPiece) {
  BeamSpec spec;
  spec.mx = 1;
  spec.my = 1;
  const Beam beam(spec, PETSC_COMM_WORLD);
  TempDir dir;
  PVec x = beam.createVector(), y = beam.createVector();
  fill(beam, x, [](double X, double Y, int d) { return d == 0 ? X + 2 * Y : -Y; });
  const BeamModel model(beam, beamSystem(beam), LinearSolverKind::Direct);
  VtkSnapshots snaps(model, dir.path(), 1, "one");
  snaps.observe(stateAt(0, 0, 0.25, x, y));
  if (commRank() != 0) return;
  auto g = readSnapshot(dir.path() + "/" + snaps.series().at(0).second);
  ASSERT_EQ(g->GetNumberOfCells(), 1);
  ASSERT_EQ(g->GetNumberOfPoints(), 4);
  vtkDataArray *disp = g->GetPointData()->GetArray("displacement");
  for (vtkIdType p = 0; p < 4; ++p) {
    const auto [X, Y] = gridPos(g, p, beam.mesh());
    EXPECT_EQ(disp->GetComponent(p, 0), X + 2.0 * Y);
    EXPECT_EQ(disp->GetComponent(p, 1), -double(Y));
  }
  EXPECT_EQ(g->GetFieldData()->GetArray("TIME")->GetComponent(0, 0), 0.25);
  EXPECT_EQ(g->GetFieldData()->GetArray("TimeValue")->GetComponent(0, 0), 0.25); // ParaView's name, for file groups
  const auto pvd = readPvd(dir.path() + "/one.pvd");
  ASSERT_EQ(pvd.size(), 1u);
  EXPECT_EQ(pvd[0].first, 0.25);
}

// The small beam at rest as a model, with a fresh directory: the snapshot tests' common setup.
struct SmallBeamRun {
  const Beam beam{smallSpec(), PETSC_COMM_WORLD};
  TempDir dir;
  PVec x = beam.createVector(), y = beam.createVector();
  const BeamModel model{beam, beamSystem(beam), LinearSolverKind::Direct};
};

TEST(VtkSnapshots, EveryLargerThanTheRunGivesFirstAndLast) {
  SmallBeamRun r;
  auto &[beam, dir, x, y, model] = r;
  VtkSnapshots snaps(model, dir.path(), 10, "beam");
  for (PetscInt n = 0; n <= 3; ++n) snaps.observe(stateAt(n, 3, 0.5 * n, x, y));
  ASSERT_EQ(snaps.series().size(), 2u);
  EXPECT_EQ(snaps.series()[0].first, 0.0);
  EXPECT_EQ(snaps.series()[1].first, 1.5);
  if (commRank() == 0) {
    EXPECT_EQ(readPvd(dir.path() + "/beam.pvd"), snaps.series());
  }
}

TEST(VtkSnapshots, RejectsEveryBelowOne) {
  const Beam beam(smallSpec(), PETSC_COMM_WORLD);
  for (int every : {0, -3}) {
    try {
      const BeamModel model(beam, beamSystem(beam), LinearSolverKind::Direct);
      VtkSnapshots snaps(model, "/tmp", every, "beam");
      ADD_FAILURE() << "every = " << every << " accepted";
    } catch (const Error &err) {
      EXPECT_EQ(err.exitCode(), kExitBadInput);
      EXPECT_NE(std::string(err.what()).find("-snapshot_every"), std::string::npos) << err.what();
      EXPECT_NE(std::string(err.what()).find("accepted: an integer >= 1"), std::string::npos) << err.what();
    }
  }
}

// A write that fails (here: the directory cannot exist, a regular file stands in its way — VTK's
// parallel writer creates missing directories) is a run error naming the file, on every rank; the
// snapshot is not listed, and once the directory exists the next snapshot is written normally. On one
// rank the write runs in the background: its error comes when the snapshot is waited for (flush, the
// next snapshot, the run's end).
TEST(VtkSnapshots, WriteFailureIsARunErrorNamingTheFile) {
  const Beam beam(smallSpec(), PETSC_COMM_WORLD);
  TempDir dir;
  PVec x = beam.createVector(), y = beam.createVector();
  const std::string missing = dir.path() + "/missing";
  if (commRank() == 0) std::ofstream(missing) << "a file, not a directory";
  MPI_Barrier(PETSC_COMM_WORLD);
  const BeamModel model(beam, beamSystem(beam), LinearSolverKind::Direct);
  VtkSnapshots snaps(model, missing, 1, "beam");
  try {
    snaps.observe(stateAt(0, 1, 0.0, x, y));
    snaps.flush();
    ADD_FAILURE() << "no error";
  } catch (const Error &err) {
    EXPECT_EQ(err.exitCode(), kExitRunFailed);
    const std::string what = err.what();
    EXPECT_NE(what.find("cannot write '" + missing + "/beam_000000"), std::string::npos) << what;
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;
  }
  EXPECT_TRUE(snaps.series().empty());

  MPI_Barrier(PETSC_COMM_WORLD);
  if (commRank() == 0) {
    fs::remove(missing);
    fs::create_directory(missing);
  }
  MPI_Barrier(PETSC_COMM_WORLD);
  snaps.observe(stateAt(1, 1, 1.0, x, y));
  ASSERT_EQ(snaps.series().size(), 1u);
  if (commRank() == 0) {
    EXPECT_TRUE(fs::exists(missing + "/" + snaps.series()[0].second));
    EXPECT_EQ(readPvd(missing + "/beam.pvd"), snaps.series());
  }
}

// The background write: a snapshot is listed once complete — at the next snapshot, at flush() (before
// a checkpoint), at the run's end — and a monitor destroyed with a snapshot still being written (a run
// ended by an exception) waits for it; on one rank it lists it, so the .pvd on disk names every complete
// file; on several it cannot know the other ranks' pieces and leaves it out (its own piece is written).
TEST(VtkSnapshots, BackgroundWritesAreListedOnceComplete) {
  SmallBeamRun r;
  auto &[beam, dir, x, y, model] = r;
  {
    VtkSnapshots snaps(model, dir.path(), 1, "beam");
    snaps.observe(stateAt(0, 10, 0.0, x, y));
    snaps.observe(stateAt(1, 10, 0.1, x, y));
    EXPECT_GE(snaps.series().size(), 1u); // step 0 at least: waited for before step 1 was started
    snaps.flush();
    ASSERT_EQ(snaps.series().size(), 2u);
    snaps.observe(stateAt(2, 10, 0.2, x, y)); // left pending: the destructor lists it
  }
  MPI_Barrier(PETSC_COMM_WORLD);
  if (commRank() == 0) {
    const auto series = readPvd(dir.path() + "/beam.pvd");
    ASSERT_EQ(series.size(), commSize() > 1 ? 2u : 3u);
    for (const auto &entry : series) EXPECT_TRUE(fs::exists(dir.path() + "/" + entry.second)) << entry.second;
    EXPECT_TRUE(fs::exists(dir.path() + (commSize() > 1 ? "/beam_000002_0.vtu" : "/beam_000002.vtu")));
  }
}

namespace {

// A model that draws poly data: on each rank two particles joined by a line, at x = 2 rank and 2 rank + 1,
// with a vector per point and a scalar per line. Only draw() is used.
class TwoParticlesPerRank final : public Model {
public:
  std::string name() const override { return "two_particles"; }
  MPI_Comm comm() const override { return PETSC_COMM_WORLD; }
  PVec createVector() const override {
    PVec v;
    BEAM_PETSC(VecCreateMPI(PETSC_COMM_WORLD, 1, PETSC_DECIDE, v.out()));
    return v;
  }
  void force(double, Vec, Vec, Vec) const override {}
  void acceleration(double, Vec, Vec, Vec) const override {}
  void massMult(Vec, Vec, Vec) const override {}
  std::vector<std::string> energyNames() const override { return {"kinetic"}; }
  void storedEnergy(double, Vec, Vec, std::vector<double> &parts) const override { parts.assign(1, 0.0); }
  void draw(Vec, Vec, Drawing &d) const override {
    const double x0 = 2.0 * commRank();
    d.clear();
    d.kind = Drawing::Kind::PolyData;
    d.points = {{x0, 0, 0}, {x0 + 1, 0, 0}};
    d.addCell(VTK_LINE, {0, 1});
    d.point_data.push_back({"velocity", 3, {x0, 1, 2, x0 + 1, 1, 2}});
    d.cell_data.push_back({"tension", 1, {10 * x0}});
  }
};

} // namespace

// Poly data (particles and springs): the .vtp, or under MPI the pieces and the .pvtp, read back by VTK's
// readers with every rank's points, lines and arrays.
TEST(VtkSnapshots, PolyDataReadsBack) {
  TempDir dir;
  const TwoParticlesPerRank model;
  PVec x = model.createVector(), y = model.createVector();
  VtkSnapshots snaps(model, dir.path(), 1, "net");
  snaps.observe(stateAt(0, 0, 0.5, x, y)); // the last step: waited for
  ASSERT_EQ(snaps.series().size(), 1u);
  if (commRank() != 0) return;
  const std::string path = dir.path() + "/" + snaps.series()[0].second;
  vtkSmartPointer<vtkPolyData> pd;
  if (commSize() > 1) {
    EXPECT_EQ(snaps.series()[0].second, "net_000000.pvtp");
    vtkNew<vtkXMLPPolyDataReader> reader;
    reader->SetFileName(path.c_str());
    reader->Update();
    pd = reader->GetOutput();
  } else {
    EXPECT_EQ(snaps.series()[0].second, "net_000000.vtp");
    vtkNew<vtkXMLPolyDataReader> reader;
    reader->SetFileName(path.c_str());
    reader->Update();
    pd = reader->GetOutput();
  }
  const int size = commSize();
  ASSERT_EQ(pd->GetNumberOfPoints(), 2 * size);
  ASSERT_EQ(pd->GetNumberOfLines(), size);
  vtkDataArray *velocity = pd->GetPointData()->GetArray("velocity");
  vtkDataArray *tension = pd->GetCellData()->GetArray("tension");
  ASSERT_TRUE(velocity && tension);
  EXPECT_EQ(velocity->GetNumberOfComponents(), 3);
  std::set<double> xs, tensions;
  for (vtkIdType p = 0; p < pd->GetNumberOfPoints(); ++p) {
    double c[3];
    pd->GetPoint(p, c);
    EXPECT_EQ(velocity->GetComponent(p, 0), c[0]); // each point's data stays with it
    EXPECT_EQ(velocity->GetComponent(p, 2), 2.0);
    xs.insert(c[0]);
  }
  for (vtkIdType c = 0; c < pd->GetNumberOfCells(); ++c) tensions.insert(tension->GetComponent(c, 0));
  EXPECT_EQ(xs.size(), size_t(2 * size));
  EXPECT_EQ(*xs.rbegin(), 2.0 * size - 1);
  EXPECT_EQ(tensions.size(), size_t(size));
  EXPECT_EQ(*tensions.rbegin(), 10 * 2.0 * (size - 1));
}

// One naming rule for the writer, the restart's check of a .pvd and a new run's removal of an old
// series: <name>_<step>.<ext>, a piece <name>_<step>_<rank>.<ext>, ext vtu/vtp/pvtu/pvtp, with ".tmp" while
// written; nothing else (a path through "beam_/../", another series, another extension).
TEST(VtkSnapshots, SnapshotFileNamesFollowOneRule) {
  const SnapshotFileName a = parseSnapshotFileName("beam_000120.vtu", "beam");
  EXPECT_TRUE(a.matches);
  EXPECT_EQ(a.step, 120);
  EXPECT_FALSE(a.piece);
  EXPECT_FALSE(a.staging);
  const SnapshotFileName b = parseSnapshotFileName("mass_spring_000010_3.vtp.tmp", "mass_spring");
  EXPECT_TRUE(b.matches);
  EXPECT_EQ(b.step, 10);
  EXPECT_TRUE(b.piece);
  EXPECT_TRUE(b.staging);
  EXPECT_TRUE(isSnapshotFileName("beam_1000000000.pvtu", "beam"));
  for (const char *bad : {"beam_/../../base/beam_000050.vtu", "beam_00x.vtu", "beam_000010.vtk", "beam.pvd", "beams_000010.vtu",
                          "beam_000010", "beam_000010_.vtu", "beam__000010.vtu", "multibody_000010.vtp", "beam_-1.vtu"})
    EXPECT_FALSE(isSnapshotFileName(bad, "beam")) << bad;
}
