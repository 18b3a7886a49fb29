#include "output/CsvLog.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstdio>
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

CsvLog::~CsvLog() {
  if (fd_ >= 0) ::close(fd_);
}

void CsvLog::fail(int err) const { throw runError("cannot write '" + path_ + "': " + std::strerror(err)); }

void CsvLog::open(int flags) {
  fd_ = openForWriting(path_, O_WRONLY | flags);
  if (fd_ < 0) fail(errno);
  struct stat st {};
  truncatable_ = ::fstat(fd_, &st) == 0 && S_ISREG(st.st_mode);
  complete_ = truncatable_ ? (long long)st.st_size : 0;
}

void CsvLog::append(const std::string &text) {
  if (const int err = writeFully(fd_, text.data(), text.size())) {
    if (truncatable_ && ::ftruncate(fd_, off_t(complete_)) == 0) ::lseek(fd_, off_t(complete_), SEEK_SET);
    fail(err);
  }
  complete_ += (long long)text.size();
}

void CsvLog::write(const std::string &row) {
  agreeOn(comm_, [&] {
    if (!writer_) return;
    if (fd_ < 0) {
      open(O_TRUNC);
      append(header_);
    }
    append(row);
  });
}

std::string regularFileProblem(const std::string &path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return "it is missing";
  if (S_ISDIR(st.st_mode)) return "it is a directory";
  if (!S_ISREG(st.st_mode)) return "it is not a regular file";
  return "";
}

void CsvLog::resume(const std::function<bool(const std::string &row)> &keep) {
  agreeOn(comm_, [&] { resumeHere(keep); });
}

void CsvLog::resumeHere(const std::function<bool(const std::string &row)> &keep) {
  if (!writer_) return;
  // A device or a FIFO in its place would be read forever (/dev/zero) or waited on.
  if (const std::string why = regularFileProblem(path_); !why.empty())
    throw runError("cannot continue '" + path_ + "': " + why);
  std::ifstream in(path_, std::ios::binary);
  if (!in) throw runError("cannot continue '" + path_ + "': it cannot be read");
  std::string line;
  const bool same_header = std::getline(in, line) && !in.eof() && line + "\n" == header_;
  // With this run's header the file is cut after the rows kept, in place: rewritten whole, it was held
  // in memory (2.9 times its size: a 1e8-step log would need 50 GB), left a full-size .tmp when killed
  // during the rewrite, and replaced a link by a file. Otherwise (monitors check headers before, so
  // only programmatic use) the rows are rewritten under the header.
  long long offset = same_header ? (long long)line.size() + 1 : 0;
  std::string kept = header_;
  while (std::getline(in, line) && !in.eof()) { // the last line counts only if it ended with a newline
    if (!keep(line)) break;
    if (same_header) offset += (long long)line.size() + 1;
    else kept += line + "\n";
  }
  in.close();
  if (!same_header) writeFileAtomically(path_, kept);
  else if (::truncate(path_.c_str(), off_t(offset)) != 0) fail(errno);
  open(O_APPEND);
}

void CsvLog::close() {
  agreeOn(comm_, [&] {
    if (fd_ < 0) return;
    const int fd = fd_;
    fd_ = -1;
    if (::close(fd) != 0) fail(errno);
  });
}

std::string notFiniteField(const std::string &row) {
  // Every value the logs write is a finite number up to a checkpoint (a run stops at the first
  // non-finite one): a NaN edited into an earlier row was continued, exit 0.
  for (size_t begin = 0; begin <= row.size();) {
    const size_t end = std::min(row.find(',', begin), row.size());
    const std::string field = row.substr(begin, end - begin);
    char *stop = nullptr;
    const double v = std::strtod(field.c_str(), &stop);
    if (field.empty() || stop != field.c_str() + field.size() || !std::isfinite(v))
      return "a row holds '" + field.substr(0, 40) + "', not a finite number,";
    begin = end + 1;
  }
  return "";
}

void appendCsvField(std::string &row, double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, row.empty() ? "%.17g" : ",%.17g", v);
  row += buf;
}

} // namespace beam
