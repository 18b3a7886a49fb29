#include "solvers/Checkpoint.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "common/Hash.hpp"
#include "common/Agree.hpp"
#include "common/Error.hpp"
#include "common/OutputFile.hpp"
#include "common/Petsc.hpp"

namespace beam {
namespace {

constexpr PetscInt kMagic = 0x4245414d; // "BEAM"
// 3: fully_implicit's history is y_n - y_{n-1} (was y_{n-1}); 4: whether the scheme's history continues
// the saved state, whether the drift scale follows the energies, and a checksum of the header alone (a flipped identity bit was named as another run's
// setting, before the whole file's checksum could be compared).
constexpr PetscInt kVersion = 7; // 5: the drift's signed extremes and largest drawdown; 6: mass-spring and
                                  // multibody runs identified by their data, not file paths; exactDecimal;
                                  // 7: the series' grid (the writing run's -snapshot_every)
constexpr PetscInt kMaxIdentity = 1 << 20; // bytes of identity text a header may announce
constexpr PetscInt kMaxHistory = 16;
constexpr int kNameLength = 64;
constexpr int kChecksumLength = 16; // hex digits
constexpr int kInts = 9;
constexpr int kReals = 10;

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

// splitmix64's finalizer: a bijective mix, so one flipped input bit changes about half the output.
std::uint64_t mix(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

std::string hex(std::uint64_t v) {
  char b[kChecksumLength + 1];
  std::snprintf(b, sizeof b, "%016llx", (unsigned long long)v);
  return b;
}

// Sum over the entries of mix(hash of (vector number, global index, value bits)): independent of the
// partition and of the order of summation.
std::uint64_t hashVector(Vec v, std::uint64_t salt) {
  PetscInt begin, end;
  BEAM_PETSC(VecGetOwnershipRange(v, &begin, &end));
  const PetscScalar *a;
  BEAM_PETSC(VecGetArrayRead(v, &a));
  std::uint64_t sum = 0;
  for (PetscInt i = begin; i < end; ++i) {
    double value = PetscRealPart(a[i - begin]);
    std::uint64_t bits;
    std::memcpy(&bits, &value, sizeof bits);
    sum += mix(mix(salt + std::uint64_t(i)) ^ bits);
  }
  BEAM_PETSC(VecRestoreArrayRead(v, &a));
  std::uint64_t total = 0;
  MPI_Allreduce(&sum, &total, 1, MPI_UINT64_T, MPI_SUM, PetscObjectComm(PetscObject(v)));
  return total;
}

std::string identityText(const Identity &id) {
  std::string text;
  for (const auto &[field, value] : id) text += field + "=" + value + "\n";
  return text;
}

Identity parseIdentity(const std::string &text) {
  Identity id;
  size_t pos = 0;
  while (pos < text.size()) {
    const size_t end = text.find('\n', pos), eq = text.find('=', pos);
    if (end == std::string::npos || eq == std::string::npos || eq > end) return {{"?", "malformed identity"}};
    id.emplace_back(text.substr(pos, eq - pos), text.substr(eq + 1, end - eq - 1));
    pos = end + 1;
  }
  return id;
}

struct RawHeader {
  PetscInt ints[kInts] = {}; // magic, version, size, step, history, identity length, history continues,
                             // scale follows, series grid
  char name[kNameLength] = {};
  PetscReal reals[kReals] = {}; // time, dt, work, dissipated, total0, energy_scale, max_abs_drift, max_drift,
                                // min_drift, max_drawdown
  std::string identity;
};

std::uint64_t hashHeader(const RawHeader &r) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  h = fnv1a(r.ints, sizeof r.ints, h);
  h = fnv1a(r.name, sizeof r.name, h);
  h = fnv1a(r.reals, sizeof r.reals, h);
  return fnv1a(r.identity.data(), r.identity.size(), h);
}

std::uint64_t checksum(const RawHeader &r, const std::vector<Vec> &vectors) {
  std::uint64_t h = hashHeader(r);
  for (size_t k = 0; k < vectors.size(); ++k) h = mix(h ^ hashVector(vectors[k], (std::uint64_t(k) + 1) << 40));
  return h;
}

RawHeader rawHeader(const CheckpointHeader &h) {
  RawHeader r;
  r.identity = identityText(h.identity);
  const PetscInt ints[kInts] = {kMagic, kVersion, h.size, h.step, h.history, PetscInt(r.identity.size()),
                                h.continues ? 1 : 0, h.scale_follows ? 1 : 0, h.series_every};
  std::memcpy(r.ints, ints, sizeof ints);
  std::strncpy(r.name, h.scheme.c_str(), kNameLength - 1);
  const PetscReal reals[kReals] = {h.time,         h.dt,           h.work,      h.dissipated, h.total0,
                                   h.energy_scale, h.max_abs_drift, h.max_drift, h.min_drift, h.max_drawdown};
  std::memcpy(r.reals, reals, sizeof reals);
  return r;
}

// Reads the header; "" on success, else why it is not a valid header.
std::string readRaw(PetscViewer v, RawHeader &r, std::string &stored_checksum) {
  PetscInt got = 0;
  if (PetscViewerBinaryRead(v, r.ints, kInts, &got, PETSC_INT) || got != kInts) return "too short";
  if (r.ints[0] != kMagic) return "not a checkpoint of this program";
  if (r.ints[1] != kVersion) return "written by another version (" + std::to_string(r.ints[1]) + ")";
  if (r.ints[2] < 1 || r.ints[3] < 0 || r.ints[4] < 0 || r.ints[4] > kMaxHistory || r.ints[5] < 0 ||
      r.ints[5] > kMaxIdentity || r.ints[6] < 0 || r.ints[6] > 1 ||
      r.ints[7] < 0 || r.ints[7] > 1 || r.ints[8] < 0)
    return "corrupted header (a count out of range)";
  if (PetscViewerBinaryRead(v, r.name, kNameLength, &got, PETSC_CHAR) || got != kNameLength) return "too short";
  r.name[kNameLength - 1] = '\0';
  if (PetscViewerBinaryRead(v, r.reals, kReals, &got, PETSC_REAL) || got != kReals) return "too short";
  r.identity.assign(size_t(r.ints[5]), '\0');
  if (r.ints[5] > 0 && (PetscViewerBinaryRead(v, r.identity.data(), r.ints[5], &got, PETSC_CHAR) || got != r.ints[5]))
    return "too short";
  char header_sum[kChecksumLength + 1] = {}, sum[kChecksumLength + 1] = {};
  if (PetscViewerBinaryRead(v, header_sum, kChecksumLength, &got, PETSC_CHAR) || got != kChecksumLength) return "too short";
  if (hex(hashHeader(r)) != header_sum) return "corrupted header (checksum mismatch)";
  if (PetscViewerBinaryRead(v, sum, kChecksumLength, &got, PETSC_CHAR) || got != kChecksumLength) return "too short";
  stored_checksum = sum;
  for (double x : r.reals)
    if (!std::isfinite(x)) return "corrupted header (a value is not finite)";
  return "";
}

// The exact byte count of a checkpoint with header `r` and these vectors (PETSc's binary layout: each
// vector is a class id and a length, as PetscInt, then its reals), checked against the file on rank 0.
bool sizeMatches(MPI_Comm comm, const std::string &path, const RawHeader &r, const std::vector<Vec> &vectors) {
  using ll = long long;
  ll expected = ll(sizeof r.ints) + kNameLength + ll(sizeof r.reals) + ll(r.identity.size()) + 2 * kChecksumLength;
  for (Vec v : vectors) {
    PetscInt n;
    BEAM_PETSC(VecGetSize(v, &n));
    expected += 2 * ll(sizeof(PetscInt)) + ll(n) * ll(sizeof(PetscReal));
  }
  int ok = 0;
  if (rankOf(comm) == 0) {
    struct stat st {};
    ok = stat(path.c_str(), &st) == 0 && ll(st.st_size) == expected;
  }
  MPI_Bcast(&ok, 1, MPI_INT, 0, comm);
  return ok != 0;
}

// PETSc's binary format, written by rank 0 with write(2): big-endian, swapped by PETSc's own
// PetscByteSwap as PetscBinaryWrite does, so VecLoad and PetscViewerBinaryRead read it back (a checkpoint
// is the bytes VecView wrote before, compared with cmp), and a failure names the system's error ("No
// space left on device", "File too large") instead of PETSc's byte counts.
class BigEndianFile {
public:
  explicit BigEndianFile(int fd) : fd_(fd) {}
  void chars(const char *text, size_t n) { check(writeFully(fd_, text, n)); }
  void values(const PetscInt *v, size_t n) { swapped(v, n, PETSC_INT); }
  void values(const PetscReal *v, size_t n) { swapped(v, n, PETSC_REAL); }

private:
  template <class T>
  void swapped(const T *v, size_t n, PetscDataType type) {
    T buffer[4096];
    for (size_t done = 0; done < n;) {
      const size_t m = std::min(n - done, sizeof buffer / sizeof(T));
      std::copy(v + done, v + done + m, buffer);
#if !defined(PETSC_WORDS_BIGENDIAN)
      BEAM_PETSC(PetscByteSwap(buffer, type, PetscInt(m)));
#endif
      check(writeFully(fd_, buffer, m * sizeof(T)));
      done += m;
    }
  }
  static void check(int err) {
    if (err) throw runError(std::strerror(err));
  }
  int fd_;
};

// One vector as VecView writes it (its class id and global length, then its values), rank 0 writing:
// the other ranks' pieces are gathered to rank 0 first and its write is agreed, so a disk that fills in
// the middle of the vectors ends every rank at once. Inside VecView the others waited for a rank 0 that
// had given up, until the arrival check (5 s) or the unwind watchdog (10 s) ended the job.
void writeVector(MPI_Comm comm, BigEndianFile &file, Vec vec) {
  PetscInt n;
  BEAM_PETSC(VecGetSize(vec, &n));
  int size = 1;
  MPI_Comm_size(comm, &size);
  PScatter to_zero;
  PVec whole;
  Vec source = vec;
  if (size > 1) { // the whole vector on rank 0, nothing on the others; one rank writes its own array
    BEAM_PETSC(VecScatterCreateToZero(vec, to_zero.out(), whole.out()));
    BEAM_PETSC(VecScatterBegin(to_zero, vec, whole, INSERT_VALUES, SCATTER_FORWARD));
    BEAM_PETSC(VecScatterEnd(to_zero, vec, whole, INSERT_VALUES, SCATTER_FORWARD));
    source = whole;
  }
  agreeOn(comm, [&] {
    if (rankOf(comm) != 0) return;
    const PetscInt head[2] = {VEC_FILE_CLASSID, n};
    file.values(head, 2);
    const PetscScalar *a;
    BEAM_PETSC(VecGetArrayRead(source, &a));
    try {
      file.values(a, size_t(n));
    } catch (...) {
      VecRestoreArrayRead(source, &a);
      throw;
    }
    BEAM_PETSC(VecRestoreArrayRead(source, &a));
  });
}

} // namespace

void writeCheckpoint(const std::string &path, const CheckpointHeader &header, Vec x, Vec y,
                     const std::vector<Vec> &history) {
  MPI_Comm comm = PetscObjectComm(PetscObject(x));
  const std::string tmp = path + ".tmp";
  std::vector<Vec> vectors{x, y};
  vectors.insert(vectors.end(), history.begin(), history.end());
  const RawHeader r = rawHeader(header);
  const std::string sum = hex(checksum(r, vectors));
  // Rank 0 writes the file: a path it cannot create (a directory in the way, no permission, a removed
  // output directory) is agreed first, so every rank stops together instead of the others waiting for a
  // rank 0 that has given up. A FIFO in its place is refused rather than waited on (openForWriting).
  const bool writer = rankOf(comm) == 0;
  int fd = -1; // rank 0's
  agreeOn(comm, [&] {
    if (!writer) return;
    fd = openForWriting(tmp, O_WRONLY | O_TRUNC);
    if (fd < 0) throw runError("cannot write checkpoint '" + path + "' (through '" + tmp + "'): " + std::strerror(errno));
  });
  try {
    BigEndianFile file(fd);
    // Only rank 0 writes; each write is agreed (a full disk at the header, in a vector, or at the close).
    agreeOn(comm, [&] {
      if (!writer) return;
      file.values(r.ints, kInts);
      file.chars(r.name, kNameLength);
      file.values(r.reals, kReals);
      file.chars(r.identity.data(), r.identity.size());
      file.chars(hex(hashHeader(r)).data(), kChecksumLength);
      file.chars(sum.data(), kChecksumLength);
    });
    for (Vec vec : vectors) writeVector(comm, file, vec);
    agreeOn(comm, [&] {
      if (!writer) return;
      const int closing = fd;
      fd = -1;
      if (::close(closing) != 0) throw runError(std::strerror(errno));
    });
  } catch (const Error &e) { // every failure inside is agreed, so all ranks come here together
    if (writer) {
      if (fd >= 0) ::close(fd);
      std::remove(tmp.c_str()); // no stale partial file; the previous checkpoint stays
    }
    throw runError("cannot write checkpoint '" + path + "': " + e.what());
  }
  int failed = 0;
  if (writer && std::rename(tmp.c_str(), path.c_str()) != 0) failed = errno;
  MPI_Bcast(&failed, 1, MPI_INT, 0, comm);
  if (failed) throw runError("cannot write checkpoint '" + path + "': rename failed: " + std::strerror(failed));
}

CheckpointHeader readCheckpointHeader(MPI_Comm comm, const std::string &path) {
  int kind = 0; // 0 missing, 1 regular file, 2 something else
  if (rankOf(comm) == 0) {
    struct stat st {};
    if (stat(path.c_str(), &st) == 0) kind = S_ISREG(st.st_mode) ? 1 : 2;
  }
  MPI_Bcast(&kind, 1, MPI_INT, 0, comm);
  if (kind == 0)
    throw inputError("-restart: no checkpoint '" + path + "'; accepted: the output directory of a run that wrote one (at its end, on "
                     "SIGINT/SIGTERM or every -checkpoint_every steps: a diverged run has one only from -checkpoint_every)");
  if (kind == 2) throw inputError("-restart: '" + path + "' is not a regular file; accepted: the checkpoint file a run wrote");
  RawHeader r;
  std::string why, sum;
  try {
    PViewer v = openBinary(comm, path, FILE_MODE_READ);
    why = readRaw(v, r, sum);
  } catch (const Error &) {
    why = "unreadable";
  }
  if (!why.empty()) throw inputError("-restart: '" + path + "' is not a valid checkpoint: " + why + "; accepted: an intact checkpoint");
  CheckpointHeader h;
  h.size = r.ints[2];
  h.step = r.ints[3];
  h.history = r.ints[4];
  h.continues = r.ints[6] == 1;
  h.scale_follows = r.ints[7] == 1;
  h.series_every = r.ints[8];
  h.max_drawdown = r.reals[9];
  h.scheme = r.name;
  h.time = r.reals[0];
  h.dt = r.reals[1];
  h.work = r.reals[2];
  h.dissipated = r.reals[3];
  h.total0 = r.reals[4];
  h.energy_scale = r.reals[5];
  h.max_abs_drift = r.reals[6];
  h.max_drift = r.reals[7];
  h.min_drift = r.reals[8];
  h.identity = parseIdentity(r.identity);
  return h;
}

void checkIdentity(const std::string &path, const Identity &saved, const Identity &expected,
                   const IdentityExplainer &explain) {
  // Another kind of run (a discrete system's checkpoint in a beam lab) has other fields from the first:
  // say what it was ("lab was (none), now semi_implicit" said nothing).
  if (!saved.empty() && !expected.empty() && saved[0].first != expected[0].first)
    throw inputError("-restart: '" + path + "' belongs to another kind of run (its " + saved[0].first + " is " + saved[0].second +
                     ", this run's " + expected[0].first + " is " + expected[0].second +
                     "); accepted: a checkpoint of this lab and model");
  const size_t n = std::max(saved.size(), expected.size());
  for (size_t i = 0; i < n; ++i) {
    const std::string field = i < expected.size() ? expected[i].first : saved[i].first;
    const std::string now = i < expected.size() ? expected[i].second : "(none)";
    const std::string then = i < saved.size() && saved[i].first == field ? saved[i].second : "(none)";
    if (now == then) continue;
    std::string what = explain ? explain(field, then, now) : "";
    // A hash alone ("data_hash was 3f.., now 9c..") does not say that an input file changed.
    if (what.empty() && field == "data_hash")
      what = "the model's data differ (an input file's contents changed since the checkpoint; data_hash was " + then +
             ", now " + now + ")";
    if (what.empty()) what = field + " was " + then + ", now " + now;
    throw inputError("-restart: '" + path + "' belongs to another run: " + what +
                     "; accepted: the options and input files of the run that wrote it");
  }
}

void readCheckpointState(const std::string &path, Vec x, Vec y, const std::vector<Vec> &history) {
  MPI_Comm comm = PetscObjectComm(PetscObject(x));
  std::vector<Vec> vectors{x, y};
  vectors.insert(vectors.end(), history.begin(), history.end());
  RawHeader r;
  std::string sum, why;
  try {
    PViewer v = openBinary(comm, path, FILE_MODE_READ);
    why = readRaw(v, r, sum);
    if (why.empty() && r.ints[4] != PetscInt(history.size()))
      why = "its scheme history has " + std::to_string((long long)r.ints[4]) + " vectors where this scheme keeps " +
            std::to_string(history.size()) + " (written before 2026-11-27, when the Euler schemes, RK4 and Newton's "
            "GAMG path began to keep more; a checkpoint of this version is needed)";
    // A truncated or padded file is refused before loading: VecLoad fails on the reading rank only.
    if (why.empty() && !sizeMatches(comm, path, r, vectors)) why = "its size does not match its header (truncated?)";
    if (why.empty())
      for (Vec vec : vectors) BEAM_PETSC(VecLoad(vec, v));
  } catch (const Error &e) {
    why = e.what();
  }
  if (!why.empty()) throw inputError("-restart: '" + path + "' cannot be read: " + why + "; accepted: an intact checkpoint");
  if (hex(checksum(r, vectors)) != sum)
    throw inputError("-restart: '" + path + "' is corrupted (checksum mismatch); accepted: an intact checkpoint");
}

} // namespace beam
