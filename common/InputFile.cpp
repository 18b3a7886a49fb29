#include "common/InputFile.hpp"

#include <sys/stat.h>

#include "common/Error.hpp"

namespace beam {

void checkInputFile(const std::string &option, const std::string &path, std::uintmax_t max_bytes, const std::string &what) {
  struct stat st {};
  if (path.empty()) throw inputError(option + ": empty file name; accepted: " + what);
  if (::stat(path.c_str(), &st) != 0) throw inputError(option + ": cannot open file '" + path + "'; accepted: " + what);
  if (!S_ISREG(st.st_mode)) throw inputError(option + ": '" + path + "' is not a regular file; accepted: " + what);
  if (st.st_size == 0) throw inputError(option + ": '" + path + "' is empty; accepted: " + what);
  if (std::uintmax_t(st.st_size) > max_bytes)
    throw inputError(option + ": '" + path + "' has " + std::to_string(st.st_size) + " bytes, more than the " +
                     std::to_string(max_bytes) + " its content can take; accepted: " + what);
}

} // namespace beam
