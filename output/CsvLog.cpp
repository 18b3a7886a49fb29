#include "output/CsvLog.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>

#include "common/Agree.hpp"
#include "common/Error.hpp"
#include "output/FileUtil.hpp"

namespace beam {

CsvLog::CsvLog(MPI_Comm comm, std::string path, std::string header)
    : path_(std::move(path)), header_(std::move(header)), comm_(comm) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  writer_ = rank == 0;
}

void CsvLog::fail() const { throw runError("cannot write '" + path_ + "': " + std::strerror(errno)); }

void CsvLog::open(const char *mode) {
  file_.reset(std::fopen(path_.c_str(), mode));
  if (!file_) fail();
}

void CsvLog::write(const std::string &row) {
  agreeOn(comm_, [&] {
    if (!writer_) return;
    if (!file_) {
      open("w");
      if (std::fputs(header_.c_str(), file_.get()) < 0) fail();
    }
    std::fputs(row.c_str(), file_.get());
    if (std::fflush(file_.get()) != 0 || std::ferror(file_.get())) fail();
  });
}

void CsvLog::resume(const std::function<bool(const std::string &row)> &keep) {
  agreeOn(comm_, [&] { resumeHere(keep); });
}

void CsvLog::resumeHere(const std::function<bool(const std::string &row)> &keep) {
  if (!writer_) return;
  std::ifstream in(path_);
  if (!in) throw runError("cannot continue '" + path_ + "': it is missing");
  std::string kept = header_, line;
  std::getline(in, line);                       // header
  while (std::getline(in, line) && !in.eof()) { // the last line counts only if it ended with a newline
    if (!keep(line)) break;
    kept += line + "\n";
  }
  in.close();
  writeFileAtomically(path_, kept);
  open("a");
}

void CsvLog::close() {
  agreeOn(comm_, [&] {
    if (!file_) return;
    const int rc = std::fclose(file_.release());
    if (rc != 0) fail();
  });
}

void appendCsvField(std::string &row, double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, row.empty() ? "%.17g" : ",%.17g", v);
  row += buf;
}

} // namespace beam
