// Lab "Równania ruchu", fully implicit scheme (reference 003):
//   (M + dt^2 S) y_{n+1} = M y_n + dt (f - S x_n),  x_{n+1} = x_n + dt y_{n+1},
// on the course's beam (20x5 Q4, left edge clamped, force -0.1 at P(MX,0,1), starting from rest).
// Expect: stable for every dt; the energy decays (numerical damping), the beam settles towards the
// static deflection.
#include "labs/BeamLab.hpp"

static const char help[] = "Fully implicit scheme on the course's beam.\n";

int main(int argc, char **argv) { return beam::schemeLabMain(argc, argv, "fully_implicit", help); }
