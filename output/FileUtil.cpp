#include "output/FileUtil.hpp"
#include "common/Warnings.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <random>
#include <set>
#include <vector>

#include <sys/file.h>
#include <sys/stat.h>

#include "common/Error.hpp"
#include "common/InputFile.hpp"
#include "common/OutputFile.hpp"
#include "common/Petsc.hpp"
#include "output/VtkSnapshots.hpp" // isSnapshotFileName

namespace beam {

namespace {

// The directories this process holds locked (by absolute path). The descriptors stay open until the
// process ends, when the system releases the locks.
std::set<std::string> &lockedDirectories() {
  static std::set<std::string> locked;
  return locked;
}

void lockDirectory(const std::string &dir) {
  std::error_code ec;
  const std::string key = std::filesystem::weakly_canonical(dir, ec).string();
  if (lockedDirectories().count(key)) return; // a sweep lab prepares a directory again before its run
  const std::string path = dir + "/.lock";
  // (flock needs no write access.) One this run creates, and locks, goes again if the run is refused.
  // Never through a link (a dangling one made its target), nor waiting on a FIFO (the run hung there).
  const int flags = O_RDONLY | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC;
  int fd = ::open(path.c_str(), flags | O_EXCL, 0644);
  const bool created = fd >= 0;
  if (!created && errno == EEXIST) fd = ::open(path.c_str(), flags, 0644);
  struct stat st {};
  if (fd >= 0 && (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))) {
    ::close(fd);
    fd = -1;
    errno = EINVAL;
  }
  if (fd < 0) // named: a directory '.lock' there was reported as "not writable: Is a directory"
    throw inputError("output directory '" + dir + "': its lock file '" + path + "' cannot be opened: " +
                     (errno == EINVAL || errno == ELOOP ? std::string("not a regular file") : std::strerror(errno)) +
                     "; accepted: a directory the run can write, with no '.lock' in it or a regular file '.lock'");
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    const int err = errno;
    ::close(fd);
    if (err == EWOULDBLOCK)
      throw inputError("output directory '" + dir + "' is in use by another run (it holds '" + path +
                       "' locked); accepted: a directory no other run is writing");
    // A file system without locks (Lustre mounted without flock, NFS without lockd) is no reason to
    // refuse the run: said once, the run goes on unguarded.
    if (err == ENOSYS || err == ENOLCK || err == EOPNOTSUPP || err == EINVAL) {
      warningLine("warning: output directory '" + dir + "' cannot be locked (" + std::strerror(err) +
                  "): a second run writing into it at the same time would not be refused");
      lockedDirectories().insert(key);
      return;
    }
    throw inputError("output directory '" + dir + "' cannot be locked: " + std::strerror(err) +
                     "; accepted: a directory on a file system with flock");
  }
  if (created) recordMadeFile(path); // (not before the lock: another run that took it holds that file)
  lockedDirectories().insert(key);
}

// The files every time-loop run writes in its output directory (besides its snapshot series): one list
// for the directory check, a new run's removal of the earlier run's files and the -save_final check.
bool isRunLogName(const std::string &name) {
  return name == "energy.csv" || name == "trajectory.csv" || name == "checkpoint.bin";
}

// What the exports write in their directory (-write_network, -export_system).
const std::set<std::string> &exportedNames() {
  static const std::set<std::string> names = {"particles.csv", "springs.csv", "M.mtx", "K.mtx", "F.mtx", "fixed.txt"};
  return names;
}

// A name as long as the longest the run writes ("mass_spring_1000000000_1023.pvtu.tmp" has 37
// characters), so a path that leaves no room for it is refused before the run.
std::string probeName(int rank) {
  std::string name = ".write_test_" + std::to_string(rank) + "_" + std::to_string(::getpid()) + "_";
  name.resize(64, 'x');
  return name;
}

// Rank 0 leaves a token in the directory; every rank must read it back there.
void checkSameDirectory(const std::string &dir, int rank, int size) {
  if (size < 2) return;
  char token[32] = {};
  if (rank == 0) {
    std::random_device random;
    std::snprintf(token, sizeof token, "%08x%08x%08x", random(), random(), unsigned(::getpid()));
  }
  MPI_Bcast(token, sizeof token, MPI_CHAR, 0, PETSC_COMM_WORLD);
  const std::string path = dir + "/.same_directory_" + token; // a name of this run's own
  agreeOn(PETSC_COMM_WORLD, [&] {
    if (rank != 0) return;
    std::FILE *f = std::fopen(path.c_str(), "w");
    if (!f || std::fputs(token, f) < 0 || std::fclose(f) != 0)
      throw inputError("output directory '" + dir + "' is not writable: " + std::strerror(errno) +
                       "; accepted: a directory the run can write");
  });
  try {
    agreeOn(PETSC_COMM_WORLD, [&] {
      if (rank == 0) return;
      char seen[32] = {};
      std::FILE *f = std::fopen(path.c_str(), "r");
      const bool same = f && std::fgets(seen, sizeof seen, f) && std::strcmp(seen, token) == 0;
      if (f) std::fclose(f);
      if (!same)
        throw inputError("output directory '" + dir + "' is not the same directory on every rank: rank " + std::to_string(rank) +
                         " does not see rank 0's files in it (a relative path from per-rank working directories, or "
                         "node-local storage); accepted: a directory every rank shares");
    });
  } catch (...) {
    if (rank == 0) std::remove(path.c_str());
    throw;
  }
  if (rank == 0) std::remove(path.c_str());
}

} // namespace

void prepareOutputDirectory(const std::string &dir) {
  int rank = 0, size = 1;
  MPI_Comm_rank(PETSC_COMM_WORLD, &rank);
  MPI_Comm_size(PETSC_COMM_WORLD, &size);
  const std::string probe = dir + "/" + probeName(rank);
  // The directories made by rank 0 first, then by the others where they do not see them (node-local
  // paths, refused below as not shared): each rank records what it made, so that a refused run takes it
  // back (removeWhatTheRunMade), rank 0's deepest first. Collective: a directory bad on some ranks only
  // (per-rank arguments, node-local paths) ends every rank here, before any of them waits in the run's
  // collectives.
  auto make = [&] {
    if (probe.size() >= PATH_MAX) // refused before anything is made
      throw inputError("output directory '" + dir + "': its path (" + std::to_string(dir.size()) +
                       " characters) leaves no room for the run's file names; accepted: a path of at most " +
                       std::to_string(PATH_MAX - 2 - probeName(rank).size()) + " characters");
    std::error_code ec;
    makeDirectories(dir, ec);
    if (ec)
      throw inputError("output directory '" + dir + "' cannot be created: " + ec.message() +
                       "; accepted: a directory, or a path where one can be made");
  };
  agreeOn(PETSC_COMM_WORLD, [&] {
    if (rank == 0) make();
  });
  agreeOn(PETSC_COMM_WORLD, [&] {
    if (rank != 0) make();
    // A file of the probe's name (or a link there) is never opened: the probe is this run's own (pid).
    const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd < 0)
      throw inputError("output directory '" + dir + "' is not writable: " + std::strerror(errno) +
                       "; accepted: a directory the run can write");
    ::close(fd);
    ::unlink(probe.c_str());
    // A directory in the place of a file the labs write there was met only when the file was written:
    // after the run (energy_drift.csv), or after 15 of energy_drift's 16 runs. (A FIFO or a device there
    // is written in place, by design: writeFileAtomically.)
    static const std::set<std::string> written = {
        "energy_drift.csv", "spectral_radius.csv", "modes.csv", "contact_study.csv", "critical_steps.csv",
        "stiffness_sweep.csv", "summary.csv", "constraint_drift.csv", "constraint_drift_summary.csv"};
    std::error_code ec;
    for (const auto &entry : std::filesystem::directory_iterator(dir, ec)) {
      std::string name = entry.path().filename().string();
      if (name.size() > 4 && name.compare(name.size() - 4, 4, ".tmp") == 0) name.resize(name.size() - 4);
      const std::string ext = std::filesystem::path(name).extension().string();
      // Snapshots and charts by extension (paper_central_difference draws one chart per case).
      const bool vtk_or_chart = ext == ".pvd" || ext == ".vtu" || ext == ".vtp" || ext == ".pvtu" || ext == ".pvtp" || ext == ".png";
      if ((isRunLogName(name) || written.count(name) || exportedNames().count(name) || vtk_or_chart) && entry.is_directory(ec))
        throw inputError("output directory '" + dir + "' holds a directory '" + entry.path().filename().string() +
                         "' where the labs write a file of that name; accepted: a directory without it");
      // The run's own input under a name the run writes or removes there: the particles read from
      // 'io/energy.csv' were replaced by the energy log, the springs in 'io/trajectory.csv' removed as an
      // earlier run's (exit 0). (Not a network or system a lab exported there, read back: only an export
      // writes those names, and it refuses to write over an input itself: prepareOptionDirectory.)
      const bool own = isRunLogName(name) || written.count(name) || vtk_or_chart || name == ".lock";
      // A dangling link where the run writes a file (a log is written through it) whose directory is
      // missing: the run stopped at its first write, exit 3 (-output_dir od with od/energy.csv -> /missing/e).
      std::error_code link_ec;
      if (own && entry.is_symlink(ec) && !std::filesystem::exists(entry.path(), link_ec)) {
        // The last link of a chain names the file the write makes (l -> l2 -> /missing/x passed as l2's
        // directory, and the run stopped at its first write).
        std::filesystem::path target = entry.path();
        for (int hops = 0; hops < 40 && std::filesystem::is_symlink(target, ec); ++hops) {
          const std::filesystem::path next = std::filesystem::read_symlink(target, ec);
          target = next.is_relative() ? target.parent_path() / next : next;
        }
        std::string why; // (a loop of links: "Too many levels of symbolic links")
        if (link_ec && link_ec != std::errc::no_such_file_or_directory) why = link_ec.message();
        else if (!std::filesystem::is_directory(target.parent_path(), ec)) why = "no directory '" + target.parent_path().string() + "'";
        if (!why.empty())
          throw inputError("output directory '" + dir + "' holds '" + entry.path().filename().string() + "', a symbolic link to '" +
                           target.string() + "', which cannot be made (" + why +
                           "); accepted: a link to a file in an existing directory, or no link");
      }
      if (own)
        if (const std::string option = inputFileOption(entry.path().string()); !option.empty())
          throw inputError("output directory '" + dir + "' holds the run's input '" + entry.path().filename().string() + "' (" +
                           option + ") under a name the run writes or removes there; accepted: an input outside the output "
                           "directory, or under another name");
    }
  });
  agreeOn(PETSC_COMM_WORLD, [&] {
    if (rank == 0) lockDirectory(dir);
  });
  checkSameDirectory(dir, rank, size);
}

void writeOnRankZero(MPI_Comm comm, const std::string &path, const std::string &content) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  agreeOn(comm, [&] {
    if (rank == 0) writeFileAtomically(path, content);
  });
}

void prepareOptionDirectory(const std::string &option, const std::string &dir) {
  try {
    prepareOutputDirectory(dir);
  } catch (const Error &e) {
    throw Error(e.exitCode(), option + ": " + e.what());
  }
  // An export writes these names there: not over the run's own input (-export_system ex with
  // -thickness_file ex/K.mtx and -load_curve ex/fixed.txt replaced both, exit 0).
  for (const auto &name : exportedNames()) {
    const std::string path = dir + "/" + name;
    if (const std::string input = inputFileOption(path); !input.empty())
      throw inputError(option + ": '" + path + "' is the run's input (" + input +
                       "; the export would replace it); accepted: another directory");
  }
}

void clearPreviousRun(const std::string &dir, const std::string &snapshot_name, bool run_logs) {
  int rank = 0;
  MPI_Comm_rank(PETSC_COMM_WORLD, &rank);
  agreeOn(PETSC_COMM_WORLD, [&] {
    if (rank != 0) return;
    std::vector<std::filesystem::path> stale;
    std::error_code ec;
    for (const auto &entry : std::filesystem::directory_iterator(dir, ec)) {
      std::string f = entry.path().filename().string();
      if (f.size() > 4 && f.compare(f.size() - 4, 4, ".tmp") == 0) f.resize(f.size() - 4);
      const bool series = !snapshot_name.empty() && (f == snapshot_name + ".pvd" || isSnapshotFileName(f, snapshot_name));
      // energy.csv is left to the new run, which rewrites it at once.
      if ((series || (run_logs && isRunLogName(f) && f != "energy.csv")) && entry.is_regular_file(ec)) stale.push_back(entry.path());
    }
    for (const auto &path : stale)
      if (!std::filesystem::remove(path, ec) && ec)
        throw inputError("output directory '" + dir + "': cannot remove the earlier run's '" + path.filename().string() +
                         "': " + ec.message() + "; accepted: a directory the run can write");
  });
}

void removeEarlierResults(const std::string &dir, const std::vector<std::string> &names) {
  int rank = 0;
  MPI_Comm_rank(PETSC_COMM_WORLD, &rank);
  agreeOn(PETSC_COMM_WORLD, [&] {
    if (rank != 0) return;
    for (const auto &name : names) {
      const std::filesystem::path path = std::filesystem::path(dir) / name;
      std::error_code ec;
      if (std::filesystem::is_regular_file(std::filesystem::symlink_status(path, ec)) && !std::filesystem::remove(path, ec) && ec)
        throw inputError("output directory '" + dir + "': cannot remove the earlier run's '" + name + "': " + ec.message() +
                         "; accepted: a directory the run can write");
    }
  });
}

namespace {
// Absolute, canonical as far as the path exists, normal, and without a trailing separator ("ts1/" of a
// directory yet to be made kept it, and was not "ts1"). Empty when the path cannot be made absolute.
std::filesystem::path normalPath(const std::filesystem::path &p) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::path n = fs::weakly_canonical(fs::absolute(p.empty() ? fs::path(".") : p, ec), ec).lexically_normal();
  if (ec) return {};
  return n.has_filename() ? n : n.parent_path();
}
} // namespace

bool isInDirectory(const std::string &file, const std::string &dir) {
  const auto a = normalPath(std::filesystem::path(file).parent_path()), b = normalPath(dir);
  return !a.empty() && a == b;
}

void refuseRunFileAsFinalState(const std::string &save_final, const std::string &dir, const std::string &snapshot_name,
                               const std::vector<std::string> &extra) {
  if (save_final.empty()) return;
  // The output directory itself or one above it: the run made its directory, ran to the end, and then
  // failed to write the state there (exit 3).
  const auto final_path = normalPath(save_final), out = normalPath(dir);
  if (!final_path.empty() && !out.empty()) {
    const auto mismatch = std::mismatch(final_path.begin(), final_path.end(), out.begin(), out.end());
    if (mismatch.first == final_path.end())
      throw inputError("-save_final: '" + save_final + "' is the output directory '" + dir +
                       "' or one it is in; accepted: a file name");
  }
  if (const std::string option = inputFileOption(save_final); !option.empty())
    throw inputError("-save_final: '" + save_final + "' is the run's input (" + option +
                     "; the final state would replace it); accepted: another file name");
  if (!isInDirectory(save_final, dir)) return;
  // A staging name of an own file too (energy.csv.tmp: the next restart consumed it as its own).
  std::string f = std::filesystem::path(save_final).filename().string();
  if (f.size() > 4 && f.compare(f.size() - 4, 4, ".tmp") == 0) f.resize(f.size() - 4);
  bool own = isRunLogName(f) || f == ".lock" ||
             (!snapshot_name.empty() && (f == snapshot_name + ".pvd" || isSnapshotFileName(f, snapshot_name)));
  for (const auto &name : extra) own = own || f == name;
  if (own)
    throw inputError("-save_final: '" + save_final + "' is one of the run's own files in '" + dir +
                     "' (the final state would replace it); accepted: another file name");
}

void prepareRunOutput(MPI_Comm comm, const std::string &dir, const std::string &snapshot_name, const std::string &save_final,
                      bool restart, const std::function<void()> &refuse_input) {
  // Rank 0 decides (and writes the file): under per-rank working directories the ranks could differ,
  // and a rank throwing alone, or calling the collectives below in another order, would hang the others.
  int rank = 0, in_output = 0;
  MPI_Comm_rank(comm, &rank);
  agreeOn(comm, [&] {
    if (rank != 0) return;
    refuseRunFileAsFinalState(save_final, dir, snapshot_name);
    in_output = !save_final.empty() && isInDirectory(save_final, dir);
  });
  MPI_Bcast(&in_output, 1, MPI_INT, 0, comm);
  const bool final_in_output = in_output != 0;
  auto checkFinal = [&] {
    agreeOn(comm, [&] {
      if (rank == 0) checkWritableFile("-save_final", save_final);
    });
  };
  if (!save_final.empty() && !final_in_output) checkFinal();
  refuse_input();
  prepareOutputDirectory(dir);
  if (final_in_output) checkFinal();
  if (!restart) clearPreviousRun(dir, snapshot_name);
}

void checkWritableFile(const std::string &option, const std::string &path) {
  // A device or a FIFO is written in place (writeFileAtomically): check it opens, and never create a
  // temporary file beside it (as root, "/dev/full.tmp" renamed would replace the device).
  const std::string tmp = stagingPath(path);
  if (tmp == path) {
    const int fd = openForWriting(path, O_WRONLY);
    if (fd < 0)
      throw inputError(option + ": cannot write '" + path + "': " + std::strerror(errno) +
                       "; accepted: a file the run can make or write, in an existing directory");
    ::close(fd);
    return;
  }
  std::FILE *f = std::fopen(tmp.c_str(), "w");
  if (!f)
    throw inputError(option + ": cannot write '" + path + "': " + std::strerror(errno) +
                     "; accepted: a file the run can make or write, in an existing directory");
  std::fclose(f);
  std::remove(tmp.c_str());
}

} // namespace beam
