// The labs' "warning: ..." lines on stderr. While a lab sets up (from runMain's start until its run
// starts: RunStart, or the end of a run without one) they are held, so that a run refused after a
// warning (exit 2) prints its error line alone, not a warning about a run that never was (a mechanism's
// redundant constraints, then "output directory ... cannot be created").
#pragma once
#include <mpi.h>

#include <string>

namespace beam {

// `line` (without its newline) on this process's stderr, now or when released. Callers choose the
// rank that says it (rank 0 for a collective finding).
void warningLine(const std::string &line);
// The same, said by rank 0 of `comm` (a finding every rank makes alike). Not collective.
void warningLine(MPI_Comm comm, const std::string &line);

void holdWarnings();    // from now on warningLine keeps its lines
void releaseWarnings(); // prints the kept lines, and prints at once from then on
void dropWarnings();    // forgets the kept lines (a refused run)

} // namespace beam
