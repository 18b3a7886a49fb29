#include "common/Options.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <limits>
#include <exception>
#include <map>
#include <regex>
#include <set>
#include <cstdlib>
#include <cstring>
#include <strings.h>
#include <filesystem>
#include <sstream>

#include "common/Exact.hpp"
#include "common/Petsc.hpp"
#include "common/ViewerOptions.hpp"

namespace beam {
namespace {

// The longest value the options database hands back through a PETSC_MAX_PATH_LEN buffer; longer ones
// would be cut (and a cut list can still parse), so they are refused.
constexpr size_t kMaxValueLength = PETSC_MAX_PATH_LEN - 1;

std::string number(double v) {
  std::ostringstream s;
  s << v;
  return s.str();
}

// "-dt" under prefix "newmark_" is "-newmark_dt".
std::string fullName(const std::string &prefix, const char *name) { return "-" + prefix + (name + 1); }

std::string joined(const std::vector<std::string> &items) {
  std::string all;
  for (const auto &s : items) all += (all.empty() ? "" : ", ") + s;
  return all;
}

// The whole text is the integer `v` written in decimal (PETSc also takes "1e3" or "DECIDE", and
// saturates what does not fit).
// Digits with an optional sign, whatever their size.
bool hasIntegerSyntax(const std::string &text) {
  size_t i = (!text.empty() && (text[0] == '-' || text[0] == '+')) ? 1 : 0;
  if (i == text.size()) return false;
  for (; i < text.size(); ++i)
    if (text[i] < '0' || text[i] > '9') return false;
  return true;
}

bool isPlainInteger(const std::string &text, PetscInt v) {
  if (!hasIntegerSyntax(text)) return false;
  errno = 0;
  const long long parsed = std::strtoll(text.c_str(), nullptr, 10);
  return errno != ERANGE && parsed == (long long)v;
}

// Why `text` is not an accepted value of a real option `option`, "" when it is one.
std::string realError(const std::string &option, const std::string &text, const Bounds &bounds) {
  double v = 0;
  const std::string problem = realProblem(text, &v);
  if (!problem.empty()) return option + ": '" + text + "' " + problem + "; accepted: " + bounds.accepted;
  if (!bounds.contains(v)) return option + ": " + text + " is out of range; accepted: " + bounds.accepted;
  return "";
}

// Why `text` is not an accepted value of an integer option, "" when it is one. An integer too large
// for a long long is out of range, not "not an integer"; the short form ">= min" names no upper limit,
// so a value above it names the interval.
std::string integerError(const std::string &option, const std::string &text, PetscInt min, PetscInt max) {
  const std::string interval = "an integer in [" + std::to_string(min) + ", " + std::to_string(max) + "]";
  const std::string accepted = max == 1000000000 ? "an integer >= " + std::to_string(min) : interval;
  if (!hasIntegerSyntax(text)) return option + ": '" + text + "' is not an integer; accepted: " + accepted;
  errno = 0;
  const long long v = std::strtoll(text.c_str(), nullptr, 10);
  if (errno == ERANGE || v > max) return option + ": " + text + " is out of range; accepted: " + interval;
  if (v < min) return option + ": " + text + " is out of range; accepted: " + accepted;
  return "";
}

} // namespace

bool Bounds::contains(double v) const {
  return (lo_open ? v > lo : v >= lo) && (hi_open ? v < hi : v <= hi);
}
Bounds Bounds::above(double lo) { return {lo, HUGE_VAL, true, false, "a real > " + number(lo)}; }
Bounds Bounds::atLeast(double lo) { return {lo, HUGE_VAL, false, false, "a real >= " + number(lo)}; }
Bounds Bounds::between(double lo, double hi, std::string accepted) { return {lo, hi, false, false, std::move(accepted)}; }

std::string OptionReader::value(const char *name) const {
  const char *value = nullptr;
  PetscBool found = PETSC_FALSE;
  if (PetscOptionsFindPair(nullptr, prefix_.empty() ? nullptr : prefix_.c_str(), name, &value, &found)) return "";
  return found && value ? value : "";
}

bool OptionReader::given(const char *name) const {
  PetscBool found = PETSC_FALSE;
  BEAM_PETSC(PetscOptionsHasName(nullptr, prefix_.empty() ? nullptr : prefix_.c_str(), name, &found));
  return found;
}

void OptionReader::fail(const std::string &message) {
  if (error_.empty()) error_ = message;
}

void OptionReader::checkEveryOccurrence(const std::string &option,
                                        const std::function<std::string(const std::string &)> &problem) {
  for (const auto &text : givenValues(option)) {
    if (!ok()) return;
    fail(problem(text));
  }
}

void OptionReader::checkEachGiven(const char *name, const std::function<std::string(const std::string &)> &problem) {
  checkEveryOccurrence(fullName(prefix_, name), problem);
}

double OptionReader::real(const char *name, const char *help, double value, const Bounds &bounds) {
  PetscOptionItems *PetscOptionsObject = items_; // the name PETSc's option macros expect
  PetscReal v = value;
  PetscBool set = PETSC_FALSE;
  const std::string option = fullName(prefix_, name), text = this->value(name);
  const std::string error = realError(option, text, bounds);
  const std::string not_real = error.empty() ? option + ": '" + text + "' is not a finite real number; accepted: " + bounds.accepted : error;
  if (!ok()) return value;
  if (PetscOptionsReal(name, help, nullptr, value, &v, &set)) {
    (void)lastPetscMessage(true); // replaced by our message
    fail(not_real);
    return value;
  }
  if (!set && given(name)) fail(not_real); // "-dt" with no value
  if (!set) return value;
  // PETSc maps "DEFAULT" and friends to special values and lets inf/nan through: the text must be
  // exactly the finite number read, and in range.
  double exact = 0;
  if (!error.empty() || (realProblem(text, &exact), exact != double(v))) fail(not_real);
  checkEveryOccurrence(option, [&](const std::string &t) { return realError(option, t, bounds); });
  return ok() ? double(v) : value;
}

PetscInt OptionReader::integer(const char *name, const char *help, PetscInt value, PetscInt min, PetscInt max) {
  PetscOptionItems *PetscOptionsObject = items_;
  PetscInt v = value;
  PetscBool set = PETSC_FALSE;
  const std::string option = fullName(prefix_, name), text = this->value(name);
  const std::string error = integerError(option, text, min, max);
  const std::string not_integer = error.empty() ? option + ": '" + text + "' is not an integer" : error;
  if (!ok()) return value;
  if (PetscOptionsInt(name, help, nullptr, value, &v, &set)) {
    (void)lastPetscMessage(true);
    fail(not_integer);
    return value;
  }
  // PETSc also takes "1e3" or "DECIDE" and saturates what does not fit: the text must be the integer read.
  if ((!set && given(name)) || (set && (!error.empty() || !isPlainInteger(text, v)))) fail(not_integer);
  if (set) checkEveryOccurrence(option, [&](const std::string &t) { return integerError(option, t, min, max); });
  return ok() ? v : value;
}

bool OptionReader::flag(const char *name, const char *help, bool value) {
  PetscOptionItems *PetscOptionsObject = items_;
  PetscBool v = value ? PETSC_TRUE : PETSC_FALSE, set = PETSC_FALSE;
  if (!ok()) return value;
  const std::string option = fullName(prefix_, name);
  auto flagError = [&](const std::string &text) {
    PetscBool b = PETSC_FALSE;
    if (text.empty() || !PetscOptionsStringToBool(text.c_str(), &b)) return std::string();
    (void)lastPetscMessage(true);
    return notTruthValue(option, text);
  };
  if (PetscOptionsBool(name, help, nullptr, v, &v, &set)) {
    (void)lastPetscMessage(true);
    fail(notTruthValue(option, this->value(name)));
    return value;
  }
  if (set) checkEveryOccurrence(option, flagError);
  return ok() && set ? bool(v) : value;
}

int OptionReader::choice(const char *name, const char *help, const std::vector<std::string> &choices, int value,
                         const char *kind, const std::string &accepted) {
  const std::string listed = accepted.empty() ? joined(choices) : accepted;
  PetscOptionItems *PetscOptionsObject = items_;
  std::vector<const char *> list;
  for (const auto &c : choices) list.push_back(c.c_str());
  PetscInt v = value;
  PetscBool set = PETSC_FALSE;
  const std::string unknown = fullName(prefix_, name) + ": unknown " + kind + " '" + this->value(name) + "'; accepted: " + listed;
  if (!ok()) return value;
  if (given(name) && this->value(name).empty()) { // a bare "-scheme": PETSc would pick a choice
    fail(unknown);
    return value;
  }
  if (PetscOptionsEList(name, help, nullptr, list.data(), PetscInt(list.size()), list[size_t(value)], &v, &set)) {
    (void)lastPetscMessage(true);
    fail(unknown);
    return value;
  }
  if (!set && given(name)) fail(unknown);
  if (set)
    checkEveryOccurrence(fullName(prefix_, name), [&](const std::string &text) {
      for (const auto &c : choices)
        if (!text.empty() && strcasecmp(text.c_str(), c.c_str()) == 0) return std::string(); // PETSc's EList ignores case
      return fullName(prefix_, name) + ": unknown " + kind + " '" + text + "'; accepted: " + listed;
    });
  return ok() && set ? int(v) : value;
}

std::string OptionReader::text(const char *name, const char *help, const std::string &value, bool *set_out) {
  PetscOptionItems *PetscOptionsObject = items_;
  std::vector<char> buf(PETSC_MAX_PATH_LEN, '\0');
  PetscBool set = PETSC_FALSE;
  if (set_out) *set_out = false;
  if (!ok()) return value;
  const std::string whole = this->value(name);
  if (whole.size() > kMaxValueLength) {
    fail(fullName(prefix_, name) + ": the value has " + std::to_string(whole.size()) + " characters; accepted: at most " +
         std::to_string(kMaxValueLength));
    return value;
  }
  BEAM_PETSC(PetscOptionsString(name, help, nullptr, value.c_str(), buf.data(), buf.size(), &set));
  if (set_out) *set_out = set;
  return set ? std::string(buf.data()) : value;
}

std::string OptionReader::path(const char *name, const char *help, const char *accepted) {
  const std::string p = text(name, help, "");
  if (ok() && p.empty() && given(name)) fail(fullName(prefix_, name) + ": no path given; accepted: " + accepted);
  return p;
}

std::vector<double> OptionReader::reals(const char *name, const char *help, const RealsCheck &check) {
  const std::string list = text(name, help, "");
  if (!ok()) return {};
  // Given without a value: refused, not read as no values (an empty -zetas or -stiffness_factors ran an
  // empty sweep, exit 0, and the stability lab called every scheme "stable at every stiffness tried").
  if (list.empty()) {
    if (given(name)) fail(fullName(prefix_, name) + ": empty; accepted: a comma-separated list of reals");
    return {};
  }
  const std::string option = fullName(prefix_, name);
  auto listError = [&](const std::string &text) {
    if (text.empty()) return option + ": empty; accepted: a comma-separated list of reals";
    try {
      const std::vector<double> values = parseRealList(option, text);
      return check ? check(values) : std::string();
    } catch (const Error &e) {
      return std::string(e.what());
    }
  };
  fail(listError(list));
  checkEveryOccurrence(option, listError);
  return ok() ? parseRealList(option, list) : std::vector<double>{};
}

std::vector<double> OptionReader::repeatableReals(const char *name, const char *help, size_t group,
                                                  const std::string &accepted) {
  std::vector<double> values = reals(name, help); // the last occurrence, checked and listed by -help
  const std::string full = fullName(prefix_, name);
  const std::vector<std::string> occurrences = givenValues(full);
  if (!ok() || occurrences.size() < 2) return values;
  values.clear();
  for (const auto &text : occurrences) {
    if (text.empty()) {
      fail(full + ": empty; accepted: a comma-separated list of reals");
      return {};
    }
    try {
      const std::vector<double> v = parseRealList(full, text);
      if (v.size() % group != 0) {
        fail(full + ": '" + text + "' has " + std::to_string(v.size()) + " values; accepted: " + accepted);
        return {};
      }
      values.insert(values.end(), v.begin(), v.end());
    } catch (const Error &e) {
      fail(e.what());
      return {};
    }
  }
  return values;
}

std::vector<std::string> OptionReader::names(const char *name, const char *help, const std::string &value,
                                             const NamesCheck &check, const std::string &accepted) {
  const std::string list = text(name, help, value);
  if (!ok()) return {};
  const std::string option = fullName(prefix_, name);
  auto listError = [&](const std::string &text) {
    if (text.empty()) return option + ": empty; accepted: " + (accepted.empty() ? "a comma-separated list" : accepted);
    const std::vector<std::string> items = splitList(text);
    for (const auto &i : items)
      if (i.empty())
        return option + ": '" + text + "' has an empty item; accepted: " +
               (accepted.empty() ? "names separated by single commas" : accepted);
    return check ? check(items) : std::string();
  };
  fail(listError(list));
  if (given(name)) checkEveryOccurrence(option, listError);
  return ok() ? splitList(list) : std::vector<std::string>{};
}

namespace {
struct BlockOutcome {
  int code = kExitOk;
  std::string message;
};

// PetscOptionsBegin/End must run in a function returning PetscErrorCode; `body` never throws out of it.
PetscErrorCode readBlock(MPI_Comm comm, const char *title, const char *prefix,
                         const std::function<void(OptionReader &)> &body, BlockOutcome &outcome) {
  PetscFunctionBeginUser;
  PetscOptionsBegin(comm, prefix, title, nullptr);
  OptionReader reader(PetscOptionsObject, prefix ? prefix : "");
  try {
    body(reader);
  } catch (const Error &e) {
    reader.fail(e.what());
    if (outcome.code == kExitOk) outcome.code = e.exitCode();
  }
  if (!reader.error().empty()) {
    outcome.message = reader.error();
    if (outcome.code == kExitOk) outcome.code = kExitBadInput;
  }
  PetscOptionsEnd();
  PetscFunctionReturn(0);
}
} // namespace

void readOptions(MPI_Comm comm, const std::string &title, const std::string &prefix,
                 const std::function<void(OptionReader &)> &body) {
  BlockOutcome outcome;
  try {
    BEAM_PETSC(readBlock(comm, title.c_str(), prefix.empty() ? nullptr : prefix.c_str(), body, outcome));
  } catch (const Error &e) {
    throw inputError(e.what()); // PETSc refused the block itself (e.g. a malformed -options_file)
  }
  if (outcome.code != kExitOk) throw Error(outcome.code, outcome.message);
}

namespace {
// The inner solvers' options acceptSolveTimeOptions keeps for refuseUnreadSolverOptions (names without
// the dash); finishOptions does not call them unknown.
std::set<std::string> &awaitingSetUp() {
  static std::set<std::string> names;
  return names;
}
// The reports of inner solvers (-ms_sub_ksp_converged_reason) acceptSolveTimeOptions took as read: kept
// for refuseUnreadSolverOptions, which refuses those of solvers the set-up did not make.
std::set<std::string> &innerReports() {
  static std::set<std::string> names;
  return names;
}
// The reports PETSc reads at a solve, the solver's or an inner one's: `chain` (group 1) is the inner
// solvers' prefixes, `report` (the last group) the report's own name.
const std::regex &reportName() {
  static const std::regex report(
      "^((?:sub_(?:[0-9]+_)?|mg_levels_(?:[0-9]+_)?(?:up_)?|mg_coarse_|redundant_|ksp_|fieldsplit_[A-Za-z0-9]+_|telescope_|"
      "hmg_inner_|deflation_(?:tel_)?|npc_|st_)*)"
      "(ksp_(?:view(?:_pre|_mat|_pmat|_rhs|_solution|_eigenvalues|_eigenvalues_explicit|_singularvalues|_mat_explicit|"
      "_preconditioned_operator_explicit|_final_residual|_final_residual_vecs)?|converged_reason|converged_rate)|"
      "snes_(?:view(?:_pre|_solution)?|converged_reason)|eps_(?:view(?:_pre|_values|_vectors|_mat0|_mat1)?|converged_reason))$",
      std::regex::icase);
  return report;
}
// setUpSolversTogether: how deep, and the refusals of the set-ups so far that a later one may lift.
int &settingUpTogether() {
  static int depth = 0;
  return depth;
}
std::map<std::string, std::string> &pendingRefusals() {
  static std::map<std::string, std::string> refusals; // option name -> message
  return refusals;
}
// refuseUnusedOption's, inside setUpSolversTogether: refusals and the options a solver there used.
std::map<std::string, std::string> &unusedRefusals() {
  static std::map<std::string, std::string> refusals;
  return refusals;
}
std::set<std::string> &usedOptions() {
  static std::set<std::string> used;
  return used;
}
} // namespace

std::string lowerCase(std::string text) {
  for (char &c : text) c = char(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

std::optional<bool> petscTruthValue(const std::string &text) {
  const std::string lower = lowerCase(text);
  if (lower == "true" || lower == "yes" || lower == "on" || lower == "1") return true;
  if (lower == "false" || lower == "no" || lower == "off" || lower == "0") return false;
  return std::nullopt;
}

std::string notTruthValue(const std::string &option, const std::string &text) {
  return option + ": '" + text + "' is not a truth value; accepted: true, false (or no value)";
}

namespace {
// A report's kind (ksp, snes or eps), from its match of reportName().
std::string reportKind(const std::smatch &report) {
  const std::string name = lowerCase(report.str(2));
  return name.substr(0, name.find('_'));
}
} // namespace

bool helpRequested() {
  PetscBool help = PETSC_FALSE;
  BEAM_PETSC(PetscOptionsHasHelp(nullptr, &help));
  return help;
}

void checkSolverOptionValues() {
  // The labs' own options are read as finite numbers; PETSc's and SLEPc's reader takes nan, inf and
  // 1e400 (as inf) without a word (-shifted_pc_gamg_threshold nan ran, -ms_pc_factor_shift_amount nan
  // too): a number that is not finite is refused for every solver option (a lab's path may be "nan").
  // (PETSc's option names are case-insensitive: -MS_KSP_RTOL is -ms_ksp_rtol.)
  static const std::regex solver_option("(^-|_)(ksp|pc|snes|eps|st|mat|mg|sub|redundant|npc|linesearch|bv|ds|rg|fn)_", std::regex::icase);
  // PETSc takes a valued option given without a value as not given (-shifted_ksp_rtol '' ran with the
  // default 1e-5): the names that always take a value, by their endings, are refused without one (the
  // flags -pc_factor_pivot_in_blocks and -eps_jd_const_correction_tol end like them).
  static const std::regex valued("(_type|tol|_max_it|_max_funcs|_its|_levels|_threshold|_omega|_restart|_amount|_bjacobi_blocks|"
                                 "_asm_blocks|_nev|_ncv|_mpd|_target|_shift|_lag_preconditioner|_lag_jacobian|_icntl_[0-9]+|"
                                 "_cntl_[0-9]+|_nsmooths|_square_graph|_eq_limit|_overlap|_richardson_scale|_delta0|_qn_m|"
                                 "_ngmres_m|_anderson_m|_eps_interval|_eps_balance|_balance_cutoff|_partitions|_rg_scale|_endpoints|"
                                 "_bv_matmult|_orthog_block|_orthog_eta|_orthog_refine|_block_size|_ds_method|_ds_parallel|"
                                 "_st_matmode|_st_matstructure|_batch_size|_factor_fill|_zeropivot|_column_pivot|"
                                 "_cholmod_(dbound|grow[012]|maxrank|nmethods|nrelax|print|supernodal_switch|zrelax))$",
                                 std::regex::icase);
  static const std::regex flag("_const_correction_tol$", std::regex::icase);
  const std::vector<std::pair<std::string, std::string>> options = databaseOptions();
  for (const auto &[name, value] : options) {
    if (!std::regex_search(name, solver_option)) continue;
    if (const std::string problem = solverReportProblem(name, value, options); !problem.empty()) throw inputError(problem);
    if (value.empty()) {
      if (std::regex_search(name, valued) && !std::regex_search(name, flag))
        throw inputError(name + ": no value given (PETSc would use its default); accepted: " + name + " <value>");
      continue;
    }
    const std::string lower = lowerCase(value);
    const std::string bare = lower[0] == '+' || lower[0] == '-' ? lower.substr(1) : lower;
    char *end = nullptr;
    const double v = std::strtod(value.c_str(), &end);
    const bool number = end != value.c_str() && *end == '\0';
    if (bare == "nan" || bare == "inf" || bare == "infinity" || (number && !std::isfinite(v)))
      throw inputError(name + " " + value + ": not a finite number; accepted: a finite number");
    // PETSc's integers are 32-bit and its reader wraps larger ones (-shifted_ksp_max_it 4294967297 ran
    // as 1). An integer-valued option cannot be told from a real one here, so a real option written as
    // a large integer is refused too, with the way out.
    const bool integer = !bare.empty() && bare.find_first_not_of("0123456789") == std::string::npos;
    if (integer && v > double(std::numeric_limits<PetscInt>::max()))
      throw inputError(name + " " + value + ": above PETSc's largest integer " + std::to_string(std::numeric_limits<PetscInt>::max()) +
                       "; accepted: a smaller integer (for a real value, an exponent: 4.3e9)");
    if (integer && v < double(std::numeric_limits<PetscInt>::min()))
      throw inputError(name + " " + value + ": below PETSc's smallest integer " + std::to_string(std::numeric_limits<PetscInt>::min()) +
                       "; accepted: a larger integer (for a real value, an exponent: -4.3e9)");
  }
}

bool finishOptions(MPI_Comm comm, const std::function<void()> &before_help) {
  const bool help = helpRequested();
  if (help && before_help) before_help();
  agreeOn(comm, [&] {
    if (help) return; // -help lists options; it does not judge them
    PetscInt n = 0;
    char **names = nullptr, **values = nullptr;
    if (PetscOptionsLeftGet(nullptr, &n, &names, &values)) throw runError("cannot query the options database");
    std::string unknown;
    for (PetscInt i = 0; i < n && unknown.empty(); ++i)
      if (!awaitingSetUp().count(names[i])) unknown = names[i];
    PetscOptionsLeftRestore(nullptr, &n, &names, &values);
    if (!unknown.empty())
      throw inputError("unknown option -" + unknown + "; run with -help for the accepted options");
    checkSolverOptionValues();
  });
  return help;
}

bool optionsLeftToRead(MPI_Comm comm) {
  PetscInt unread = 0;
  BEAM_PETSC(PetscOptionsAllUsed(nullptr, &unread));
  int left = helpRequested() || unread > 0;
  MPI_Allreduce(MPI_IN_PLACE, &left, 1, MPI_INT, MPI_MAX, comm);
  return left != 0;
}

namespace {
// A refused value as the user wrote it: a text of 40 characters or more (digits PETSc reads as a number)
// by its value; a word PETSc makes a number of (mouse is -1) with that number; a text that reads as a
// range's bound itself (1.99999999999999999 is 2, 1e-400 is 0: `on_bound`) with what it reads as.
std::string shownValue(double value, const std::string &text, bool on_bound) {
  const std::string exact = exactDecimal(value);
  if (text.empty() || text.size() >= 40) return exact;
  char *end = nullptr;
  std::strtod(text.c_str(), &end);
  if (end == text.c_str() || *end != '\0') return text + " (" + exact + ")";
  return on_bound && text != exact ? text + " (read as " + exact + ")" : text;
}

[[noreturn]] void refuseShown(const std::string &prefix, const char *name, const std::string &shown, const std::string &accepted) {
  throw inputError("-" + prefix + name + " " + shown + ": accepted: " + accepted);
}
} // namespace

void refuseOptionValue(const std::string &prefix, const char *name, double value, const char *accepted,
                       const std::string &text) {
  refuseShown(prefix, name, shownValue(value, text, false), accepted);
}

namespace {
// The number PETSc reads from an option's text: a real, or an integer in PETSc's words (mouse is -1,
// DECIDE -1, DEFAULT -2); false where it reads none (-ms_ksp_gmres_restart abc: PETSc's own message stands).
bool petscNumber(const std::string &text, double &value) {
  PetscReal real = 0;
  PetscInt integer = 0;
  PetscPushErrorHandler(PetscReturnErrorHandler, nullptr);
  bool read = PetscOptionsStringToReal(text.c_str(), &real) == 0;
  if (read) value = real;
  else if ((read = PetscOptionsStringToInt(text.c_str(), &integer) == 0)) value = double(integer);
  PetscPopErrorHandler();
  return read;
}
} // namespace

void checkOptionRanges(const std::string &prefix, const std::vector<OptionRange> &ranges) {
  for (const OptionRange &r : ranges) {
    const std::string option = prefix + r.name;
    PetscBool used = PETSC_FALSE, set = PETSC_FALSE;
    BEAM_PETSC(PetscOptionsUsed(nullptr, option.c_str(), &used));
    if (!used) continue; // (reading it here would mark it used: an unused one would no longer be unknown)
    // The whole text, as PETSc reads it (a 256-character buffer judged the first 255 characters: 252
    // zeros and 5000 passed -ms_snes_qn_m's bound, and 5000 given so to -ms_ksp_bcgsl_ell read 500).
    const char *text = nullptr;
    BEAM_PETSC(PetscOptionsFindPair(nullptr, nullptr, ("-" + option).c_str(), &text, &set));
    double value = 0;
    if (set && text && petscNumber(text, value)) checkOptionValue(prefix, r, value, text);
  }
}

void checkOptionValue(const std::string &prefix, const OptionRange &r, double value, const std::string &text) {
  const bool above_low = r.low_open ? value > r.low : value >= r.low; // (NaN is neither)
  const bool below_high = r.high_open ? value < r.high : value <= r.high;
  if (above_low && below_high) return;
  refuseShown(prefix, r.name, shownValue(value, text, value == r.low || value == r.high), r.accepted);
}

void checkOptionRangesBelow(const std::string &prefix, const std::vector<OptionRange> &ranges, bool read_only) {
  const std::string head = lowerCase(prefix);
  std::set<std::string> prefixes; // -<prefix><inner><name>: <inner> empty or ending in '_' (PETSc ignores case)
  for (const auto &[option, value] : databaseOptions()) {
    const std::string name = lowerCase(option.substr(option.rfind('-', 0) == 0 ? 1 : 0));
    if (name.compare(0, head.size(), head) != 0) continue;
    for (const OptionRange &r : ranges) {
      const size_t length = std::strlen(r.name);
      if (name.size() < head.size() + length || name.compare(name.size() - length, length, r.name) != 0) continue;
      const std::string inner = name.substr(head.size(), name.size() - length - head.size());
      if (!inner.empty() && inner.back() != '_') continue;
      double number = 0;
      if (read_only) prefixes.insert(prefix + inner);
      else if (petscNumber(value, number)) checkOptionValue(prefix + inner, r, number, value); // (the text: nothing marked read)
    }
  }
  for (const std::string &below : prefixes) checkOptionRanges(below, ranges);
}

void acceptSolveTimeOptions(const std::string &prefix, const std::vector<std::string> &kinds, const std::vector<std::string> &also) {
  PetscInt n = 0;
  char **names = nullptr, **values = nullptr;
  BEAM_PETSC(PetscOptionsLeftGet(nullptr, &n, &names, &values));
  std::vector<std::string> solve_time;
  for (PetscInt i = 0; i < n; ++i) {
    const std::string name = names[i];
    if (strncasecmp(name.c_str(), prefix.c_str(), prefix.size()) != 0) continue; // (PETSc ignores case: -MS_KSP_TYPE)
    const std::string rest = name.substr(prefix.size());
    // The reports PETSc reads at a solve, the solver's or an inner one's (-ms_sub_ksp_converged_reason,
    // -ms_ksp_view_mat): no set-up reads them. Only PETSc's names, under the inner solvers' prefixes.
    std::smatch parts;
    bool report = std::regex_match(rest, parts, reportName());
    if (report && parts.length(1) == 0) { // the solver's own: of its kinds only (-modes_ksp_view, -ms_eps_view: no such solver)
      report = std::find(kinds.begin(), kinds.end(), reportKind(parts)) != kinds.end();
    }
    bool also_read = false;
    for (const auto &start : also) also_read = also_read || strncasecmp(rest.c_str(), start.c_str(), start.size()) == 0;
    const bool now = report || also_read;
    // An inner solver's report is judged after the set-up, when the inner solvers are known.
    if (report && !also_read && parts.length(1) > 0) innerReports().insert(name);
    // The rest (the inner solvers', read when PETSc makes them at the set-up) is judged after it.
    if (now) solve_time.push_back("-" + name);
    else awaitingSetUp().insert(name);
  }
  BEAM_PETSC(PetscOptionsLeftRestore(nullptr, &n, &names, &values));
  for (const auto &name : solve_time) { // a query marks an option as read
    PetscBool set = PETSC_FALSE;
    BEAM_PETSC(PetscOptionsHasName(nullptr, nullptr, name.c_str(), &set));
  }
}

void refuseUnreadSolverOptions(MPI_Comm comm, const std::string &prefix, const std::string &solver, int levels,
                               const std::set<std::string> *solvers) {
  std::vector<std::string> mine, reports;
  for (const std::string &name : awaitingSetUp())
    if (strncasecmp(name.c_str(), prefix.c_str(), prefix.size()) == 0) mine.push_back(name);
  for (const std::string &name : innerReports())
    if (strncasecmp(name.c_str(), prefix.c_str(), prefix.size()) == 0) reports.push_back(name);
  const auto judged = [](const std::string &name) {
    awaitingSetUp().erase(name);
    innerReports().erase(name);
    pendingRefusals().erase(name);
  };
  if (helpRequested()) { // -help lists the options the set-up read; it calls none unknown (finishOptions)
    for (const auto *names : {&mine, &reports})
      for (const std::string &name : *names) judged(name);
    return;
  }
  const auto used = [](const std::string &name) {
    PetscBool read = PETSC_FALSE;
    BEAM_PETSC(PetscOptionsUsed(nullptr, name.c_str(), &read));
    return read == PETSC_TRUE;
  };
  // -mg_levels_pc_type is not read where every level has its own -mg_levels_1_pc_type (PETSc looks for
  // the numbered name first): not unknown when each of the levels 1 to levels - 1 read its own.
  const auto overridden = [&](const std::string &name) {
    const std::string head = prefix + "mg_levels_";
    if (levels < 2 || strncasecmp(name.c_str(), head.c_str(), head.size()) != 0) return false;
    for (int level = 1; level < levels; ++level)
      if (!used(head + std::to_string(level) + "_" + name.substr(head.size()))) return false;
    return true;
  };
  std::vector<std::pair<std::string, std::string>> refused; // (name, message)
  for (const std::string &name : mine) {
    if (used(name) || overridden(name)) judged(name);
    else
      refused.emplace_back(name, "unknown option -" + name + ": no part of the solver as set up (" + solver +
                                     ") reads it; run with -help for the accepted options");
  }
  // The inner solvers' reports: read by a KSP under <prefix><chain> only, so refused where the set-up
  // made none on any rank (-ms_sub_ksp_converged_reason with the LU printed nothing, exit 0). A snes_ or
  // eps_ report has no inner solver to read it (a nonlinear preconditioner's, -ms_npc_*, is read by it:
  // never kept here). An up-smoother's (mg_levels_N_up_) is not judged: asking PETSc for it would make it.
  // The lists are the same on every rank (PETSc gives every rank rank 0's options files).
  std::vector<int> absent(reports.size() + 1, 0);
  std::vector<std::string> chains(reports.size());
  for (size_t i = 0; i < reports.size(); ++i) {
    std::smatch parts;
    const std::string rest = reports[i].substr(prefix.size());
    if (!std::regex_match(rest, parts, reportName())) continue;
    chains[i] = parts.str(1);
    const std::string object = lowerCase(prefix + chains[i]);
    const bool ksp = reportKind(parts) == "ksp";
    const bool unjudged = !solvers || object.find("_up_") != std::string::npos;
    absent[i] = !unjudged && !(ksp && solvers->count(object));
    if (absent[i] && !ksp && solvers->count(object)) absent[i] = 2; // a linear solver there
  }
  MPI_Allreduce(MPI_IN_PLACE, absent.data(), int(absent.size()), MPI_INT, MPI_MIN, comm); // absent on every rank
  for (size_t i = 0; i < reports.size(); ++i) {
    const std::string inner = "-" + prefix + chains[i];
    if (!absent[i]) judged(reports[i]);
    else if (absent[i] == 2)
      refused.emplace_back(reports[i], "unknown option -" + reports[i] + ": the inner solver " + inner +
                                           " is a linear solver (KSP); accepted: its " + inner + "ksp_* reports");
    else
      refused.emplace_back(reports[i], "unknown option -" + reports[i] + ": no part of the solver as set up (" + solver +
                                           ") has an inner solver " + inner + " to report on; run with -help for the accepted options");
  }
  if (settingUpTogether() > 0) { // judged again by the next solver set up under the prefix (setUpSolversTogether)
    for (const auto &[name, message] : refused) pendingRefusals()[name] = message;
    return;
  }
  for (const auto &[name, message] : refused) judged(name);
  agreeOn(comm, [&] {
    if (!refused.empty()) throw inputError(refused.front().second);
  });
}

void refuseUnusedOption(const std::string &name, const std::string &message) {
  if (helpRequested()) return; // (-help lists what the set-up read; it calls nothing unknown)
  const std::string key = lowerCase(name);
  if (settingUpTogether() == 0) throw inputError(message);
  if (!usedOptions().count(key)) unusedRefusals()[key] = message;
}

void optionUsed(const std::string &name) {
  const std::string key = lowerCase(name);
  usedOptions().insert(key);
  unusedRefusals().erase(key);
}

void setUpSolversTogether(MPI_Comm comm, const std::function<void()> &set_up) {
  struct Together {
    Together() { ++settingUpTogether(); }
    ~Together() {
      if (--settingUpTogether() == 0 && std::uncaught_exceptions() > 0) {
        pendingRefusals().clear();
        unusedRefusals().clear();
        usedOptions().clear();
      }
    }
  };
  {
    const Together together;
    set_up();
  }
  if (settingUpTogether() > 0) return; // (the outer call judges)
  std::map<std::string, std::string> pending = std::move(pendingRefusals());
  pendingRefusals().clear();
  pending.insert(unusedRefusals().begin(), unusedRefusals().end());
  unusedRefusals().clear();
  usedOptions().clear();
  for (const auto &[name, message] : pending) {
    awaitingSetUp().erase(name);
    innerReports().erase(name);
  }
  agreeOn(comm, [&] {
    if (!pending.empty()) throw inputError(pending.begin()->second);
  });
}

void setDefaultOption(const std::string &name, const std::string &value) {
  // Looked up without marking the user's option read, as PetscOptionsHasName would: one that no solver
  // then reads is refused as unread (-ms_snes_mf -ms_mg_levels_pc_type jacobi ran, exit 0, until 2026-12-01).
  for (const auto &[given, ignored] : databaseOptions())
    if (strcasecmp(given.c_str(), name.c_str()) == 0) return;
  BEAM_PETSC(PetscOptionsSetValue(nullptr, name.c_str(), value.c_str()));
}

std::string realProblem(const std::string &text, double *value) {
  const char *s = text.c_str();
  char *end = nullptr;
  errno = 0;
  const double v = std::strtod(s, &end);
  if (value) *value = v;
  // The number must end where the text does: a NUL byte inside (a binary or UTF-16 file) is not a number.
  // Nor may it start with a blank, which strtod skips (' 0.02' was taken where '0.02 ' was refused), or
  // be hexadecimal, which strtod reads (-mass 0x10 ran with 16; decimal numbers only, as the files have).
  const bool range = errno == ERANGE;
  if (text.empty() || std::isspace(static_cast<unsigned char>(text[0])) || hexadecimalNumber(text) ||
      end == s || end != s + text.size())
    return "is not a finite real number";
  // A number too large for a double (1e400) is said so, not "not a number": the user wrote a number.
  if (range && std::isinf(v)) return "overflows a double: its magnitude is above 1.8e308";
  if (!std::isfinite(v)) return "is not a finite real number";
  if (range && std::abs(v) <= std::numeric_limits<double>::min())
    return "underflows a double: its magnitude is below 2.2e-308";
  return "";
}

double parseReal(const std::string &option, const std::string &text) {
  double v = 0;
  const std::string problem = realProblem(text, &v);
  if (!problem.empty()) throw inputError(option + ": '" + text + "' " + problem);
  return v;
}

std::vector<double> parseRealList(const std::string &option, const std::string &text) {
  std::vector<double> values;
  for (const auto &item : splitList(text)) {
    double v = 0;
    const std::string problem = realProblem(item, &v);
    if (!problem.empty())
      throw inputError(option + ": '" + item + "' " + problem + " (in '" + text + "'); accepted: a comma-separated list of finite reals");
    values.push_back(v);
  }
  return values;
}

std::vector<std::string> splitList(const std::string &text) {
  std::vector<std::string> items;
  size_t start = 0;
  for (;;) {
    const size_t comma = text.find(',', start);
    const std::string item = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    const size_t first = item.find_first_not_of(" \t"), last = item.find_last_not_of(" \t");
    items.push_back(first == std::string::npos ? "" : item.substr(first, last - first + 1));
    if (comma == std::string::npos) return items;
    start = comma + 1;
  }
}

bool isIndexText(const std::string &text) {
  return !text.empty() && text.size() <= 18 && text.find_first_not_of("0123456789") == std::string::npos;
}

std::vector<std::pair<std::string, std::string>> databaseOptions() {
  char *all = nullptr;
  BEAM_PETSC(PetscOptionsGetAll(nullptr, &all));
  std::istringstream in(all ? all : "");
  BEAM_PETSC(PetscFree(all));
  std::vector<std::pair<std::string, std::string>> found;
  std::string name, value;
  in >> name;
  while (in) {
    // A value may be negative (-eps_target -1): a '-' followed by a digit or a point is not a name, nor
    // -inf or -nan, which PETSc reads as values too.
    auto isValue = [](const std::string &t) {
      for (const char *number : {"-inf", "-infinity", "-nan"})
        if (strcasecmp(t.c_str(), number) == 0) return true;
      return t.rfind("-", 0) != 0 || (t.size() > 1 && (std::isdigit(static_cast<unsigned char>(t[1])) || t[1] == '.'));
    };
    const bool has_value = bool(in >> value) && isValue(value);
    found.emplace_back(name, has_value ? value : "");
    name = has_value ? (in >> name, name) : value;
  }
  return found;
}

std::vector<std::string> givenValues(const std::string &name) {
  std::vector<std::string> command_line;
  const std::vector<std::string> *words = givenOptionWords();
  if (!words) {
    int argc = 0;
    char **args = nullptr;
    BEAM_PETSC(PetscGetArgs(&argc, &args));
    command_line.assign(args + 1, args + argc);
    words = &command_line;
  }
  std::vector<std::string> values;
  for (size_t i = 0; i < words->size(); ++i) {
    const char *word = (*words)[i].c_str();
    if (!isOptionName(word)) continue;
    const char *key = word[1] == '-' ? word + 1 : word; // --plane is -plane, as for PETSc
    const bool has_value = i + 1 < words->size() && !isOptionName((*words)[i + 1].c_str());
    if (strcasecmp(key, name.c_str()) == 0) values.push_back(has_value ? (*words)[i + 1] : ""); // PETSc ignores case in names
    if (has_value) ++i;
  }
  return values;
}

} // namespace beam
