#include "common/OutputFile.hpp"

#include <fcntl.h>

namespace beam {

int openForWriting(const std::string &path, int flags) {
  const int fd = ::open(path.c_str(), flags | O_CREAT | O_NONBLOCK | O_CLOEXEC, 0666);
  if (fd >= 0) ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  return fd;
}

} // namespace beam
