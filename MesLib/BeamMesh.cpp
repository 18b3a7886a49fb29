#include "MesLib/BeamMesh.hpp"

#include "common/Error.hpp"

namespace beam {

BeamMesh::BeamMesh(int mx, int my, double hx, double hy) : mx_(mx), my_(my), hx_(hx), hy_(hy) {
  if (mx < 1 || my < 1) throw inputError("beam needs mx >= 1 and my >= 1 elements");
  if (!(hx > 0) || !(hy > 0)) throw inputError("element size hx, hy must be > 0");
}

std::array<PetscInt, 8> BeamMesh::elementDofs(int ex, int ey) const {
  const auto n = elementNodes(ex, ey);
  std::array<PetscInt, 8> dofs{};
  for (int a = 0; a < 4; ++a) {
    dofs[2 * a] = 2 * n[a];
    dofs[2 * a + 1] = 2 * n[a] + 1;
  }
  return dofs;
}

} // namespace beam
