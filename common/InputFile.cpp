#include "common/InputFile.hpp"

#include <sys/stat.h>

#include <fstream>

#include <cerrno>
#include <cstring>

#include <filesystem>
#include <utility>
#include <vector>

#include "common/Error.hpp"

namespace beam {

namespace {
std::vector<std::pair<std::string, std::string>> &inputFiles() { // (option, path), process-wide
  static std::vector<std::pair<std::string, std::string>> files;
  return files;
}
} // namespace

void noteInputFile(const std::string &option, const std::string &path) { inputFiles().emplace_back(option, path); }

std::string inputFileOption(const std::string &path) {
  std::error_code ec;
  for (const auto &[option, input] : inputFiles())
    if (std::filesystem::equivalent(path, input, ec) && !ec) return option;
  return "";
}

std::string inputFileProblem(const std::string &path, std::uintmax_t max_bytes) {
  struct stat st {};
  if (path.empty()) return "empty file name";
  if (::stat(path.c_str(), &st) != 0) return std::string("cannot open the file: ") + std::strerror(errno);
  if (!S_ISREG(st.st_mode)) return "not a regular file";
  if (st.st_size == 0) {
    // The kernel's files (/proc, /sys) say 0 bytes and hold text: "empty file" was wrong for them.
    std::ifstream in(path, std::ios::binary);
    char byte = 0;
    if (in && in.get(byte)) return "a file that gives its size as 0 but is not empty (a /proc or /sys file): its size cannot be checked";
    return "empty file";
  }
  if (std::uintmax_t(st.st_size) > max_bytes)
    return std::to_string(st.st_size) + " bytes, more than the " + std::to_string(max_bytes) + " its content can take";
  return "";
}

void dropByteOrderMark(std::string &first_line) {
  if (first_line.compare(0, 3, "\xEF\xBB\xBF") == 0) first_line.erase(0, 3);
}

void checkInputFile(const std::string &option, const std::string &path, std::uintmax_t max_bytes, const std::string &what) {
  const std::string why = inputFileProblem(path, max_bytes);
  if (!why.empty()) throw inputError(option + ": '" + path + "': " + why + "; accepted: " + what);
  noteInputFile(option, path);
}

} // namespace beam
