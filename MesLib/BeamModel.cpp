#include "MesLib/BeamModel.hpp"
#include "common/Exact.hpp"

#include <algorithm>
#include <cstdio>
#include <functional>

namespace beam {

ElementFields::ElementFields(const Material &material, double hx, double hy)
    : k_unit_(q4Stiffness(material, hx, hy, 1.0)), volume_unit_(hx * hy) {
  // The centre stress is linear in the element displacements and every element has the same shape: its
  // 3 x 8 matrix, column by column, once (rather than B and D rebuilt for every cell of every snapshot).
  for (int j = 0; j < 8; ++j) {
    double unit[8] = {};
    unit[j] = 1.0;
    const auto column = q4CentreStress(material, hx, hy, unit);
    for (int i = 0; i < 3; ++i) stress_unit_[size_t(i * 8 + j)] = column[size_t(i)];
  }
}

double ElementFields::vonMisesStress(const double ue[8]) const {
  std::array<double, 3> stress{};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 8; ++j) stress[size_t(i)] += stress_unit_[size_t(i * 8 + j)] * ue[j];
  return vonMises(stress);
}

// K_e = t K_unit and the volume is hx hy t, so the density does not depend on the element's thickness.
double ElementFields::strainEnergyDensity(const double ue[8]) const {
  double energy = 0;
  for (int i = 0; i < 8; ++i) {
    double ku = 0;
    for (int j = 0; j < 8; ++j) ku += k_unit_[size_t(i * 8 + j)] * ue[j];
    energy += ue[i] * ku;
  }
  return 0.5 * energy / volume_unit_;
}

BeamModel::BeamModel(const Beam &beam, SecondOrderSystem &&system, LinearSolverKind solver)
    : LinearModel(std::move(system), solver), beam_(beam),
      fields_(beam.spec().material, beam.mesh().hx(), beam.mesh().hy()), elements_(beam.ownedElements()) {
  setupDrawing();
}

BeamModel::BeamModel(const Beam &beam, const SecondOrderSystem &system, LinearSolverKind solver)
    : LinearModel(system, solver), beam_(beam), fields_(beam.spec().material, beam.mesh().hx(), beam.mesh().hy()),
      elements_(beam.ownedElements()) {
  setupDrawing();
}

void BeamModel::setupDrawing() {
  const Beam &beam = beam_;
  const BeamMesh &mesh = beam.mesh();
  const int mx = mesh.mx();
  for (PetscInt q : elements_) {
    const auto nodes = mesh.elementNodes(int(q % mx), int(q / mx));
    local_nodes_.insert(local_nodes_.end(), nodes.begin(), nodes.end());
  }
  std::sort(local_nodes_.begin(), local_nodes_.end());
  local_nodes_.erase(std::unique(local_nodes_.begin(), local_nodes_.end()), local_nodes_.end());
  for (PetscInt q : elements_) {
    const auto nodes = mesh.elementNodes(int(q % mx), int(q / mx));
    std::array<std::int64_t, 4> ids{};
    for (size_t k = 0; k < 4; ++k)
      ids[k] = std::lower_bound(local_nodes_.begin(), local_nodes_.end(), nodes[k]) - local_nodes_.begin();
    cells_.push_back(ids);
  }
  // Both DOFs of every needed node, owned here or not, in one scatter set up once.
  const PetscInt n_local = PetscInt(local_nodes_.size());
  PIS dofs;
  PVec layout = beam.createVector();
  BEAM_PETSC(ISCreateBlock(PETSC_COMM_SELF, 2, n_local, local_nodes_.data(), PETSC_COPY_VALUES, dofs.out()));
  BEAM_PETSC(VecCreateSeq(PETSC_COMM_SELF, 2 * n_local, local_.out()));
  BEAM_PETSC(VecScatterCreate(layout, dofs, local_, nullptr, scatter_.out()));
  // A node on the boundary between pieces belongs to the lowest rank drawing it; the others' copies are
  // marked duplicates (-rank reduced by MAX over the nodes' entries, then read back).
  PetscMPIInt size = 1, rank = 0;
  MPI_Comm_size(PetscObjectComm(reinterpret_cast<PetscObject>(layout.get())), &size);
  MPI_Comm_rank(PetscObjectComm(reinterpret_cast<PetscObject>(layout.get())), &rank);
  if (size == 1) return;
  BEAM_PETSC(VecSet(layout, -double(size)));
  BEAM_PETSC(VecSet(local_, -double(rank)));
  BEAM_PETSC(VecScatterBegin(scatter_, local_, layout, MAX_VALUES, SCATTER_REVERSE));
  BEAM_PETSC(VecScatterEnd(scatter_, local_, layout, MAX_VALUES, SCATTER_REVERSE));
  BEAM_PETSC(VecScatterBegin(scatter_, layout, local_, INSERT_VALUES, SCATTER_FORWARD));
  BEAM_PETSC(VecScatterEnd(scatter_, layout, local_, INSERT_VALUES, SCATTER_FORWARD));
  const PetscScalar *owner = nullptr;
  BEAM_PETSC(VecGetArrayRead(local_, &owner));
  for (PetscInt i = 0; i < n_local; ++i) duplicate_.push_back(-PetscRealPart(owner[2 * i]) < rank);
  BEAM_PETSC(VecRestoreArrayRead(local_, &owner));
}

std::vector<std::pair<std::string, std::string>> BeamModel::identity() const {
  const BeamSpec &s = beam_.spec();
  std::string thickness = exactDecimal(s.thickness);
  if (!s.element_thickness.empty()) {
    size_t h = 1469598103934665603ULL;
    for (double t : s.element_thickness) h = (h ^ std::hash<double>{}(t)) * 1099511628211ULL;
    thickness = "per element, hash " + std::to_string(h);
  }
  std::string loads;
  // The default load given explicitly (-point_load 6,0,0,-0.1 on the default cantilever) is the default:
  // it was refused on restart as "point_loads was default".
  BeamSpec unloaded = s;
  unloaded.point_loads.clear();
  const std::vector<PointLoad> defaults = unloaded.appliedPointLoads();
  const bool is_default = s.top_load == 0 && s.point_loads.size() == defaults.size() &&
                          std::equal(defaults.begin(), defaults.end(), s.point_loads.begin(), [](const PointLoad &a, const PointLoad &b) {
                            return a.x == b.x && a.y == b.y && a.fx == b.fx && a.fy == b.fy;
                          });
  if (!is_default)
    for (const auto &p : s.point_loads)
    loads += "(" + std::to_string(p.x) + "," + std::to_string(p.y) + "," + exactDecimal(p.fx) + "," + exactDecimal(p.fy) + ")";
  return {{"model", name()},
          {"mesh", std::to_string(s.mx) + "x" + std::to_string(s.my)},
          {"element_size", exactDecimal(s.hx) + "x" + exactDecimal(s.hy)},
          {"E", exactDecimal(s.material.E)},
          {"nu", exactDecimal(s.material.nu)},
          {"rho", exactDecimal(s.material.rho)},
          {"thickness", thickness},
          {"mass", std::string(s.lumped_mass ? "lumped" : "consistent") + (s.mass_scaling == MassScaling::Course ? "/course" : "")},
          {"supports", supportsName(s.supports)},
          {"point_loads", loads.empty() ? "default" : loads},
          {"top_load", exactDecimal(s.top_load)}};
}

void BeamModel::draw(Vec x, Vec v, Drawing &d) const {
  d.clear();
  d.kind = Drawing::Kind::UnstructuredGrid;
  const size_t n_local = local_nodes_.size();
  // Scatters are collective: every rank takes part, with or without elements.
  auto gather = [&](Vec from, std::vector<double> &to) {
    BEAM_PETSC(VecScatterBegin(scatter_, from, local_, INSERT_VALUES, SCATTER_FORWARD));
    BEAM_PETSC(VecScatterEnd(scatter_, from, local_, INSERT_VALUES, SCATTER_FORWARD));
    const PetscScalar *a = nullptr;
    BEAM_PETSC(VecGetArrayRead(local_, &a));
    to.assign(3 * n_local, 0.0); // z stays 0
    for (size_t i = 0; i < n_local; ++i) {
      to[3 * i] = PetscRealPart(a[2 * i]);
      to[3 * i + 1] = PetscRealPart(a[2 * i + 1]);
    }
    BEAM_PETSC(VecRestoreArrayRead(local_, &a));
  };
  gather(x, u_);
  if (v) gather(v, w_);
  const BeamMesh &mesh = beam_.mesh();
  for (PetscInt node : local_nodes_) {
    const auto [i, j] = mesh.nodeXY(node);
    d.points.push_back({i * mesh.hx(), j * mesh.hy(), 0.0});
  }
  DrawingArray von_mises{"von_mises", 1, {}}, density{"strain_energy_density", 1, {}};
  for (const auto &ids : cells_) {
    d.addCell(9 /* VTK_QUAD */, {ids[0], ids[1], ids[2], ids[3]});
    double ue[8];
    for (size_t k = 0; k < 4; ++k) {
      ue[2 * k] = u_[size_t(3 * ids[k])];
      ue[2 * k + 1] = u_[size_t(3 * ids[k] + 1)];
    }
    von_mises.values.push_back(fields_.vonMisesStress(ue));
    density.values.push_back(fields_.strainEnergyDensity(ue));
  }
  d.point_data = {{"displacement", 3, u_}};
  if (v) d.point_data.push_back({"velocity", 3, w_});
  d.duplicate_points = duplicate_;
  d.cell_data = {std::move(von_mises), std::move(density)};
}

} // namespace beam
