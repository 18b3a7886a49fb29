#include "common/OutputFile.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

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

} // namespace beam
