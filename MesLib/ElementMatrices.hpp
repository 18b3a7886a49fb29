// Element matrices of the bilinear plane-stress quadrilateral (Q4) on an hx x hy rectangle.
//
// Stiffness: K_e = t * integral of B^T D B over the element, D the plane-stress elasticity matrix
// E/(1-nu^2) [[1, nu, 0], [nu, 1, 0], [0, 0, (1-nu)/2]]. On a rectangle the integrand is a polynomial of
// degree <= 2 in each coordinate, so 2x2 Gauss quadrature is exact; for a unit square the result equals
// the course's template Md*K[8][8] with Md = E/(1-nu^2).
// Mass: the consistent Q4 mass rho*t*A/36 times the pattern 4 (same node), 2 (edge neighbour),
// 1 (opposite corner), separately for x and y. The course omits the 1/36 (MassScaling::Course).
#pragma once
#include <array>

namespace beam {

using ElementMatrix = std::array<double, 64>; // row-major 8x8 in the local DOF order

struct Material {
  double E = 100.0;
  double nu = 0.3;
  double rho = 1.0;
};

enum class MassScaling { Consistent, Course };

// Stiffness of a Q4 element of thickness t.
ElementMatrix q4Stiffness(const Material &m, double hx, double hy, double t);
// Mass of a Q4 element of thickness t.
ElementMatrix q4Mass(const Material &m, double hx, double hy, double t, MassScaling scaling);
// Row-sum lumping: each row's sum on the diagonal (for the Q4 rectangle identical to HRZ lumping:
// rho*t*A/4 per node and direction with the consistent scaling).
ElementMatrix lumpRowSum(const ElementMatrix &m);
// Stress (sxx, syy, sxy) at the element centre for element displacements ue (local DOF order).
std::array<double, 3> q4CentreStress(const Material &m, double hx, double hy, const double ue[8]);
// Von Mises equivalent of a plane-stress state.
double vonMises(const std::array<double, 3> &s);

} // namespace beam
