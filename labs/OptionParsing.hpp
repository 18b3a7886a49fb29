// Values PETSc's typed option calls cannot read: numbers in a file named by an option. (Options
// themselves are read by the option sets with common/Options.hpp, which also holds the strict
// parseReal and parseRealList used here.)
#pragma once
#include <string>
#include <vector>

#include "common/Options.hpp"

namespace beam {

// Reals from a text file, whitespace separated, '#' starts a comment; errors name the file and the line.
std::vector<double> readRealFile(const std::string &option, const std::string &path);

} // namespace beam
