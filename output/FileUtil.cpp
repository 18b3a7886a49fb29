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

void checkWritableFile(const std::string &option, const std::string &path) {
  // A device or a FIFO is written in place (writeFileAtomically): check it opens, and never create a
  // temporary file beside it (as root, "/dev/full.tmp" renamed would replace the device).
  const std::string tmp = stagingPath(path);
  if (tmp == path) {
    const int fd = openForWriting(path, O_WRONLY);
    if (fd < 0) throw inputError(option + ": cannot write '" + path + "': " + std::strerror(errno));
    ::close(fd);
    return;
  }
  std::FILE *f = std::fopen(tmp.c_str(), "w");
  if (!f) throw inputError(option + ": cannot write '" + path + "': " + std::strerror(errno));
  std::fclose(f);
  std::remove(tmp.c_str());
}

} // namespace beam
