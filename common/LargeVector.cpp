#include "common/LargeVector.hpp"

#include <sys/mman.h>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>

namespace beam {
namespace {

constexpr size_t kHugePage = size_t(2) << 20;
constexpr const char *kMappingKey = "beam_large_values";

struct Mapping {
  void *base = nullptr;
  size_t length = 0;
  const PetscScalar *values = nullptr; // the vector's array inside it
};

PetscErrorCode unmap(void *ctx) {
  auto *m = static_cast<Mapping *>(ctx);
  munmap(m->base, m->length);
  delete m; // NOLINT: the container owns its Mapping (created in createVectorMPI)
  return 0;
}

bool enabled() {
  const char *e = std::getenv("BEAM_HUGE_PAGES");
  return !(e && std::strcmp(e, "0") == 0);
}

} // namespace

PVec createVectorMPI(MPI_Comm comm, PetscInt n, PetscInt N) {
  PVec v;
  const size_t bytes = size_t(n) * sizeof(PetscScalar);
  // Both branches make the same collective calls in the same order (VecCreateMPIWithArray's), since the
  // ranks may take different ones (an uneven partition around the threshold, BEAM_HUGE_PAGES=0 on one
  // rank): VecCreateMPI sums the sizes after duplicating the communicator, VecCreateMPIWithArray before,
  // and two ranks on different branches hung in those calls.
  if (bytes < kLargeVectorBytes || !enabled()) {
    BEAM_PETSC(VecCreateMPIWithArray(comm, 1, n, N, nullptr, v.out()));
    PetscScalar *values;
    BEAM_PETSC(PetscCalloc1(n, &values));
    BEAM_PETSC(VecReplaceArray(v, values)); // owned by the vector now, freed with it, as VecCreateMPI's
    return v;
  }
  // Each vector starts at its own offset past the 2 MiB boundary (a different 4 KiB page and cache line),
  // so the vectors a loop streams together do not all map to the same cache sets.
  static std::atomic<unsigned> count{0};
  const size_t offset = (count++ % 16) * (4096 + 64);
  const size_t length = bytes + offset + 2 * kHugePage;
  void *base = mmap(nullptr, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (base == MAP_FAILED) throw runError("cannot map " + std::to_string(length >> 20) + " MiB for a vector");
  const uintptr_t aligned = (reinterpret_cast<uintptr_t>(base) + kHugePage - 1) & ~uintptr_t(kHugePage - 1);
  madvise(reinterpret_cast<void *>(aligned), length - (aligned - reinterpret_cast<uintptr_t>(base)),
          MADV_HUGEPAGE); // a hint: without THP in the kernel the pages stay small, nothing else changes
  auto *values = reinterpret_cast<PetscScalar *>(aligned + offset); // zero, as mmap gives it
  auto mapping = std::make_unique<Mapping>(Mapping{base, length, values});
  PetscContainer container;
  BEAM_PETSC(PetscContainerCreate(PETSC_COMM_SELF, &container));
  BEAM_PETSC(PetscContainerSetPointer(container, mapping.get()));
  BEAM_PETSC(PetscContainerSetUserDestroy(container, unmap));
  mapping.release(); // owned by the container from here on
  const PetscErrorCode ierr = VecCreateMPIWithArray(comm, 1, n, N, values, v.out());
  if (!ierr) PetscObjectCompose(PetscObject(v.get()), kMappingKey, PetscObject(container));
  PetscContainerDestroy(&container); // the vector holds it now (or, on failure, it goes with its mapping)
  BEAM_PETSC(ierr);
  return v;
}

bool onLargePages(Vec v) {
  // VecDuplicate copies the composed container (keeping the mapping alive as long as the copy lives) but
  // gives the copy an array of its own: the mapping is v's only if v's array lies in it.
  PetscObject o = nullptr;
  BEAM_PETSC(PetscObjectQuery(PetscObject(v), kMappingKey, &o));
  if (!o) return false;
  void *ctx = nullptr;
  BEAM_PETSC(PetscContainerGetPointer(PetscContainer(o), &ctx));
  const PetscScalar *a;
  BEAM_PETSC(VecGetArrayRead(v, &a));
  const bool mine = a == static_cast<const Mapping *>(ctx)->values;
  BEAM_PETSC(VecRestoreArrayRead(v, &a));
  return mine;
}

} // namespace beam
