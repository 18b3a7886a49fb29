// energy.csv: one row per step with the terms of solvers/Energy.hpp, columns
//   step,time,<the model's stored energies>,[work],total,dissipated,balance_error,drift,
//   <the model's diagnostics>,[newton_its]
// (work when the model has external loads; newton_its for schemes that solve a nonlinear system).
// For the beam: step,time,kinetic,potential,work,total,dissipated,balance_error,drift. A lab may put
// some columns first (`leading`, e.g. the mass-spring lab's kinetic,gravity,elastic,contact,dissipated,
// total); the others follow in the order above.
// Written by rank 0, one write() per row (flushed every row), so a run stopped at any moment leaves
// valid CSV up to the last completed step (a killed write leaves at most one unterminated last line,
// which a restart drops). A restarted run keeps the rows up to its checkpoint and appends, so every step
// appears exactly once; it refuses (checkResume) a log whose header differs or whose rows stop before
// the checkpoint's step.
#pragma once
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "solvers/Model.hpp"
#include "solvers/Monitor.hpp"

namespace beam {

class EnergyLog final : public Monitor {
public:
  EnergyLog(const Model &model, const std::string &path, std::vector<std::string> leading = {});
  void observe(const StepState &state) override;
  void checkResume(const StepState &state) const override;
  void resume(const StepState &state) override;
  void finish(const RunResult &) override;

private:
  struct Closer {
    void operator()(std::FILE *f) const { std::fclose(f); }
  };
  // The column order, fixed at the first row (newton_its depends on the scheme).
  std::vector<std::string> columnsFor(const StepState &state) const;
  static std::string header(const std::vector<std::string> &columns);
  void open(const char *mode);

  std::string path_;
  std::vector<std::string> parts_, diagnostics_, leading_;
  bool work_ = false;
  std::vector<std::string> columns_;
  bool writer_ = false;                     // rank 0 writes
  std::unique_ptr<std::FILE, Closer> file_; // opened at the first row (or on resume)
};

} // namespace beam
