#include "output/EnergyLog.hpp"

#include <algorithm>
#include <cstdlib>
#include <fstream>

#include "common/Error.hpp"

namespace beam {

namespace {
std::string joined(const std::vector<std::string> &columns) {
  std::string h;
  for (const auto &c : columns) h += (h.empty() ? "" : ",") + c;
  return h + "\n";
}
} // namespace

std::vector<std::string> EnergyLog::columnsOf(const Model &model, bool newton_its, const std::vector<std::string> &leading) {
  std::vector<std::string> standard = model.energyNames();
  if (model.hasExternalWork()) standard.push_back("work");
  for (const char *c : {"total", "dissipated", "balance_error", "drift"}) standard.push_back(c);
  for (const auto &d : model.diagnosticNames()) standard.push_back(d);
  if (newton_its) standard.push_back("newton_its");
  std::vector<std::string> columns = {"step", "time"};
  for (const auto &c : leading)
    if (std::find(standard.begin(), standard.end(), c) != standard.end()) columns.push_back(c);
  for (const auto &c : standard)
    if (std::find(columns.begin(), columns.end(), c) == columns.end()) columns.push_back(c);
  return columns;
}

EnergyLog::EnergyLog(const Model &model, const std::string &path, bool newton_its, std::vector<std::string> leading)
    : parts_(model.energyNames()), diagnostics_(model.diagnosticNames()),
      columns_(columnsOf(model, newton_its, leading)), log_(model.comm(), path, joined(columns_)) {}

std::string csvLogCovers(const std::string &path, const std::string &header, long long step, long long rows_per_step) {
  if (const std::string why = regularFileProblem(path); !why.empty()) return why; // /dev/zero: read forever
  std::ifstream in(path);
  std::string line;
  if (!in) return "it cannot be read";
  if (!std::getline(in, line) || line + "\n" != header) return "its columns differ from this run's";
  const auto fields = std::count(header.begin(), header.end(), ',');
  const std::string edited = " before step " + std::to_string(step) + " of the checkpoint (truncated or edited)";
  long long current = 0, rows = 0; // rows must go 0 (rows_per_step times), 1, 2, ..., step
  for (long long number = 2; std::getline(in, line) && !in.eof(); ++number) { // a last line counts only if it ended with a newline
    const long long row = std::atoll(line.c_str());
    if (row > step) break; // rows after the checkpoint are written again
    // (A blank line reads as step 0: after the checkpoint's rows it was said to come before them.)
    if (line.empty()) return "line " + std::to_string(number) + " is blank; the log up to step " + std::to_string(step) +
                             " of the checkpoint was edited";
    if (std::count(line.begin(), line.end(), ',') != fields) return "a row has other columns than its header" + edited;
    if (const std::string bad = notFiniteField(line); !bad.empty()) return bad + edited;
    // The step as the logs write it ("18.0" or "18x" passed as step 18).
    if (line.compare(0, line.find(','), std::to_string(row)) != 0) return "a row's step is not an integer as written" + edited;
    if (row == current && rows < rows_per_step)
      ++rows;
    else if (row == current + 1 && rows == rows_per_step) {
      current = row;
      rows = 1;
    } else
      return "its rows skip or repeat a step" + edited;
  }
  return current == step && rows == rows_per_step ? "" : "its rows stop" + edited;
}

void EnergyLog::checkResume(const StepState &s) const {
  if (!log_.writer()) return;
  const std::string why = csvLogCovers(log_.path(), joined(columns_), s.step, 1);
  if (!why.empty()) throw inputError("-restart: cannot continue '" + log_.path() + "': " + why + "; accepted: the run's own log, as it wrote it up to the checkpoint");
}

void EnergyLog::resume(const StepState &s) {
  // Rows the interrupted run wrote after the checkpoint step are written again by this run.
  log_.resume([&](const std::string &row) { return std::atoll(row.c_str()) <= s.step; });
}

void EnergyLog::observe(const StepState &s) {
  if (!log_.writer()) return log_.write(""); // the other ranks agree on rank 0's write
  const EnergyTerms &e = s.energy;
  std::string row = std::to_string((long long)s.step);
  for (size_t c = 1; c < columns_.size(); ++c) {
    const std::string &name = columns_[c];
    if (name == "time") appendCsvField(row, s.time);
    else if (name == "work") appendCsvField(row, e.work);
    else if (name == "total") appendCsvField(row, e.total());
    else if (name == "dissipated") appendCsvField(row, e.dissipated);
    else if (name == "balance_error") appendCsvField(row, e.balance_error);
    else if (name == "drift") appendCsvField(row, s.drift);
    else if (name == "newton_its") row += "," + std::to_string((long long)s.newton_its);
    else if (auto p = std::find(parts_.begin(), parts_.end(), name); p != parts_.end())
      appendCsvField(row, e.parts[size_t(p - parts_.begin())]);
    else
      appendCsvField(row, e.diagnostics[size_t(std::find(diagnostics_.begin(), diagnostics_.end(), name) - diagnostics_.begin())]);
  }
  log_.write(row + "\n");
}

} // namespace beam
