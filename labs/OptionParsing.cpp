#include "labs/OptionParsing.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "common/Error.hpp"
#include "common/Petsc.hpp"

namespace beam {

namespace {
// PetscOptionsBegin/End need a function returning PetscErrorCode.
PetscErrorCode readBlock(MPI_Comm comm, const std::string &title, std::vector<OptionEntry> &entries) {
  PetscFunctionBeginUser;
  PetscOptionsBegin(comm, nullptr, title.c_str(), nullptr);
  for (auto &e : entries) {
    char buf[PETSC_MAX_PATH_LEN];
    PetscBool set = PETSC_FALSE;
    PetscCall(PetscOptionsString(e.name, e.help, nullptr, e.value.c_str(), buf, sizeof buf, &set));
    if (set) {
      e.value = buf;
      e.set = true;
    }
  }
  PetscOptionsEnd();
  PetscFunctionReturn(0);
}
} // namespace

void readOptionBlock(MPI_Comm comm, const std::string &title, std::vector<OptionEntry> &entries) {
  try {
    BEAM_PETSC(readBlock(comm, title, entries));
  } catch (const Error &e) {
    throw inputError(e.what());
  }
}

void applyCheckpointOptions(const std::vector<OptionEntry> &entries, RunSettings &run, std::string &output_dir) {
  const OptionEntry *every = nullptr, *restart = nullptr, *output = nullptr;
  for (const auto &e : entries) {
    const std::string name = e.name;
    if (name == "-checkpoint_every") every = &e;
    if (name == "-restart") restart = &e;
    if (name == "-output_dir") output = &e;
  }
  if (every) {
    const long n = parseInteger("-checkpoint_every", every->value);
    if (n < 0 || n > 1000000000L)
      throw inputError("-checkpoint_every: " + every->value + " is out of range; accepted: an integer >= 0");
    run.checkpoint_every = PetscInt(n);
  }
  if (restart && !restart->value.empty()) {
    if (output && output->set && output->value != restart->value)
      throw inputError("-restart: writes into the run's own directory '" + restart->value +
                       "'; accepted: no -output_dir, or the same one");
    output_dir = restart->value;
    run.restart_path = output_dir + "/checkpoint.bin";
  }
  // Checkpoints always have a place, so a signal can stop any run cleanly.
  run.checkpoint_path = output_dir + "/checkpoint.bin";
}

double parseReal(const std::string &option, const std::string &text) {
  const char *s = text.c_str();
  char *end = nullptr;
  errno = 0;
  const double v = std::strtod(s, &end);
  // The number must end where the text does: a NUL byte inside (a binary or UTF-16 file) is not a number.
  if (text.empty() || end == s || end != s + text.size() || errno == ERANGE || !std::isfinite(v))
    throw inputError(option + ": '" + text + "' is not a finite real number");
  return v;
}

long parseInteger(const std::string &option, const std::string &text) {
  const char *s = text.c_str();
  char *end = nullptr;
  errno = 0;
  const long v = std::strtol(s, &end, 10);
  if (text.empty() || end == s || end != s + text.size() || errno == ERANGE)
    throw inputError(option + ": '" + text + "' is not an integer");
  return v;
}

bool parseBool(const std::string &option, const std::string &text) {
  if (text.empty() || text == "true" || text == "1" || text == "yes") return true;
  if (text == "false" || text == "0" || text == "no") return false;
  throw inputError(option + ": '" + text + "' is not a truth value; accepted: true, false (or no value)");
}

std::vector<double> parseRealList(const std::string &option, const std::string &text) {
  std::vector<double> values;
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, ',')) values.push_back(parseReal(option, item));
  if (!text.empty() && text.back() == ',') values.push_back(parseReal(option, "")); // "1,2," has an empty field
  return values;
}

std::vector<double> readRealFile(const std::string &option, const std::string &path) {
  std::ifstream in(path);
  if (!in) throw inputError(option + ": cannot open file '" + path + "'");
  std::vector<double> values;
  std::string line;
  for (int lineno = 1; std::getline(in, line); ++lineno) {
    std::istringstream words(line);
    std::string w;
    while (words >> w) {
      if (w[0] == '#') break;
      try {
        values.push_back(parseReal(option, w));
      } catch (const Error &) {
        throw inputError(option + ": " + path + ":" + std::to_string(lineno) + ": '" + w +
                         "' is not a finite real number");
      }
    }
  }
  return values;
}

void rejectUnusedOptions() {
  PetscInt n = 0;
  char **names = nullptr, **values = nullptr;
  if (PetscOptionsLeftGet(nullptr, &n, &names, &values)) throw runError("cannot query the options database");
  std::string unknown;
  for (PetscInt i = 0; i < n && unknown.empty(); ++i) unknown = names[i];
  PetscOptionsLeftRestore(nullptr, &n, &names, &values);
  if (!unknown.empty())
    throw inputError("unknown option -" + unknown + "; run with -help for the accepted options");
}

} // namespace beam
