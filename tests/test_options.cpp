// The option layer: typed reads with the project's strictness on top of PETSc's, the collective
// agreement on option errors (run on 1 and 2 ranks), scheme parameters under an instance's prefix, and
// the amplification scan's isolation from the lab's solver options.
#include <gtest/gtest.h>

#include <functional>
#include <new>
#include <stdexcept>
#include <string>
#include <utility>

#include "tests/ScopedOptions.hpp"
#include "common/Options.hpp"
#include "common/ViewerOptions.hpp"
#include "solvers/Amplification.hpp"
#include "solvers/GeneralizedAlpha.hpp"
#include "solvers/RunOptions.hpp"

using namespace beam;

namespace {


// The message of the input error `read` throws, or "" when it accepts.
std::string errorOf(const std::function<void(OptionReader &)> &read) {
  try {
    readOptions(PETSC_COMM_SELF, "test", "", read);
  } catch (const Error &e) {
    EXPECT_EQ(e.exitCode(), kExitBadInput) << e.what();
    return e.what();
  }
  return "";
}

std::string realError(const std::string &value, const Bounds &bounds = Bounds::above(0)) {
  const ScopedOptions options("-x " + value);
  return errorOf([&](OptionReader &r) { (void)r.real("-x", "x", 1.0, bounds); });
}

std::string integerError(const std::string &value) {
  const ScopedOptions options("-n " + value);
  return errorOf([&](OptionReader &r) { (void)r.integer("-n", "n", 1, 1, 100); });
}

} // namespace

TEST(Options, RealsMustBeWholeFiniteNumbersInRange) {
  for (const char *bad : {"0.0l", "abc", "nan", "inf", "-inf", "DEFAULT", "PETSC_DECIDE", "0x"})
    EXPECT_NE(realError(bad).find(std::string("-x: '") + bad + "' is not a finite real number; accepted: a real > 0"),
              std::string::npos)
        << bad << ": " << realError(bad);
  EXPECT_EQ(realError("0"), "-x: 0 is out of range; accepted: a real > 0");
  // A number too large for a double is a number: it is said to overflow (1e400 was "not a number").
  EXPECT_EQ(realError("1e999"), "-x: '1e999' overflows a double: its magnitude is above 1.8e308; accepted: a real > 0");
  EXPECT_EQ(realProblem("-1e309"), "overflows a double: its magnitude is above 1.8e308");
  EXPECT_EQ(realProblem("1.7e308"), "");
  // A subnormal is finite, but out of a double's normal range: it is not called "not finite".
  EXPECT_EQ(realError("1e-320"), "-x: '1e-320' underflows a double: its magnitude is below 2.2e-308; accepted: a real > 0");
  EXPECT_EQ(realProblem("-4e-310"), "underflows a double: its magnitude is below 2.2e-308");
  EXPECT_EQ(realProblem("2.3e-308"), "");
  // strtod skips leading blanks; a single value may have none on either side (' 0.02' was taken).
  EXPECT_EQ(realProblem(" 1"), "is not a finite real number");
  EXPECT_EQ(realProblem("1 "), "is not a finite real number");
  EXPECT_EQ(realProblem("\t1"), "is not a finite real number");
  EXPECT_EQ(realProblem("0x10"), "is not a finite real number"); // strtod reads hexadecimal: 16
  EXPECT_EQ(realProblem("0x0.8p0"), "is not a finite real number");
  EXPECT_EQ(realError("-2", Bounds::atLeast(-1)), "-x: -2 is out of range; accepted: a real >= -1");
  EXPECT_EQ(realError("0.25"), "");
  const ScopedOptions options("-x 2.5e-3 -bare");
  double x = 0;
  std::string bare = errorOf([&](OptionReader &r) { x = r.real("-x", "x", 1.0, Bounds::above(0)); });
  EXPECT_EQ(bare, "");
  EXPECT_DOUBLE_EQ(x, 2.5e-3);
  bare = errorOf([&](OptionReader &r) { (void)r.real("-bare", "bare", 1.0, Bounds::any()); });
  EXPECT_NE(bare.find("-bare: '' is not a finite real number"), std::string::npos) << bare;
}

TEST(Options, IntegersMustBePlainDecimalInRange) {
  for (const char *bad : {"2.5", "1e1", "x", "DECIDE", "+"})
    EXPECT_NE(integerError(bad).find(std::string("-n: '") + bad + "' is not an integer; accepted: an integer in [1, 100]"),
              std::string::npos)
        << bad << ": " << integerError(bad);
  // Too large for PetscInt (or a long long): an integer out of range, not "not an integer".
  for (const char *huge : {"99999999999999999999", "2147483648", "-99999999999999999999"})
    EXPECT_EQ(integerError(huge), std::string("-n: ") + huge + " is out of range; accepted: an integer in [1, 100]");
  EXPECT_EQ(integerError("0"), "-n: 0 is out of range; accepted: an integer in [1, 100]");
  EXPECT_EQ(integerError("100"), "");
}

TEST(Options, FlagsChoicesTextsAndLists) {
  {
    const ScopedOptions options("-f maybe");
    EXPECT_EQ(errorOf([](OptionReader &r) { (void)r.flag("-f", "f", false); }),
              "-f: 'maybe' is not a truth value; accepted: true, false (or no value)");
  }
  {
    const ScopedOptions options("-f -c b");
    bool f = false;
    int c = 0;
    EXPECT_EQ(errorOf([&](OptionReader &r) {
                f = r.flag("-f", "f", false);
                c = r.choice("-c", "c", {"a", "b"}, 0);
              }),
              "");
    EXPECT_TRUE(f);
    EXPECT_EQ(c, 1);
  }
  {
    const ScopedOptions options("-c z");
    EXPECT_EQ(errorOf([](OptionReader &r) { (void)r.choice("-c", "c", {"a", "b"}, 0, "scheme"); }),
              "-c: unknown scheme 'z'; accepted: a, b");
  }
  for (const char *bad : {"a,", ",a", "a,,b", ","}) {
    const ScopedOptions options(std::string("-l ") + bad);
    EXPECT_EQ(errorOf([](OptionReader &r) { (void)r.names("-l", "l", "a"); }),
              std::string("-l: '") + bad + "' has an empty item; accepted: names separated by single commas");
  }
  {
    const ScopedOptions options("-r"); // given without a value: an empty sweep ran, exit 0
    EXPECT_EQ(errorOf([](OptionReader &r) { (void)r.reals("-r", "r"); }), "-r: empty; accepted: a comma-separated list of reals");
  }
  {
    const ScopedOptions options("-r 1,2,");
    EXPECT_NE(errorOf([](OptionReader &r) { (void)r.reals("-r", "r"); }).find("-r: '' is not a finite real number"),
              std::string::npos);
  }
  // A value longer than the database's strings is refused, not cut (a cut list could still parse).
  const std::string long_list = std::string(4094, '1') + ",2";
  const ScopedOptions options("-r " + long_list);
  EXPECT_EQ(errorOf([](OptionReader &r) { (void)r.reals("-r", "r"); }),
            "-r: the value has 4096 characters; accepted: at most 4095");
}

// The first error wins and the block still ends; later reads keep their defaults.
TEST(Options, FirstErrorIsReportedAfterTheBlock) {
  const ScopedOptions options("-dt -1 -T nan");
  RunSettings run;
  try {
    readRunOptions(PETSC_COMM_SELF, run);
    ADD_FAILURE() << "accepted";
  } catch (const Error &e) {
    EXPECT_EQ(std::string(e.what()), "-dt: -1 is out of range; accepted: a real > 0");
  }
}

namespace {
// The rank an agreed failure names: none where rank 0 failed.
std::string onRank(int failing) { return failing > 0 ? " (on rank " + std::to_string(failing) + ")" : ""; }
} // namespace

// An error on one rank only becomes every rank's error, with the failing rank's message and exit code,
// naming that rank where it is not rank 0.
TEST(Options, AgreementCarriesTheFailingRanksError) {
  int rank = 0, size = 1;
  MPI_Comm_rank(PETSC_COMM_WORLD, &rank);
  MPI_Comm_size(PETSC_COMM_WORLD, &size);
  const int failing = size - 1;
  try {
    agreeOn(PETSC_COMM_WORLD, [&] {
      if (rank == failing) throw inputError("bad input");
    });
    ADD_FAILURE() << "no error on rank " << rank;
  } catch (const Error &e) {
    EXPECT_EQ(e.exitCode(), kExitBadInput);
    EXPECT_EQ(std::string(e.what()), "bad input" + onRank(failing));
  }
  EXPECT_NO_THROW(agreeOn(PETSC_COMM_WORLD, [] {}));
}

// Any exception on one rank is agreed, not only beam::Error: another std::exception is a run error
// (exit 3) with its text, bad_alloc "out of memory", and an Error without a message still a failure
// (an empty message means success to agreeOnFailure).
TEST(Options, AgreementCarriesAnyException) {
  int rank = 0, size = 1;
  MPI_Comm_rank(PETSC_COMM_WORLD, &rank);
  MPI_Comm_size(PETSC_COMM_WORLD, &size);
  const bool failing = rank == size - 1;
  auto outcome = [&](const std::function<void()> &on_failing_rank) -> std::pair<int, std::string> {
    try {
      agreeOn(PETSC_COMM_WORLD, [&] {
        if (failing) on_failing_rank();
      });
    } catch (const Error &e) {
      return {e.exitCode(), e.what()};
    }
    return {kExitOk, "went on"};
  };
  using Outcome = std::pair<int, std::string>;
  const std::string where = onRank(size - 1);
  EXPECT_EQ(outcome([] { throw std::runtime_error("not a beam error"); }), Outcome(kExitRunFailed, "not a beam error" + where));
  EXPECT_EQ(outcome([] { throw std::bad_alloc(); }), Outcome(kExitRunFailed, "out of memory" + where));
  EXPECT_EQ(outcome([] { throw inputError(""); }), Outcome(kExitBadInput, "(no message)" + where));
}

// A scheme instance reads its parameters and names its solvers under its own prefix.
TEST(Options, SchemeParametersFollowTheInstancePrefix) {
  const ScopedOptions options("-newmark_beta 0.1 -p_newmark_beta 0.3 -p_newmark_gamma 0.6");
  Newmark plain, prefixed;
  prefixed.setOptionsPrefix("p_");
  EXPECT_DOUBLE_EQ(plain.optionParameters().beta, 0.1);
  EXPECT_DOUBLE_EQ(plain.optionParameters().gamma, 0.5);
  EXPECT_DOUBLE_EQ(prefixed.optionParameters().beta, 0.3);
  EXPECT_DOUBLE_EQ(prefixed.optionParameters().gamma, 0.6);
  const ScopedOptions bad("-p_newmark_gamma 0.4");
  try {
    (void)prefixed.optionParameters();
    ADD_FAILURE() << "accepted";
  } catch (const Error &e) {
    EXPECT_EQ(std::string(e.what()), "-p_newmark_gamma: 0.4 is out of range; accepted: a real in [1/2, 1e6] (1/2: second order)");
  }
}

// The scan uses the lab's scheme parameters but none of its solver options: a KSP type the oscillator's
// solvers could not use, or a viewer, neither breaks nor reaches the scan, and stays unused.
TEST(Options, AmplificationScanIgnoresTheLabsSolverOptions) {
  const ScopedOptions options("-mass_ksp_type bogus -newmark_ksp_type bogus -shifted_pc_type bogus");
  EXPECT_NEAR(spectralRadius("midpoint", 3.0), 1.0, 1e-12);
  EXPECT_NEAR(spectralRadius("newmark", 3.0), 1.0, 1e-12);
  for (const char *name : {"-mass_ksp_type", "-newmark_ksp_type", "-shifted_pc_type"}) {
    PetscBool used = PETSC_TRUE;
    BEAM_PETSC(PetscOptionsUsed(nullptr, name, &used));
    EXPECT_FALSE(used) << name;
  }
  // Newmark with beta = 0 is the central difference: unstable above Omega = 2.
  const ScopedOptions central("-newmark_beta 0");
  EXPECT_GT(spectralRadius("newmark", 3.0), 1.5);
  EXPECT_NEAR(spectralRadius("newmark", 1.0), 1.0, 1e-12);
}

// Indices a user writes (-track, a springs file's i and j) are digits only.
TEST(Options, IndexTextIsDigitsOnly) {
  for (const char *good : {"0", "00", "17", "123456789012345678"}) EXPECT_TRUE(isIndexText(good)) << good;
  for (const char *bad : {"", "1.0", "1e0", "0x1", "+1", "-1", " 1", "1 ", "1234567890123456789"})
    EXPECT_FALSE(isIndexText(bad)) << "'" << bad << "'";
}

// The truth values read before PetscInitialize (-skip_petscrc, -help's value) are PETSc's own.
TEST(Options, TruthValuesArePetscs) {
  for (const char *text : {"true", "TRUE", "Yes", "on", "1", "false", "No", "OFF", "0", "y", "n", "2", "t", "intro", " 1", "01", "truee"}) {
    PetscBool petsc = PETSC_FALSE;
    const bool refused = PetscOptionsStringToBool(text, &petsc) != 0;
    (void)lastPetscMessage(true);
    const std::optional<bool> ours = petscTruthValue(text);
    EXPECT_EQ(ours.has_value(), !refused) << "'" << text << "'";
    if (ours) {
      EXPECT_EQ(*ours, bool(petsc)) << "'" << text << "'";
    }
  }
}

// The KSP monitors' viewers are judged against PETSc's own registry (KSPMonitorList): every monitor's
// plain ASCII viewer must be found there, or every -ksp_monitor FILE would be refused; a format PETSc has
// no routine for (it called a null pointer) must not.
TEST(Options, KspMonitorViewersAreReadOffPetscsRegistry) {
  const std::vector<std::pair<std::string, std::string>> none;
  for (const char *monitor : {"-ms_ksp_monitor", "-shifted_ksp_monitor_short", "-mass_ksp_monitor_range", "-ksp_monitor_true_residual",
                              "-ms_ksp_monitor_max", "-ms_ksp_monitor_solution", "-ms_ksp_monitor_singular_value", "-ms_ksp_monitor_error"}) {
    EXPECT_EQ(solverReportProblem(monitor, "ascii", none), "") << monitor;
    EXPECT_EQ(solverReportProblem(monitor, "::default", none), "") << monitor;
    EXPECT_NE(solverReportProblem(monitor, "::ascii_info_detail", none).find("PETSc has no such monitor"), std::string::npos) << monitor;
    EXPECT_NE(solverReportProblem(monitor, "ascii::ASCII_MATLAB", none).find("in format ascii_matlab"), std::string::npos) << monitor;
  }
  EXPECT_EQ(solverReportProblem("-ms_ksp_monitor", "::ascii_info", none),
            "-ms_ksp_monitor ::ascii_info: PETSc has no such monitor for the viewer ascii in format ascii_info (it crashed: a "
            "segmentation fault); accepted: -ms_ksp_monitor [ascii][:FILE], -ms_ksp_monitor draw, -ms_ksp_monitor draw::draw_lg");
  // Not a monitor: any known format is PETSc's to print.
  EXPECT_EQ(solverReportProblem("-ms_ksp_view", "::ascii_info_detail", none), "");
  EXPECT_EQ(viewerFields("ascii:f.txt::append"), (std::vector<std::string>{"ascii", "f.txt", "", "append"}));
  EXPECT_EQ(viewerFields(""), (std::vector<std::string>{""}));
}

TEST(Options, ListItemsLoseTheirBlanksAndKeepEmptyOnes) {
  using V = std::vector<std::string>;
  EXPECT_EQ(splitList("0, 0, -9.81"), (V{"0", "0", "-9.81"}));
  EXPECT_EQ(splitList(" a ,\tb"), (V{"a", "b"}));
  EXPECT_EQ(splitList("a,b,"), (V{"a", "b", ""}));
  EXPECT_EQ(splitList(",a"), (V{"", "a"}));
  EXPECT_EQ(splitList("a,,b"), (V{"a", "", "b"}));
  EXPECT_EQ(splitList("a, ,b"), (V{"a", "", "b"}));
  EXPECT_EQ(splitList(""), (V{""}));
  EXPECT_EQ(parseRealList("-g", "1, 2 ,3"), (std::vector<double>{1, 2, 3}));
  EXPECT_THROW(parseRealList("-g", "1, ,3"), Error);
}
