#include "common/Warnings.hpp"

#include <cstdio>
#include <mutex>
#include <vector>

namespace beam {
namespace {
std::mutex g_mutex;
bool g_holding = false;
std::vector<std::string> g_held;
} // namespace

void warningLine(const std::string &line) {
  const std::lock_guard<std::mutex> lock(g_mutex);
  if (g_holding) {
    g_held.push_back(line);
    return;
  }
  std::fprintf(stderr, "%s\n", line.c_str());
  std::fflush(stderr);
}

void warningLine(MPI_Comm comm, const std::string &line) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0) warningLine(line);
}

void holdWarnings() {
  const std::lock_guard<std::mutex> lock(g_mutex);
  g_holding = true;
}

void releaseWarnings() {
  const std::lock_guard<std::mutex> lock(g_mutex);
  for (const std::string &line : g_held) std::fprintf(stderr, "%s\n", line.c_str());
  std::fflush(stderr);
  g_held.clear();
  g_holding = false;
}

void dropWarnings() {
  const std::lock_guard<std::mutex> lock(g_mutex);
  g_held.clear();
}

} // namespace beam
