// Bytes moved per time step, estimated from the structure of what ran, so a step's seconds can be set
// against the STREAM triad of the same run (Stream.hpp).
//
// The counts come from PETSc's event log of one stage (the time loop): how many vector operations,
// products and triangular solves every rank did. Each is charged the bytes it must move at least once
// from memory, in units of the local vector length n (8 bytes per entry):
//   vector operations: VecAXPY, VecAYPX, VecPointwiseMult read 2 and write 1 vector (3n), VecDot and
//     VecTDot read 2, VecCopy 2, VecNorm and VecSet 1, ...; VecMDot and VecMAXPY on k vectors k + 1
//     and k + 2 (k from their logged flops); the Kronecker path's sweeps and fused CG loops (their own
//     events, Traffic.cpp);
//   the node stencil (uniform matrix-free operators) is charged as the element products it replaces,
//     one pass more than it moves (it reads x and writes y once);
//   assembled products (AIJ): values and column indices of every stored entry, the row offsets, x read
//     and y written: nnz (8 + sizeof(PetscInt)) + (n + 1) sizeof(PetscInt) + 16 n — the same for M, S
//     and the schemes' M + c S, which share the Q4 pattern (lumped M keeps it too, with zeros);
//   matrix-free element products (MesLib/MatrixFreeOperator.cpp): x read in place (n), the ghosts
//     copied (read and write n_ghost), y zeroed, then read and written (3 n): 8 (4 n + 2 n_ghost) bytes;
//     the kernel keeps no per-element data for a uniform beam (8 bytes of thickness per element if not);
//   matrix-free diagonal products (the lumped mass alone): d and x read, y written, 3n;
//   direct solves (CHOLMOD): both triangular sweeps read the factor L, 16 bytes per entry of L. PETSc's
//     CHOLMOD interface logs 4 flops per entry of L per solve, so the bytes are 4 x the logged flops.
// Matrix-free element and diagonal products are told apart by the flops MatrixFreeOperator logs
// (128 per element of the rank's window and 1 per row).
// Caches are ignored: a vector that is reused while still in cache is counted again, so on problems
// that fit in the last-level cache the estimate exceeds what reaches memory.
#pragma once
#include <petscsys.h>

#include <string>

#include "MesLib/Beam.hpp"
#include "MesLib/BeamSystem.hpp"

namespace beam::bench {

struct StageCounts {
  double matmult = 0, matmult_flops = 0; // MatMult events, and the flops they logged
  double products = 0; // operator applications: MatMult and the stencil's fused forms (matvecs_per_step)
  double matsolve = 0, matsolve_flops = 0;
  double kspsolve = 0, pcapply = 0;
  double vector_passes = 0; // vector operations in units of one pass over n entries
};

// This rank's counts of one log stage (PetscLogDefaultBegin must have run before the stage); n is the
// local vector length.
StageCounts stageCounts(PetscLogStage stage, PetscInt n);

struct Traffic {
  double bytes = 0; // summed over ranks
  double vector_bytes = 0, product_bytes = 0, solve_bytes = 0;
};

// Bytes of everything counted in `c` on this rank, summed over the ranks of the beam's communicator.
Traffic estimateTraffic(const Beam &beam, const SecondOrderSystem &system, OperatorKind kind,
                        const StageCounts &c);

} // namespace beam::bench
