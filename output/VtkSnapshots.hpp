// Snapshots of the deformed beam for ParaView: a VTU (one piece per rank plus a .pvtu under MPI) every
// `every` steps, step 0 and the last step always, and one .pvd listing every snapshot with its time.
//
// Each snapshot holds quad cells on the undeformed mesh, point data `displacement` and `velocity`
// (3-vectors, z = 0, so "Warp By Vector" shows the motion), cell data `von_mises` (centre stress) and
// `strain_energy_density` (1/2 u_e'K_e u_e / element volume), and field data TIME and STEP. Binary
// appended encoding. The .pvd is rewritten (temporary file + rename) after every snapshot, so a run that
// stops at any point leaves a series ParaView opens.
#pragma once
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "MesLib/Beam.hpp"
#include "solvers/Monitor.hpp"

namespace beam {

class VtkSnapshots final : public Monitor {
public:
  // Writes into `dir` (which must exist): <dir>/<name>_<step>.vtu (or .pvtu + <name>_<step>_<rank>.vtu)
  // and <dir>/<name>.pvd. every >= 1.
  VtkSnapshots(const Beam &beam, std::string dir, int every, std::string name = "beam");
  ~VtkSnapshots() override;
  void observe(const StepState &state) override;
  void resume(const StepState &state) override;
  void finish(const RunResult &result) override;

  // Files of the series written so far (relative to dir), with their times.
  const std::vector<std::pair<double, std::string>> &series() const { return series_; }

private:
  struct Grid; // the VTK objects, kept out of this header

  void write(const StepState &state);
  void writePvtu(PetscInt step) const;
  void writePvd() const;
  // <name>_<step>.<ext> for rank < 0, else that rank's piece <name>_<step>_<rank>.<ext>.
  std::string fileName(PetscInt step, int rank, const char *ext) const;

  const Beam &beam_;
  std::string dir_, name_;
  int every_;
  int rank_ = 0, size_ = 1;
  std::vector<std::pair<double, std::string>> series_;
  // Local node set of this rank's elements and the scatter that brings their DOF values here.
  std::vector<PetscInt> local_nodes_;
  PScatter scatter_;
  PVec local_;
  std::vector<int> piece_ranks_; // ranks with a non-empty piece (their files make up a .pvtu)
  std::unique_ptr<Grid> grid_;
};

} // namespace beam
