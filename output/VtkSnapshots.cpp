#include "output/VtkSnapshots.hpp"

#include <cstdlib>
#include <fstream>

#include <vtkCallbackCommand.h>
#include <vtkCellArray.h>
#include <vtkCellData.h>
#include <vtkCellType.h>
#include <vtkCommand.h>
#include <vtkDoubleArray.h>
#include <vtkErrorCode.h>
#include <vtkExecutive.h>
#include <vtkFieldData.h>
#include <vtkIntArray.h>
#include <vtkNew.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkUnstructuredGrid.h>
#include <vtkXMLUnstructuredGridWriter.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <sstream>

#include "common/Error.hpp"
#include "output/FileUtil.hpp"

namespace beam {

namespace {

// Byte order of the raw appended data VTK writes (the machine's own), for the hand-written .pvtu.
constexpr const char *kByteOrder =
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ? "LittleEndian" : "BigEndian";

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

// Shortest decimal form that reads back as the same double (0.2, not 0.20000000000000001).
std::string exactDecimal(double v) {
  char buf[32] = "";
  for (int digits = 15; digits <= 17; ++digits) {
    std::snprintf(buf, sizeof buf, "%.*g", digits, v);
    if (std::strtod(buf, nullptr) == v) break;
  }
  return buf;
}

// VTK reports errors through its output window; an ErrorEvent observer takes them over so a failed
// write becomes one runError line instead of a VTK trace on stderr. Keeps the first message's text.
void captureVtkError(vtkObject *, unsigned long, void *client, void *call) {
  auto *out = static_cast<std::string *>(client);
  if (!call || !out->empty()) return;
  std::string msg = static_cast<const char *>(call);
  const auto colon = msg.find("): "); // drop "ERROR: In <file>, line <n>\n<class> (<ptr>): "
  if (colon != std::string::npos) msg.erase(0, colon + 3);
  while (!msg.empty() && std::isspace(static_cast<unsigned char>(msg.back()))) msg.pop_back();
  *out = msg;
}

// Every rank calls this with its own error ("" = fine). If any rank failed, all throw the same runError
// (the message of the lowest failing rank), so the ranks stay in step and rank 0 reports the cause.
void agreeOnFailure(MPI_Comm comm, const std::string &error) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  const int mine = error.empty() ? size : rank;
  int first = size;
  MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, comm);
  if (first == size) return;
  std::string message = error;
  int length = int(message.size());
  MPI_Bcast(&length, 1, MPI_INT, first, comm);
  message.resize(size_t(length));
  MPI_Bcast(message.data(), length, MPI_CHAR, first, comm);
  throw runError(message);
}

} // namespace

// The grid (points and cells fixed at construction), the arrays refreshed per snapshot, and the writer.
struct VtkSnapshots::Grid {
  vtkNew<vtkUnstructuredGrid> grid;
  vtkNew<vtkDoubleArray> displacement, velocity, von_mises, energy_density, time;
  vtkNew<vtkIntArray> step;
  vtkNew<vtkXMLUnstructuredGridWriter> writer;
  vtkNew<vtkCallbackCommand> on_error;
  std::string error; // filled by on_error during a write
  std::vector<std::array<vtkIdType, 4>> cells; // local point ids of each cell, counter-clockwise
  ElementMatrix k_unit{};                       // element stiffness for unit thickness
  std::array<double, 24> stress_unit{};         // centre stress (3 x 8, row-major) per element displacement
};

VtkSnapshots::VtkSnapshots(const Beam &beam, std::string dir, int every, std::string name)
    : beam_(beam), dir_(std::move(dir)), name_(std::move(name)), every_(every),
      grid_(std::make_unique<Grid>()) {
  if (every < 1)
    throw inputError("-snapshot_every: " + std::to_string(every) + " is not valid; accepted: an integer >= 1");
  MPI_Comm_rank(beam.comm(), &rank_);
  MPI_Comm_size(beam.comm(), &size_);
  const BeamMesh &mesh = beam.mesh();
  const int mx = mesh.mx();

  // Points: the union of the nodes of this rank's elements, in increasing node order.
  const std::vector<PetscInt> elements = beam.ownedElements();
  for (PetscInt q : elements) {
    const auto nodes = mesh.elementNodes(int(q % mx), int(q / mx));
    local_nodes_.insert(local_nodes_.end(), nodes.begin(), nodes.end());
  }
  std::sort(local_nodes_.begin(), local_nodes_.end());
  local_nodes_.erase(std::unique(local_nodes_.begin(), local_nodes_.end()), local_nodes_.end());
  const PetscInt n_local = PetscInt(local_nodes_.size());

  // Both DOFs of every needed node, owned here or not, in one scatter set up once.
  PIS dofs;
  PVec layout = beam.createVector();
  BEAM_PETSC(ISCreateBlock(PETSC_COMM_SELF, 2, n_local, local_nodes_.data(), PETSC_COPY_VALUES, dofs.out()));
  BEAM_PETSC(VecCreateSeq(PETSC_COMM_SELF, 2 * n_local, local_.out()));
  BEAM_PETSC(VecScatterCreate(layout, dofs, local_, nullptr, scatter_.out()));

  // Which ranks have a piece; a rank may own only top-row nodes and so no element.
  const int has_piece = elements.empty() ? 0 : 1;
  std::vector<int> has(size_t(size_), 0);
  MPI_Allgather(&has_piece, 1, MPI_INT, has.data(), 1, MPI_INT, beam.comm());
  for (int r = 0; r < size_; ++r)
    if (has[size_t(r)]) piece_ranks_.push_back(r);

  Grid &g = *grid_;
  vtkNew<vtkPoints> points;
  points->SetDataTypeToDouble();
  points->SetNumberOfPoints(n_local);
  for (PetscInt i = 0; i < n_local; ++i) {
    const auto [x, y] = mesh.nodeXY(local_nodes_[size_t(i)]);
    points->SetPoint(i, x * mesh.hx(), y * mesh.hy(), 0.0);
  }
  g.grid->SetPoints(points);

  vtkNew<vtkCellArray> cells;
  cells->AllocateExact(vtkIdType(elements.size()), 4 * vtkIdType(elements.size()));
  for (PetscInt q : elements) {
    const int ex = int(q % mx), ey = int(q / mx);
    std::array<vtkIdType, 4> ids{};
    const auto nodes = mesh.elementNodes(ex, ey);
    for (size_t k = 0; k < 4; ++k)
      ids[k] = std::lower_bound(local_nodes_.begin(), local_nodes_.end(), nodes[k]) - local_nodes_.begin();
    cells->InsertNextCell(4, ids.data());
    g.cells.push_back(ids);
  }
  g.grid->SetCells(VTK_QUAD, cells);

  auto point_array = [&](vtkDoubleArray *a, const char *name) {
    a->SetName(name);
    a->SetNumberOfComponents(3);
    a->SetNumberOfTuples(n_local);
    a->Fill(0.0); // z stays 0
    g.grid->GetPointData()->AddArray(a);
  };
  point_array(g.displacement, "displacement");
  point_array(g.velocity, "velocity");
  g.grid->GetPointData()->SetActiveVectors("displacement");
  auto cell_array = [&](vtkDoubleArray *a, const char *name) {
    a->SetName(name);
    a->SetNumberOfTuples(vtkIdType(elements.size()));
    g.grid->GetCellData()->AddArray(a);
  };
  cell_array(g.von_mises, "von_mises");
  cell_array(g.energy_density, "strain_energy_density");
  g.grid->GetCellData()->SetActiveScalars("von_mises");
  g.time->SetName("TIME");
  g.time->SetNumberOfTuples(1);
  g.step->SetName("STEP");
  g.step->SetNumberOfTuples(1);
  g.grid->GetFieldData()->AddArray(g.time);
  g.grid->GetFieldData()->AddArray(g.step);

  g.k_unit = q4Stiffness(beam.spec().material, mesh.hx(), mesh.hy(), 1.0);
  // The centre stress is linear in the element displacements and every element has the same shape:
  // its 3 x 8 matrix, column by column, once (rather than B and D rebuilt for every cell of every snapshot).
  for (int j = 0; j < 8; ++j) {
    double unit[8] = {};
    unit[j] = 1.0;
    const auto column = q4CentreStress(beam.spec().material, mesh.hx(), mesh.hy(), unit);
    for (int i = 0; i < 3; ++i) g.stress_unit[size_t(i * 8 + j)] = column[size_t(i)];
  }

  g.writer->SetInputData(g.grid);
  g.writer->SetDataModeToAppended();
  g.writer->EncodeAppendedDataOff(); // raw binary: smallest and fastest to write and read
  g.writer->SetCompressorTypeToNone();
  g.writer->SetHeaderTypeToUInt64();
  g.on_error->SetCallback(captureVtkError);
  g.on_error->SetClientData(&g.error);
  g.writer->AddObserver(vtkCommand::ErrorEvent, g.on_error);
  g.writer->GetExecutive()->AddObserver(vtkCommand::ErrorEvent, g.on_error); // "algorithm failed" echo
}

VtkSnapshots::~VtkSnapshots() = default;

std::string VtkSnapshots::fileName(PetscInt step, int rank, const char *ext) const {
  char buf[64];
  if (rank < 0)
    std::snprintf(buf, sizeof buf, "_%06lld.%s", (long long)step, ext);
  else
    std::snprintf(buf, sizeof buf, "_%06lld_%d.%s", (long long)step, rank, ext);
  return name_ + buf;
}

void VtkSnapshots::observe(const StepState &state) {
  if (state.step % every_ == 0 || state.last()) write(state);
}

// Nothing to flush: the .pvd is complete after every snapshot. A diverged run ends with the last
// snapshot written before the divergence.
void VtkSnapshots::finish(const RunResult &) {}

void VtkSnapshots::write(const StepState &state) {
  Grid &g = *grid_;
  const PetscInt n_local = PetscInt(local_nodes_.size());

  // Scatters are collective: every rank takes part, with or without a piece.
  auto gather = [&](Vec from, vtkDoubleArray *to) {
    BEAM_PETSC(VecScatterBegin(scatter_, from, local_, INSERT_VALUES, SCATTER_FORWARD));
    BEAM_PETSC(VecScatterEnd(scatter_, from, local_, INSERT_VALUES, SCATTER_FORWARD));
    const PetscScalar *v = nullptr;
    BEAM_PETSC(VecGetArrayRead(local_, &v));
    double *out = to->GetPointer(0);
    for (PetscInt i = 0; i < n_local; ++i) {
      out[3 * i] = PetscRealPart(v[2 * i]);
      out[3 * i + 1] = PetscRealPart(v[2 * i + 1]);
    }
    BEAM_PETSC(VecRestoreArrayRead(local_, &v));
    to->Modified();
  };
  gather(state.y, g.velocity);
  gather(state.x, g.displacement);

  // Cell data from the displacements just gathered. K_e = t * K_unit and the volume is hx*hy*t, so the
  // energy density does not depend on the element's thickness.
  const double hx = beam_.mesh().hx(), hy = beam_.mesh().hy();
  const double *u = g.displacement->GetPointer(0);
  for (size_t c = 0; c < g.cells.size(); ++c) {
    double ue[8];
    for (size_t k = 0; k < 4; ++k) {
      ue[2 * k] = u[3 * g.cells[c][k]];
      ue[2 * k + 1] = u[3 * g.cells[c][k] + 1];
    }
    double energy = 0;
    for (int i = 0; i < 8; ++i) {
      double ku = 0;
      for (int j = 0; j < 8; ++j) ku += g.k_unit[size_t(i * 8 + j)] * ue[j];
      energy += ue[i] * ku;
    }
    std::array<double, 3> stress{};
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 8; ++j) stress[size_t(i)] += g.stress_unit[size_t(i * 8 + j)] * ue[j];
    g.von_mises->SetValue(vtkIdType(c), vonMises(stress));
    g.energy_density->SetValue(vtkIdType(c), 0.5 * energy / (hx * hy));
  }
  g.von_mises->Modified();
  g.energy_density->Modified();
  g.time->SetValue(0, state.time);
  g.step->SetValue(0, int(state.step));
  g.time->Modified();
  g.step->Modified();
  g.grid->Modified();

  // This rank's piece, through a temporary file so a killed run never leaves half a snapshot.
  std::string error;
  if (!g.cells.empty()) {
    const std::string path = dir_ + "/" + fileName(state.step, size_ > 1 ? rank_ : -1, "vtu");
    const std::string tmp = path + ".tmp";
    g.error.clear();
    g.writer->SetFileName(tmp.c_str());
    // VTK 9.1's Write() returns 1 even when the file could not be opened: check the error code too.
    const int written = g.writer->Write();
    if (written == 0 || g.writer->GetErrorCode() != vtkErrorCode::NoError || !g.error.empty()) {
      std::remove(tmp.c_str());
      const std::string why =
          !g.error.empty() ? g.error : vtkErrorCode::GetStringFromErrorCode(int(g.writer->GetErrorCode()));
      error = "cannot write '" + path + "': " + why;
    } else {
      try {
        commitFile(tmp, path);
      } catch (const Error &e) {
        error = e.what();
      }
    }
  }
  // Only when every piece is in place does rank 0 list them (.pvtu) and extend the series (.pvd).
  agreeOnFailure(beam_.comm(), error);
  series_.emplace_back(state.time, fileName(state.step, -1, size_ > 1 ? "pvtu" : "vtu"));
  if (rank_ == 0) {
    try {
      if (size_ > 1) writePvtu(state.step);
      writePvd();
    } catch (const Error &e) {
      error = e.what();
    }
  }
  try {
    agreeOnFailure(beam_.comm(), error);
  } catch (const Error &) {
    series_.pop_back(); // not listed after all
    throw;
  }
}

void VtkSnapshots::writePvtu(PetscInt step) const {
  std::ostringstream s;
  s << "<?xml version=\"1.0\"?>\n"
    << "<VTKFile type=\"PUnstructuredGrid\" version=\"1.0\" byte_order=\"" << kByteOrder
    << "\" header_type=\"UInt64\">\n"
    << "  <PUnstructuredGrid GhostLevel=\"0\">\n"
    << "    <PPointData Vectors=\"displacement\">\n"
    << "      <PDataArray type=\"Float64\" Name=\"displacement\" NumberOfComponents=\"3\"/>\n"
    << "      <PDataArray type=\"Float64\" Name=\"velocity\" NumberOfComponents=\"3\"/>\n"
    << "    </PPointData>\n"
    << "    <PCellData Scalars=\"von_mises\">\n"
    << "      <PDataArray type=\"Float64\" Name=\"von_mises\"/>\n"
    << "      <PDataArray type=\"Float64\" Name=\"strain_energy_density\"/>\n"
    << "    </PCellData>\n"
    << "    <PPoints>\n"
    << "      <PDataArray type=\"Float64\" Name=\"Points\" NumberOfComponents=\"3\"/>\n"
    << "    </PPoints>\n";
  for (int r : piece_ranks_) s << "    <Piece Source=\"" << xmlAttribute(fileName(step, r, "vtu")) << "\"/>\n";
  s << "  </PUnstructuredGrid>\n</VTKFile>\n";
  writeFileAtomically(dir_ + "/" + fileName(step, -1, "pvtu"), s.str());
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

} // namespace beam

namespace beam {

// Continue the series of an interrupted run: keep the snapshots of its .pvd up to the checkpoint step
// (later ones are written again as the run proceeds). Every rank reads it (series_ is kept on all).
void VtkSnapshots::resume(const StepState &state) {
  series_.clear();
  std::ifstream in(dir_ + "/" + name_ + ".pvd");
  std::string line;
  const std::string prefix = name_ + "_";
  while (std::getline(in, line)) {
    const size_t t = line.find("timestep=\""), f = line.find("file=\"");
    if (t == std::string::npos || f == std::string::npos) continue;
    const size_t f_end = line.find('"', f + 6);
    if (f_end == std::string::npos) continue;
    const std::string file = line.substr(f + 6, f_end - f - 6);
    if (file.compare(0, prefix.size(), prefix) != 0) continue;
    const long long step = std::atoll(file.c_str() + prefix.size());
    if (step > state.step) break;
    series_.emplace_back(std::strtod(line.c_str() + t + 10, nullptr), file);
  }
}

} // namespace beam
