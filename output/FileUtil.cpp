#include "output/FileUtil.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "common/Error.hpp"
#include "common/Petsc.hpp"

namespace beam {

void prepareOutputDirectory(const std::string &dir) {
  // Collective: a directory bad on some ranks only (per-rank arguments, node-local paths) ends every
  // rank here, before any of them waits in the run's collectives.
  agreeOn(PETSC_COMM_WORLD, [&] {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) throw inputError("output directory '" + dir + "' cannot be created: " + ec.message());
    const std::string probe = dir + "/.write_test";
    std::FILE *f = std::fopen(probe.c_str(), "w");
    if (!f) throw inputError("output directory '" + dir + "' is not writable: " + std::strerror(errno));
    std::fclose(f);
    std::remove(probe.c_str());
  });
}

void commitFile(const std::string &tmp, const std::string &path) {
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    const std::string why = std::strerror(errno);
    std::remove(tmp.c_str());
    throw runError("cannot write '" + path + "': " + why);
  }
}

void writeFileAtomically(const std::string &path, const std::string &content) {
  // A target that exists and is not a regular file (a device such as /dev/full or /dev/stdout, a pipe)
  // cannot be replaced by a rename: write to it directly.
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  const bool special = !ec && std::filesystem::exists(status) && !std::filesystem::is_regular_file(status);
  const std::string tmp = special ? path : path + ".tmp";
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

void checkWritableFile(const std::string &option, const std::string &path) {
  const std::string tmp = path + ".tmp";
  std::FILE *f = std::fopen(tmp.c_str(), "w");
  if (!f) throw inputError(option + ": cannot write '" + path + "': " + std::strerror(errno));
  std::fclose(f);
  std::remove(tmp.c_str());
}

} // namespace beam
