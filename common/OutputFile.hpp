// Opening an output file without ever waiting: the one open(2) every writer of the project makes.
#pragma once
#include <string>

namespace beam {

// open(2) of `path` for writing with `flags` (O_CREAT and mode 0666 added) that does not block: a FIFO
// without a reader fails (ENXIO) instead of waiting forever for one; the descriptor is blocking again
// once open. Returns -1 with errno set on failure.
int openForWriting(const std::string &path, int flags);

} // namespace beam
