// The energy history of a run does not depend on the number of ranks.
//
// Registered twice: test_mpi_energy (1 rank) writes energy_history_np1.txt in the working directory (the
// build tree); test_mpi_energy_np2 (2 ranks) runs after it (CTest fixture) and compares its own history
// with that file, failing when the file is missing, so the comparison cannot pass silently.
//
// Both runs: the default beam (BeamSpec defaults: 20x5, clamped left, -0.1 at the bottom-right node),
// from rest, 200 steps of dt = 0.01, midpoint and semi-implicit, direct solver. The partitions differ only
// in round-off (parallel MUMPS orders its sums differently), and both schemes are stable here (w_max dt
// well below 2), so the histories agree to round-off amplified by a bounded propagator: 1e-10 relative.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "MesLib/Beam.hpp"
#include "MesLib/BeamSystem.hpp"
#include "solvers/TimeLoop.hpp"
#include "tests/RunFromRest.hpp"

using namespace beam;

namespace {

class EnergyHistory : public Monitor {
public:
  void observe(const StepState &s) override {
    steps.push_back(s.step);
    energy.push_back(s.energy);
  }
  std::vector<PetscInt> steps;
  std::vector<EnergyTerms> energy;
};

struct Row {
  std::string scheme;
  long step = 0;
  double kinetic = 0, potential = 0, work = 0, total = 0, scale = 0;
};

std::vector<Row> runBoth() {
  const BeamSpec spec;
  const Beam beam(spec, PETSC_COMM_WORLD);
  const SecondOrderSystem sys = beamSystem(beam);
  std::vector<Row> rows;
  for (const char *name : {"midpoint", "semi_implicit"}) {
    RunSettings settings;
    settings.dt = 0.01;
    settings.T = 200 * settings.dt;
    EnergyHistory h;
    const RunResult res = runFromRest(beam, sys, name, settings, {&h}).result;
    EXPECT_FALSE(res.diverged) << name << ": " << res.divergence;
    EXPECT_EQ(res.steps_done, 200) << name;
    EXPECT_EQ(h.energy.size(), 201u) << name;
    if (std::string(name) == "midpoint") { // conserved up to the direct solve's round-off
      EXPECT_LE(res.max_abs_drift, 1e-10) << name;
    }
    for (size_t i = 0; i < h.energy.size(); ++i) {
      const EnergyTerms &e = h.energy[i];
      rows.push_back({name, long(h.steps[i]), e.kinetic, e.potential, e.work, e.total(), res.energy_scale});
    }
  }
  return rows;
}

void write(const std::string &path, const std::vector<Row> &rows) {
  FILE *f = std::fopen(path.c_str(), "w");
  ASSERT_NE(f, nullptr) << "cannot write " << path;
  std::fprintf(f, "# scheme step kinetic potential work total energy_scale\n");
  for (const Row &r : rows)
    std::fprintf(f, "%s %ld %.17g %.17g %.17g %.17g %.17g\n", r.scheme.c_str(), r.step, r.kinetic, r.potential,
                 r.work, r.total, r.scale);
  ASSERT_EQ(std::fclose(f), 0) << "cannot write " << path;
}

bool read(const std::string &path, std::vector<Row> &rows) {
  std::ifstream in(path);
  if (!in) return false;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream s(line);
    Row r;
    s >> r.scheme >> r.step >> r.kinetic >> r.potential >> r.work >> r.total >> r.scale;
    if (s.fail()) return false;
    rows.push_back(r);
  }
  return true;
}

// Returns an empty string when `mine` matches `ref`, else the first difference.
std::string compare(const std::vector<Row> &ref, const std::vector<Row> &mine) {
  if (ref.size() != mine.size())
    return "row count " + std::to_string(mine.size()) + " vs " + std::to_string(ref.size()) + " in the np1 file";
  for (size_t i = 0; i < ref.size(); ++i) {
    const Row &a = ref[i], &b = mine[i];
    if (a.scheme != b.scheme || a.step != b.step) return "row " + std::to_string(i) + ": different scheme/step";
    // Each term relative to its own size; the total (E - 0, a cancellation down to round-off for
    // midpoint from rest) relative to the run's energy scale 1/2 f'S^-1 f, the size of the terms.
    const double scale = std::max(std::abs(a.scale), std::abs(b.scale));
    struct V {
      const char *name;
      double x, y, ref;
    };
    for (const V &v : {V{"kinetic", a.kinetic, b.kinetic, std::max(std::abs(a.kinetic), std::abs(b.kinetic))},
                       V{"potential", a.potential, b.potential, std::max(std::abs(a.potential), std::abs(b.potential))},
                       V{"work", a.work, b.work, std::max(std::abs(a.work), std::abs(b.work))},
                       V{"total", a.total, b.total, scale},
                       V{"energy_scale", a.scale, b.scale, scale}})
      if (!(std::abs(v.x - v.y) <= 1e-10 * v.ref)) {
        std::ostringstream m;
        m.precision(17);
        m << a.scheme << " step " << a.step << " " << v.name << ": np1 " << v.x << ", this run " << v.y;
        return m.str();
      }
  }
  return "";
}

} // namespace

TEST(MpiEnergy, HistoryIndependentOfRankCount) {
  int rank = 0, size = 1;
  MPI_Comm_rank(PETSC_COMM_WORLD, &rank);
  MPI_Comm_size(PETSC_COMM_WORLD, &size);
  const std::vector<Row> rows = runBoth(); // collective
  ASSERT_EQ(rows.size(), 402u);

  // Rank 0 writes and compares; the verdict is broadcast so every rank agrees.
  int ok = 1;
  std::string why;
  if (rank == 0) {
    write("energy_history_np" + std::to_string(size) + ".txt", rows);
    if (size > 1) {
      std::vector<Row> ref;
      if (!read("energy_history_np1.txt", ref)) {
        ok = 0;
        why = "energy_history_np1.txt is missing or unreadable in the working directory: run test_mpi_energy "
              "(1 rank) first";
      } else {
        why = compare(ref, rows);
        ok = why.empty();
      }
    }
  }
  MPI_Bcast(&ok, 1, MPI_INT, 0, PETSC_COMM_WORLD);
  EXPECT_TRUE(ok) << why;
}
