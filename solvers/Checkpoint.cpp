#include "solvers/Checkpoint.hpp"

#include <cstdio>
#include <cstring>

namespace beam {
namespace {

constexpr PetscInt kMagic = 0x4245414d; // "BEAM"
constexpr PetscInt kVersion = 1;
constexpr int kNameLength = 64;

// Header layout: ints [magic, version, size, step, history], name[64] as chars, reals [time, dt, work,
// dissipated, total0, energy_scale, max_abs_drift].
PetscErrorCode writeHeader(PetscViewer v, const CheckpointHeader &h) {
  PetscFunctionBeginUser;
  const PetscInt ints[5] = {kMagic, kVersion, h.size, h.step, h.history};
  char name[kNameLength] = {};
  std::strncpy(name, h.scheme.c_str(), kNameLength - 1);
  const PetscReal reals[7] = {h.time, h.dt, h.work, h.dissipated, h.total0, h.energy_scale, h.max_abs_drift};
  PetscCall(PetscViewerBinaryWrite(v, ints, 5, PETSC_INT));
  PetscCall(PetscViewerBinaryWrite(v, name, kNameLength, PETSC_CHAR));
  PetscCall(PetscViewerBinaryWrite(v, reals, 7, PETSC_REAL));
  PetscFunctionReturn(0);
}

PetscErrorCode readHeader(PetscViewer v, CheckpointHeader &h, bool &valid) {
  PetscFunctionBeginUser;
  PetscInt ints[5] = {};
  char name[kNameLength] = {};
  PetscReal reals[7] = {};
  PetscInt got = 0;
  valid = false;
  PetscCall(PetscViewerBinaryRead(v, ints, 5, &got, PETSC_INT));
  if (got != 5 || ints[0] != kMagic || ints[1] != kVersion) PetscFunctionReturn(0);
  PetscCall(PetscViewerBinaryRead(v, name, kNameLength, &got, PETSC_CHAR));
  if (got != kNameLength) PetscFunctionReturn(0);
  PetscCall(PetscViewerBinaryRead(v, reals, 7, &got, PETSC_REAL));
  if (got != 7) PetscFunctionReturn(0);
  name[kNameLength - 1] = '\0';
  h.size = ints[2];
  h.step = ints[3];
  h.history = ints[4];
  h.scheme = name;
  h.time = reals[0];
  h.dt = reals[1];
  h.work = reals[2];
  h.dissipated = reals[3];
  h.total0 = reals[4];
  h.energy_scale = reals[5];
  h.max_abs_drift = reals[6];
  valid = true;
  PetscFunctionReturn(0);
}

using PViewer = Handle<PetscViewer, PetscViewerDestroy>;

PViewer openBinary(MPI_Comm comm, const std::string &path, PetscFileMode mode) {
  PViewer v;
  BEAM_PETSC(PetscViewerCreate(comm, v.out()));
  BEAM_PETSC(PetscViewerSetType(v, PETSCVIEWERBINARY));
  BEAM_PETSC(PetscViewerBinarySetSkipInfo(v, PETSC_TRUE));
  BEAM_PETSC(PetscViewerFileSetMode(v, mode));
  BEAM_PETSC(PetscViewerFileSetName(v, path.c_str()));
  return v;
}

int rankOf(MPI_Comm comm) {
  int r = 0;
  MPI_Comm_rank(comm, &r);
  return r;
}

} // namespace

void writeCheckpoint(const std::string &path, const CheckpointHeader &header, Vec x, Vec y,
                     const std::vector<Vec> &history) {
  MPI_Comm comm = PetscObjectComm(PetscObject(x));
  const std::string tmp = path + ".tmp";
  try {
    PViewer v = openBinary(comm, tmp, FILE_MODE_WRITE);
    BEAM_PETSC(writeHeader(v, header));
    BEAM_PETSC(VecView(x, v));
    BEAM_PETSC(VecView(y, v));
    for (Vec h : history) BEAM_PETSC(VecView(h, v));
    v.reset(); // flushes and closes before the rename
  } catch (const Error &e) {
    throw runError("cannot write checkpoint '" + path + "': " + e.what());
  }
  int failed = 0;
  if (rankOf(comm) == 0 && std::rename(tmp.c_str(), path.c_str()) != 0) failed = 1;
  MPI_Bcast(&failed, 1, MPI_INT, 0, comm);
  if (failed) throw runError("cannot write checkpoint '" + path + "': rename failed");
}

CheckpointHeader readCheckpointHeader(MPI_Comm comm, const std::string &path) {
  int exists = 0;
  if (rankOf(comm) == 0) {
    std::FILE *f = std::fopen(path.c_str(), "rb");
    exists = f != nullptr;
    if (f) std::fclose(f);
  }
  MPI_Bcast(&exists, 1, MPI_INT, 0, comm);
  if (!exists) throw inputError("-restart: no checkpoint '" + path + "'; accepted: the output directory of a run made with -checkpoint_every");
  CheckpointHeader h;
  bool valid = false;
  try {
    PViewer v = openBinary(comm, path, FILE_MODE_READ);
    BEAM_PETSC(readHeader(v, h, valid));
  } catch (const Error &) {
    valid = false;
  }
  if (!valid) throw inputError("-restart: '" + path + "' is not a checkpoint of this program (bad header)");
  return h;
}

void readCheckpointState(const std::string &path, Vec x, Vec y, const std::vector<Vec> &history) {
  MPI_Comm comm = PetscObjectComm(PetscObject(x));
  try {
    PViewer v = openBinary(comm, path, FILE_MODE_READ);
    CheckpointHeader h;
    bool valid = false;
    BEAM_PETSC(readHeader(v, h, valid));
    if (!valid || h.history != PetscInt(history.size())) throw inputError("bad header");
    BEAM_PETSC(VecLoad(x, v));
    BEAM_PETSC(VecLoad(y, v));
    for (Vec hv : history) BEAM_PETSC(VecLoad(hv, v));
  } catch (const Error &e) {
    throw inputError("-restart: '" + path + "' cannot be read: " + e.what());
  }
}

} // namespace beam
