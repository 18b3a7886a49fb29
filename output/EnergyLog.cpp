#include "output/EnergyLog.hpp"

#include <cerrno>
#include <cstring>

#include "common/Error.hpp"

namespace beam {

EnergyLog::EnergyLog(MPI_Comm comm, const std::string &path) : path_(path) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  if (rank != 0) return;
  file_ = std::fopen(path.c_str(), "w");
  if (!file_) throw runError("cannot write '" + path + "': " + std::strerror(errno));
  std::fprintf(file_, "step,time,kinetic,potential,work,total,dissipated,balance_error,drift\n");
}

EnergyLog::~EnergyLog() {
  if (file_) std::fclose(file_);
}

void EnergyLog::observe(const StepState &s) {
  if (!file_) return;
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
