#include "common/Petsc.hpp"
#include "common/Warnings.hpp"

#include "common/Agree.hpp"
#include "common/Hash.hpp"
#include "common/InputFile.hpp"
#include "common/LargeVector.hpp"
#include "common/Options.hpp"
#include "common/OutputFile.hpp"
#include "common/StopSignal.hpp"
#include "common/ViewerOptions.hpp"

#include <petscksp.h>
#include <petscsnes.h>

#include <strings.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <algorithm>
#include <climits>
#include <cstring>
#include <sstream>
#include <exception>
#include <fstream>
#include <iterator>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <regex>
#include <thread>
#include <vector>


namespace beam {
namespace {

std::string g_last_message; // per-process: the message PETSc produced for the error being thrown
std::string g_program = "lab"; // runMain's, for the watchdog's line

} // namespace

// PetscSession's watchdog thread (ranks > 1): armed by UnwindWatch around a destroy during unwinding.
class Watchdog {
public:
  explicit Watchdog(int rank) : rank_(rank), thread_([this] { run(); }) {}
  ~Watchdog() {
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      stop_ = true;
    }
    wake_.notify_all();
    thread_.join();
  }
  void arm(double seconds) {
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      if (depth_++ == 0)
        deadline_ = std::chrono::steady_clock::now() + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                                            std::chrono::duration<double>(seconds));
    }
    wake_.notify_all();
  }
  void disarm() {
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      --depth_;
    }
    wake_.notify_all();
  }

private:
  void run() {
    std::unique_lock<std::mutex> lock(mutex_);
    while (!stop_) {
      if (depth_ == 0) {
        wake_.wait(lock, [&] { return stop_ || depth_ > 0; });
        continue;
      }
      if (wake_.wait_until(lock, deadline_, [&] { return stop_ || depth_ == 0; })) continue;
      // The main thread is stuck in a collective destroy the other ranks will never join.
      const LastError e = lastError();
      std::fprintf(stderr, "%s: error (rank %d): %s\n", g_program.c_str(), rank_, e.what.c_str());
      std::fflush(stderr);
      MPI_Abort(MPI_COMM_WORLD, e.code);
    }
  }

  int rank_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stop_ = false;
  int depth_ = 0;
  std::chrono::steady_clock::time_point deadline_;
  std::thread thread_;
};

namespace {
Watchdog *g_watchdog = nullptr; // the session's, while it lives

// What PETSc's line accepts, where it names nothing. Its type names are matched exactly and are lower
// case; its "Unable to find requested KSP type GMRES" named no accepted value (PETSc's enums,
// -ms_ksp_pc_side LEFT, are read in any case).
std::string acceptedHint(const std::string &message) {
  // "Unable to find requested KSP type GMRES" (KSP, PC, SNES, line search) or "Unknown GAMG type AGG given".
  static const std::regex forms[] = {std::regex("Unable to find requested (.+?) type (\\S+)"),
                                     std::regex("Unknown (\\S+) type (\\S+) given")};
  std::smatch m;
  if (message.find("accepted:") != std::string::npos) return "";
  bool matched = false;
  for (const auto &form : forms)
    if (!matched && std::regex_search(message, m, form)) matched = true;
  if (!matched) return "";
  const std::string kind = m[1], name = m[2];
  std::string lower = name;
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  const std::vector<std::pair<std::string, PetscFunctionList>> lists = {
      {"KSP", KSPList}, {"PC", PCList}, {"SNES", SNESList}, {"Line Search", SNESLineSearchList}};
  bool known_lower = false;
  for (const auto &[k, list] : lists) {
    if (k != kind || !list) continue;
    void (*found)(void) = nullptr;
    known_lower = PetscFunctionListFind(list, lower.c_str(), &found) == 0 && found;
  }
  if (lower != name && known_lower) return "; accepted: PETSc's type names, in lower case ('" + lower + "')";
  return "; accepted: a " + kind + " type -help lists, by its name in lower case";
}

// Error handler that records PETSc's message instead of printing a traceback.
PetscErrorCode captureHandler(MPI_Comm, int, const char *, const char *, PetscErrorCode n, PetscErrorType p,
                              const char *mess, void *) {
  if (p == PETSC_ERROR_INITIAL && mess && *mess) g_last_message = std::string(mess) + acceptedHint(mess);
  else if (p == PETSC_ERROR_INITIAL) {
    const char *text = nullptr;
    PetscErrorMessage(n, &text, nullptr);
    g_last_message = text ? text : "PETSc error";
  }
  return n;
}

// True when every rank of comm reaches this call within `seconds` (a barrier with a time limit).
// This process's rank as the MPI launcher gives it, before MPI starts (OpenMPI's variable, or the PMI
// one of other launchers); "0" without one.
std::string launcherRank() {
  const char *rank = std::getenv("OMPI_COMM_WORLD_RANK");
  if (!rank) rank = std::getenv("PMI_RANK");
  return rank ? rank : "0";
}

bool allRanksArrive(MPI_Comm comm, double seconds) {
  MPI_Request request;
  MPI_Ibarrier(comm, &request);
  const auto start = std::chrono::steady_clock::now();
  int done = 0;
  while (!done) {
    MPI_Test(&request, &done, MPI_STATUS_IGNORE);
    if (done) break;
    if (std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() > seconds) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return true;
}

} // namespace

bool isOptionName(const char *word) {
  if (word[0] != '-') return false;
  const char *key = word[1] == '-' ? word + 1 : word;
  if (!std::isalpha((unsigned char)key[1])) return false;
  char *end = nullptr;
  (void)std::strtod(key, &end);
  return !(end != key && !(*end == '_' || std::isalnum((unsigned char)*end)));
}

namespace {

// PETSc 3.18's rules for a line of an options file (PetscOptionsInsertFilePetsc): '#' starts a comment,
// tabs and CRs are blanks; a line holds nothing, "-name", "-name value" or "alias -name -other". PETSc
// meets a violation inside PetscInitialize, prints its traceback and fails there, before any error
// handler of ours: the lab aborted (exit 134). Quoted values ("a b") count as one token, as PETSc's
// tokenizer reads them. YAML files (-options_file_yaml, or a .yaml/.yml/.json name) are PETSc's to read.
// The words of a line as PETSc's tokenizer reads them: blanks separate, a quoted value ("a b") is one
// word, '#' starts a comment. With `unquote`, the quotes are taken off.
std::vector<std::string> optionWords(std::string line, bool unquote, bool comments = true) {
  // (PETSC_OPTIONS has no comments: PETSc read '-output_dir a#b' whole there, and this check did not.)
  const size_t comment = comments ? line.find('#') : std::string::npos;
  if (comment != std::string::npos) line.erase(comment);
  std::vector<std::string> tokens;
  for (size_t i = 0; i < line.size();) {
    if (line[i] == ' ' || line[i] == '\t' || line[i] == '\r') {
      ++i;
      continue;
    }
    size_t end = i;
    if (line[i] == '"') {
      end = line.find('"', i + 1);
      end = end == std::string::npos ? line.size() : end + 1;
    } else {
      while (end < line.size() && line[end] != ' ' && line[end] != '\t' && line[end] != '\r') ++end;
    }
    std::string token = line.substr(i, end - i);
    if (unquote && token.size() > 1 && token.front() == '"' && token.back() == '"') token = token.substr(1, token.size() - 2);
    tokens.push_back(token);
    i = end;
  }
  return tokens;
}

bool isVettedStartUpOption(const std::string &word);

std::string optionsLineProblem(const std::string &line) {
  const std::vector<std::string> tokens = optionWords(line, false);
  if (tokens.empty()) return "";
  const bool alias = strcasecmp(tokens[0].c_str(), "alias") == 0;
  if (alias) {
    if (tokens.size() != 3 || !isOptionName(tokens[1].c_str()) || !isOptionName(tokens[2].c_str()))
      return "an alias line is 'alias -name -other'";
    if (isVettedStartUpOption(tokens[2]))
      return tokens[2] + ": given a second name (" + tokens[1] + "), which the checks before PETSc starts do not see; accepted: " +
             tokens[2] + " by its own name";
    return "";
  }
  if (!isOptionName(tokens[0].c_str())) return "'" + tokens[0] + "' is not an option name";
  if (tokens.size() > 1 && isOptionName(tokens[1].c_str())) return "two options on one line";
  if (tokens.size() > 2) return "'" + tokens[2] + "' after the option's value";
  return "";
}

std::string nestedOptionProblem(const std::string &line, std::vector<std::string> &chain);

bool isYamlOptionsFile(const std::string &path) {
  for (const char *suffix : {".yaml", ".yml", ".json"})
    if (path.size() >= std::strlen(suffix) && path.compare(path.size() - std::strlen(suffix), std::string::npos, suffix) == 0)
      return true;
  std::ifstream in(path);
  std::string start(6, '\0');
  in.read(start.data(), 6);
  return start.compare(0, 6, "%YAML ") == 0 || start.compare(0, 3, "---") == 0;
}

// The options files this process read (each path as given, a hash of its lines), in the order opened:
// the ranks compare them once MPI has started (optionsFilesDisagree).
std::vector<std::pair<std::string, std::uint64_t>> g_options_files_read;

// An options file, and every options file it names (PETSc reads a nested -options_file as it meets it,
// with no check of its own: a file naming itself recursed until SIGSEGV, a nested directory or bad line
// aborted with PETSc's traceback, a nested /dev/zero grew without bound). `chain` holds the files being
// read around this one (a cycle is refused).
std::string optionsFileProblem(const std::string &option, const std::string &path, std::vector<std::string> &chain) {
  struct stat st {};
  // PETSc expands ${NAME} in the path (PetscStrreplace) and would read another file than the one
  // checked here (a '-T abc' there ran, exit 0).
  if (path.find("${") != std::string::npos)
    return option + ": '" + path + "' holds ${...}, which PETSc replaces; accepted: a path without ${";
  if (stat(path.c_str(), &st) != 0) return option + ": cannot open '" + path + "'; accepted: a readable options file";
  if (!S_ISREG(st.st_mode) || access(path.c_str(), R_OK) != 0)
    return option + ": '" + path + "' is not a readable regular file; accepted: a readable options file";
  // YAML is parsed inside PetscInitialize, where a malformed file aborts with PETSc's traceback: refused.
  if (option == "-options_file_yaml" || isYamlOptionsFile(path))
    return option + ": '" + path + "' is a YAML options file; accepted: a plain options file (-name or -name value per line)";
  char resolved[PATH_MAX];
  const std::string key = realpath(path.c_str(), resolved) ? resolved : path;
  if (std::find(chain.begin(), chain.end(), key) != chain.end())
    return option + ": '" + path + "' includes itself (through -options_file); accepted: options files without a cycle";
  if (chain.size() >= 16) return option + ": '" + path + "' is nested more than 16 files deep; accepted: at most 16";
  chain.push_back(key);
  const size_t entry = g_options_files_read.size(); // (listed before the files it includes)
  g_options_files_read.emplace_back(path, 0);
  std::ifstream in(path);
  std::string line;
  std::uint64_t hash = 0xcbf29ce484222325ULL;
  for (long number = 1; std::getline(in, line); ++number) {
    hash = fnv1a(line.data(), line.size() + 1, hash); // (the line and the NUL ending its buffer)
    // A NUL byte would end the message where it is quoted (it read "line 2: '" and stopped).
    std::string problem = line.find('\0') != std::string::npos ? "a NUL byte (a binary file?)" : optionsLineProblem(line);
    if (problem.empty()) problem = nestedOptionProblem(line, chain);
    if (!problem.empty()) {
      chain.pop_back();
      if (problem.compare(0, 1, "-") == 0) return option + ": '" + path + "' line " + std::to_string(number) + ": " + problem;
      return option + ": '" + path + "' line " + std::to_string(number) + ": " + problem +
             "; accepted: one option per line, -name or -name value ('#' comments)";
    }
  }
  chain.pop_back();
  g_options_files_read[entry].second = hash;
  return "";
}

// The options files PETSc reads at its start unless -skip_petscrc, in its order.
std::vector<std::string> petscrcFiles() {
  std::vector<std::string> files = {".petscrc", "petscrc"};
  if (const char *home = std::getenv("HOME")) files.insert(files.begin(), std::string(home) + "/.petscrc");
  return files;
}

// Every option word PETSc reads as it starts, in its order (PetscOptionsInsert): ~/.petscrc, ./.petscrc
// and ./petscrc unless -skip_petscrc, then PETSC_OPTIONS, then the command line, each -options_file's
// lines where it stands (nested ones too). Built once all of it is vetted; givenValues reads it, so an
// option repeated in an options file is read whole (a second -plane in a file was dropped, exit 0).
std::vector<std::string> g_given_words;
bool g_given_words_built = false;
// An options file's "alias -name -other" lines: PETSc stores a later -name as -other.
std::vector<std::pair<std::string, std::string>> g_aliases;

void appendOptionWords(const std::vector<std::string> &tokens, std::vector<std::string> &words, int depth);

void appendOptionsFileWords(const std::string &path, std::vector<std::string> &words, int depth) {
  if (depth > 16) return; // (refused by the vetting before)
  noteInputFile("-options_file", path); // (an output may not replace it: of1/energy.csv was, exit 0)
  // PETSc sets a file's aliases as it reads it, and inserts its options once it has read it all.
  std::vector<std::vector<std::string>> lines;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) {
    std::vector<std::string> tokens = optionWords(line, true);
    if (tokens.size() == 3 && strcasecmp(tokens[0].c_str(), "alias") == 0)
      g_aliases.emplace_back(tokens[1], tokens[2]);
    else if (!tokens.empty())
      lines.push_back(std::move(tokens));
  }
  for (const auto &tokens : lines) appendOptionWords(tokens, words, depth);
}

void appendOptionWords(const std::vector<std::string> &tokens, std::vector<std::string> &words, int depth) {
  for (size_t i = 0; i < tokens.size(); ++i) {
    const bool has_value = i + 1 < tokens.size() && !isOptionName(tokens[i + 1].c_str());
    if (has_value && strcasecmp(tokens[i].c_str(), "-options_file") == 0) {
      appendOptionsFileWords(tokens[i + 1], words, depth + 1);
    } else {
      const auto alias = std::find_if(g_aliases.begin(), g_aliases.end(), [&](const auto &a) {
        return isOptionName(tokens[i].c_str()) && strcasecmp(a.first.c_str(), tokens[i].c_str()) == 0;
      });
      words.push_back(alias != g_aliases.end() ? alias->second : tokens[i]);
      if (has_value) words.push_back(tokens[i + 1]);
    }
    if (has_value) ++i;
  }
}

void buildGivenWords(int argc, char **argv, bool skip_rc) {
  g_given_words.clear();
  g_aliases.clear();
  if (!skip_rc) {
    for (const auto &rc : petscrcFiles()) { // (those vetted: regular and readable are read)
      struct stat st {};
      if (stat(rc.c_str(), &st) == 0 && S_ISREG(st.st_mode) && access(rc.c_str(), R_OK) == 0)
        appendOptionsFileWords(rc, g_given_words, 1);
    }
  }
  if (const char *env = std::getenv("PETSC_OPTIONS")) appendOptionWords(optionWords(env, true, false), g_given_words, 0);
  appendOptionWords(std::vector<std::string>(argv + 1, argv + argc), g_given_words, 0);
  g_given_words_built = true;
}

// PETSc's reports at its end, read by PetscFinalize only: the options database and those nobody used,
// the total flop count, the papers to cite (to FILE or the screen). PetscSession takes them as read once
// PETSc has started (the labs called them unknown options); their values are checked before it starts.
constexpr const char *kEndOfRunReports[] = {"-options_view", "-options_left", "-get_total_flops", "-citations"};

bool isEndOfRunReport(const std::string &word) {
  return std::any_of(std::begin(kEndOfRunReports), std::end(kEndOfRunReports),
                     [&](const char *name) { return strcasecmp(word.c_str(), name) == 0; });
}

// The start-up options PETSc acts on before (or after) any check of the labs, so checked here by
// optionValueProblem, for every way a name can reach PETSc (an alias to one of them is refused).
bool isVettedStartUpOption(const std::string &word) {
  for (const char *name : {"-options_file", "-options_file_yaml", "-options_string_yaml", "-log_view", "-malloc_view", "-history",
                           "-log_trace", "-petsc_sleep", "-mpi_linear_solver_server", "-prefix_push", "-prefix_pop", "-python",
                           "-log_summary", "-help", "-version", "-x_virtual", "-saws_options", "-malloc_test", "-objects_dump"})
    if (strcasecmp(word.c_str(), name) == 0) return true;
  return isEndOfRunReport(word);
}

// One option and its value (argv-style, or a line of an options file): the options whose value is a
// file PETSc opens before any handler of ours.
std::string optionValueProblem(const std::string &word, bool has_value, const std::string &value,
                               std::vector<std::string> &chain) {
  // PETSc matches option names without regard to case (-Options_File self.opts recursed to SIGSEGV).
  auto is = [&](const char *name) { return strcasecmp(word.c_str(), name) == 0; };
  if (!isVettedStartUpOption(word)) return "";
  if (is("-options_file") || is("-options_file_yaml"))
    return has_value ? optionsFileProblem(is("-options_file") ? "-options_file" : "-options_file_yaml", value, chain)
                     : word + ": no file given; accepted: a readable options file";
  if (is("-options_string_yaml")) // parsed inside PetscInitialize: a malformed one aborted there
    return word + ": YAML options; accepted: plain options on the command line or in an options file";
  if (is("-log_view")) return logViewProblem(word, value);
  if (is("-log_summary") && has_value) return writableFileProblem(word, value); // (-log_view's former name: FILE only)
  // -malloc_view FILE writes FILE_<rank>, each rank's checked by that rank.
  if (is("-malloc_view") && has_value) return writableFileProblem("-malloc_view", value + "_" + launcherRank());
  // PETSc sleeps as long as it is told (nan and inf: for ever).
  if (is("-petsc_sleep")) {
    double seconds = 0;
    return has_value && (!realProblem(value, &seconds).empty() || seconds < 0)
               ? word + ": '" + value + "' is not a number of seconds; accepted: a finite number >= 0"
               : "";
  }
  // Rank 1 and up become PETSc's solver server and leave the lab's collectives (a 2-rank run exited 1).
  if (is("-mpi_linear_solver_server"))
    return word + ": the labs' solvers run on every rank; accepted: mpiexec -n N without it";
  // PETSc runs the value as a shell command, then failed (exit 134 after the command's output).
  if (is("-python")) return word + ": the labs use no Python; accepted: the labs' options without it";
  // PETSc prefixes the names after it: the checks here, by name, would not see -prefix_push hi -story F.
  if (is("-prefix_push") || is("-prefix_pop"))
    return word + ": prefixes the names of the options after it; accepted: each option by its full name";
  if (is("-history")) { // without a value ~/.petschistory (in a missing $HOME: SIGSEGV)
    const char *home = std::getenv("HOME");
    if (has_value) return writableFileProblem("-history", value);
    return home && *home ? writableFileProblem("-history", std::string(home) + "/.petschistory")
                         : "-history: no file given, and no HOME for PETSc's ~/.petschistory; accepted: -history FILE";
  }
  // -log_trace FILE writes FILE.<rank> (each rank's checked by that rank; a directory FILE itself is no obstacle).
  if (is("-log_trace") && has_value) return writableFileProblem("-log_trace", value + "." + launcherRank());
  // The end-of-run reports: PetscFinalize refused a value after the run (-options_left foo: a traceback
  // after the results, exit 0; -citations into a missing directory, the same).
  if (is("-citations")) return has_value ? writableFileProblem("-citations", value) : "";
  if (isEndOfRunReport(word)) return has_value && !petscTruthValue(value) ? notTruthValue(word, value) : "";
  // PETSc 3.18 printed the help for -help false, and ran past -version foo.
  if (is("-help") && has_value && strcasecmp(value.c_str(), "intro") != 0 && !petscTruthValue(value).value_or(false))
    return word + ": '" + value + "' is not accepted; accepted: -help, -help intro (the introduction only), or no -help";
  // PETSc reads -objects_dump's value by its first letter ('a': every object, else those left undestroyed):
  // -objects_dump false dumped.
  if (is("-objects_dump") && has_value && strcasecmp(value.c_str(), "all") != 0)
    return word + ": '" + value + "' is not accepted; accepted: -objects_dump (the PETSc objects left at the end) or -objects_dump all";
  // Flags PETSc acts on, when true, in ways a lab cannot have: PetscSetDisplay ran `pkill -9 Xvfb` (every
  // user's, an xvfb-run beside the lab's included), slept 6 s and started its own Xvfb on :15; without
  // SAWs, PETSc asked for every option's value on stdin (from /dev/null: a refusal of a garbage value).
  // An optimized PETSc (Debian's) takes -malloc_test and checks nothing.
  static const std::pair<const char *, const char *> refused_flags[] = {
      {"-x_virtual", "PETSc would kill every Xvfb on the machine (pkill -9 Xvfb) to start its own; accepted: a run under xvfb-run -a"},
      {"-saws_options", "PETSc would ask for every option's value on the terminal (this PETSc has no SAWs); accepted: the "
                        "options on the command line or in an options file"},
      {"-malloc_test", "does nothing in this PETSc (an optimized build); accepted: -malloc_dump, which lists what the run left "
                       "allocated at its end"}};
  for (const auto &[name, why] : refused_flags)
    if (is(name) && !(PetscDefined(USE_DEBUG) && is("-malloc_test"))) {
      if (has_value && !petscTruthValue(value)) return notTruthValue(word, value);
      return has_value && !*petscTruthValue(value) ? "" : word + ": " + why;
    }
  if (is("-version") && has_value) return word + ": takes no value ('" + value + "'); accepted: -version alone";
  return "";
}

std::string nestedOptionProblem(const std::string &line, std::vector<std::string> &chain) {
  const std::vector<std::string> words = optionWords(line, true);
  if (words.empty() || strcasecmp(words[0].c_str(), "alias") == 0) return "";
  return optionValueProblem(words[0], words.size() > 1, words.size() > 1 ? words[1] : "", chain);
}

// The program's name, its arguments and PETSc's option variables: what every rank must be given alike.
std::string commandLineText(int argc, char **argv) {
  std::string text = argc > 0 ? argv[0] : "";
  const size_t slash = text.rfind('/');
  if (slash != std::string::npos) text = text.substr(slash + 1); // ./midpoint and build/labs/midpoint agree
  for (int i = 1; i < argc; ++i) text += std::string(" ") + argv[i];
  for (const char *var : {"PETSC_OPTIONS", "PETSC_OPTIONS_YAML"})
    if (const char *value = std::getenv(var)) text += std::string(" [") + var + "=" + value + "]";
  return text;
}

// Where the ranks of MPI_COMM_WORLD hold different texts: the first rank whose `mine` differs from rank
// 0's, with both texts, alike on every rank; nothing when all agree. Collective: every rank calls it.
struct Disagreement {
  int rank;
  std::string first, other; // rank 0's text and that rank's
};
std::optional<Disagreement> firstDisagreement(const std::string &mine) {
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size == 1) return std::nullopt;
  auto fromRank = [&](int root) {
    int length = int(mine.size());
    MPI_Bcast(&length, 1, MPI_INT, root, MPI_COMM_WORLD);
    std::string text = rank == root ? mine : std::string(size_t(length), '\0');
    MPI_Bcast(text.data(), length, MPI_CHAR, root, MPI_COMM_WORLD);
    return text;
  };
  std::string first_text = fromRank(0);
  const int mine_differs = first_text != mine ? rank : size;
  int differing = size;
  MPI_Allreduce(&mine_differs, &differing, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (differing == size) return std::nullopt;
  return Disagreement{differing, std::move(first_text), fromRank(differing)};
}

// "" when every rank of MPI_COMM_WORLD has the same text; otherwise the refusal, quoting rank 0's and the
// first differing rank's. Per-rank command lines (MPMD: mpiexec -n 1 lab A : -n 1 lab B) that differ only in
// valid values passed every check of a value and then hung (-T, -dt, -snapshot_every on one rank), gave
// mixed physics with exit 0 (-E, -my), or crashed in PETSc (-options_file on one rank); comparing the text
// itself, before PETSc reads it, catches them all. Collective: every rank calls it.
std::string ranksDisagree(const std::string &given) {
  // The program by its bytes, not its name: another lab copied to the same name, or two builds of one
  // lab (build/, build-asan/), passed the name's check and hung (a few ms for a release binary).
  std::string mine = given;
  std::ifstream exe("/proc/self/exe", std::ios::binary);
  if (exe) {
    std::uint64_t h = 0xcbf29ce484222325ULL;
    std::vector<char> chunk(1 << 16);
    while (exe.read(chunk.data(), std::streamsize(chunk.size())) || exe.gcount() > 0)
      h = fnv1a(chunk.data(), std::size_t(exe.gcount()), h);
    char hex[24];
    std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(h));
    mine += std::string(" [program ") + hex + "]";
  }
  const auto d = firstDisagreement(mine);
  if (!d) return "";
  return "the command line differs between MPI ranks (rank 0: '" + d->first + "'; rank " + std::to_string(d->rank) +
         ": '" + d->other + "'); accepted: the same program, options and PETSC_OPTIONS on every rank";
}

// "" when every rank read the same options files (by name and content), else the refusal. The same
// command line can read different ones (an options file by a relative path, or a ./.petscrc, from
// per-rank working directories), and PETSc reads rank 0's alone: rank 1's -T 0.2 ran as rank 0's 0.1
// (ten steps, exit 0), an option in rank 1's file only was ignored. Collective.
std::string optionsFilesDisagree() {
  std::string mine;
  for (auto [path, hash] : g_options_files_read) { // (a path's tab or newline would split its entry)
    std::replace_if(path.begin(), path.end(), [](char c) { return c == '\t' || c == '\n'; }, '?');
    mine += path + "\t" + std::to_string(hash) + "\n";
  }
  const auto d = firstDisagreement(mine);
  if (!d) return "";
  auto entries = [](const std::string &text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) out.push_back(line);
    return out;
  };
  const std::vector<std::string> first = entries(d->first), other = entries(d->other);
  size_t i = 0;
  while (i < first.size() && i < other.size() && first[i] == other[i]) ++i;
  auto path = [](const std::vector<std::string> &list, size_t k) {
    return k < list.size() ? list[k].substr(0, list[k].find('\t')) : std::string();
  };
  const std::string rank = "rank " + std::to_string(d->rank);
  const std::string what =
      path(first, i) == path(other, i)
          ? "the options file '" + path(first, i) + "' has another content on " + rank + " than on rank 0"
          : "rank 0 read the options file " + (path(first, i).empty() ? "none" : "'" + path(first, i) + "'") + " where " +
                rank + " read " + (path(other, i).empty() ? "none" : "'" + path(other, i) + "'");
  return what + " (PETSc takes rank 0's files for every rank); accepted: the same options files, alike, on every rank";
}

} // namespace

const std::vector<std::string> *givenOptionWords() { return g_given_words_built ? &g_given_words : nullptr; }

std::string commandLineProblem(int argc, char **argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string word = argv[i];
    if (!isOptionName(argv[i]))
      return "stray argument '" + word + "'; accepted: options, each -name or -name value";
    const bool has_value = i + 1 < argc && !isOptionName(argv[i + 1]);
    const std::string value = has_value ? argv[i + 1] : "";
    if (value.size() > size_t(PETSC_MAX_PATH_LEN - 1))
      return word + ": the value has " + std::to_string(value.size()) + " characters; accepted: at most " +
             std::to_string(PETSC_MAX_PATH_LEN - 1);
    std::vector<std::string> chain;
    const std::string problem = optionValueProblem(word, has_value, value, chain);
    if (!problem.empty()) return problem;
    if (has_value) ++i;
  }
  return "";
}

std::string environmentOptionsProblem(bool skip_rc) {
  // PETSC_OPTIONS is read as a command line; PETSc also reads ~/.petscrc, ./.petscrc and ./petscrc
  // unless -skip_petscrc is given (a malformed one aborted with PETSc's traceback).
  if (const char *yaml = std::getenv("PETSC_OPTIONS_YAML"); yaml && *yaml)
    return "PETSC_OPTIONS_YAML is set; accepted: plain options in PETSC_OPTIONS or an options file";
  if (const char *env = std::getenv("PETSC_OPTIONS")) {
    std::vector<std::string> words{"lab"};
    for (const auto &w : optionWords(env, true, false)) words.push_back(w);
    std::vector<char *> args;
    for (auto &w : words) args.push_back(w.data());
    const std::string problem = commandLineProblem(int(args.size()), args.data());
    if (!problem.empty()) return "PETSC_OPTIONS: " + problem;
  }
  for (const auto &rc : petscrcFiles()) {
    struct stat st {};
    if (skip_rc) break;
    // PETSc reads them only if they are there to read (a directory ./petscrc is passed over); a FIFO
    // it opens and waits on for ever.
    if (stat(rc.c_str(), &st) != 0 || S_ISDIR(st.st_mode)) continue;
    if (!S_ISREG(st.st_mode))
      return "PETSc's options file '" + rc + "' is not a regular file (PETSc would wait on it); accepted: a regular file, or -skip_petscrc";
    if (access(rc.c_str(), R_OK) != 0) continue;
    std::vector<std::string> chain;
    const std::string problem = optionsFileProblem("PETSc's options file", rc, chain);
    if (!problem.empty()) return problem + " (PETSc reads it at start; give -skip_petscrc to leave it)";
  }
  return "";
}

std::string lastPetscMessage(bool clear) {
  std::string m = g_last_message;
  if (clear) g_last_message.clear();
  return m;
}

void throwPetscError(PetscErrorCode code, const char *expr, const char *file, int line) {
  std::string msg = g_last_message;
  if (msg.empty()) {
    const char *text = nullptr;
    PetscErrorMessage(code, &text, nullptr);
    msg = text ? text : "PETSc error";
  }
  g_last_message.clear();
  (void)expr;
  (void)file;
  (void)line;
  // A bad value in the options database (-ms_ksp_type nope: an unknown type; -ms_ksp_pc_side nope: an
  // unknown enum value, which PETSc reports as PETSC_ERR_USER; PETSc's message names the option and,
  // for enums, the accepted values) is bad input, exit 2, like every other refused option. Other errors
  // from PETSc calls are failures of the run unless a caller reclassifies them.
  if (code == PETSC_ERR_ARG_UNKNOWN_TYPE || code == PETSC_ERR_USER) throw inputError(msg);
  throw runError(msg);
}

bool isArgumentError(PetscErrorCode code) {
  switch (code) {
  case PETSC_ERR_SUP:
  case PETSC_ERR_ARG_WRONG:
  case PETSC_ERR_ARG_OUTOFRANGE:
  case PETSC_ERR_ARG_INCOMP:
  case PETSC_ERR_ARG_WRONGSTATE:
  case PETSC_ERR_ARG_UNKNOWN_TYPE:
  case PETSC_ERR_ARG_TYPENOTSET:
  case PETSC_ERR_USER:
  case PETSC_ERR_USER_INPUT:
  case PETSC_ERR_MISSING_FACTOR:
    return true;
  default:
    return false;
  }
}

PetscErrorCode registerLogEvent(const char *name, PetscLogEvent *event) {
  PetscFunctionBeginUser;
  if (*event < 0) {
    PetscClassId id;
    PetscCall(PetscClassIdRegister("Beam", &id));
    PetscCall(PetscLogEventRegister(name, id, event));
  }
  PetscFunctionReturn(0);
}


UnwindWatch::UnwindWatch(PetscObject obj) {
  if (!g_watchdog || std::uncaught_exceptions() == 0) return;
  PetscMPIInt size = 1;
  MPI_Comm_size(PetscObjectComm(obj), &size);
  if (size < 2) return;
  g_watchdog->arm(kUnwindDestroySeconds);
  armed_ = true;
}

UnwindWatch::~UnwindWatch() {
  if (armed_) g_watchdog->disarm();
}

PVec duplicate(Vec like) {
  // A large vector's like (LargeVector.hpp): same layout, its own mapping. The ranks must agree on the
  // branch: createVectorMPI sets up a layout (an MPI_Allgather) where VecDuplicate shares like's, and a
  // rank may hold a large part where another does not (an uneven partition, or BEAM_HUGE_PAGES=0 in one
  // rank's environment): that mismatch hung two ranks. createVectorMPI itself decides per rank, with the
  // same collective calls on both of its branches.
  int mine = onLargePages(like) ? 1 : 0, any = 0;
  MPI_Allreduce(&mine, &any, 1, MPI_INT, MPI_MAX, PetscObjectComm(PetscObject(like)));
  if (any) {
    PetscInt n, N;
    BEAM_PETSC(VecGetLocalSize(like, &n));
    BEAM_PETSC(VecGetSize(like, &N));
    return createVectorMPI(PetscObjectComm(PetscObject(like)), n, N);
  }
  PVec v;
  BEAM_PETSC(VecDuplicate(like, v.out()));
  return v;
}

double multDot(Mat A, Vec x, Vec y) {
  MultDotFunction fused = nullptr;
  BEAM_PETSC(PetscObjectQueryFunction(PetscObject(A), kMultDotFunction, &fused));
  if (fused) {
    PetscReal d = 0;
    BEAM_PETSC(fused(A, x, y, &d));
    return d;
  }
  BEAM_PETSC(MatMult(A, x, y));
  PetscScalar d;
  BEAM_PETSC(VecDot(x, y, &d));
  return PetscRealPart(d);
}

double quadraticForm(Mat A, Vec x, Vec work) {
  QuadraticFormFunction form = nullptr;
  BEAM_PETSC(PetscObjectQueryFunction(PetscObject(A), kQuadraticFormFunction, &form));
  if (!form) return multDot(A, x, work);
  PetscReal value = 0;
  BEAM_PETSC(form(A, x, &value));
  return value;
}

void multAffine(Mat A, Vec x, double alpha, double beta, Vec v, Vec y) {
  MultAffineFunction fused = nullptr;
  BEAM_PETSC(PetscObjectQueryFunction(PetscObject(A), kMultAffineFunction, &fused));
  if (fused) {
    BEAM_PETSC(fused(A, x, alpha, beta, v, y));
    return;
  }
  BEAM_PETSC(MatMult(A, x, y));
  BEAM_PETSC(VecAXPBY(y, alpha, beta, v));
}

namespace {

// Runs `start` with stderr (descriptor 2) going to a temporary file, and returns what was written there.
std::string withStderrHeld(const std::function<void()> &start) {
  std::FILE *held = std::tmpfile();
  const int saved = held ? dup(STDERR_FILENO) : -1;
  if (saved < 0) {
    if (held) std::fclose(held);
    start();
    return "";
  }
  std::fflush(stderr);
  dup2(fileno(held), STDERR_FILENO);
  setFarewellDescriptor(saved); // a signal meanwhile still gets its line
  start();
  std::fflush(stderr);
  dup2(saved, STDERR_FILENO);
  setFarewellDescriptor(STDERR_FILENO);
  close(saved);
  std::string text;
  std::rewind(held);
  char buffer[4096];
  for (size_t n; (n = std::fread(buffer, 1, sizeof buffer, held)) > 0;) text.append(buffer, n);
  std::fclose(held);
  return text;
}

// What PETSc refused as it started, read off its traceback ("[0]PETSC ERROR: Unknown logical value:
// foo"), as one line; a truth value is named by its option where the command line shows it.
std::string startRefusal(const std::string &traceback, int argc, char **argv) {
  std::vector<std::string> lines;
  std::istringstream in(traceback);
  for (std::string line; std::getline(in, line);) {
    const size_t at = line.find("PETSC ERROR: ");
    if (at != std::string::npos) lines.push_back(line.substr(at + 13));
  }
  // The message: the lines after "Error Message" up to the list of unused options or "See https://...",
  // its last line the detail after PETSc's class of the error ("Invalid argument", "Out of memory. This
  // could be due to ..." over five lines).
  std::vector<std::string> message;
  for (size_t i = 0; i < lines.size() && message.empty(); ++i)
    if (lines[i].find("Error Message") != std::string::npos)
      for (size_t j = i + 1; j < lines.size() && lines[j].rfind("See ", 0) != 0 && lines[j].rfind("WARNING! There are option", 0) != 0; ++j)
        message.push_back(lines[j]);
  std::string detail = message.empty() ? "" : message.back();
  for (size_t i = 0; i < lines.size() && detail.empty(); ++i)
    if (lines[i].find_first_not_of("- ") != std::string::npos) detail = lines[i];
  const std::string logical = "Unknown logical value: ";
  if (detail.rfind(logical, 0) == 0)
    for (int i = argc - 1; i >= 2; --i)
      if (detail.substr(logical.size()) == argv[i] && isOptionName(argv[i - 1]))
        return notTruthValue(argv[i - 1], argv[i]);
  return "PETSc refused an option it reads as it starts (from the command line, PETSC_OPTIONS, an options file or a "
         ".petscrc): " + (detail.empty() ? std::string("no message") : detail);
}

} // namespace

PetscSession::PetscSession(int *argc, char ***argv, const char *help)
    : command_line_error_(commandLineProblem(*argc, *argv)) {
  const char *slash = std::strrchr((*argv)[0], '/');
  const char *program = slash ? slash + 1 : (*argv)[0]; // (for the lines said before runMain names the lab)
  { // A signal while MPI and PETSc start (a large part of a short lab's time) gets its line too; runMain
    // installs the handlers again with the lab's name and the rank MPI gives.
    // OpenMPI's variables, or the PMI ones of other MPI launchers (MPICH).
    const char *size = std::getenv("OMPI_COMM_WORLD_SIZE");
    if (!size) size = std::getenv("PMI_SIZE");
    installFarewellHandlers(program, launcherRank() != "0" ? 1 : 0, size && std::strcmp(size, "1") != 0 ? 2 : 1);
  }
  // A refusal before PETSc starts, into a pipe whose reader quit, is exit 2 (it was SIGPIPE, 141); set
  // again after PETSc's start, which installs its own handler.
  std::signal(SIGPIPE, SIG_IGN);
  static char skip_rc_option[] = "-skip_petscrc";
  bare_args_ = {(*argv)[0], skip_rc_option, nullptr};
  bare_argv_ = bare_args_.data();
  bool skip_rc = false;
  if (command_line_error_.empty()) {
    // As PETSc reads it (PetscOptionsProcessPrecedentFlags): the last occurrence, any case, with an
    // optional truth value (-skip_petscrc false read the file that was not vetted).
    for (int i = 1; i < *argc; ++i) {
      if (strcasecmp((*argv)[i], "-skip_petscrc") != 0) continue;
      const char *value = i + 1 < *argc && !isOptionName((*argv)[i + 1]) ? (*argv)[i + 1] : nullptr;
      skip_rc = !value || petscTruthValue(value).value_or(false);
    }
    command_line_error_ = environmentOptionsProblem(skip_rc);
  }
  // MPI first, so the ranks can compare their command lines before PETSc reads them (ranksDisagree).
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (!initialized) {
    MPI_Init(argc, argv);
    owns_mpi_ = true;
  }
  const std::string disagreement = ranksDisagree(commandLineText(*argc, *argv));
  if (!disagreement.empty()) command_line_error_ = disagreement; // on every rank alike
  // The same command line can still read different files (an options file by a relative path from
  // per-rank working directories): every rank takes the first rank's refusal (naming the rank if not
  // 0), so that all or none start PETSc with it.
  try {
    agreeOnFailure(MPI_COMM_WORLD, command_line_error_, kExitBadInput);
  } catch (const Error &e) {
    command_line_error_ = e.what();
  }
  // (alike on every rank now; without a refusal each rank has read its files whole)
  if (command_line_error_.empty()) command_line_error_ = optionsFilesDisagree();
  if (command_line_error_.empty()) buildGivenWords(*argc, *argv, skip_rc);
  // A refused command line never reaches PETSc, which would abort or ignore it; nor do the variables
  // and files PETSc reads besides it.
  if (!command_line_error_.empty()) {
    unsetenv("PETSC_OPTIONS");
    unsetenv("PETSC_OPTIONS_YAML");
  }
  // What PETSc refuses among the options it reads as it starts (a flag with a value that is no truth
  // value, -info into a missing directory, a prefix popped but never pushed, more than 512 options) it
  // meets inside PetscInitialize, before any handler of ours: its traceback, and the lab aborted (exit
  // 134). Its error output is held back while it starts; a failure ends every rank with one line, exit 2.
  int world_rank = 0, world_size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &world_size);
  MPI_Comm start = MPI_COMM_NULL; // the ranks' meeting after PETSc's start, on a communicator of its own
  if (world_size > 1) MPI_Comm_dup(MPI_COMM_WORLD, &start);
  PetscErrorCode ierr = 0;
  const std::string held = withStderrHeld([&] {
    ierr = command_line_error_.empty() ? PetscInitialize(argc, argv, nullptr, help)
                                       : PetscInitialize(&bare_argc_, &bare_argv_, nullptr, help);
  });
  if (start != MPI_COMM_NULL) {
    // PETSc failing on some ranks only (a file only they cannot open) holds the others in its own start
    // (an MPI_Barrier): a failed rank that the others do not meet within seconds ends the job itself.
    if (!allRanksArrive(start, ierr ? 5.0 : HUGE_VAL)) {
      std::fprintf(stderr, "%s: error (rank %d): %s\n", program, world_rank, startRefusal(held, *argc, *argv).c_str());
      std::fflush(stderr);
      MPI_Abort(MPI_COMM_WORLD, kExitBadInput);
    }
    MPI_Comm_free(&start);
  }
  int first_failed = ierr ? world_rank : INT_MAX;
  MPI_Allreduce(MPI_IN_PLACE, &first_failed, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (first_failed == INT_MAX) {
    if (!held.empty()) std::fwrite(held.data(), 1, held.size(), stderr); // (warnings PETSc printed as it started)
  } else {
    int started = ierr ? 0 : 1; // on some rank
    MPI_Allreduce(MPI_IN_PLACE, &started, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (world_rank == first_failed) std::fprintf(stderr, "%s: error: %s\n", program, startRefusal(held, *argc, *argv).c_str());
    if (started) MPI_Abort(MPI_COMM_WORLD, kExitBadInput); // the ranks that started cannot end alone
    if (owns_mpi_) MPI_Finalize();
    std::exit(kExitBadInput);
  }
  for (const char *name : kEndOfRunReports) { // (the query marks a given one as read)
    PetscBool given = PETSC_FALSE;
    PetscOptionsHasName(nullptr, nullptr, name, &given);
  }
  PetscBool debug = PETSC_FALSE;
  PetscOptionsHasName(nullptr, nullptr, "-debug", &debug);
  if (!debug) PetscPushErrorHandler(captureHandler, nullptr);
  MPI_Comm_rank(PETSC_COMM_WORLD, &rank_);
  MPI_Comm_size(PETSC_COMM_WORLD, &size_);
  // -help: every rank builds the same objects, so the help of those on PETSC_COMM_SELF (the stability
  // lab's one-DOF amplification systems; PETSc prints the "(one of)" lists with PetscFPrintf, not
  // PetscHelpPrintf) came from every rank, interleaved. Rank 0 says it once: under -help the other
  // ranks have nothing to print on stdout (errors go to stderr).
  // A reader of a FIFO log that quits must end the run with "cannot write ...: Broken pipe" (exit 3), not
  // with PETSc's signal handler (exit 59).
  std::signal(SIGPIPE, SIG_IGN);
  // Likewise a file-size limit (ulimit -f): the write that passes it must fail with "File too large"
  // (exit 3, the files already written valid), not end the process by SIGXFSZ with a core dump.
  std::signal(SIGXFSZ, SIG_IGN);
  PetscBool help_requested = PETSC_FALSE;
  PetscOptionsHasHelp(nullptr, &help_requested);
  if (help_requested && rank_ != 0 && !std::freopen("/dev/null", "w", stdout)) std::fclose(stdout);
  MPI_Comm_dup(PETSC_COMM_WORLD, &arrival_);
  if (size_ > 1) {
    watchdog_ = std::make_unique<Watchdog>(rank_);
    g_watchdog = watchdog_.get();
  }
}

PetscSession::~PetscSession() {
  g_watchdog = nullptr;
  watchdog_.reset();
  if (arrival_ != MPI_COMM_NULL) MPI_Comm_free(&arrival_);
  PetscPopErrorHandler(); // frees the capturing handler (no-op with -debug, where none was pushed)
  PetscFinalize();
  if (owns_mpi_) MPI_Finalize(); // PETSc finalizes only an MPI it initialized itself
}

namespace {

// The write error of `fp` once flushed (0 if none), for a file, not the screen. `errno_written` is errno
// after the writes (set to 0 before them): a write that failed inside the buffered calls left its error
// there (ENOSPC), where the flush finds only the stream's error flag.
int flushError(FILE *fp, int errno_written) {
  if (!fp || fp == PETSC_STDOUT || fp == PETSC_STDERR) return 0;
  const bool flushed = std::fflush(fp) == 0;
  if (flushed && !std::ferror(fp)) return 0;
  return !flushed && errno ? errno : errno_written ? errno_written : EIO;
}

// Rank 0's write error `err` of `option`'s `file`, told to every rank: "" or the one line that says so.
std::string lostReport(const char *option, const std::string &file, int err) {
  MPI_Bcast(&err, 1, MPI_INT, 0, PETSC_COMM_WORLD);
  return err ? std::string(option) + ": cannot write '" + file + "': " + std::strerror(err) +
                   " (the report is lost; the run's results are written)"
             : "";
}

// The log into `viewer` as PetscFinalize writes it; "" or the write error naming `option`'s file.
std::string viewLog(PetscViewer viewer, PetscViewerFormat format, const char *option, int rank) {
  BEAM_PETSC(PetscViewerPushFormat(viewer, format));
  errno = 0;
  BEAM_PETSC(PetscLogView(viewer));
  const int errno_written = errno;
  BEAM_PETSC(PetscViewerPopFormat(viewer));
  FILE *fp = nullptr;
  const char *name = nullptr;
  BEAM_PETSC(PetscViewerASCIIGetPointer(viewer, &fp));
  BEAM_PETSC(PetscViewerFileGetName(viewer, &name));
  return lostReport(option, name ? name : "", rank == 0 ? flushError(fp, errno_written) : 0);
}

// PETSc writes -log_view's log, -log_summary's (its former name) and -citations' list in PetscFinalize,
// where a write error is lost: the log's file, cached on the communicator, is closed by an MPI attribute
// callback that drops fclose's error, and -citations' failed close ends PetscFinalize halfway, unseen
// (both exit 0 with nothing written on a full disk, /dev/full). The lab writes them itself at the end of
// its run, as PetscFinalize would (the same viewer, format and mode; the same text), checks the writes,
// and takes the options out so that PetscFinalize does not write them again. Collective; "" or the
// first write error.
std::string writeEndOfRunReports(int rank) {
  std::string problem;
  // What PetscFinalize destroys just before its log: counted as destroyed there too.
  BEAM_PETSC(PetscObjectRegisterDestroyAll());
  PetscViewer viewer = nullptr;
  PetscViewerFormat format = PETSC_VIEWER_DEFAULT;
  PetscBool given = PETSC_FALSE;
  BEAM_PETSC(PetscOptionsGetViewer(PETSC_COMM_WORLD, nullptr, nullptr, "-log_view", &viewer, &format, &given));
  if (given) {
    problem = viewLog(viewer, format, "-log_view", rank);
    BEAM_PETSC(PetscViewerDestroy(&viewer));
    BEAM_PETSC(PetscOptionsClearValue(nullptr, "-log_view"));
  }
  char name[PETSC_MAX_PATH_LEN] = "";
  BEAM_PETSC(PetscOptionsGetString(nullptr, nullptr, "-log_summary", name, sizeof name, &given));
  if (given) {
    BEAM_PETSC((*PetscHelpPrintf)(PETSC_COMM_WORLD, "\n\n WARNING:   -log_summary is being deprecated; switch to -log_view\n\n\n"));
    if (name[0]) BEAM_PETSC(PetscViewerASCIIOpen(PETSC_COMM_WORLD, name, &viewer));
    const std::string lost = viewLog(name[0] ? viewer : PETSC_VIEWER_STDOUT_WORLD, PETSC_VIEWER_DEFAULT, "-log_summary", rank);
    if (problem.empty()) problem = lost;
    if (name[0]) BEAM_PETSC(PetscViewerDestroy(&viewer));
    BEAM_PETSC(PetscOptionsClearValue(nullptr, "-log_summary"));
  }
  BEAM_PETSC(PetscOptionsHasName(nullptr, nullptr, "-citations", &given));
  if (given) {
    name[0] = 0;
    BEAM_PETSC(PetscOptionsGetString(nullptr, nullptr, "-citations", name, sizeof name, nullptr));
    FILE *fd = PETSC_STDOUT;
    if (name[0]) BEAM_PETSC(PetscFOpen(PETSC_COMM_WORLD, name, "w", &fd));
    char *cits = nullptr;
    BEAM_PETSC(PetscSegBufferGet(PetscCitationsList, 1, &cits));
    cits[0] = 0;
    BEAM_PETSC(PetscSegBufferExtractAlloc(PetscCitationsList, &cits));
    const char *rule = "===========================================================================\n";
    errno = 0;
    BEAM_PETSC(PetscFPrintf(PETSC_COMM_WORLD, fd, "If you publish results based on this computation please cite the following:\n%s%s%s", rule, cits, rule));
    const int errno_written = errno;
    BEAM_PETSC(PetscFree(cits));
    int err = 0;
    if (rank == 0 && fd != PETSC_STDOUT) {
      err = flushError(fd, errno_written);
      if (std::fclose(fd) != 0 && !err) err = errno ? errno : EIO;
    }
    const std::string lost = lostReport("-citations", name, err);
    if (problem.empty()) problem = lost;
    BEAM_PETSC(PetscOptionsClearValue(nullptr, "-citations"));
  }
  return problem;
}

// Each byte of `text` that does not belong to a well-formed UTF-8 sequence becomes '?'.
void replaceInvalidUtf8(std::string &text) {
  for (std::size_t i = 0; i < text.size();) {
    const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
    const unsigned char lead = byte(i);
    const std::size_t length = lead < 0x80 ? 1 : lead >= 0xc2 && lead <= 0xdf ? 2 : lead >= 0xe0 && lead <= 0xef ? 3
                             : lead >= 0xf0 && lead <= 0xf4 ? 4 : 0;
    bool valid = length > 0 && i + length <= text.size();
    for (std::size_t k = 1; valid && k < length; ++k) valid = (byte(i + k) & 0xc0) == 0x80;
    // (no overlong three- or four-byte forms, no UTF-16 surrogates, nothing above U+10FFFF)
    if (valid && length == 3) valid = !(lead == 0xe0 && byte(i + 1) < 0xa0) && !(lead == 0xed && byte(i + 1) >= 0xa0);
    if (valid && length == 4) valid = !(lead == 0xf0 && byte(i + 1) < 0x90) && !(lead == 0xf4 && byte(i + 1) >= 0x90);
    if (!valid) {
      text[i++] = '?';
      continue;
    }
    i += length;
  }
}

// Reports a failed run's `message` as one line (see runMain) and returns its exit code.
int reportFailure(const PetscSession &session, const char *program, int code, std::string message) {
  // One printable line: newlines (PETSc's multi-line messages), NUL bytes and control characters quoted
  // from a bad file become spaces, and a huge quoted line is cut in its middle: the end says what is
  // wrong and what is accepted (a 4000-character path hid the reason).
  for (char &c : message)
    if ((unsigned char)c < 0x20 || c == 0x7f) c = ' ';
  if (message.size() > 600) message = message.substr(0, 300) + " ... " + message.substr(message.size() - 295);
  replaceInvalidUtf8(message); // (bytes quoted from a file, or a character the cut split: never a raw byte)
  // Most errors are collective (options and files are agreed on by agreeOn, energy checks are
  // the same on every rank): every rank arrives here, rank 0 reports, and all finish normally. An error
  // on some ranks only would leave the others waiting in a collective call: if the others do not arrive
  // within a few seconds, this rank reports and ends the whole job. The check runs on its own
  // communicator: on PETSC_COMM_WORLD its barrier would be matched against the collective the healthy
  // ranks are waiting in (a mismatched collective, which hangs OpenMPI instead of failing).
  if (session.size() > 1 && !allRanksArrive(session.arrivalComm(), 5.0)) {
    std::fprintf(stderr, "%s: error (rank %d): %s\n", program, session.rank(), message.c_str());
    std::fflush(stderr);
    MPI_Abort(PETSC_COMM_WORLD, code);
  }
  if (session.rank() == 0) std::fprintf(stderr, "%s: error: %s\n", program, message.c_str());
  // A refused run leaves nothing of what PETSc does at its end either: the options it acts on in
  // PetscFinalize are dropped (-citations FILE overwrote FILE, -options_left foo printed a traceback after
  // the error line, -log_view wrote a log of the refusal).
  if (code == kExitBadInput) PetscOptionsClear(nullptr);
  // Nor the directories and lock files it made.
  if (code == kExitBadInput) removeWhatTheRunMade(session.size() > 1 ? session.arrivalComm() : MPI_COMM_SELF);
  return code;
}

} // namespace

int runMain(const PetscSession &session, const char *program, const std::function<int()> &body) {
  g_program = program;
  installFarewellHandlers(program, session.rank(), session.size());
  int code = kExitOk;
  std::string message;
  holdWarnings(); // until the run starts (RunStart), or its end: a refused run prints its error line alone
  try {
    // The first collective of every rank: a command line refused on some ranks only ends all of them here.
    agreeOn(PETSC_COMM_WORLD, [&] {
      if (!session.commandLineError().empty()) throw inputError(session.commandLineError());
      if (!helpRequested()) checkSolverOptionValues(); // before a solver reads one (4294967296 was read as 0)
    });
    code = body();
  } catch (const Error &e) {
    code = e.exitCode();
    message = e.what();
  } catch (const std::bad_alloc &) {
    code = kExitRunFailed;
    message = "out of memory";
  } catch (const std::exception &e) {
    code = kExitRunFailed;
    message = e.what();
  }
  if (code == kExitBadInput || helpRequested()) dropWarnings(); // (-help: no run to warn of)
  releaseWarnings(); // (a failed run's before its error line)
  if (!message.empty()) {
    code = reportFailure(session, program, code, message);
    if (code == kExitBadInput) return code;
  }
  // (every rank here: the reports are written collectively)
  std::string lost;
  try {
    lost = writeEndOfRunReports(session.rank());
  } catch (const Error &e) {
    lost = e.what();
  }
  if (!lost.empty()) code = reportFailure(session, program, code == kExitOk ? kExitRunFailed : code, lost);
  return code;
}

} // namespace beam
