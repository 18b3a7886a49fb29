// The course's structured beam: MX x MY rectangular Q4 elements of size hx x hy, two DOFs per node.
//
// Numbering is the course library's (MesLib) so course code and data line up:
//   node DOF  P(x, y, d) = (y*(MX+1) + x)*2 + d,  d = 0 horizontal (ux), 1 vertical (uy);
//   element   Q(x, y)    = y*MX + x, counted from the bottom-left, row by row;
//   element nodes counter-clockwise from bottom-left: (x,y), (x+1,y), (x+1,y+1), (x,y+1), and local
//   DOFs 0..7 = (node0 ux, node0 uy, node1 ux, ...).
#pragma once
#include <petscsys.h>

#include <array>

namespace beam {

class BeamMesh {
public:
  BeamMesh(int mx, int my, double hx, double hy);

  int mx() const { return mx_; }
  int my() const { return my_; }
  double hx() const { return hx_; }
  double hy() const { return hy_; }
  PetscInt nodeCount() const { return PetscInt(mx_ + 1) * (my_ + 1); }
  PetscInt dofCount() const { return 2 * nodeCount(); }
  PetscInt elementCount() const { return PetscInt(mx_) * my_; }

  PetscInt node(int x, int y) const { return PetscInt(y) * (mx_ + 1) + x; }
  PetscInt P(int x, int y, int d) const { return node(x, y) * 2 + d; }
  PetscInt Q(int x, int y) const { return PetscInt(y) * mx_ + x; }

  // Node grid coordinates (x, y) of a node index.
  std::array<int, 2> nodeXY(PetscInt n) const { return {int(n % (mx_ + 1)), int(n / (mx_ + 1))}; }
  // The four nodes of element (ex, ey), counter-clockwise from bottom-left.
  std::array<PetscInt, 4> elementNodes(int ex, int ey) const {
    return {node(ex, ey), node(ex + 1, ey), node(ex + 1, ey + 1), node(ex, ey + 1)};
  }
  // The eight global DOFs of element (ex, ey) in local order.
  std::array<PetscInt, 8> elementDofs(int ex, int ey) const;

private:
  int mx_, my_;
  double hx_, hy_;
};

} // namespace beam
