// Output files: opening one without ever waiting (the one open(2) every writer makes), and replacing a
// whole file atomically.
#pragma once
#include <mpi.h>

#include <cstddef>
#include <filesystem>
#include <string>
#include <system_error>
#include <vector>

namespace beam {

// open(2) of `path` for writing with `flags` (O_CREAT and mode 0666 added) that does not block: a FIFO
// without a reader fails (ENXIO) instead of waiting forever for one; the descriptor is blocking again
// once open. Returns -1 with errno set on failure.
int openForWriting(const std::string &path, int flags);

// write(2) of all `bytes` (again after a partial write or EINTR). Returns 0, or the errno of the write
// that failed (ENOSPC for a write that wrote nothing): a full disk or a file-size limit shows as the
// system's own words ("No space left on device", "File too large").
int writeFully(int fd, const void *data, size_t bytes);

// Writes `content` to `path` through a temporary file in the same directory and a rename, so readers
// see either the old or the new file, never a partial one. Throws a run error naming the file.
// A device or a FIFO in its place (/dev/full, /dev/stdout) is written in place, never renamed over.
void writeFileAtomically(const std::string &path, const std::string &content);

// Where a whole file for `path` is first written: `path` itself where it exists and is not a regular file
// (a device such as /dev/full or /dev/stdout, a FIFO: a rename would replace it), else `path` + ".tmp".
std::string stagingPath(const std::string &path);

// Renames `tmp` onto `path` (atomic on POSIX); throws a run error naming the file.
void commitFile(const std::string &tmp, const std::string &path);

// "" when `file` can be written (a file in a writable directory, tried, not trusted to the permission
// bits); otherwise the refusal, naming `option`. For the files PETSc itself writes (-log_view's,
// -history's, a solver report's viewer file), which it opens where a failure is no line of ours.
std::string writableFileProblem(const std::string &option, const std::string &file);

// The directories that making `dir` will create (each by the path it will have), outermost first.
std::vector<std::filesystem::path> missingDirectories(const std::string &dir);
// Makes directory `dir` and its missing parents (as std::filesystem::create_directories), remembering
// those it made itself, also when a later part failed.
// A refused run (exit 2) takes back what it made (removeWhatTheRunMade), so a refusal met after the output
// directory was prepared (the stability lab's damping that overflows at omega_max) leaves nothing
// behind, as an earlier one does.
void makeDirectories(const std::string &dir, std::error_code &ec);
// Remembers a file the run has just created and holds for itself (an output directory's lock file).
void recordMadeFile(const std::string &path);
// Removes the files recordMadeFile remembered, then, deepest first, the directories makeDirectories made
// that are empty; each only while its path still names what was made. Collective on `comm`.
void removeWhatTheRunMade(MPI_Comm comm);

} // namespace beam
