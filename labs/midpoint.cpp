// Lab "Równania ruchu", midpoint scheme (reference 003):
//   (M + dt^2/4 S) y_{n+1} = M y_n + dt (f - S (x_n + dt/4 y_n)),  x_{n+1} = x_n + dt (y_n + y_{n+1})/2,
// on the course's beam (20x5 Q4, left edge clamped, force -0.1 at P(MX,0,1), starting from rest).
// Expect: E = 1/2 y'My + 1/2 x'Sx - f'x conserved to round-off for every dt.
#include "labs/BeamLab.hpp"

static const char help[] = "Midpoint scheme on the course's beam.\n";

int main(int argc, char **argv) { return beam::schemeLabMain(argc, argv, "midpoint", help); }
