#include "MassSpring/Readers.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fstream>

#include "common/Error.hpp"
#include "common/Exact.hpp"
#include "common/Options.hpp"
#include "common/InputFile.hpp"

namespace beam {
namespace {

std::string trim(const std::string &s) {
  size_t b = 0, e = s.size();
  while (b < e && (s[b] == ' ' || s[b] == '\t')) ++b;
  while (e > b && (s[e - 1] == ' ' || s[e - 1] == '\t' || s[e - 1] == '\r')) --e;
  return s.substr(b, e - b);
}


// A CSV table of reals with named columns, each row remembering its line for messages.
struct Table {
  std::vector<std::string> columns;
  std::vector<std::vector<double>> rows;
  std::vector<long> lines;
  int column(const std::string &name) const {
    const auto it = std::find(columns.begin(), columns.end(), name);
    return it == columns.end() ? -1 : int(it - columns.begin());
  }
};

// `indices`: columns whose fields must be written as non-negative integers, digits only (a springs file
// took 1.0, 0x1, +1 and 1e0 as particle indices, where -track refuses them). `rows_required`: a file
// with only its header is refused (a springs file may have none: particles alone, e.g. on a plane).
Table readTable(const std::string &option, const std::string &path, const std::vector<std::string> &required,
                const std::vector<std::string> &optional, const std::vector<std::string> &indices = {},
                bool rows_required = true) {
  checkInputFile(option, path, kMaxInputBytes, "a CSV file with a header line");
  std::ifstream in(path);
  if (!in) throw inputError(option + ": cannot open file '" + path + "'");
  std::string accepted;
  for (const auto &c : required) accepted += (accepted.empty() ? "" : ",") + c;
  for (const auto &c : optional) accepted += ",[" + c + "]";
  const std::string where = option + ": " + path + ":";
  Table t;
  std::string line;
  for (long lineno = 1; std::getline(in, line); ++lineno) {
    if (lineno == 1) dropByteOrderMark(line);
    const std::string text = trim(line);
    if (text.empty() || text[0] == '#') continue;
    const auto fields = splitList(text); // the line is trimmed of its \r first
    if (t.columns.empty()) { // the header
      for (const auto &f : fields) {
        if (std::find(required.begin(), required.end(), f) == required.end() &&
            std::find(optional.begin(), optional.end(), f) == optional.end())
          throw inputError(where + std::to_string(lineno) + ": unknown column '" + f + "'; accepted header: " + accepted);
        if (std::find(t.columns.begin(), t.columns.end(), f) != t.columns.end())
          throw inputError(where + std::to_string(lineno) + ": column '" + f + "' twice; accepted header: " + accepted);
        t.columns.push_back(f);
      }
      for (const auto &c : required)
        if (t.column(c) < 0)
          throw inputError(where + std::to_string(lineno) + ": missing column '" + c + "'; accepted header: " + accepted);
      continue;
    }
    if (fields.size() != t.columns.size())
      throw inputError(where + std::to_string(lineno) + ": " + std::to_string(fields.size()) + " fields; accepted: " +
                       std::to_string(t.columns.size()) + " (as the header)");
    std::vector<double> row(fields.size());
    for (size_t c = 0; c < fields.size(); ++c) {
      const bool index = std::find(indices.begin(), indices.end(), t.columns[c]) != indices.end();
      if (index && !isIndexText(fields[c])) {
        const bool digits = !fields[c].empty() && fields[c].find_first_not_of("0123456789") == std::string::npos;
        throw inputError(where + std::to_string(lineno) + ": " + t.columns[c] + " '" + fields[c].substr(0, 40) +
                         (digits ? "' is too large for a particle index; accepted: an integer of at most 18 digits, below the "
                                   "particle count"
                                 : "' is not a particle index; accepted: an integer written with digits only"));
      }
      const std::string problem = realProblem(fields[c], &row[c]);
      if (!problem.empty())
        throw inputError(where + std::to_string(lineno) + ": " + t.columns[c] + " '" + fields[c].substr(0, 40) + "' " + problem +
                         (t.columns[c] == "fixed" ? "; accepted: 0 (free) or 1 (fixed)" : "; accepted: a decimal real"));
    }
    t.rows.push_back(std::move(row));
    t.lines.push_back(lineno);
  }
  if (t.columns.empty()) throw inputError(option + ": " + path + ": no header line; accepted header: " + accepted);
  if (t.rows.empty() && rows_required) throw inputError(option + ": " + path + ": no data lines; accepted: at least one row");
  return t;
}

} // namespace

std::vector<Particle> readParticles(const std::string &path) {
  const std::string option = "-particles";
  const Table t = readTable(option, path, {"x", "y", "z", "mass", "fixed"}, {"vx", "vy", "vz"});
  const int cx = t.column("x"), cy = t.column("y"), cz = t.column("z"), cm = t.column("mass"), cf = t.column("fixed");
  const int cv[3] = {t.column("vx"), t.column("vy"), t.column("vz")};
  std::vector<Particle> particles(t.rows.size());
  for (size_t r = 0; r < t.rows.size(); ++r) {
    const auto &row = t.rows[r];
    const std::string where = option + ": " + path + ":" + std::to_string(t.lines[r]) + ": ";
    Particle &p = particles[r];
    p.x = {row[size_t(cx)], row[size_t(cy)], row[size_t(cz)]};
    for (int d = 0; d < 3; ++d) p.v[size_t(d)] = cv[d] < 0 ? 0.0 : row[size_t(cv[d])];
    p.mass = row[size_t(cm)];
    if (!(p.mass > 0)) throw inputError(where + "mass " + exactDecimal(p.mass) + " is out of range; accepted: a real > 0");
    const double f = row[size_t(cf)];
    if (f != 0 && f != 1) throw inputError(where + "fixed " + exactDecimal(f) + " is not 0 or 1; accepted: 0 (free) or 1 (fixed)");
    p.fixed = f == 1;
  }
  return particles;
}

std::vector<Spring> readSprings(const std::string &path, PetscInt particle_count) {
  const std::string option = "-springs";
  const Table t = readTable(option, path, {"i", "j", "stiffness"}, {"rest_length", "damping"}, {"i", "j"}, false);
  const int ci = t.column("i"), cj = t.column("j"), ck = t.column("stiffness"), cl = t.column("rest_length"),
            cc = t.column("damping");
  std::vector<Spring> springs(t.rows.size());
  const std::string range = "accepted: an integer in 0.." + std::to_string(static_cast<long long>(particle_count - 1));
  for (size_t r = 0; r < t.rows.size(); ++r) {
    const auto &row = t.rows[r];
    const std::string where = option + ": " + path + ":" + std::to_string(t.lines[r]) + ": ";
    Spring &s = springs[r];
    for (int e = 0; e < 2; ++e) {
      const double v = row[size_t(e == 0 ? ci : cj)];
      if (!(v >= 0 && v < double(particle_count) && v == std::floor(v)))
        throw inputError(where + (e == 0 ? "i " : "j ") + exactDecimal(v) + " is not a particle index; " + range);
      (e == 0 ? s.i : s.j) = PetscInt(v);
    }
    if (s.i == s.j) throw inputError(where + "i = j; accepted: two different particles");
    s.stiffness = row[size_t(ck)];
    if (!(s.stiffness >= 0)) throw inputError(where + "stiffness is negative; accepted: a real >= 0");
    if (cl >= 0) {
      s.rest_length = row[size_t(cl)];
      if (!(s.rest_length > 0)) throw inputError(where + "rest_length is not positive; accepted: a real > 0");
    }
    if (cc >= 0) {
      s.damping = row[size_t(cc)];
      if (!(s.damping >= 0)) throw inputError(where + "damping is negative; accepted: a real >= 0");
    }
    // A row with neither exerts no force: most likely a slip (a lone particle needs no spring: a file may
    // hold the header only).
    if (s.stiffness == 0 && s.damping == 0)
      throw inputError(where + "stiffness and damping are both 0 (the spring exerts no force); accepted: stiffness > 0 "
                               "or damping > 0 (a springs file may hold only its header)");
  }
  return springs;
}

} // namespace beam
