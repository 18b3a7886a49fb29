#include "common/InputFile.hpp"

#include <sys/stat.h>

#include "common/Error.hpp"

namespace beam {

std::string inputFileProblem(const std::string &path, std::uintmax_t max_bytes) {
  struct stat st {};
  if (path.empty()) return "empty file name";
  if (::stat(path.c_str(), &st) != 0) return "cannot open the file";
  if (!S_ISREG(st.st_mode)) return "not a regular file";
  if (st.st_size == 0) return "empty file";
  if (std::uintmax_t(st.st_size) > max_bytes)
    return std::to_string(st.st_size) + " bytes, more than the " + std::to_string(max_bytes) + " its content can take";
  return "";
}

void checkInputFile(const std::string &option, const std::string &path, std::uintmax_t max_bytes, const std::string &what) {
  const std::string why = inputFileProblem(path, max_bytes);
  if (!why.empty()) throw inputError(option + ": '" + path + "': " + why + "; accepted: " + what);
}

} // namespace beam
