#include "output/EnergyLog.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>

#include "common/Error.hpp"
#include "output/FileUtil.hpp"

namespace beam {

namespace {
constexpr const char *kHeader = "step,time,kinetic,potential,work,total,dissipated,balance_error,drift\n";
}

EnergyLog::EnergyLog(MPI_Comm comm, const std::string &path) : path_(path) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  writer_ = rank == 0;
}

void EnergyLog::open(const char *mode) {
  file_ = std::fopen(path_.c_str(), mode);
  if (!file_) throw runError("cannot write '" + path_ + "': " + std::strerror(errno));
}

void EnergyLog::resume(const StepState &s) {
  if (!writer_) return;
  // Keep the header and the complete rows up to the checkpoint step; rows the interrupted run wrote
  // after it are written again by this run, so every step appears exactly once.
  std::ifstream in(path_);
  if (!in) throw runError("cannot continue '" + path_ + "': it is missing");
  std::string kept = kHeader, line;
  std::getline(in, line); // header
  while (std::getline(in, line) && !in.eof()) { // the last line counts only if it ended with a newline
    const long long step = std::atoll(line.c_str());
    if (step > s.step) break;
    kept += line + "\n";
  }
  in.close();
  writeFileAtomically(path_, kept);
  open("a");
}

EnergyLog::~EnergyLog() {
  if (file_) std::fclose(file_);
}

void EnergyLog::observe(const StepState &s) {
  if (!writer_) return;
  if (!file_) {
    open("w");
    std::fputs(kHeader, file_);
  }
  const auto &e = s.energy;
  std::fprintf(file_, "%lld,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g\n", (long long)s.step, s.time,
               e.kinetic, e.potential, e.work, e.total(), e.dissipated, e.balance_error, s.drift);
  if (std::fflush(file_) != 0 || std::ferror(file_))
    throw runError("cannot write '" + path_ + "': " + std::strerror(errno));
}

void EnergyLog::finish(const RunResult &) {
  if (!file_) return;
  const int rc = std::fclose(file_);
  file_ = nullptr;
  if (rc != 0) throw runError("cannot write '" + path_ + "': " + std::strerror(errno));
}

} // namespace beam
