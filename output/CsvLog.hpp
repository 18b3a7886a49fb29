// A CSV log written by rank 0 row by row: the file is created at the first row with its header, every
// row is flushed (one write() per row), so a run stopped at any moment leaves valid CSV up to the last
// completed row (a killed write leaves at most one unterminated last line, which resume drops), and a
// restarted run keeps the rows up to its checkpoint and appends. Write errors are run errors naming the
// file, agreed by every rank of comm (write, resume and close are collective: call them on every rank,
// with any row on the others), so a full disk or an unwritable file seen by rank 0 ends all ranks at
// once instead of leaving them waiting in the next step's collectives. The piece EnergyLog,
// TrajectoryLog and PointTrajectory share.
#pragma once
#include <petscsys.h>

#include <cstdio>
#include <functional>
#include <memory>
#include <string>

namespace beam {

class CsvLog {
public:
  // `header` ends with a newline. Only rank 0 of comm writes; the others only agree on the outcome.
  CsvLog(MPI_Comm comm, std::string path, std::string header);
  bool writer() const { return writer_; }
  const std::string &path() const { return path_; }
  // Appends one row (ending with a newline), creating the file with its header first if needed. Collective
  // (the others' `row` is ignored).
  void write(const std::string &row);
  // Keeps the header and the complete rows from the start for which keep(row) holds (up to the first
  // that does not), rewrites the file with them and appends after them. Missing file: a run error.
  void resume(const std::function<bool(const std::string &row)> &keep);
  // Closes the file, reporting a failed close (the last buffered bytes) as a run error.
  void close();

private:
  struct Closer {
    void operator()(std::FILE *f) const { std::fclose(f); }
  };
  void open(const char *mode);
  void resumeHere(const std::function<bool(const std::string &row)> &keep); // rank 0's part of resume
  [[noreturn]] void fail() const;
  std::string path_, header_;
  MPI_Comm comm_;
  bool writer_ = false;
  std::unique_ptr<std::FILE, Closer> file_; // opened at the first row (or on resume)
};

// "%.17g" of v appended to `row` after a comma (or first, when row is empty).
void appendCsvField(std::string &row, double v);

} // namespace beam
