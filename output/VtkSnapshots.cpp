#include "output/VtkSnapshots.hpp"
#include "output/EndFrame.hpp"
#include "common/Agree.hpp"
#include "common/Exact.hpp"
#include "common/Options.hpp" // isIndexText
#include "output/CsvLog.hpp"  // regularFileProblem

#include <vtkCallbackCommand.h>
#include <vtkCellArray.h>
#include <vtkCellData.h>
#include <vtkCommand.h>
#include <vtkDoubleArray.h>
#include <vtkErrorCode.h>
#include <vtkExecutive.h>
#include <vtkFieldData.h>
#include <vtkIdTypeArray.h>
#include <vtkIntArray.h>
#include <vtkNew.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkSmartPointer.h>
#include <vtkUnsignedCharArray.h>
#include <vtkUnstructuredGrid.h>
#include <vtkXMLDataElement.h>
#include <vtkXMLPolyDataWriter.h>
#include <vtkXMLUnstructuredGridWriter.h>
#include <vtkXMLUtilities.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <future>
#include <set>
#include <sstream>

#include "common/Agree.hpp"
#include "common/Error.hpp"
#include "common/OutputFile.hpp"
#include "output/FileUtil.hpp"

namespace beam {

namespace {

constexpr const char *kByteOrder = __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ? "LittleEndian" : "BigEndian";

std::string xmlAttribute(const std::string &s) {
  std::string out;
  for (char c : s) {
    switch (c) {
    case '&': out += "&amp;"; break;
    case '<': out += "&lt;"; break;
    case '>': out += "&gt;"; break;
    case '"': out += "&quot;"; break;
    default: out += c;
    }
  }
  return out;
}

// VTK reports errors through its output window; an ErrorEvent observer takes them over so a failed
// write becomes one runError line instead of a VTK trace on stderr. Keeps the first message's text.
void captureVtkError(vtkObject *, unsigned long, void *client, void *call) {
  auto *out = static_cast<std::string *>(client);
  if (!call || !out->empty()) return;
  std::string msg = static_cast<const char *>(call);
  // The executive's echo ("Algorithm <writer>(<ptr>) returned failure for request: vtkInformation ..."
  // and a dump of the request) says nothing about the file: keep waiting for the writer's own error,
  // or fall back to the writer's error code (a full disk: "OutOfDiskSpaceError").
  if (msg.find("returned failure for request") != std::string::npos) return;
  const auto colon = msg.find("): "); // drop "ERROR: In <file>, line <n>\n<class> (<ptr>): "
  if (colon != std::string::npos) msg.erase(0, colon + 3);
  while (!msg.empty() && std::isspace(static_cast<unsigned char>(msg.back()))) msg.pop_back();
  *out = msg;
}

vtkSmartPointer<vtkDoubleArray> vtkArray(const DrawingArray &a, vtkIdType count) {
  auto v = vtkSmartPointer<vtkDoubleArray>::New();
  v->SetName(a.name.c_str());
  v->SetNumberOfComponents(a.components);
  v->SetNumberOfTuples(count);
  if (vtkIdType(a.values.size()) != count * a.components)
    throw runError("drawing: array '" + a.name + "' has " + std::to_string(a.values.size()) + " values for " +
                   std::to_string(count) + " items");
  std::copy(a.values.begin(), a.values.end(), v->GetPointer(0));
  return v;
}

// The cells of `d` whose VTK type is in [lo, hi] as one vtkCellArray (poly data keeps vertices, lines
// and polygons apart).
vtkSmartPointer<vtkCellArray> cellsOf(const Drawing &d, int lo, int hi) {
  auto cells = vtkSmartPointer<vtkCellArray>::New();
  for (size_t c = 0; c < d.cell_types.size(); ++c) {
    if (d.cell_types[c] < lo || d.cell_types[c] > hi) continue;
    const std::int64_t b = d.offsets[c], e = d.offsets[c + 1];
    cells->InsertNextCell(vtkIdType(e - b));
    for (std::int64_t k = b; k < e; ++k) cells->InsertCellPoint(vtkIdType(d.connectivity[size_t(k)]));
  }
  return cells;
}

} // namespace

// A snapshot being written by the background thread: this rank's file (the whole snapshot on one
// rank, its piece under MPI).
struct VtkSnapshots::Pending {
  std::future<std::string> error; // the write's outcome (no future: this rank writes no piece)
  std::string summary_error;      // rank 0 under MPI: writing the .pvtu/.pvtp failed
  double time;
  std::string file;               // as listed in the .pvd
  std::string outcome() {
    std::string e = error.valid() ? error.get() : "";
    return summary_error.empty() ? e : summary_error;
  }
};

VtkSnapshots::VtkSnapshots(const Model &model, std::string dir, int every, std::string name)
    : model_(model), dir_(std::move(dir)), name_(std::move(name)), every_(every) {
  if (every < 1)
    throw inputError("-snapshot_every: " + std::to_string(every) + " is not valid; accepted: an integer >= 1");
  MPI_Comm comm = model.comm();
  MPI_Comm_rank(comm, &rank_);
  MPI_Comm_size(comm, &size_);
}

std::unique_ptr<VtkSnapshots> VtkSnapshots::seriesTrimmer(const Model &model, std::string dir, std::string name) {
  auto trimmer = std::make_unique<VtkSnapshots>(model, std::move(dir), 1, std::move(name));
  trimmer->every_ = 0;
  return trimmer;
}

// A run that ends by an exception leaves a snapshot possibly being written: wait for it and, on one rank,
// list it if it is complete; never throw.
VtkSnapshots::~VtkSnapshots() {
  if (!pending_) return;
  try {
    // Under MPI the other ranks' pieces cannot be known here (nothing collective in a destructor): the
    // snapshot is waited for and left out of the series.
    if (pending_->outcome().empty() && size_ == 1) {
      series_.emplace_back(pending_->time, pending_->file);
      writePvd();
    }
  } catch (...) {
  }
}

SnapshotFileName parseSnapshotFileName(const std::string &file, const std::string &name) {
  SnapshotFileName out;
  if (file.compare(0, name.size() + 1, name + "_") != 0) return out;
  std::string rest = file.substr(name.size() + 1);
  if (rest.size() > 4 && rest.compare(rest.size() - 4, 4, ".tmp") == 0) {
    out.staging = true;
    rest.resize(rest.size() - 4);
  }
  const size_t dot = rest.find('.');
  if (dot == std::string::npos) return out;
  const std::string ext = rest.substr(dot + 1), stem = rest.substr(0, dot);
  if (ext != "vtu" && ext != "vtp" && ext != "pvtu" && ext != "pvtp") return out;
  const size_t under = stem.find('_');
  const std::string step = stem.substr(0, under), rank = under == std::string::npos ? "" : stem.substr(under + 1);
  if (!isIndexText(step) || (under != std::string::npos && !isIndexText(rank))) return out;
  out.matches = true;
  out.step = std::atoll(step.c_str());
  out.piece = under != std::string::npos;
  return out;
}

std::string VtkSnapshots::fileName(PetscInt step, int rank, const std::string &ext) const {
  char buf[64];
  if (rank < 0)
    std::snprintf(buf, sizeof buf, "_%06lld.", (long long)step);
  else
    std::snprintf(buf, sizeof buf, "_%06lld_%d.", (long long)step, rank);
  return name_ + buf + ext;
}

void VtkSnapshots::observe(const StepState &state) {
  if (every_ == 0) return; // a series trimmer
  if (state.step % every_ == 0 || state.last()) write(state);
}

namespace {

// The drawing as a VTK data set: an unstructured grid, or poly data (whose cells VTK keeps in four lists:
// the drawing's cells must come vertices first, then lines, then polygons, so cell data stays aligned),
// with its data arrays and field data TIME and STEP.
vtkSmartPointer<vtkDataSet> dataSet(const Drawing &d, double time, PetscInt step, bool piece) {
  const vtkIdType n_points = vtkIdType(d.points.size()), n_cells = vtkIdType(d.cell_types.size());
  vtkNew<vtkPoints> points;
  points->SetDataTypeToDouble();
  points->SetNumberOfPoints(n_points);
  for (vtkIdType i = 0; i < n_points; ++i) points->SetPoint(i, d.points[size_t(i)].data());
  vtkSmartPointer<vtkDataSet> data;
  if (d.kind == Drawing::Kind::UnstructuredGrid) {
    auto ug = vtkSmartPointer<vtkUnstructuredGrid>::New();
    ug->SetPoints(points);
    vtkNew<vtkUnsignedCharArray> types;
    types->SetNumberOfTuples(n_cells);
    for (vtkIdType c = 0; c < n_cells; ++c) types->SetValue(c, d.cell_types[size_t(c)]);
    ug->SetCells(types, cellsOf(d, 0, 255));
    data = ug;
  } else {
    auto pd = vtkSmartPointer<vtkPolyData>::New();
    pd->SetPoints(points);
    pd->SetVerts(cellsOf(d, 1, 2));
    pd->SetLines(cellsOf(d, 3, 4));
    pd->SetPolys(cellsOf(d, 5, 9));
    data = pd;
  }
  for (const auto &a : d.point_data) data->GetPointData()->AddArray(vtkArray(a, n_points));
  if (piece) { // every piece has the ghost array its summary lists (zeros when the model marks none)
    vtkNew<vtkUnsignedCharArray> ghosts;
    ghosts->SetName(vtkDataSetAttributes::GhostArrayName());
    ghosts->SetNumberOfTuples(n_points);
    for (vtkIdType i = 0; i < n_points; ++i)
      ghosts->SetValue(i, size_t(i) < d.duplicate_points.size() && d.duplicate_points[size_t(i)]
                              ? static_cast<unsigned char>(vtkDataSetAttributes::DUPLICATEPOINT) : 0);
    data->GetPointData()->AddArray(ghosts);
  }
  for (const auto &a : d.cell_data) data->GetCellData()->AddArray(vtkArray(a, n_cells));
  if (!d.point_data.empty() && d.point_data[0].components == 3)
    data->GetPointData()->SetActiveVectors(d.point_data[0].name.c_str());
  if (!d.cell_data.empty()) data->GetCellData()->SetActiveScalars(d.cell_data[0].name.c_str());
  // TIME, and TimeValue, the name ParaView reads a file's time from when the snapshots are opened as a
  // group of files instead of through the .pvd (it numbered them 0, 1, 2, ...).
  for (const char *name : {"TIME", "TimeValue"}) {
    vtkNew<vtkDoubleArray> t;
    t->SetName(name);
    t->InsertNextValue(time);
    data->GetFieldData()->AddArray(t);
  }
  vtkNew<vtkIntArray> n;
  n->SetName("STEP");
  n->InsertNextValue(int(step));
  data->GetFieldData()->AddArray(n);
  return data;
}

} // namespace

vtkSmartPointer<vtkXMLWriter> VtkSnapshots::makeWriter(bool grid, vtkCommand *on_error) const {
  vtkSmartPointer<vtkXMLWriter> writer;
  if (grid)
    writer = vtkSmartPointer<vtkXMLUnstructuredGridWriter>::New();
  else
    writer = vtkSmartPointer<vtkXMLPolyDataWriter>::New();
  writer->SetDataModeToAppended();
  writer->EncodeAppendedDataOff(); // raw binary: smallest and fastest to write and read
  writer->SetCompressorTypeToNone();
  writer->SetHeaderTypeToUInt64();
  writer->AddObserver(vtkCommand::ErrorEvent, on_error);
  writer->GetExecutive()->AddObserver(vtkCommand::ErrorEvent, on_error); // "algorithm failed" echo
  return writer;
}

namespace {

// Writes `data` with `writer` into `path`; the error ("" on success). VTK 9.1's Write() returns 1 even
// when the file could not be opened: the error code and the captured ErrorEvent are checked too.
// To a temporary name, renamed when complete (a file-size limit left a cut .vtu under its final name),
// except onto a target that is not a regular file (a device, a pipe), which is written in place.
std::string writeDataSet(vtkXMLWriter *writer, vtkDataSet *data, const std::string &path, const std::string &captured_error) {
  const std::string target = stagingPath(path);
  const bool special = target == path;
  // A target that is not a regular file is opened here without blocking, as the logs are
  // (openForWriting), and written through that descriptor: VTK's own blocking open of a pipe nothing
  // reads waited forever (SIGTERM could not end the run); now it is refused at once.
  int fd = -1;
  if (special && (fd = openForWriting(target, O_WRONLY)) < 0) return "cannot write '" + path + "': " + std::strerror(errno);
  writer->SetInputDataObject(data);
  if (special) writer->WriteToOutputStringOn();
  else writer->SetFileName(target.c_str());
  const int written = writer->Write();
  int write_error = 0;
  if (special) {
    const std::string text = writer->GetOutputString();
    write_error = written == 0 ? 0 : writeFully(fd, text.data(), text.size());
    ::close(fd);
  }
  if (written == 0 || writer->GetErrorCode() != vtkErrorCode::NoError || !captured_error.empty() || write_error) {
    if (!special) std::remove(target.c_str());
    return "cannot write '" + path + "': " +
           (!captured_error.empty() ? captured_error
            : write_error       ? std::string(std::strerror(write_error))
                                : vtkErrorCode::GetStringFromErrorCode(int(writer->GetErrorCode())));
  }
  if (!special) try {
      commitFile(target, path);
    } catch (const Error &e) {
      return e.what();
    }
  return "";
}

} // namespace

void VtkSnapshots::write(const StepState &state) {
  finishPending(); // the previous snapshot first: the series stays in step order
  model_.draw(state.x, state.y, drawing_); // collective
  const bool grid = drawing_.kind == Drawing::Kind::UnstructuredGrid;
  const std::string ext = grid ? "vtu" : "vtp";
  const std::string file = fileName(state.step, -1, size_ > 1 ? "p" + ext : ext);
  last_step_ = state.step;
  pending_ = std::make_unique<Pending>();
  pending_->time = state.time;
  pending_->file = file;
  bool has_piece = true;
  std::string piece = file;
  if (size_ > 1) {
    // Under MPI each rank writes its piece with the serial writer and rank 0 the summary listing them,
    // as VTK's parallel writer would (same files), but nothing collective is left for the background
    // thread: the ranks only tell rank 0 which of them have a piece (a rank with no cell writes none).
    const int mine = drawing_.cell_types.empty() ? 0 : 1;
    std::vector<int> pieces(rank_ == 0 ? size_t(size_) : 0);
    MPI_Gather(&mine, 1, MPI_INT, pieces.data(), 1, MPI_INT, 0, model_.comm());
    has_piece = mine != 0;
    piece = fileName(state.step, rank_, ext);
    if (rank_ == 0) {
      std::vector<std::string> sources;
      for (int r = 0; r < size_; ++r)
        if (pieces[size_t(r)]) sources.push_back(fileName(state.step, r, ext));
      try {
        writeFileAtomically(dir_ + "/" + file, parallelSummary(drawing_, sources));
      } catch (const Error &e) {
        pending_->summary_error = e.what();
      }
    }
  }
  if (has_piece) {
    // The piece is written by a background thread while the time loop goes on (its data set is this
    // step's copy); the series lists the snapshot once every piece is written (finishPending: at the
    // next snapshot, before a checkpoint (flush), at the end of the run). The thread calls no MPI.
    vtkSmartPointer<vtkDataSet> data = dataSet(drawing_, state.time, state.step, size_ > 1);
    auto on_error = vtkSmartPointer<vtkCallbackCommand>::New();
    auto message = std::make_shared<std::string>();
    on_error->SetCallback(captureVtkError);
    on_error->SetClientData(message.get());
    vtkSmartPointer<vtkXMLWriter> writer = makeWriter(grid, on_error);
    const std::string path = dir_ + "/" + piece;
    // Moved, not copied: while the thread writes, only it touches them. Releasing this thread's copies
    // here (as until 2026-11-26) ran VTK's garbage collector over the pipeline the thread was executing:
    // a rare SEGV in vtkExecutive::ReportReferences under load (VTK objects are not thread-safe).
    pending_->error = std::async(std::launch::async, [writer = std::move(writer), data = std::move(data), path,
                                                      on_error = std::move(on_error), message] {
      return writeDataSet(writer, data, path, *message);
    });
  }
  if (state.last()) finishPending();
}

void VtkSnapshots::finishPending() {
  if (!pending_) return;
  const std::unique_ptr<Pending> p = std::move(pending_);
  addToSeries(p->outcome(), p->time, p->file);
}

// Only when every piece is in place does rank 0 extend the series (.pvd).
void VtkSnapshots::addToSeries(std::string error, double time, const std::string &file) {
  try {
    agreeOnFailure(model_.comm(), error, kExitRunFailed);
  } catch (const Error &) {
    // A piece failed: the summary rank 0 wrote first would list a piece that is not there.
    std::error_code ec;
    if (rank_ == 0 && size_ > 1 && std::filesystem::is_regular_file(dir_ + "/" + file, ec)) std::remove((dir_ + "/" + file).c_str());
    throw;
  }
  series_.emplace_back(time, file);
  if (rank_ == 0) {
    try {
      writePvd();
    } catch (const Error &e) {
      error = e.what();
    }
  }
  try {
    agreeOnFailure(model_.comm(), error, kExitRunFailed);
  } catch (const Error &) {
    series_.pop_back(); // not listed after all
    throw;
  }
}

void VtkSnapshots::flush() { finishPending(); }

void VtkSnapshots::finish(const RunResult &) { finishPending(); }

// A run that failed ends its series with the state it stopped at, as a run that ends at its T or by a
// signal does (the series of a diverged run ended at its last scheduled snapshot, up to
// -snapshot_every - 1 steps before the blow-up a student wants to see).
void VtkSnapshots::failedAt(const StepState &state) {
  if (every_ > 0 && state.step != last_step_) write(state);
}

// The .pvtu/.pvtp of a snapshot written in pieces: the arrays' names and sizes (every piece has the
// same) and the pieces' files, in VTK's parallel XML format.
std::string VtkSnapshots::parallelSummary(const Drawing &d, const std::vector<std::string> &sources) {
  const std::string type = d.kind == Drawing::Kind::UnstructuredGrid ? "PUnstructuredGrid" : "PPolyData";
  std::ostringstream s;
  auto arrays = [&](const char *tag, const std::vector<DrawingArray> &list, const char *active, bool vectors, bool ghosts) {
    s << "    <" << tag;
    if (!list.empty() && (!vectors || list[0].components == 3)) s << " " << active << "=\"" << xmlAttribute(list[0].name) << "\"";
    s << ">\n";
    for (const auto &a : list)
      s << "      <PDataArray type=\"Float64\" Name=\"" << xmlAttribute(a.name) << "\" NumberOfComponents=\""
        << a.components << "\"/>\n";
    if (ghosts) s << "      <PDataArray type=\"UInt8\" Name=\"" << vtkDataSetAttributes::GhostArrayName() << "\" NumberOfComponents=\"1\"/>\n";
    s << "    </" << tag << ">\n";
  };
  s << "<?xml version=\"1.0\"?>\n"
    << "<VTKFile type=\"" << type << "\" version=\"1.0\" byte_order=\"" << kByteOrder << "\" header_type=\"UInt64\">\n"
    << "  <" << type << " GhostLevel=\"0\">\n";
  arrays("PPointData", d.point_data, "Vectors", true, true);
  arrays("PCellData", d.cell_data, "Scalars", false, false);
  s << "    <PPoints>\n      <PDataArray type=\"Float64\" Name=\"Points\" NumberOfComponents=\"3\"/>\n    </PPoints>\n";
  for (const auto &f : sources) s << "    <Piece Source=\"" << xmlAttribute(f) << "\"/>\n";
  s << "  </" << type << ">\n</VTKFile>\n";
  return s.str();
}

void VtkSnapshots::writePvd() const {
  std::ostringstream s;
  s << "<?xml version=\"1.0\"?>\n"
    << "<VTKFile type=\"Collection\" version=\"0.1\" byte_order=\"" << kByteOrder << "\">\n"
    << "  <Collection>\n";
  for (const auto &[time, file] : series_)
    s << "    <DataSet timestep=\"" << exactDecimal(time) << "\" group=\"\" part=\"0\" file=\""
      << xmlAttribute(file) << "\"/>\n";
  s << "  </Collection>\n</VTKFile>\n";
  writeFileAtomically(dir_ + "/" + name_ + ".pvd", s.str());
}

std::vector<std::pair<double, std::string>> VtkSnapshots::readPvd(PetscInt step) const {
  std::vector<std::pair<double, std::string>> series;
  const std::string path = dir_ + "/" + name_ + ".pvd";
  const std::string bad = "-restart: cannot continue the series '" + path + "': ";
  const std::string as_left = "; accepted: the .pvd as the interrupted run left it";
  struct stat st {};
  if (stat(path.c_str(), &st) != 0) { // no series yet: start one, unless its snapshots are there
    std::error_code ec;
    for (const auto &entry : std::filesystem::directory_iterator(dir_, ec)) {
      const std::string f = entry.path().filename().string();
      if (isSnapshotFileName(f, name_) && !parseSnapshotFileName(f, name_).staging)
        throw inputError(bad + "it is missing while its snapshots (" + f + ") are there; accepted: the output "
                         "directory as the interrupted run left it (or without its snapshots, to start a new series)");
    }
    return series;
  }
  if (!S_ISREG(st.st_mode) || st.st_size > (64 << 20)) throw inputError(bad + "not a regular file of a sensible size" + as_left);
  vtkSmartPointer<vtkXMLDataElement> root;
  // VTK's parser reports malformed XML on its own output window, a coloured line before ours: silenced
  // here, the refusal below says what is wrong.
  const int display = vtkObject::GetGlobalWarningDisplay();
  vtkObject::GlobalWarningDisplayOff();
  root.TakeReference(vtkXMLUtilities::ReadElementFromFile(path.c_str()));
  vtkObject::SetGlobalWarningDisplay(display);
  if (!root || std::string(root->GetName()) != "VTKFile" || !root->GetAttribute("type") ||
      std::string(root->GetAttribute("type")) != "Collection")
    throw inputError(bad + "not a VTK collection" + as_left);
  vtkXMLDataElement *collection = root->FindNestedElementWithName("Collection");
  if (!collection) throw inputError(bad + "no Collection element" + as_left);
  // The series as this class writes it: its own snapshot files in the directory, steps and times
  // increasing (an edited .pvd listing a file twice, times going back, or a file elsewhere through
  // "beam_/../" was continued as it was, exit 0).
  long long last_step = -1;
  double last_time = -HUGE_VAL;
  for (int i = 0; i < collection->GetNumberOfNestedElements(); ++i) {
    vtkXMLDataElement *ds = collection->GetNestedElement(i);
    const char *file = ds->GetAttribute("file");
    double time = 0;
    if (!file || !ds->GetScalarAttribute("timestep", time)) throw inputError(bad + "a DataSet without file or timestep" + as_left);
    const std::string f = file;
    const SnapshotFileName parsed = parseSnapshotFileName(f, name_);
    if (!parsed.matches || parsed.piece || parsed.staging)
      throw inputError(bad + "a DataSet that is not a snapshot of this series in its directory: '" + f +
                       "'" + as_left);
    if (parsed.step <= last_step || !(time > last_time) || !std::isfinite(time))
      throw inputError(bad + "its steps or times do not increase at '" + f + "'" + as_left);
    last_step = parsed.step;
    last_time = time;
    if (parsed.step > step) break;
    // A snapshot removed since: the continued series would list a file that is not there (exit 0).
    if (const std::string why = regularFileProblem(dir_ + "/" + f); !why.empty())
      throw inputError(bad + "it lists '" + f + "', but " + why + "; accepted: the output directory as the "
                       "interrupted run left it");
    // A parallel snapshot is an index of pieces: one removed, or the index cut short, was continued and
    // listed (exit 0), a snapshot ParaView cannot open.
    const std::string ext = std::filesystem::path(f).extension().string();
    if (ext == ".pvtu" || ext == ".pvtp") {
      vtkObject::GlobalWarningDisplayOff();
      vtkSmartPointer<vtkXMLDataElement> index;
      index.TakeReference(vtkXMLUtilities::ReadElementFromFile((dir_ + "/" + f).c_str()));
      vtkObject::SetGlobalWarningDisplay(display);
      vtkXMLDataElement *grid = index && index->GetNumberOfNestedElements() > 0 ? index->GetNestedElement(0) : nullptr;
      int pieces = 0;
      for (int k = 0; grid && k < grid->GetNumberOfNestedElements(); ++k) {
        vtkXMLDataElement *piece = grid->GetNestedElement(k);
        const char *source = std::string(piece->GetName()) == "Piece" ? piece->GetAttribute("Source") : nullptr;
        if (!source) continue;
        ++pieces;
        if (const std::string why = regularFileProblem(dir_ + "/" + source); !why.empty())
          throw inputError(bad + "its snapshot '" + f + "' lists the piece '" + source + "', but " + why +
                           "; accepted: the output directory as the interrupted run left it");
      }
      if (pieces == 0)
        throw inputError(bad + "its snapshot '" + f + "' is not a parallel VTK file with pieces (cut short or edited); "
                         "accepted: the output directory as the interrupted run left it");
    }
    series.emplace_back(time, f);
  }
  // And every step with a snapshot up to the checkpoint is listed: with an entry deleted from the .pvd
  // the restart went on and the continued series lacked that snapshot (exit 0). By step, not file: a
  // restart on another number of ranks writes a step again as .pvtu beside an older run's .vtu.
  std::set<long long> listed;
  for (const auto &entry : series) listed.insert(parseSnapshotFileName(entry.second, name_).step);
  std::error_code ec;
  for (const auto &entry : std::filesystem::directory_iterator(dir_, ec)) {
    const std::string f = entry.path().filename().string();
    const SnapshotFileName parsed = parseSnapshotFileName(f, name_);
    if (parsed.matches && !parsed.piece && !parsed.staging && parsed.step <= step && !listed.count(parsed.step))
      throw inputError(bad + "it does not list '" + f + "', a snapshot of the series up to the checkpoint; accepted: "
                       "the .pvd as the interrupted run left it");
  }
  return series;
}

void VtkSnapshots::checkResume(const StepState &state) const {
  // A series trimmer continues no series: a .pvd it cannot read (its files deleted) is left as it is.
  if (rank_ == 0 && every_ > 0) (void)readPvd(state.step); // throws on a series it cannot continue
}

// Continue the series of an interrupted run: keep the snapshots of its .pvd up to the checkpoint step;
// the files of later steps are removed (the run writes its own again, perhaps at other steps: a
// -snapshot_every changed on restart left one unlisted, which a later restart then refused as a
// deleted entry). Rank 0 reads the series and removes the files.
void VtkSnapshots::resume(const StepState &state) {
  // Rank 0 rewrites the .pvd and removes files; its failure (a full disk) is every rank's, agreed before
  // the collective calls that follow. A series trimmer (a run without snapshots): the .pvd lists what
  // stays, if there is one it can read — a series it cannot read is no concern of such a run, failing to
  // write the trimmed one is (it was swallowed: the series kept listing frames after the checkpoint).
  std::string error;
  int code = kExitOk;
  if (rank_ == 0) try {
      std::vector<std::pair<double, std::string>> series;
      bool readable = true;
      try {
        series = readPvd(state.step);
      } catch (const Error &) {
        if (every_ != 0) throw;
        readable = false;
      }
      if (readable) resumeSeries(state, std::move(series));
    } catch (const Error &e) {
      error = e.what();
      code = e.exitCode();
    }
  agreeOnFailure(model_.comm(), error, code);
  if (every_ == 0) return;
  // A restart with no step left (T at the checkpoint's, after a divergence or a kill) writes the last
  // frame an uninterrupted run writes there, if the series lacks it (it was lost, exit 0).
  // One broadcast: the last listed step and whether the end frame is missing.
  long long shared[2] = {-1, 0};
  if (rank_ == 0) {
    if (!series_.empty()) shared[0] = parseSnapshotFileName(series_.back().second, name_).step;
    shared[1] = state.last() && (series_.empty() || series_.back().first < state.time * (1 - 1e-12));
  }
  MPI_Bcast(shared, 2, MPI_LONG_LONG, 0, model_.comm());
  last_step_ = PetscInt(shared[0]);
  if (shared[1]) write(state);
}

void VtkSnapshots::resumeSeries(const StepState &state, std::vector<std::pair<double, std::string>> series) {
  if (rank_ != 0) return;
  series_ = std::move(series);
  std::error_code ec;
  const bool had_pvd = std::filesystem::exists(dir_ + "/" + name_ + ".pvd", ec);
  // The interrupted run's last frame, written because it ended there (its T, a signal): dropped when this
  // run goes on (dropEndEntry, as the trajectory's end row; it stayed, one frame more, until 2026-11-27).
  PetscInt end_frame = -1;
  std::vector<long long> entry_steps;
  for (const auto &entry : series_) entry_steps.push_back(parseSnapshotFileName(entry.second, name_).step);
  if (dropEndEntry(entry_steps, state.step, state.steps, state.resumed_grid)) {
    end_frame = state.step;
    series_.pop_back();
  }
  // The .pvd as it stays, before the later files go: it listed them until the run's next snapshot, so a
  // restart killed before one (a larger -snapshot_every) left a series the next restart refused.
  if (had_pvd) writePvd();
  std::vector<std::filesystem::path> later;
  for (const auto &entry : std::filesystem::directory_iterator(dir_, ec)) {
    const SnapshotFileName parsed = parseSnapshotFileName(entry.path().filename().string(), name_);
    if (parsed.matches && (parsed.step > state.step || parsed.step == end_frame)) later.push_back(entry.path());
  }
  for (const auto &path : later) std::filesystem::remove(path, ec);
}

} // namespace beam
