// A CSV log written by rank 0 row by row: the file is created at the first row with its header, and
// every row is one write(2), so a run stopped at any moment leaves valid CSV up to the last completed
// row (a killed write leaves at most one unterminated last line, which resume drops). A row that fails
// to write (a full disk) is cut off again (the file is truncated to its last complete row), so the file
// stays valid CSV. A restarted run keeps the rows up to its checkpoint and appends. Write errors are run
// errors naming the file, agreed by every rank of comm (write, resume and close are collective: call
// them on every rank, with any row on the others), so a full disk or an unwritable file seen by rank 0
// ends all ranks at once instead of leaving them waiting in the next step's collectives. A FIFO in the
// file's place is written when it has a reader and refused when not (never waited on); resuming needs
// a regular file. The piece EnergyLog, TrajectoryLog and PointTrajectory share.
#pragma once
#include <petscsys.h>

#include <functional>
#include <string>

namespace beam {

class CsvLog {
public:
  // `header` ends with a newline. Only rank 0 of comm writes; the others only agree on the outcome.
  CsvLog(MPI_Comm comm, std::string path, std::string header);
  ~CsvLog();
  CsvLog(const CsvLog &) = delete;
  CsvLog &operator=(const CsvLog &) = delete;
  bool writer() const { return writer_; }
  const std::string &path() const { return path_; }
  const std::string &header() const { return header_; }
  // Appends one row (ending with a newline), creating the file with its header first if needed. Collective
  // (the others' `row` is ignored).
  void write(const std::string &row);
  // Keeps the header and the complete rows from the start for which keep(row) holds (up to the first
  // that does not), rewrites the file with them and appends after them. Missing file: a run error.
  void resume(const std::function<bool(const std::string &row)> &keep);
  // Closes the file, reporting a failed close as a run error.
  void close();

private:
  void open(int flags);
  void append(const std::string &text); // all of it, or the file cut back to its last complete row
  void resumeHere(const std::function<bool(const std::string &row)> &keep); // rank 0's part of resume
  [[noreturn]] void fail(int err) const;
  std::string path_, header_;
  MPI_Comm comm_;
  bool writer_ = false;
  int fd_ = -1;            // opened at the first row (or on resume)
  bool truncatable_ = false; // a regular file: a failed row can be cut off
  long long complete_ = 0; // bytes of the header and the complete rows
};

// "" when every comma-separated field of `row` is a finite number, else "a row holds '<field>', not a
// finite number," (for a restart's check of a log before the checkpoint).
std::string notFiniteField(const std::string &row);

// "%.17g" of v appended to `row` after a comma (or first, when row is empty).
void appendCsvField(std::string &row, double v);

// Whether `path` is a regular file ("" when it is, else why not: missing, or what it is instead).
std::string regularFileProblem(const std::string &path);

} // namespace beam
