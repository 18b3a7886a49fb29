// Large vectors on transparent huge pages.
//
// The time loop streams its vectors once or more per step; at 2e6 DOFs each is 16 MB, and with 4 KiB pages
// every stream meets a new page (and a TLB miss) every 512 values. Values of a vector of at least
// kLargeVectorBytes on a rank are mapped by hand, aligned to 2 MiB and marked MADV_HUGEPAGE, so the kernel
// backs them with 2 MiB pages where it can (Debian's default THP mode is "madvise": nothing happens
// without the mark). Measured on the 2-core EPYC VM, semi_implicit, default path, ~2e6 DOFs, pinned to one
// core: 7.9-9.9 ns/DOF/step with 4 KiB pages against 7.1-8.4 with huge pages (see the README). Smaller
// vectors stay PETSc's own: at 2e5 DOFs (1.6 MB) the state lives in the L3 cache, and aligned huge pages
// would put every vector's i-th value in the same cache set.
//
// The vector owns its mapping (a PetscContainer composed on it, unmapped when the vector is destroyed), is
// of the type VecCreateMPI gives and zeroed like it; VecDuplicate of it is an ordinary PETSc vector (which
// keeps a reference to the mapping until it is destroyed: PETSc copies composed objects), the project's
// duplicate() (Petsc.hpp) a large one again. BEAM_HUGE_PAGES=0 in the environment turns this off.
#pragma once
#include "common/Petsc.hpp"

namespace beam {

inline constexpr size_t kLargeVectorBytes = size_t(4) << 20;

// VecCreateMPI(comm, n, N), with the values on huge pages when n values are at least kLargeVectorBytes.
PVec createVectorMPI(MPI_Comm comm, PetscInt n, PetscInt N);

// Whether v's values are on a mapping of its own (tests).
bool onLargePages(Vec v);

} // namespace beam
