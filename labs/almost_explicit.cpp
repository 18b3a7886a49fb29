// Lab "Równania ruchu", almost explicit scheme (reference 003):
//   M y_{n+1} = M y_n + dt (f - S x_n),  x_{n+1} = x_n + dt y_n,
// on the course's beam (20x5 Q4, left edge clamped, force -0.1 at P(MX,0,1), starting from rest).
// Expect: the total energy E = 1/2 y'My + 1/2 x'Sx - f'x grows at every dt (each mode by 1 + w^2 dt^2
// per step) until the run stops as diverged (exit 3).
#include "labs/BeamLab.hpp"

static const char help[] = "Almost explicit scheme on the course's beam.\n";

int main(int argc, char **argv) { return beam::schemeLabMain(argc, argv, "almost_explicit", help); }
