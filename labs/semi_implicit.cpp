// Lab "Równania ruchu", semi-implicit scheme (reference 003):
//   M y_{n+1} = M y_n + dt (f - S x_n),  x_{n+1} = x_n + dt y_{n+1},
// on the course's beam (20x5 Q4, left edge clamped, force -0.1 at P(MX,0,1), starting from rest).
// Expect: bounded energy oscillation for dt < 2/w_max (w_max = 42.18 for the default beam, so
// dt < 0.0474), exponential growth above.
#include "labs/BeamLab.hpp"

static const char help[] = "Semi-implicit scheme on the course's beam.\n";

int main(int argc, char **argv) { return beam::schemeLabMain(argc, argv, "semi_implicit", help); }
