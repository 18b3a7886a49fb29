// Prints the total energy and its relative drift every `every` steps (and at the last step), rank 0 only.
#pragma once
#include "solvers/Monitor.hpp"

namespace beam {

class ConsoleEnergy final : public Monitor {
public:
  ConsoleEnergy(MPI_Comm comm, int every) : comm_(comm), every_(every) {}
  void observe(const StepState &state) override;
  void finish(const RunResult &result) override;

private:
  MPI_Comm comm_;
  int every_;
};

} // namespace beam
