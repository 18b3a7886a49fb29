// Strict parsing of option values: the whole string must be a finite number in range, otherwise an
// input error names the option, the value and what is accepted.
#pragma once
#include <petscsys.h>

#include <string>
#include <vector>

#include "solvers/TimeLoop.hpp"

namespace beam {

// One option of a lab, read as text (its default shown by -help) and parsed strictly afterwards, so
// a typo like "-dt 0.0l" is an error, not a silent 0.
struct OptionEntry {
  const char *name, *help;
  std::string value; // the default, replaced by the given value
  bool set = false;  // given on the command line
};
// Reads `entries` in one PETSc options block titled `title` (so -help lists them with their defaults);
// a value PETSc itself cannot take becomes an input error.
void readOptionBlock(MPI_Comm comm, const std::string &title, std::vector<OptionEntry> &entries);

// -checkpoint_every N and -restart DIR (entries named so must be in `entries`): fills the checkpoint
// settings of `run`; -restart makes DIR the output directory (refusing another -output_dir).
void applyCheckpointOptions(const std::vector<OptionEntry> &entries, RunSettings &run, std::string &output_dir);

double parseReal(const std::string &option, const std::string &text);
long parseInteger(const std::string &option, const std::string &text);
// true/1/yes or an empty value (a bare flag) -> true; false/0/no -> false.
bool parseBool(const std::string &option, const std::string &text);
// Comma-separated reals, e.g. "3,0,0,-0.1".
std::vector<double> parseRealList(const std::string &option, const std::string &text);
// Reals from a text file, whitespace separated; errors name the file and the line.
std::vector<double> readRealFile(const std::string &option, const std::string &path);

// Fails with an input error naming the first option nobody read ("unknown option -foo"). Call after
// every object has taken its options (KSPSetFromOptions included) and before anything is written.
void rejectUnusedOptions();

} // namespace beam
