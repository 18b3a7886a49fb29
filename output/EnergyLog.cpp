#include "output/EnergyLog.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>

#include "common/Error.hpp"
#include "output/FileUtil.hpp"

namespace beam {

EnergyLog::EnergyLog(const Model &model, const std::string &path, std::vector<std::string> leading)
    : path_(path), parts_(model.energyNames()), diagnostics_(model.diagnosticNames()), leading_(std::move(leading)),
      work_(model.hasExternalWork()) {
  int rank = 0;
  MPI_Comm_rank(model.comm(), &rank);
  writer_ = rank == 0;
}

std::vector<std::string> EnergyLog::columnsFor(const StepState &state) const {
  std::vector<std::string> standard = parts_;
  if (work_) standard.push_back("work");
  for (const char *c : {"total", "dissipated", "balance_error", "drift"}) standard.push_back(c);
  standard.insert(standard.end(), diagnostics_.begin(), diagnostics_.end());
  if (state.newton_its >= 0) standard.push_back("newton_its");
  std::vector<std::string> columns = {"step", "time"};
  for (const auto &c : leading_)
    if (std::find(standard.begin(), standard.end(), c) != standard.end()) columns.push_back(c);
  for (const auto &c : standard)
    if (std::find(columns.begin(), columns.end(), c) == columns.end()) columns.push_back(c);
  return columns;
}

std::string EnergyLog::header(const std::vector<std::string> &columns) {
  std::string h;
  for (const auto &c : columns) h += (h.empty() ? "" : ",") + c;
  return h + "\n";
}

void EnergyLog::open(const char *mode) {
  file_.reset(std::fopen(path_.c_str(), mode));
  if (!file_) throw runError("cannot write '" + path_ + "': " + std::strerror(errno));
}

void EnergyLog::checkResume(const StepState &s) const {
  if (!writer_) return;
  std::ifstream in(path_);
  if (!in) throw inputError("-restart: cannot continue '" + path_ + "': it is missing");
  std::string line;
  std::getline(in, line);
  if (line + "\n" != header(columnsFor(s)))
    throw inputError("-restart: cannot continue '" + path_ + "': its columns differ from this run's");
  long long expected = 0;
  while (expected <= s.step && std::getline(in, line) && !in.eof()) { // a last line counts only if complete
    if (std::atoll(line.c_str()) != expected) break;
    ++expected;
  }
  if (expected <= s.step)
    throw inputError("-restart: cannot continue '" + path_ + "': its rows stop before step " + std::to_string(s.step) +
                     " of the checkpoint (truncated or edited)");
}

void EnergyLog::resume(const StepState &s) {
  if (!writer_) return;
  columns_ = columnsFor(s);
  // Keep the header and the rows up to the checkpoint step (checked by checkResume); rows the
  // interrupted run wrote after it are written again by this run, so every step appears exactly once.
  std::ifstream in(path_);
  std::string kept = header(columns_), line;
  std::getline(in, line);
  for (long long n = 0; n <= s.step && std::getline(in, line); ++n) kept += line + "\n";
  in.close();
  writeFileAtomically(path_, kept);
  open("a");
}

void EnergyLog::observe(const StepState &s) {
  if (!writer_) return;
  if (!file_) {
    columns_ = columnsFor(s);
    open("w");
    std::fputs(header(columns_).c_str(), file_.get());
  }
  const EnergyTerms &e = s.energy;
  std::string row = std::to_string(s.step);
  char buf[40];
  auto add = [&](double v) {
    std::snprintf(buf, sizeof buf, ",%.17g", v);
    row += buf;
  };
  for (size_t c = 1; c < columns_.size(); ++c) {
    const std::string &name = columns_[c];
    if (name == "time") add(s.time);
    else if (name == "work") add(e.work);
    else if (name == "total") add(e.total());
    else if (name == "dissipated") add(e.dissipated);
    else if (name == "balance_error") add(e.balance_error);
    else if (name == "drift") add(s.drift);
    else if (name == "newton_its") row += "," + std::to_string(s.newton_its);
    else {
      auto part = std::find(parts_.begin(), parts_.end(), name);
      if (part != parts_.end()) {
        add(e.parts[size_t(part - parts_.begin())]);
      } else {
        auto d = std::find(diagnostics_.begin(), diagnostics_.end(), name);
        add(e.diagnostics[size_t(d - diagnostics_.begin())]);
      }
    }
  }
  row += "\n";
  if (std::fputs(row.c_str(), file_.get()) < 0 || std::fflush(file_.get()) != 0 || std::ferror(file_.get()))
    throw runError("cannot write '" + path_ + "': " + std::strerror(errno));
}

void EnergyLog::finish(const RunResult &) {
  if (!file_) return;
  const int rc = std::fclose(file_.release());
  if (rc != 0) throw runError("cannot write '" + path_ + "': " + std::strerror(errno));
}

} // namespace beam
