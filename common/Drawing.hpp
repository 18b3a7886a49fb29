// What a model gives the snapshot writer to draw one state: points, cells and named data arrays, in
// plain arrays (no VTK types), so models know nothing of VTK and output/ computes no physics.
// Each rank fills its own piece; the writer turns pieces into .vtu/.vtp files, a .pvtu/.pvtp per step
// under MPI, and one .pvd series.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace beam {

struct DrawingArray {
  std::string name;
  int components = 1;          // 1 = scalar, 3 = vector
  std::vector<double> values;  // components per point (or per cell), point (cell) after point (cell)
};

struct Drawing {
  // Unstructured grids (quads of the beam) are written as .vtu, poly data (particles, springs, bodies'
  // surfaces) as .vtp.
  enum class Kind { UnstructuredGrid, PolyData };
  Kind kind = Kind::PolyData;

  std::vector<std::array<double, 3>> points;
  // Cells as VTK cell types (VTK_VERTEX = 1, VTK_LINE = 3, VTK_POLYGON = 7, VTK_QUAD = 9, ...) with
  // offsets into one connectivity list, as vtkCellArray keeps them: cell c uses
  // connectivity[offsets[c] .. offsets[c+1]).
  std::vector<std::uint8_t> cell_types;
  std::vector<std::int64_t> offsets{0};
  std::vector<std::int64_t> connectivity;
  std::vector<DrawingArray> point_data, cell_data;
  // Under MPI: 1 for a point this rank's piece holds that another rank's piece holds too and owns (a node
  // on the pieces' boundary, a ghost particle), 0 otherwise; empty: none. Written as VTK's ghost array
  // (DUPLICATEPOINT), so ParaView's statistics and histograms count such a point once.
  std::vector<std::uint8_t> duplicate_points;

  void clear() {
    points.clear();
    duplicate_points.clear();
    cell_types.clear();
    offsets.assign(1, 0);
    connectivity.clear();
    point_data.clear();
    cell_data.clear();
  }
  void addCell(std::uint8_t type, std::initializer_list<std::int64_t> ids) {
    cell_types.push_back(type);
    connectivity.insert(connectivity.end(), ids);
    offsets.push_back(static_cast<std::int64_t>(connectivity.size()));
  }
};

} // namespace beam
