// Snapshots for ParaView of whatever a model draws (common/Drawing.hpp): every `every` steps, step 0 and
// the last step always, one file per snapshot — .vtu for unstructured grids (the beam's quads), .vtp for
// poly data (particles and springs, rigid bodies) — or, under MPI, one piece per rank
// (<name>_<step>_<rank>.vtu) and the .pvtu/.pvtp that lists them, both written by VTK's own parallel
// XML writers; and one .pvd listing every snapshot with its time (VTK 9.1 has no writer for it: it is
// a small XML file written here by rank 0).
//
// Each snapshot holds the model's points, cells and data arrays, plus field data TIME and STEP. Binary
// appended encoding. The .pvd is rewritten (temporary file + rename) after every snapshot whose pieces
// are all in place, so a run that stops at any point leaves a series ParaView opens. A restarted run
// reads the .pvd back with VTK's XML parser and keeps the snapshots up to its checkpoint.
// The writer computes nothing: fields (stresses, spring forces) come from the model's draw().
// Files are written by a background thread while the time loop continues: on one rank the snapshot,
// under MPI each rank's piece (VTK's serial writer; rank 0 writes the .pvtu/.pvtp summary itself, in
// VTK's format, since VTK's parallel writer is collective and would hold the loop). The snapshot is
// listed in the .pvd once every piece is complete: at the next snapshot, before a checkpoint, at the end
// of the run.
#pragma once
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <vtkCommand.h>
#include <vtkSmartPointer.h>
#include <vtkXMLWriter.h>

#include "common/Drawing.hpp"
#include "solvers/Model.hpp"
#include "solvers/Monitor.hpp"

namespace beam {

// What a file name says of series `name`: <name>_<step>.<ext> (ext vtu, vtp, pvtu or pvtp), a rank's
// piece <name>_<step>_<rank>.<ext>, either with the ".tmp" of a file being written. One rule for the
// writer's names, the restart's check of a .pvd and a new run's removal of an old series.
struct SnapshotFileName {
  bool matches = false;
  long long step = -1;
  bool piece = false, staging = false;
};
SnapshotFileName parseSnapshotFileName(const std::string &file, const std::string &name);
inline bool isSnapshotFileName(const std::string &file, const std::string &name) {
  return parseSnapshotFileName(file, name).matches;
}

class VtkSnapshots final : public Monitor {
public:
  // Writes into `dir` (which must exist): <dir>/<name>_<step>.<ext> (or the pieces and the parallel
  // summary) and <dir>/<name>.pvd. every >= 1.
  VtkSnapshots(const Model &model, std::string dir, int every, std::string name);
  // A run without snapshots (-snapshot_every 0) restarted in a directory whose run wrote some: writes
  // none, but on restart trims that series to the checkpoint as a writing run does (its .pvd listed
  // the frames after the checkpoint, and their files stayed).
  static std::unique_ptr<VtkSnapshots> seriesTrimmer(const Model &model, std::string dir, std::string name);
  ~VtkSnapshots() override;
  void observe(const StepState &state) override;
  void checkResume(const StepState &state) const override;
  void resume(const StepState &state) override;
  // The snapshot being written in the background is complete and listed in the .pvd.
  void flush() override;
  void finish(const RunResult &result) override;
  void failedAt(const StepState &state) override; // its frame, unless the last one is that step's

  // Files of the series written so far (relative to dir), with their times.
  const std::vector<std::pair<double, std::string>> &series() const { return series_; }

private:
  // rank 0: `series` (readPvd's, up to the checkpoint) becomes the run's, its .pvd rewritten so, then the
  // later files removed
  void resumeSeries(const StepState &state, std::vector<std::pair<double, std::string>> series);
  struct Pending; // a snapshot the background thread is writing

  void write(const StepState &state);
  // Waits for the pending snapshot, then lists it (addToSeries).
  void finishPending();
  // Agrees on `error` across ranks, then appends the snapshot to the series and rewrites the .pvd.
  void addToSeries(std::string error, double time, const std::string &file);
  // VTK's serial XML writer of a grid or poly data; VTK errors go to `on_error`.
  vtkSmartPointer<vtkXMLWriter> makeWriter(bool grid, vtkCommand *on_error) const;
  static std::string parallelSummary(const Drawing &drawing, const std::vector<std::string> &sources);
  void writePvd() const;
  // The series of the .pvd up to `step` (empty when there is no .pvd); throws an input error when the
  // file is not a readable series.
  std::vector<std::pair<double, std::string>> readPvd(PetscInt step) const;
  // <name>_<step>.<ext> for rank < 0, else that rank's piece <name>_<step>_<rank>.<ext>.
  std::string fileName(PetscInt step, int rank, const std::string &ext) const;

  const Model &model_;
  std::string dir_, name_;
  int every_;
  PetscInt last_step_ = -1; // the step of the last snapshot written or listed (the same on every rank)
  int rank_ = 0, size_ = 1;
  Drawing drawing_;
  std::vector<std::pair<double, std::string>> series_;
  std::unique_ptr<Pending> pending_;
};

} // namespace beam
