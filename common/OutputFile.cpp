#include "common/OutputFile.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
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

void makeDirectories(const std::string &dir, std::error_code &ec) {
  namespace fs = std::filesystem;
  // Each missing prefix of `dir` by the directory it will be: weakly_canonical resolves the part that
  // exists (links, "..") and reads the rest lexically, as create_directories makes it (plain
  // directories, so a ".." after a new one is that one's parent: "new/../x" is ./x, made or not).
  std::vector<fs::path> missing; // outermost first
  fs::path prefix;
  for (const auto &part : fs::path(dir)) {
    prefix /= part;
    if (part.empty() || part == "." || part == "..") continue;
    std::error_code e;
    const fs::path where = fs::weakly_canonical(fs::absolute(prefix, e), e);
    if (!e && !fs::exists(fs::symlink_status(where, e)) && std::find(missing.begin(), missing.end(), where) == missing.end())
      missing.push_back(where);
  }
  fs::create_directories(dir, ec);
  // Those made, by a creation that failed further on too ("new/../file/x" made new).
  for (const auto &where : missing) {
    Made made;
    if (identify(where, true, made)) madeDirectories().push_back(made);
  }
}

void recordMadeFile(const std::string &path) {
  std::error_code e;
  Made made;
  if (identify(std::filesystem::absolute(path, e), false, made)) madeFiles().push_back(made);
}

void removeWhatTheRunMade() {
  namespace fs = std::filesystem;
  for (auto it = madeFiles().rbegin(); it != madeFiles().rend(); ++it)
    if (unchanged(*it, false)) ::unlink(it->path.c_str());
  // A directory holding nothing, or only a lock file (another rank's record of the directory may be the one
  // that reaches it first).
  for (auto it = madeDirectories().rbegin(); it != madeDirectories().rend(); ++it) {
    if (!unchanged(*it, true)) continue;
    std::error_code ec;
    bool empty = true;
    for (const auto &entry : fs::directory_iterator(it->path, ec))
      empty = empty && entry.path().filename() == ".lock" && entry.is_regular_file(ec);
    if (ec || !empty) continue;
    ::unlink((it->path / ".lock").c_str());
    ::rmdir(it->path.c_str());
  }
  madeFiles().clear();
  madeDirectories().clear();
}

} // namespace beam
