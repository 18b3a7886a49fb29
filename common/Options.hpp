// Reading options with PETSc's typed calls, strictly.
//
// An option set (the mesh, the run, the output, ...) is a function that reads its options inside one
// `readOptions(comm, title, prefix, ...)` block through an `OptionReader`:
//
//   readOptions(comm, "Run", "", [&](OptionReader &r) {
//     run.dt = r.real("-dt", "Time step", run.dt, Bounds::above(0));
//     run.solver = r.choice("-linear_solver", "Linear solver", {"direct", "cg"}, 0) == 0 ? ... ;
//   });
//
// Each call is PETSc's own (PetscOptionsReal, PetscOptionsInt, PetscOptionsBool, PetscOptionsEList,
// PetscOptionsString inside PetscOptionsBegin/End), so `-help` lists the option with its default and,
// for a choice, the accepted values, and the option counts as used. On top of PETSc the reader keeps
// the project's rules: the whole value must parse ("0.0l" is not 0), reals must be finite, a range is
// checked, nothing is clamped, a value longer than the database's strings (4095 characters) is refused
// rather than cut, and every error is one line "<option>: '<value>' ...; accepted: ..." (exit 2).
// The first error is kept and thrown after PetscOptionsEnd, so the block always closes.
//
// A title is printed once by -help: give every block its own title.
#pragma once
#include <petscsys.h>

#include "common/Petsc.hpp" // agreeOn, for option sets read on every rank

#include <functional>
#include <limits>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace beam {

// An accepted interval of reals, with the words used in errors ("a real > 0").
struct Bounds {
  double lo = -std::numeric_limits<double>::infinity(), hi = std::numeric_limits<double>::infinity();
  bool lo_open = false, hi_open = false;
  std::string accepted = "a finite real";
  bool contains(double v) const;
  static Bounds any() { return {}; }
  static Bounds above(double lo);   // (lo, inf)
  static Bounds atLeast(double lo); // [lo, inf)
  static Bounds between(double lo, double hi, std::string accepted); // [lo, hi]
};

class OptionReader {
public:
  OptionReader(PetscOptionItems *items, std::string prefix) : items_(items), prefix_(std::move(prefix)) {}

  double real(const char *name, const char *help, double value, const Bounds &bounds);
  // An integer in [min, max]; errors say "an integer >= min" when max is the default bound.
  PetscInt integer(const char *name, const char *help, PetscInt value, PetscInt min, PetscInt max = 1000000000);
  // true/false/yes/no/1/0/on/off, or no value (a bare flag: true).
  bool flag(const char *name, const char *help, bool value);
  // One of `choices`; returns its index. `kind` names a choice in errors ("unknown scheme 'x'"), and
  // `accepted`, when not empty, what they list as accepted (the choices by default).
  int choice(const char *name, const char *help, const std::vector<std::string> &choices, int value,
             const char *kind = "value", const std::string &accepted = "");
  // Text (a path, a list); `set` tells whether it was given. Refused when longer than the database keeps.
  std::string text(const char *name, const char *help, const std::string &value, bool *set = nullptr);
  // A file or directory name, "" when not given; given without a value it is an error naming `accepted`.
  std::string path(const char *name, const char *help, const char *accepted = "a file name");
  // Comma-separated finite reals; an empty field ("1,2,", "1,,2") or an empty value is an error.
  // `check` (optional) says what is wrong with a parsed list ("" when nothing); like the syntax, it is
  // applied to every occurrence given (givenValues) (-zetas 2 -zetas 0.1 ran, exit 0).
  using RealsCheck = std::function<std::string(const std::vector<double> &)>;
  std::vector<double> reals(const char *name, const char *help, const RealsCheck &check = {});
  // reals() for an option that may be repeated: every occurrence given (givenValues), in order,
  // concatenated (PETSc's database keeps only the last). Each occurrence must hold a multiple of `group`
  // values (`accepted` says what a group is, for the error).
  std::vector<double> repeatableReals(const char *name, const char *help, size_t group, const std::string &accepted);
  // Comma-separated names; an empty field ("a,", ",a") is an error, as is an empty list.
  // `check` as for reals(), on every occurrence.
  using NamesCheck = std::function<std::string(const std::vector<std::string> &)>;
  // `accepted` (optional) replaces the generic "accepted: ..." of the empty list and empty item errors.
  std::vector<std::string> names(const char *name, const char *help, const std::string &value, const NamesCheck &check = {},
                                 const std::string &accepted = "");

  // `problem` ("" when none) applied to every occurrence of an option given (givenValues), for a text
  // option with a check of its own (PETSc keeps the last: an earlier bad one would be read by nobody).
  void checkEachGiven(const char *name, const std::function<std::string(const std::string &)> &problem);
  bool given(const char *name) const; // present on the command line (or in an options file)
  std::string value(const char *name) const; // the value as given ("" when absent), for messages
  // Records an input error found by a set's own checks inside the block (thrown at its end).
  void fail(const std::string &message);
  const std::string &error() const { return error_; }

private:
  bool ok() const { return error_.empty(); }
  // PETSc's database keeps an option's last value: an earlier occurrence (givenValues)
  // (`-T abc -T 0.05`) would be read by nobody, so every occurrence must be a valid value too.
  // `problem` says why a text is not one ("" when it is).
  void checkEveryOccurrence(const std::string &option, const std::function<std::string(const std::string &)> &problem);
  PetscOptionItems *items_;
  std::string prefix_;
  std::string error_;
};

// One PetscOptionsBegin/End block titled `title` with options prefix `prefix` ("" for none): runs
// `body`, then throws the first input error it recorded (or threw).
void readOptions(MPI_Comm comm, const std::string &title, const std::string &prefix,
                 const std::function<void(OptionReader &)> &body);

// True when -help was given (PETSc 3.18 takes no -h): the lab sets everything up, so every object
// lists its options, and stops before running.
bool helpRequested();

// The end of option reading, after every object has read its options (solvers included) and before
// anything is written: refuses the first option nobody read ("unknown option -foo"), collectively.
// Returns true when -help was given (the caller then stops without running). Options PETSc reads only
// while solving are taken as read by the solver that will read them (acceptSolveTimeOptions).
// `before_help`, under -help only, runs first: the set-up of solvers made at the run's start (Newton's,
// TimeLoop::prepareStart), so that their inner solvers list their options too.
bool finishOptions(MPI_Comm comm, const std::function<void()> &before_help = {});
// True when some option is still unread, or -help was given: then objects not set up yet have options
// to read (or list) before finishOptions. Collective (true on every rank if on any).
bool optionsLeftToRead(MPI_Comm comm);

// Options PETSc reads only when a solver under `prefix` is first set up or has solved: the inner
// solvers' (-<prefix>sub_* of block Jacobi and ASM, -<prefix>mg_levels_*, -<prefix>mg_coarse_* of the
// multigrid levels, -<prefix>redundant_*, PCKSP's -<prefix>ksp_ksp_* and -<prefix>ksp_pc_*,
// -<prefix>fieldsplit_*, a nonlinear preconditioner's -<prefix>npc_*), the multigrid cycle's own
// (-<prefix>pc_mg_*: PCGAMG reads them at its setup, not in PCSetFromOptions) and the reports read at a
// solve, the solver's or an inner one's (-<prefix>ksp_converged_reason, -<prefix>snes_view,
// -<prefix>ksp_view_mat, -<prefix>sub_ksp_converged_reason).
// Every solver calls this after its *SetFromOptions (LinearSolver, the eigensolvers, Newton), so a
// mistyped prefix stays an unknown option. The reports and `also` (more name starts after the prefix:
// Newton's "mat_mumps_", its factorization's options, read at the first solve) are taken as read now;
// the others are left to the caller, which sets the solver up (its blocks included) before the run and
// calls refuseUnreadSolverOptions: every option under the prefix the set-up did not read is refused
// (-ms_sub_pc_type with GAMG, which has no sub-solvers, ran without a word until 2026-11-29);
// finishOptions leaves them to that check.
// `kinds`: the reports the solver under the prefix reads itself ("ksp", "snes", "eps"); another's
// (-modes_ksp_view on an eigensolver) is left to that check.
void acceptSolveTimeOptions(const std::string &prefix, const std::vector<std::string> &kinds,
                            const std::vector<std::string> &also = {});
// After the set-up of the solver under `prefix` (`solver` names it in the message, e.g. "-ms_pc_type
// gamg"; `levels`: its multigrid levels, 0 without): the options acceptSolveTimeOptions kept for it that
// the set-up did not read are refused as unknown (an input error, agreed on over `comm`), and the inner
// solvers' reports (-<prefix>sub_ksp_converged_reason) where `solvers`, the options prefixes of the KSPs
// the set-up made (lower case, numbered levels also without their number: solverPrefixes), holds none
// for them on any rank; `solvers` null: not judged.
void refuseUnreadSolverOptions(MPI_Comm comm, const std::string &prefix, const std::string &solver, int levels,
                               const std::set<std::string> *solvers);
// Runs `set_up`, which sets several solvers under the same prefixes up (a sweep's runs on different
// models: GAMG makes one level on contact_study's particle, two on its disk), and judges their options
// once after it, as refuseUnreadSolverOptions does: an option or a report is unknown only if none of
// them reads it (the first set-up's verdict depended on the order of -shapes). Collective.
void setUpSolversTogether(MPI_Comm comm, const std::function<void()> &set_up);
// An option PETSc read for this solver (so no unread check sees it) that the solver as set up does not
// use (bt's order under another line search): refused with `message` (an input error), or, inside
// setUpSolversTogether, unless another solver set up there uses it and says so (optionUsed). `name`
// without its dash.
void refuseUnusedOption(const std::string &name, const std::string &message);
void optionUsed(const std::string &name);

// Refuses a solver option's value that PETSc takes but that means nothing (an input error, exit 2):
// "-<prefix><name> <value>: accepted: <accepted>", the value as the user wrote it where `text` is given,
// else its shortest exact decimal (100000000, not %g's rounded 1e+08; 123456789 read 1.23457e+08).
[[noreturn]] void refuseOptionValue(const std::string &prefix, const char *name, double value, const char *accepted,
                                    const std::string &text = "");

// The range of a numeric solver option PETSc takes without checking it: low and high are included
// unless open (±inf for no bound).
struct OptionRange {
  const char *name; // without '-' and prefix: "pc_sor_omega"
  double low;
  bool low_open;
  double high;
  bool high_open;
  std::string accepted;
};
// Refuses (refuseOptionValue) each of `ranges` that PETSc has read under `prefix` (so after the
// solver's SetFromOptions) with a value outside its range; options not read yet are left alone (an
// unknown one is refused later, one read at the first solve is not checked). A value PETSc reads as no
// number is left to PETSc; mouse, DECIDE and DEFAULT are the integers PETSc makes of them.
void checkOptionRanges(const std::string &prefix, const std::vector<OptionRange> &ranges);
// The same under `prefix` and under every prefix below it that the database holds one of `ranges` for:
// the inner solvers' (-<prefix>sub_ksp_rtol, -<prefix>mg_levels_2_pc_sor_omega, PCKSP's
// -<prefix>ksp_ksp_max_it, a field split's or a nested one's), whichever preconditioner made them.
// `read_only` false: every value given, read or not, judged by its text (nothing is marked read): before
// PETSc reads a value that would crash it, or after PETSc failed on the options.
void checkOptionRangesBelow(const std::string &prefix, const std::vector<OptionRange> &ranges, bool read_only = true);
// Refuses (refuseOptionValue) `value` of -<prefix><range.name> outside `range`; `text`: as given.
void checkOptionValue(const std::string &prefix, const OptionRange &range, double value, const std::string &text = "");

// Puts `-name value` in the options database unless the command line (or an options file) gave the
// option: a default for an option PETSc reads only from the database (a multigrid level's smoother).
void setDefaultOption(const std::string &name, const std::string &value);

// Strict text parsers for values PETSc has no typed call for (lists, numbers in files): the whole text
// must be one finite real (a NUL byte inside is not part of a number), fields of a list are separated
// by commas and none may be empty.
double parseReal(const std::string &option, const std::string &text);
// Why `text` is not one finite double, written after it ("is not a finite real number", or for 1e-320
// "underflows a double: its magnitude is below 2.2e-308"); "" if it is one. *value receives it.
std::string realProblem(const std::string &text, double *value = nullptr);
// Numbers are decimal, in options and files alike: strtod also reads hexadecimal ("0x10" as 16, "0x1p-1"
// as 0.5), which every reader refuses through this test.
inline bool hexadecimalNumber(const std::string &text) { return text.find_first_of("xX") != std::string::npos; }
std::vector<double> parseRealList(const std::string &option, const std::string &text);

// The items of a comma-separated list, blanks around each removed ("0, 0, -9.81"); "a,b," has an
// empty last item, "" has one empty item.
std::vector<std::string> splitList(const std::string &text);

// The first item of `items` that an earlier one equals, nullptr when none (a list option naming a
// scheme, a zeta or a body twice).
template <typename T> const T *firstRepeated(const std::vector<T> &items) {
  for (size_t i = 0; i < items.size(); ++i)
    for (size_t j = 0; j < i; ++j)
      if (items[j] == items[i]) return &items[i];
  return nullptr;
}

// An index written as an integer: 1 to 18 digits and nothing else (1.0, 1e0, 0x1, +1 and -1 are not),
// the rule of every index a user writes (-track, the springs file's i and j).
bool isIndexText(const std::string &text);

// `text` in lower case (PETSc's option names, and its truth values, ignore case).
std::string lowerCase(std::string text);
// PETSc 3.18's truth values (PetscOptionsStringToBool: true, yes, on, 1 and false, no, off, 0, any case);
// nullopt for any other text. Usable before PetscInitialize.
std::optional<bool> petscTruthValue(const std::string &text);
// The refusal of `text` given to the flag `option`: "-f: 'maybe' is not a truth value; accepted: ...".
std::string notTruthValue(const std::string &option, const std::string &text);

// Every option in PETSc's database as {name, value} ("" for a flag), in the database's order.
std::vector<std::pair<std::string, std::string>> databaseOptions();
// Refuses (input error) a solver option (a name with ksp_, pc_, snes_, eps_, st_, mat_, mg_, ...) whose
// value is nan, inf or overflows, or an integer above PETSc's 32-bit range, which PETSc's reader takes
// or wraps without a word. Run before any solver reads its options (runMain) and again by finishOptions.
void checkSolverOptionValues();

// Every value given to `name` ("-plane") in the order PETSc read them ("" for one without a value): the
// .petscrc files, PETSC_OPTIONS, the command line and its options files (givenOptionWords); the name
// matched without regard to case as PETSc does. PETSc's database keeps only the last; an option
// documented as repeatable reads them all here, and the typed readers check them all.
std::vector<std::string> givenValues(const std::string &name);

} // namespace beam
