#include "labs/OptionParsing.hpp"

#include <fstream>
#include <sstream>

#include "common/Error.hpp"
#include "common/InputFile.hpp"

namespace beam {

std::vector<double> readRealFile(const std::string &option, const std::string &path) {
  checkInputFile(option, path, kMaxInputBytes, "a text file of real numbers");
  std::ifstream in(path);
  if (!in) throw inputError(option + ": cannot open file '" + path + "'");
  std::vector<double> values;
  std::string line;
  for (int lineno = 1; std::getline(in, line); ++lineno) {
    if (lineno == 1) dropByteOrderMark(line);
    std::istringstream words(line);
    std::string w;
    while (words >> w) {
      if (w[0] == '#') break;
      double v = 0;
      const std::string problem = realProblem(w, &v);
      if (!problem.empty()) throw inputError(option + ": " + path + ":" + std::to_string(lineno) + ": '" + w + "' " + problem +
                                                  "; accepted: reals separated by spaces or lines ('#' starts a comment)");
      values.push_back(v);
    }
  }
  return values;
}

} // namespace beam
