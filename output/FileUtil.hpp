// File helpers shared by every writer: atomic replacement and output-directory checks.
#pragma once
#include <string>

#include "common/OutputFile.hpp" // openForWriting, writeFileAtomically, commitFile

namespace beam {

// Creates `dir` (and parents) if needed and checks that a file can be written in it; throws an input
// error naming the directory otherwise. Call before a run starts, on every rank of PETSC_COMM_WORLD
// (collective: the ranks agree on the outcome).
void prepareOutputDirectory(const std::string &dir);

// Checks at the start of a run that `path` can be written when the run ends (its temporary file can be
// created next to it; nothing is left behind); throws an input error naming `option` and the path.
void checkWritableFile(const std::string &option, const std::string &path);

} // namespace beam
