// The one check every input reader makes before reading a byte: the path names a readable, non-empty
// regular file no larger than what the input it describes can be. Refuses (input error, one line naming
// the option and the file) an empty name, a missing file, a directory, a device or pipe (/dev/zero would
// otherwise be read until memory runs out), an empty file and an oversized one.
#pragma once
#include <cstdint>
#include <string>

namespace beam {

// What is wrong with the file ("" when nothing): "cannot open the file", "not a regular file", "empty
// file", "N bytes, more than the M its content can take".
std::string inputFileProblem(const std::string &path, std::uintmax_t max_bytes);
// The same as one line "<option>: '<path>' <problem>; accepted: <what>" ("a CSV file", ...).
// Drops a UTF-8 byte order mark (editors write it, a terminal does not show it) from a file's first line.
void dropByteOrderMark(std::string &first_line);

void checkInputFile(const std::string &option, const std::string &path, std::uintmax_t max_bytes, const std::string &what);
// Every file that passed the check is noted with its option; the option of the input file that `path`
// names (the same file by any path), "" for none: an output may not replace the run's own input
// (-save_final onto -model's file replaced the model with a CSV, exit 0).
void noteInputFile(const std::string &option, const std::string &path);
std::string inputFileOption(const std::string &path);

// Caps for inputs whose size is not known before reading: 8 GiB.
constexpr std::uintmax_t kMaxInputBytes = std::uintmax_t(8) << 30;

} // namespace beam
