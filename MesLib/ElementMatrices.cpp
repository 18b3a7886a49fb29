#include "MesLib/ElementMatrices.hpp"

#include <cmath>

namespace beam {
namespace {

// Local node positions in natural coordinates, counter-clockwise from bottom-left.
constexpr double kXi[4] = {-1, 1, 1, -1};
constexpr double kEta[4] = {-1, -1, 1, 1};

// Strain-displacement matrix B (3x8, row-major) at natural point (xi, eta) of an hx x hy rectangle.
std::array<double, 24> strainDisplacement(double hx, double hy, double xi, double eta) {
  std::array<double, 24> B{};
  for (int a = 0; a < 4; ++a) {
    const double dNdx = 0.25 * kXi[a] * (1 + kEta[a] * eta) * 2.0 / hx;
    const double dNdy = 0.25 * kEta[a] * (1 + kXi[a] * xi) * 2.0 / hy;
    B[0 * 8 + 2 * a] = dNdx;     // eps_xx = du/dx
    B[1 * 8 + 2 * a + 1] = dNdy; // eps_yy = dv/dy
    B[2 * 8 + 2 * a] = dNdy;     // gamma_xy = du/dy + dv/dx
    B[2 * 8 + 2 * a + 1] = dNdx;
  }
  return B;
}

std::array<double, 9> planeStress(const Material &m) {
  const double c = m.E / (1 - m.nu * m.nu);
  return {c, c * m.nu, 0, c * m.nu, c, 0, 0, 0, c * (1 - m.nu) / 2};
}

} // namespace

ElementMatrix q4Stiffness(const Material &m, double hx, double hy, double t) {
  const auto D = planeStress(m);
  const double g = 1.0 / std::sqrt(3.0);
  const double weight = t * hx * hy / 4.0; // Gauss weights are 1; dA = hx*hy/4 dxi deta
  ElementMatrix K{};
  for (double xi : {-g, g})
    for (double eta : {-g, g}) {
      const auto B = strainDisplacement(hx, hy, xi, eta);
      std::array<double, 24> DB{}; // D * B, 3x8
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 8; ++j)
          for (int k = 0; k < 3; ++k) DB[i * 8 + j] += D[i * 3 + k] * B[k * 8 + j];
      for (int i = 0; i < 8; ++i)
        for (int j = 0; j < 8; ++j) {
          double s = 0;
          for (int k = 0; k < 3; ++k) s += B[k * 8 + i] * DB[k * 8 + j];
          K[i * 8 + j] += weight * s;
        }
    }
  return K;
}

ElementMatrix q4Mass(const Material &m, double hx, double hy, double t, MassScaling scaling) {
  const double area = hx * hy;
  const double scale = m.rho * t * area / (scaling == MassScaling::Consistent ? 36.0 : 1.0);
  ElementMatrix M{};
  for (int a = 0; a < 4; ++a)
    for (int b = 0; b < 4; ++b) {
      const int gap = (a - b + 4) % 4; // 0 same node, 1 or 3 edge neighbour, 2 opposite corner
      const double pattern = gap == 0 ? 4.0 : (gap == 2 ? 1.0 : 2.0);
      for (int d = 0; d < 2; ++d) M[(2 * a + d) * 8 + 2 * b + d] = scale * pattern;
    }
  return M;
}

ElementMatrix lumpRowSum(const ElementMatrix &m) {
  ElementMatrix d{};
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 8; ++j) d[size_t(i * 8 + i)] += m[size_t(i * 8 + j)];
  return d;
}

std::array<double, 3> q4CentreStress(const Material &m, double hx, double hy, const double ue[8]) {
  const auto B = strainDisplacement(hx, hy, 0.0, 0.0);
  const auto D = planeStress(m);
  std::array<double, 3> eps{};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 8; ++j) eps[i] += B[i * 8 + j] * ue[j];
  std::array<double, 3> s{};
  for (int i = 0; i < 3; ++i)
    for (int k = 0; k < 3; ++k) s[i] += D[i * 3 + k] * eps[k];
  return s;
}

double vonMises(const std::array<double, 3> &s) {
  return std::sqrt(s[0] * s[0] - s[0] * s[1] + s[1] * s[1] + 3 * s[2] * s[2]);
}

} // namespace beam
