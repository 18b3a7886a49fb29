#include "solvers/LoadInTime.hpp"
#include "common/Hash.hpp"
#include "common/Options.hpp"

#include "common/InputFile.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace beam {
namespace {

std::string trim(const std::string &s) {
  const auto b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t\r") - b + 1);
}

// Strict: the whole field is a number (finite or not; the caller decides).
bool parseNumber(const std::string &text, double &v) {
  const std::string s = trim(text);
  if (s.empty() || hexadecimalNumber(s)) return false; // 0x1p-1 was read as 0.5
  char *end = nullptr;
  errno = 0;
  v = std::strtod(s.c_str(), &end);
  return end == s.c_str() + s.size() && errno != ERANGE; // a NUL inside is not a number
}

std::string num(double v) {
  std::ostringstream s;
  s.precision(17);
  s << v;
  return s.str();
}

} // namespace

LoadCurve::LoadCurve(std::vector<double> t, std::vector<double> g) : t_(std::move(t)), g_(std::move(g)) {
  if (t_.empty() || t_.size() != g_.size()) throw inputError("load curve: needs at least one (t, g) pair");
  for (size_t i = 1; i < t_.size(); ++i)
    if (!(t_[i] > t_[i - 1])) throw inputError("load curve: times must increase strictly");
}

LoadCurve LoadCurve::read(const std::string &path) {
  checkInputFile("-load_curve", path, kMaxInputBytes, "a CSV file of t,g rows");
  std::ifstream in(path);
  if (!in) throw inputError(path + ": cannot open the -load_curve file");
  std::vector<double> t, g;
  std::string line;
  int lineno = 0;
  bool seen_first = false;
  while (std::getline(in, line)) {
    if (++lineno == 1) dropByteOrderMark(line); // (as in the other readers: it was refused, unseen in the message)
    const std::string s = trim(line);
    if (s.empty() || s[0] == '#') continue;
    const auto where = path + ":" + std::to_string(lineno) + ": ";
    std::vector<std::string> fields;
    std::stringstream ss(s);
    std::string f;
    while (std::getline(ss, f, ',')) fields.push_back(f);
    if (s.back() == ',') fields.push_back("");
    double tv = 0, gv = 0;
    const bool first = !seen_first;
    seen_first = true;
    if (fields.size() == 2 && first && !parseNumber(fields[0], tv) && !parseNumber(fields[1], gv)) { // a header
      // The columns are read as t, g: a header naming them otherwise ("g,t") was read in that order all
      // the same, the load and the time swapped without a word.
      if (lowerCase(trim(fields[0])) != "t" || lowerCase(trim(fields[1])) != "g")
        throw inputError(where + "header '" + s + "'; accepted: the header t,g (the columns are read in that order) or none");
      continue;
    }
    if (fields.size() != 2)
      throw inputError(where + "expected two comma-separated numbers t,g; got " + std::to_string(fields.size()) +
                       " fields in '" + s + "'; accepted: rows t,g (a header t,g first, '#' comments)");
    for (const auto &field : fields) { // an underflow (1e-320) or overflow (1e400) was called "not two numbers"
      const std::string problem = realProblem(trim(field));
      if (problem.rfind("underflows", 0) == 0 || problem.rfind("overflows", 0) == 0)
        throw inputError(where + "'" + trim(field) + "' " + problem + "; accepted: two decimal reals");
    }
    if (!parseNumber(fields[0], tv) || !parseNumber(fields[1], gv))
      throw inputError(where + "'" + s + "' is not two numbers t,g; accepted: two decimal reals");
    if (!std::isfinite(tv) || !std::isfinite(gv))
      throw inputError(where + "'" + s + "' holds a non-finite value; accepted: finite reals");
    if (!t.empty() && !(tv > t.back()))
      throw inputError(where + "t = " + num(tv) + " does not exceed the previous t = " + num(t.back()) +
                       "; accepted: strictly increasing times");
    t.push_back(tv);
    g.push_back(gv);
  }
  if (t.empty()) throw inputError(path + ":" + std::to_string(lineno) + ": no t,g rows; accepted: at least one");
  return LoadCurve(std::move(t), std::move(g));
}

double LoadCurve::largestMagnitude() const {
  double m = 0;
  for (const double g : g_) m = std::max(m, std::abs(g));
  return m;
}

double LoadCurve::operator()(double t) const {
  if (t <= t_.front()) return g_.front();
  if (t >= t_.back()) return g_.back();
  const size_t i = size_t(std::upper_bound(t_.begin(), t_.end(), t) - t_.begin()); // t_[i-1] <= t < t_[i]
  const double s = (t / 2 - t_[i - 1] / 2) / (t_[i] / 2 - t_[i - 1] / 2); // halves: no overflow near DBL_MAX
  return (1 - s) * g_[i - 1] + s * g_[i];
}

std::function<double(double)> harmonicLoad(double amplitude, double omega) {
  return [amplitude, omega](double t) { return amplitude * std::sin(omega * t); };
}

LoadHistory::LoadHistory(Eigen::MatrixXd samples, double dt) : samples_(std::move(samples)), dt_(dt) {
  if (samples_.cols() < 1) throw inputError("load history: needs at least one sample");
  if (!(dt_ > 0) || !std::isfinite(dt_)) throw inputError("-load_dt: must be a real > 0");
}

void LoadHistory::evaluate(double t, PetscInt begin, PetscInt n, PetscScalar *f) const {
  const double s = std::max(0.0, t / dt_);
  const Eigen::Index last = samples_.cols() - 1;
  Eigen::Index k = s >= double(last) ? last : Eigen::Index(std::floor(s)); // no cast of a huge s
  const double w = k < last ? s - double(k) : 0.0;
  const Eigen::Index k1 = std::min(k + 1, last);
  for (PetscInt i = 0; i < n; ++i)
    f[i] = (1 - w) * samples_(begin + i, k) + w * samples_(begin + i, k1);
}

std::uint64_t LoadCurve::hash() const {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (size_t i = 0; i < t_.size(); ++i) h = fnv1a(g_[i], fnv1a(t_[i], h));
  return h;
}

std::uint64_t LoadHistory::hash() const {
  std::uint64_t h = fnv1a(dt_, std::uint64_t(0xcbf29ce484222325ULL));
  for (Eigen::Index i = 0; i < samples_.size(); ++i) h = fnv1a(samples_.data()[i], h);
  return h;
}

Eigen::VectorXd LoadHistory::largestSample() const {
  Eigen::Index best = 0;
  samples_.colwise().norm().maxCoeff(&best);
  return samples_.col(best);
}

} // namespace beam
