#include "output/PlotScript.hpp"

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "common/Error.hpp"
#include "common/StopSignal.hpp"

namespace beam {
namespace {

// Runs the script and turns what can go wrong into an exit status and one line: matplotlib missing
// (10: the chart is skipped), an interrupt (130), any other failure (11, its line in the file argv[1]).
// Without it a PNG that could not be written (a dangling link, a full disk) printed Python's traceback
// and "is python3-matplotlib installed?", and the lab exited 0. Run isolated (-I: no user site, no
// PYTHON* variables, no current directory on the path: a csv.py there was imported), with the script's
// own directory on the path as `python3 script` has it.
const char *const kBootstrap = R"(
import os, runpy, sys, warnings
report, sys.argv = sys.argv[1], sys.argv[2:]
warnings.simplefilter("ignore")  # numpy's overflow warnings on a diverged run's values: stderr keeps one line
def fail(line):
    with open(report, "w") as f:
        f.write(" ".join(str(line).split()))
    sys.exit(11)
try:
    import matplotlib
except ImportError:
    sys.exit(10)
sys.path.insert(0, os.path.dirname(os.path.abspath(sys.argv[0])))
class Out:  # the script's stdout: its one line may be lost (lab | head, > /dev/full, >&-), its chart not;
    def __init__(self, out):  # a failed print was taken for a failed chart (exit status 120 at Python's
        self.out = out  # exit), and a full disk's OSError for a lost stdout (charts missing, exit 0)
    def write(self, text):
        try:
            self.out.write(text)
            self.out.flush()
        except (AttributeError, OSError, ValueError):  # (None when fd 1 is closed)
            self.lost()
        return len(text)
    def flush(self):
        try:
            self.out.flush()
        except (AttributeError, OSError, ValueError):
            self.lost()
    def lost(self):  # Python's own flush at exit then writes the rest to /dev/null
        if self.out is not None:
            self.out = None
            try:
                os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
            except OSError:
                pass
    def isatty(self):
        return False
if sys.stdout is None:  # fd 1 closed: taken by /dev/null first, so that no file the script opens gets it
    os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
sys.stdout = Out(sys.stdout)
try:
    runpy.run_path(sys.argv[0], run_name="__main__")
except KeyboardInterrupt:
    sys.exit(130)
except SystemExit as e:
    if e.code not in (None, 0):
        fail(e.code if isinstance(e.code, str) else f"exit status {e.code}")
except BaseException as e:
    fail(f"cannot write '{e.filename}': {e.strerror}" if isinstance(e, OSError) and e.filename else f"{type(e).__name__}: {e}")
)";

} // namespace

void runPlotScript(const std::string &script, const std::vector<std::string> &arguments) {
  const std::string path = BEAM_SCRIPTS_DIR "/" + script;
  const char *python = "/usr/bin/python3";
  if (!std::filesystem::exists(python) || !std::filesystem::exists(path)) {
    std::printf("plot skipped: %s or %s not found\n", python, path.c_str());
    return;
  }
  // The failure's line comes back through a file of our own (mkstemp: not a name another user could plant).
  std::error_code ec;
  std::string report = (std::filesystem::temp_directory_path(ec) / "beam_plot_XXXXXX").string();
  const int fd = ::mkstemp(report.data());
  if (fd >= 0) ::close(fd);
  else report = "/dev/null";
  std::vector<std::string> words = {python, "-I", "-c", kBootstrap, report, path};
  words.insert(words.end(), arguments.begin(), arguments.end());
  std::vector<char *> argv;
  for (std::string &w : words) argv.push_back(w.data());
  argv.push_back(nullptr);
  std::fflush(stdout); // keep our lines before the script's
  // Spawned and waited for, not std::system: system() ignores SIGINT in the lab while the script runs, so
  // a SIGINT sent to the lab alone (pkill -INT, as the README advises for mpiexec) was lost.
  // A signal while it draws is recorded (StopHandlers): the script finishes or is interrupted with the
  // lab (Ctrl-C reaches both), then the lab stops with the line below.
  pid_t pid = 0;
  int status = 0, signalled = 0;
  int code = -1;
  {
    const StopHandlers stop_handlers;
    const int earlier = stopReceived(); // a lab's sweep stopped by a signal still draws what it ran
    if (::posix_spawn(&pid, python, nullptr, nullptr, argv.data(), environ) == 0) {
      int waited;
      while ((waited = ::waitpid(pid, &status, 0)) < 0 && errno == EINTR) {
      }
      if (waited == pid) code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    }
    if (stopReceived() != earlier) signalled = stopReceived();
  }
  std::ostringstream why;
  if (code == 11) why << std::ifstream(report).rdbuf();
  if (fd >= 0) std::filesystem::remove(report, ec);
  if (signalled && code == 0)
    throw Error(128 + signalled, "stopped by signal " + std::to_string(signalled) + " while drawing the chart (" + script +
                                     "); the CSV files and the chart are written");
  if (code == 0) return;
  if (code == 10 && !signalled) {
    std::printf("plot skipped: python3-matplotlib is not installed (the CSV files are written)\n");
    return;
  }
  if (code == 130 || signalled) // the bootstrap's KeyboardInterrupt, or python3 killed by SIGINT
    throw Error(128 + (signalled ? signalled : SIGINT),
                "interrupted while drawing the chart (" + script + "); the CSV files are written");
  throw runError("the chart (" + script + ") failed: " + (code == 11 ? why.str() : "exit status " + std::to_string(code)) +
                 "; the CSV files are written");
}

} // namespace beam
