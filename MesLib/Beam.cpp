#include "MesLib/Beam.hpp"
#include "common/Warnings.hpp"

#include "common/LargeVector.hpp"

#include <cstdint>

#include <algorithm>
#include <cmath>
#include <sstream>

namespace beam {

const char *supportsName(Supports s) {
  switch (s) {
  case Supports::ClampedLeft: return "clamped_left";
  case Supports::ClampedBoth: return "clamped_both";
  case Supports::SimplySupported: return "simply_supported";
  }
  return "?";
}

Supports parseSupports(const std::string &name) {
  for (Supports s : {Supports::ClampedLeft, Supports::ClampedBoth, Supports::SimplySupported})
    if (name == supportsName(s)) return s;
  throw inputError("-supports: unknown value '" + name +
                   "'; accepted: clamped_left, clamped_both, simply_supported");
}

namespace {
std::string num(double v) {
  std::ostringstream s;
  s << v;
  return s.str();
}
} // namespace

void BeamSpec::validate() const {
  if (mx < 1) throw inputError("-mx: " + std::to_string(mx) + " is out of range; accepted: an integer >= 1");
  if (my < 1) throw inputError("-my: " + std::to_string(my) + " is out of range; accepted: an integer >= 1");
  // Counts in 64 bits first: (mx+1)(my+1) nodes, 2 DOFs each, must fit PETSc's index type (and the
  // element count an int).
  const long long dofs = 2LL * (mx + 1LL) * (my + 1LL);
  if (dofs > (long long)PETSC_MAX_INT / 2 || (long long)mx * my > (long long)INT32_MAX)
    throw inputError("-mx " + std::to_string(mx) + " -my " + std::to_string(my) + ": " + std::to_string(dofs) +
                     " DOFs is more than this build's PETSc indices can count; accepted: at most " +
                     std::to_string(PETSC_MAX_INT / 2) + " DOFs");
  if (!(hx > 0) || !std::isfinite(hx)) throw inputError("-hx: " + num(hx) + " is out of range; accepted: a real > 0");
  if (!(hy > 0) || !std::isfinite(hy)) throw inputError("-hy: " + num(hy) + " is out of range; accepted: a real > 0");
  if (!(material.E > 0) || !std::isfinite(material.E))
    throw inputError("-E: " + num(material.E) + " is out of range; accepted: a real > 0");
  if (!(material.nu > -1 && material.nu < 0.5))
    throw inputError("-nu: " + num(material.nu) + " is out of range; accepted: -1 < nu < 0.5");
  if (!(material.rho > 0) || !std::isfinite(material.rho))
    throw inputError("-rho: " + num(material.rho) + " is out of range; accepted: a real > 0");
  if (!(thickness > 0) || !std::isfinite(thickness))
    throw inputError("-thickness: " + num(thickness) + " is out of range; accepted: a real > 0");
  if (!element_thickness.empty()) {
    if (element_thickness.size() != size_t(mx) * size_t(my))
      throw inputError("element thickness: " + std::to_string(element_thickness.size()) +
                       " values given; accepted: exactly mx*my = " + std::to_string((long long)mx * my));
    for (double t : element_thickness)
      if (!(t > 0) || !std::isfinite(t))
        throw inputError("element thickness: " + num(t) + " is out of range; accepted: a real > 0");
  }
  for (const auto &p : point_loads) {
    if (p.x < 0 || p.x > mx || p.y < 0 || p.y > my)
      throw inputError("-point_load: node (" + std::to_string(p.x) + "," + std::to_string(p.y) +
                       ") is outside the beam; accepted: 0 <= x <= " + std::to_string(mx) +
                       ", 0 <= y <= " + std::to_string(my));
    if (!std::isfinite(p.fx) || !std::isfinite(p.fy))
      throw inputError("-point_load: force components must be finite numbers");
  }
  if (!std::isfinite(top_load)) throw inputError("-top_load: must be a finite number");
}

Beam::Beam(const BeamSpec &spec, MPI_Comm comm)
    : spec_(spec), mesh_((spec.validate(), spec.mx), spec.my, spec.hx, spec.hy), comm_(comm) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  const PetscInt nodes = mesh_.nodeCount();
  if (nodes < size)
    throw inputError("too many MPI ranks (" + std::to_string(size) + ") for a beam of " +
                     std::to_string(nodes) + " nodes; accepted: at most one rank per node");
  // Contiguous blocks of whole node rows, as even as possible, so the solves along rows and columns of
  // the Kronecker mass inverse (KroneckerMass.hpp) split cleanly; with more ranks than node rows, blocks
  // of whole nodes.
  const PetscInt row_nodes = spec.mx + 1, rows = spec.my + 1;
  const PetscInt units = rows >= size ? rows : nodes, unit = rows >= size ? row_nodes : 1;
  const PetscInt base = units / size, extra = units % size;
  node_begin_ = unit * (rank * base + std::min<PetscInt>(rank, extra));
  node_end_ = node_begin_ + unit * (base + (rank < extra ? 1 : 0));

  const int mx = spec.mx, my = spec.my;
  switch (spec.supports) {
  case Supports::ClampedBoth:
    for (int y = 0; y <= my; ++y)
      for (int d = 0; d < 2; ++d) frozen_.push_back(mesh_.P(mx, y, d));
    [[fallthrough]];
  case Supports::ClampedLeft:
    for (int y = 0; y <= my; ++y)
      for (int d = 0; d < 2; ++d) frozen_.push_back(mesh_.P(0, y, d));
    break;
  case Supports::SimplySupported: // pin at the bottom-left corner, roller (vertical) at bottom-right
    frozen_ = {mesh_.P(0, 0, 0), mesh_.P(0, 0, 1), mesh_.P(mx, 0, 1)};
    break;
  }
  std::sort(frozen_.begin(), frozen_.end());
  if (frozen_.size() >= size_t(mesh_.dofCount()))
    throw inputError(std::string("-supports ") + supportsName(spec.supports) + ": every DOF of the " + std::to_string(mx) +
                     "x" + std::to_string(my) + " beam is frozen, nothing can move; accepted: supports that leave a DOF free "
                     "(clamped_both needs -mx >= 2)");
}

std::vector<PetscInt> Beam::ownedFrozenDofs() const {
  std::vector<PetscInt> owned;
  for (PetscInt d : frozen_)
    if (d >= 2 * node_begin_ && d < 2 * node_end_) owned.push_back(d);
  return owned;
}

PVec Beam::createVector() const {
  return createVectorMPI(comm_, 2 * (node_end_ - node_begin_), mesh_.dofCount()); // LargeVector.hpp
}

std::vector<PetscInt> Beam::ownedElements() const {
  std::vector<PetscInt> elems;
  for (PetscInt n = node_begin_; n < node_end_; ++n) {
    const auto [x, y] = mesh_.nodeXY(n);
    if (x < spec_.mx && y < spec_.my) elems.push_back(mesh_.Q(x, y));
  }
  return elems;
}

ElementMatrix Beam::elementStiffness() const { return q4Stiffness(spec_.material, spec_.hx, spec_.hy, 1.0); }

ElementMatrix Beam::elementMass() const {
  const ElementMatrix m = q4Mass(spec_.material, spec_.hx, spec_.hy, 1.0, spec_.mass_scaling);
  return spec_.lumped_mass ? lumpRowSum(m) : m;
}

PMat Beam::stiffness(bool apply_frozen) const { return assemble(true, apply_frozen); }
PMat Beam::mass(bool apply_frozen) const { return assemble(false, apply_frozen); }

PMat Beam::assemble(bool stiffness, bool apply_frozen) const {
  const int mx = spec_.mx, my = spec_.my;
  const PetscInt local_rows = 2 * (node_end_ - node_begin_);
  const PetscInt row0 = 2 * node_begin_;

  // Exact preallocation: node (x, y) couples with every node of the 3x3 block around it (they share an
  // element), two columns each; a column is "diagonal" when its node is owned by this rank.
  std::vector<PetscInt> d_nnz(static_cast<size_t>(local_rows)), o_nnz(static_cast<size_t>(local_rows));
  for (PetscInt n = node_begin_; n < node_end_; ++n) {
    const auto [x, y] = mesh_.nodeXY(n);
    PetscInt dn = 0, on = 0;
    for (int yy = std::max(0, y - 1); yy <= std::min(my, y + 1); ++yy)
      for (int xx = std::max(0, x - 1); xx <= std::min(mx, x + 1); ++xx) {
        const PetscInt m = mesh_.node(xx, yy);
        (m >= node_begin_ && m < node_end_ ? dn : on) += 2;
      }
    for (int d = 0; d < 2; ++d) {
      d_nnz[size_t(2 * (n - node_begin_) + d)] = dn;
      o_nnz[size_t(2 * (n - node_begin_) + d)] = on;
    }
  }
  PMat A;
  BEAM_PETSC(MatCreate(comm_, A.out()));
  BEAM_PETSC(MatSetSizes(A, local_rows, local_rows, mesh_.dofCount(), mesh_.dofCount()));
  BEAM_PETSC(MatSetType(A, MATAIJ));
  BEAM_PETSC(MatSeqAIJSetPreallocation(A, 0, d_nnz.data()));
  BEAM_PETSC(MatMPIAIJSetPreallocation(A, 0, d_nnz.data(), 0, o_nnz.data()));
  BEAM_PETSC(MatSetOption(A, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_TRUE));
  BEAM_PETSC(MatSetOption(A, MAT_NO_OFF_PROC_ENTRIES, PETSC_TRUE));

  // All elements share one geometry: compute the unit-thickness matrix once and scale per element.
  const ElementMatrix base = stiffness ? elementStiffness() : elementMass();
  // Elements touching owned nodes lie in element rows [y_first - 1, y_last].
  const int y_first = mesh_.nodeXY(node_begin_)[1], y_last = mesh_.nodeXY(node_end_ - 1)[1];
  PetscInt rows[8];
  PetscScalar vals[64];
  for (int ey = std::max(0, y_first - 1); ey <= std::min(my - 1, y_last); ++ey)
    for (int ex = 0; ex < mx; ++ex) {
      const auto dofs = mesh_.elementDofs(ex, ey);
      const double t = spec_.elementThickness(mesh_.Q(ex, ey));
      int nrows = 0;
      for (int i = 0; i < 8; ++i) {
        if (dofs[size_t(i)] < row0 || dofs[size_t(i)] >= row0 + local_rows) continue;
        rows[nrows] = dofs[size_t(i)];
        for (int j = 0; j < 8; ++j) vals[nrows * 8 + j] = t * base[size_t(i * 8 + j)];
        ++nrows;
      }
      if (nrows) BEAM_PETSC(MatSetValues(A, nrows, rows, 8, dofs.data(), vals, ADD_VALUES));
    }
  BEAM_PETSC(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  BEAM_PETSC(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  if (apply_frozen) {
    const auto owned = ownedFrozenDofs();
    BEAM_PETSC(MatZeroRowsColumns(A, PetscInt(owned.size()), owned.data(), 1.0, nullptr, nullptr));
  }
  BEAM_PETSC(MatSetOption(A, MAT_SYMMETRIC, PETSC_TRUE));
  BEAM_PETSC(MatSetOption(A, MAT_SYMMETRY_ETERNAL, PETSC_TRUE));
  if (apply_frozen) BEAM_PETSC(MatSetOption(A, MAT_SPD, PETSC_TRUE));
  return A;
}

// A point load on a frozen DOF does nothing (the support takes it): say so once, rather than drop it
// silently.
// The default load too: with -supports simply_supported -mx 1 it lands on a support (the beam did not
// move, exit 0, without a word).
void Beam::warnFrozenLoads() const {
  const char *what = spec_.point_loads.empty() ? "the default load (no -point_load or -top_load given)" : "-point_load";
  for (const auto &p : spec_.appliedPointLoads())
    for (int d = 0; d < 2; ++d) {
      const double v = d == 0 ? p.fx : p.fy;
      if (v != 0 && std::binary_search(frozen_.begin(), frozen_.end(), mesh_.P(p.x, p.y, d)))
        warningLine(comm_, std::string("warning: ") + what + " at node (" + std::to_string(p.x) + "," + std::to_string(p.y) +
                               ") pushes a frozen DOF (" + (d == 0 ? "ux" : "uy") + "); the support takes it");
    }
}

std::vector<PointLoad> BeamSpec::appliedPointLoads() const {
  if (!point_loads.empty() || top_load != 0) return point_loads;
  const int x = supports == Supports::ClampedLeft ? mx : mx / 2; // a cantilever's tip, or mid-span
  return {{x, 0, 0.0, -0.1}};
}

PVec Beam::load() const {
  PVec f = createVector();
  BEAM_PETSC(VecSet(f, 0.0));
  const std::vector<PointLoad> points = spec_.appliedPointLoads();
  const PetscInt row0 = 2 * node_begin_, row1 = 2 * node_end_;
  auto add = [&](PetscInt dof, double v) {
    if (dof >= row0 && dof < row1 && v != 0) BEAM_PETSC(VecSetValue(f, dof, v, ADD_VALUES));
  };
  for (const auto &p : points) {
    add(mesh_.P(p.x, p.y, 0), p.fx);
    add(mesh_.P(p.x, p.y, 1), p.fy);
  }
  if (spec_.top_load != 0) // consistent nodal forces of a uniform edge load: half an edge to each end
    for (int ex = 0; ex < spec_.mx; ++ex) {
      add(mesh_.P(ex, spec_.my, 1), 0.5 * spec_.top_load * spec_.hx);
      add(mesh_.P(ex + 1, spec_.my, 1), 0.5 * spec_.top_load * spec_.hx);
    }
  BEAM_PETSC(VecAssemblyBegin(f));
  BEAM_PETSC(VecAssemblyEnd(f));
  for (PetscInt d : ownedFrozenDofs()) BEAM_PETSC(VecSetValue(f, d, 0.0, INSERT_VALUES));
  BEAM_PETSC(VecAssemblyBegin(f));
  BEAM_PETSC(VecAssemblyEnd(f));
  return f;
}

} // namespace beam
