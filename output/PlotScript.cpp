#include "output/PlotScript.hpp"

#include <cstdio>
#include <cstdlib>
#include <filesystem>

namespace beam {
namespace {

// One shell word: single quotes, with any single quote inside written as '\''.
std::string quoted(const std::string &s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

} // namespace

void runPlotScript(const std::string &script, const std::vector<std::string> &arguments) {
  const std::string path = BEAM_SCRIPTS_DIR "/" + script;
  const char *python = "/usr/bin/python3";
  if (!std::filesystem::exists(python) || !std::filesystem::exists(path)) {
    std::printf("plot skipped: %s or %s not found\n", python, path.c_str());
    return;
  }
  std::string cmd = std::string(python) + " " + quoted(path);
  for (const auto &a : arguments) cmd += " " + quoted(a);
  std::fflush(stdout); // keep our lines before the script's
  if (std::system(cmd.c_str()) != 0)
    std::printf("plot skipped: %s failed (is python3-matplotlib installed?)\n", path.c_str());
}

} // namespace beam
