#include "common/OutputFile.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <unordered_set>
#include <vector>

#include "common/Error.hpp"

namespace beam {

int openForWriting(const std::string &path, int flags) {
  const int fd = ::open(path.c_str(), flags | O_CREAT | O_NONBLOCK | O_CLOEXEC, 0666);
  if (fd >= 0) ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  return fd;
}

int writeFully(int fd, const void *data, size_t bytes) {
  const auto *p = static_cast<const char *>(data);
  while (bytes > 0) {
    const ssize_t n = ::write(fd, p, bytes);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return n < 0 ? errno : ENOSPC;
    p += n;
    bytes -= size_t(n);
  }
  return 0;
}

void commitFile(const std::string &tmp, const std::string &path) {
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    const std::string why = std::strerror(errno);
    std::remove(tmp.c_str());
    throw runError("cannot write '" + path + "': " + why);
  }
}

std::string stagingPath(const std::string &path) {
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  const bool special = !ec && std::filesystem::exists(status) && !std::filesystem::is_regular_file(status);
  return special ? path : path + ".tmp";
}

void writeFileAtomically(const std::string &path, const std::string &content) {
  const std::string tmp = stagingPath(path);
  const bool special = tmp == path;
  const int fd = openForWriting(tmp, O_WRONLY | O_TRUNC);
  std::FILE *f = fd < 0 ? nullptr : ::fdopen(fd, "wb");
  if (!f) {
    const int err = errno;
    if (fd >= 0) ::close(fd);
    throw runError("cannot write '" + path + "': " + std::strerror(err));
  }
  const bool ok = std::fwrite(content.data(), 1, content.size(), f) == content.size() && std::fflush(f) == 0;
  const int err = errno;
  if (std::fclose(f) != 0 || !ok) {
    if (!special) std::remove(tmp.c_str());
    throw runError("cannot write '" + path + "': " + std::strerror(err ? err : EIO));
  }
  if (!special) commitFile(tmp, path);
}

// A file PETSc itself writes (-log_view's, -history's, -log_trace's): it opens them in PetscInitialize or
// PetscFinalize, where a failure aborts with a traceback (-log_trace), crashes (-history in a missing
// directory: SIGSEGV) or is lost (-log_view into a directory: the run's exit 0 after a 12-line error).
std::string writableFileProblem(const std::string &option, const std::string &file) {
  const size_t slash = file.rfind('/');
  const std::string dir = slash == std::string::npos ? "." : (slash == 0 ? "/" : file.substr(0, slash));
  struct stat st {};
  if (stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode) || access(dir.c_str(), W_OK) != 0)
    return option + ": cannot write '" + file + "' (no writable directory '" + dir + "'); accepted: a file in a writable directory";
  if (stat(file.c_str(), &st) == 0 && S_ISDIR(st.st_mode))
    return option + ": cannot write '" + file + "': it is a directory; accepted: a file in a writable directory";
  // The permission bits are not the answer for root in /proc or /sys (writable, yet no file can be made
  // there: -log_view :/proc/x hung a 2-rank run in PetscFinalize). Try it: open an existing regular file
  // for writing without truncating it, or make and remove a file of this process's own in the directory
  // (every rank runs this check at once).
  const auto failed = [&](const char *what) {
    return option + ": cannot write '" + file + "' (" + what + ": " + std::strerror(errno) +
           "); accepted: a file in a writable directory";
  };
  if (stat(file.c_str(), &st) == 0) {
    // A FIFO or a device is not opened here: closing it again would end a reader waiting on it (a
    // FIFO with `cat` behind it: cat got end of file and PETSc's own open then waited for ever).
    if (!S_ISREG(st.st_mode))
      return access(file.c_str(), W_OK) == 0 ? "" : failed("checking it");
    const int fd = open(file.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return failed("opening it");
    close(fd);
    return "";
  }
  std::string probe = dir + "/.beam_probe_" + std::to_string((long long)getpid()) + "_XXXXXX";
  const int fd = mkstemp(probe.data());
  if (fd < 0) return failed("making a file in its directory");
  close(fd);
  unlink(probe.c_str());
  return "";
}

namespace {

// What this process made for the run: directories (makeDirectories) and lock files (recordMadeFile), each
// by the path it resolved to when made and its identity, so that a path which comes to name something
// else (a link changed meanwhile) is left alone.
struct Made {
  std::filesystem::path path;
  dev_t device = 0;
  ino_t inode = 0;
};
std::vector<Made> &madeDirectories() { // outermost first
  static std::vector<Made> made;
  return made;
}
std::vector<Made> &madeFiles() {
  static std::vector<Made> made;
  return made;
}

// `path` as it is now (not following a last link), when it is a directory (or a regular file).
bool identify(const std::filesystem::path &path, bool directory, Made &made) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0 || (directory ? !S_ISDIR(st.st_mode) : !S_ISREG(st.st_mode))) return false;
  made = {path, st.st_dev, st.st_ino};
  return true;
}
bool unchanged(const Made &made, bool directory) {
  Made now;
  return identify(made.path, directory, now) && now.device == made.device && now.inode == made.inode;
}

} // namespace

std::vector<std::filesystem::path> missingDirectories(const std::string &dir) {
  namespace fs = std::filesystem;
  // Each part resolved once: the existing part as the system reads it (a link by its target, ".." as the
  // parent of what it follows), the missing rest as create_directories makes it (plain directories, so a
  // ".." after a new one is that one's parent: "new/../x" is ./x, made or not). Linear in the parts (a
  // weakly_canonical per prefix took 80 s on a path of 2000 parts).
  std::vector<fs::path> missing; // outermost first
  std::unordered_set<std::string> seen;
  std::error_code e;
  const fs::path cwd = fs::current_path(e);
  if (e) return missing;
  fs::path at = cwd;
  // (A path longer than the system takes whole, in a deep working directory, is named from there.)
  auto named = [&](const fs::path &p) {
    if (p.native().size() < PATH_MAX) return p;
    const fs::path relative = p.lexically_relative(cwd);
    return relative.empty() ? p : relative;
  };
  for (const auto &part : fs::path(dir)) {
    if (part.has_root_directory()) {
      at = part.root_path();
    } else if (part == "..") {
      at = at.parent_path();
    } else if (!part.empty() && part != ".") {
      at /= part;
      const fs::file_status status = fs::symlink_status(named(at), e);
      if (fs::is_symlink(status)) {
        at = fs::canonical(at, e); // (its target is no path of ours to make)
        if (e) break;              // a dangling link: create_directories fails there
      } else if (!fs::exists(status)) {
        if (seen.insert(at.native()).second) missing.push_back(named(at)); // (new/../new/y names new twice)
      } else if (!fs::is_directory(status)) {
        break; // a file: create_directories fails there
      }
    }
  }
  return missing;
}

void makeDirectories(const std::string &dir, std::error_code &ec) {
  // Each missing directory made here, outermost first, and recorded only where this mkdir made it (one
  // made meanwhile by someone else, or reached through a link swapped meanwhile, is not this run's:
  // recorded from a list taken before, a user's directory made in between was removed). What is left
  // (a path missingDirectories stops reading) and the error's words are create_directories'.
  for (const auto &where : missingDirectories(dir)) {
    if (::mkdir(where.c_str(), 0777) != 0) {
      if (errno == EEXIST) continue;
      break;
    }
    Made made;
    if (identify(where, true, made)) madeDirectories().push_back(made);
  }
  std::filesystem::create_directories(dir, ec);
}

void recordMadeFile(const std::string &path) {
  std::error_code e;
  std::filesystem::path where = std::filesystem::absolute(path, e);
  if (e || where.native().size() >= PATH_MAX) where = path; // (the labs never change their working directory)
  Made made;
  if (identify(where, false, made)) madeFiles().push_back(made);
}

void removeWhatTheRunMade(MPI_Comm comm) {
  for (auto it = madeFiles().rbegin(); it != madeFiles().rend(); ++it)
    if (unchanged(*it, false)) ::unlink(it->path.c_str());
  // Every rank's lock files gone before any rank's directories go (rank 0 makes and locks a shared
  // directory; another rank records only what it made itself, node-local paths), and rmdir takes only an
  // empty one (a directory another run has locked meanwhile keeps that run's lock, and so stays).
  int size = 1;
  MPI_Comm_size(comm, &size);
  if (size > 1) MPI_Barrier(comm);
  for (auto it = madeDirectories().rbegin(); it != madeDirectories().rend(); ++it)
    if (unchanged(*it, true)) ::rmdir(it->path.c_str());
  madeFiles().clear();
  madeDirectories().clear();
}

} // namespace beam
