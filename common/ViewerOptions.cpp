#include "common/ViewerOptions.hpp"

#include <petscksp.h>
#include <petscviewer.h>
#include <netinet/in.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <regex>
#include <tuple>

#include "common/Options.hpp"
#include "common/OutputFile.hpp"

namespace beam {
namespace {

// A viewer as PetscOptionsGetViewer reads its value: TYPE[:FILE[:FORMAT[:MODE]]], no type being ascii.
struct Viewer {
  std::string type;   // as given (PETSc's types are lower case, matched exactly)
  std::string file;   // draw: its draw type (x, tikz, image); "" for none
  std::string format; // PETSc's own name (PetscViewerFormats: DEFAULT, ASCII_INFO_DETAIL); "" if unknown
  std::string mode;   // the file mode as given ("" for none)
};

Viewer viewerOf(const std::string &value) {
  std::vector<std::string> fields = viewerFields(value);
  fields.resize(4);
  Viewer v{fields[0].empty() ? "ascii" : fields[0], fields[1], "DEFAULT", fields[3]};
  if (!fields[2].empty()) {
    v.format.clear();
    // PetscViewerFormats: the names, then the enum's name, its prefix and a null (PetscEnumFind's list).
    for (int i = 0; PetscViewerFormats[i] && std::string(PetscViewerFormats[i]) != "PetscViewerFormat"; ++i)
      if (strcasecmp(PetscViewerFormats[i], fields[2].c_str()) == 0) v.format = PetscViewerFormats[i];
  }
  return v;
}

// PETSc 3.18's KSP monitor options and the names KSPSetFromOptions registers them under.
std::optional<std::string> kspMonitorName(const std::string &tail) {
  static const std::pair<const char *, const char *> names[] = {
      {"ksp_monitor", "preconditioned_residual"},       {"ksp_monitor_short", "preconditioned_residual_short"},
      {"ksp_monitor_range", "preconditioned_residual_range"}, {"ksp_monitor_true_residual", "true_residual"},
      {"ksp_monitor_max", "true_residual_max"},         {"ksp_monitor_solution", "solution"},
      {"ksp_monitor_singular_value", "singular_value"}, {"ksp_monitor_error", "error"}};
  for (const auto &[option, name] : names)
    if (tail == option) return std::string(name);
  return std::nullopt;
}

bool kspMonitorExists(const std::string &monitor, const std::string &type, const std::string &format) {
  PetscErrorCode (*found)(KSP, PetscInt, PetscReal, void *) = nullptr;
  if (KSPInitializePackage()) return true; // (then PETSc says what is wrong itself)
  const std::string key = monitor + ":" + type + ":" + format; // KSPMonitorMakeKey_Internal's key
  PetscFunctionListFind(KSPMonitorList, key.c_str(), &found);
  return found != nullptr;
}

// "" for a file mode PETSc's viewers take (PetscFileModes, any case) or none; otherwise the refusal.
std::string fileModeProblem(const std::string &option, const std::string &mode) {
  const std::string lower = lowerCase(mode);
  if (lower.empty() || lower == "write" || lower == "append" || lower == "update" || lower == "append_update") return "";
  return option + ": unknown file mode '" + mode + "'; accepted: write, append, update, append_update";
}

// Whether the X server DISPLAY names ([host]:N[.S]) takes a connection, as XOpenDisplay would reach it:
// with no host (or unix) its local socket /tmp/.X11-unix/XN (Linux's abstract one first), with
// localhost TCP port 6000 + N. Another host is not tried (an unreachable one would hold the run up).
bool xServerAnswers(const std::string &display) {
  const size_t colon = display.rfind(':');
  if (colon == std::string::npos) return false; // not X's syntax
  const std::string host = display.substr(0, colon);
  const std::string number = display.substr(colon + 1, display.find('.', colon) - colon - 1);
  if (number.empty() || number.size() > 4 || number.find_first_not_of("0123456789") != std::string::npos) return false;
  auto connects = [](int family, const sockaddr *address, socklen_t length) {
    const int fd = socket(family, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return true; // cannot tell
    const bool answered = connect(fd, address, length) == 0;
    close(fd);
    return answered;
  };
  if (host.empty() || host == "unix") {
    const std::string path = "/tmp/.X11-unix/X" + number;
    for (const size_t abstract : {1, 0}) { // an abstract name starts with a NUL
      sockaddr_un address{};
      address.sun_family = AF_UNIX;
      std::memcpy(address.sun_path + abstract, path.data(), path.size());
      const auto length = static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + abstract + path.size());
      if (connects(AF_UNIX, reinterpret_cast<const sockaddr *>(&address), length)) return true;
    }
    return false;
  }
  if (host == "localhost" || host == "127.0.0.1") {
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(static_cast<uint16_t>(6000 + std::stoi(number)));
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    return connects(AF_INET, reinterpret_cast<const sockaddr *>(&address), sizeof address);
  }
  return true;
}

// "" when PETSc can open an X window; otherwise why not and what is accepted, to follow an option's name.
// PETSc's display (PetscSetDisplay): -display's value, else DISPLAY, else :0.0. An empty -display reaches
// XOpenDisplay as "": it drew in some runs under xvfb-run and failed in others (PETSc's "Unable to open
// display on", exit 59, under ctest), so it is refused.
std::string xDisplayProblem(const std::vector<std::pair<std::string, std::string>> &options) {
  std::optional<std::string> option;
  for (const auto &[name, value] : options)
    if (strcasecmp(name.c_str(), "-display") == 0) option = value;
  const std::string accepted = "; accepted: an ASCII viewer, draw:image or draw:tikz, or a run under X (xvfb-run)";
  if (option && option->empty())
    return ": draws in an X window, and -display is empty; accepted: -display [HOST]:N, no -display (DISPLAY is used), "
           "an ASCII viewer, draw:image or draw:tikz";
  const char *variable = std::getenv("DISPLAY");
  const std::string display = option ? *option : variable ? variable : ":0.0";
  if (xServerAnswers(display)) return "";
  const std::string why = !option && !variable ? std::string("DISPLAY is not set") // (nor does :0.0 answer)
                          : !display.empty()     ? "no X server answers at '" + display + "'"
                                                 : std::string("DISPLAY is empty");
  return ": draws in an X window, and " + why + accepted;
}

bool truthy(const std::string &value) { return value.empty() || petscTruthValue(value).value_or(false); }

} // namespace

std::vector<std::string> viewerFields(const std::string &value) {
  std::vector<std::string> fields{""};
  for (const char c : value) {
    if (c == ':') fields.emplace_back();
    else fields.back() += c;
  }
  return fields;
}

// -log_view [ascii]:FILE[:FORMAT[:MODE]] (PETSc 3.18's viewer syntax, PetscOptionsGetViewer): another
// type (-log_view foo, stdout, binary:f, draw), a file it cannot write (ascii:/proc/x hung a 2-rank run in
// PetscFinalize) or an unknown format failed after the run with PETSc's traceback, exit 0, the log lost.
std::string logViewProblem(const std::string &option, const std::string &value) {
  // The formats PetscLogView writes (any case).
  const std::vector<std::string> formats = {"ascii_info", "ascii_info_detail", "ascii_xml", "ascii_flamegraph", "ascii_csv", "default"};
  const std::vector<std::string> fields = viewerFields(value);
  const std::string syntax = "; accepted: " + option + " [ascii]:FILE[:FORMAT[:MODE]] (no FILE: the screen)";
  if (fields.size() > 4 || (fields[0] != "" && fields[0] != "ascii"))
    return option + ": '" + value + "' is not an ASCII viewer" + syntax;
  if (fields.size() > 1 && !fields[1].empty()) {
    const std::string problem = writableFileProblem(option, fields[1]);
    if (!problem.empty()) return problem;
  }
  if (fields.size() > 2 && !fields[2].empty() &&
      std::none_of(formats.begin(), formats.end(), [&](const std::string &f) { return strcasecmp(f.c_str(), fields[2].c_str()) == 0; })) {
    std::string accepted;
    for (const std::string &f : formats) accepted += (accepted.empty() ? "" : ", ") + f;
    return option + ": unknown format '" + fields[2] + "'; accepted: " + accepted;
  }
  return fields.size() > 3 ? fileModeProblem(option, fields[3]) : "";
}

std::string solverReportProblem(const std::string &name, const std::string &value,
                                const std::vector<std::pair<std::string, std::string>> &options) {
  const std::string lower = lowerCase(name);
  auto endsWith = [&](const std::string &tail) {
    return lower.size() > tail.size() && lower.compare(lower.size() - tail.size(), tail.size(), tail) == 0 &&
           (lower[lower.size() - tail.size() - 1] == '_' || lower[lower.size() - tail.size() - 1] == '-');
  };
  // The option of the same solver with `tail` replaced (-ms_snes_fd -> -ms_snes_mf).
  auto sibling = [&](const std::string &tail, const std::string &other) {
    return lower.substr(0, lower.size() - tail.size()) + other;
  };
  // Options PETSc's Newton cannot serve on the labs' models (no DM with fields or a grid hierarchy):
  // each crashed or failed in PETSc's words.
  if (endsWith("snes_fd_color") && truthy(value))
    return name + ": a coloured finite-difference Jacobian needs PETSc's DM coloring (it crashed: a segmentation fault); "
                  "accepted: the exact Jacobian (without it), " + sibling("snes_fd_color", "snes_fd") + " (uncoloured) or " +
           sibling("snes_fd_color", "snes_mf") + " for a matrix-free one";
  if (endsWith("snes_monitor_fields"))
    return name + ": monitors the fields of a DM, which the labs' models have not (it crashed: a segmentation fault); "
                  "accepted: " + sibling("snes_monitor_fields", "snes_monitor");
  if (endsWith("snes_monitor_python"))
    return name + ": runs a Python monitor; the labs use no Python; accepted: " + sibling("snes_monitor_python", "snes_monitor");
  if (endsWith("snes_grid_sequence") && !value.empty() && value != "0")
    return name + " " + value + ": the labs' models have no grid hierarchy to refine (-1 crashed, 1 failed); accepted: 0";
  if (endsWith("ksp_view_diagonal_scale")) {
    const std::string scale = sibling("ksp_view_diagonal_scale", "ksp_diagonal_scale");
    bool scaled = false;
    for (const auto &[other, other_value] : options)
      if (lowerCase(other) == scale) scaled = truthy(other_value);
    if (!scaled)
      return name + ": shows the diagonal scaling, and there is none without " + scale +
             " (it crashed: a segmentation fault); accepted: with " + scale;
  }
  // PETSc opens an X window for draw (no display: a PETSc error, nothing drawn, exit 0), except into a
  // picture (draw:tikz, draw:image); its line-graph monitors, eigenvalue plots and Jacobian comparisons'
  // drawings draw whatever their value (-ksp_plot_eigenvalues, -snes_compare_explicit_draw false).
  if (lower.find("_monitor_lg") != std::string::npos || lower.find("_plot_eigen") != std::string::npos ||
      endsWith("draw") || endsWith("draw_contour"))
    if (const std::string no_x = xDisplayProblem(options); !no_x.empty()) return name + no_x;
  // The viewer-valued reports and monitors, given a viewer (a truth value is PETSc's to judge).
  static const std::regex viewer_option("_(view|monitor|converged_reason|error_absolute|error_relative|error_backward)(_[a-z0-9_]+)?$");
  if (value.empty() || petscTruthValue(value) || !std::regex_search(lower, viewer_option) || endsWith("cancel")) return "";
  const Viewer viewer = viewerOf(value);
  const std::string accepted = "; accepted: " + name + " [ascii][:FILE[:FORMAT[:MODE]]], binary[:FILE] or draw (under X)";
  // socket and glvis connect to a server, saws publishes on the web, the others are file formats the
  // reports do not write.
  if (viewer.type != "ascii" && viewer.type != "binary" && viewer.type != "draw")
    return name + " " + value + ": '" + viewer.type + "' is not a viewer the labs take" + accepted;
  // SLEPc writes its error tables as text only (draw drew nothing, binary wrote an empty file, exit 0).
  if (viewer.type != "ascii" && (endsWith("error_absolute") || endsWith("error_relative") || endsWith("error_backward")))
    return name + " " + value + ": SLEPc writes this table as text only; accepted: " + name + " [ascii][:FILE[:FORMAT[:MODE]]]";
  if (viewer.type != "draw" && !viewer.file.empty()) {
    const std::string problem = writableFileProblem(name, viewer.file);
    if (!problem.empty()) return problem;
  }
  if (const std::string problem = fileModeProblem(name, viewer.mode); !problem.empty()) return problem;
  if (viewer.type == "draw" && viewer.file != "tikz" && viewer.file != "image")
    if (const std::string no_x = xDisplayProblem(options); !no_x.empty()) return name + " " + value + no_x;
  if (viewer.format.empty()) return ""; // an unknown format: PETSc's own refusal names it
  // A KSP monitor with no routine for its viewer and format (PETSc 3.18 calls a null pointer:
  // -ms_ksp_monitor ::ascii_info crashed, as did -ms_ksp_monitor_short draw).
  const size_t at = lower.rfind("ksp_monitor");
  if (const auto monitor = at == std::string::npos ? std::nullopt : kspMonitorName(lower.substr(at));
      monitor && (at == 1 || lower[at - 1] == '_') && !kspMonitorExists(*monitor, viewer.type, viewer.format)) {
    std::string ways;
    for (const auto &[type, format, shown] : {std::tuple{"ascii", "DEFAULT", "[ascii][:FILE]"}, std::tuple{"draw", "DEFAULT", "draw"},
                                              std::tuple{"draw", "DRAW_LG", "draw::draw_lg"}})
      if (kspMonitorExists(*monitor, type, format)) ways += (ways.empty() ? "" : ", ") + (name + " " + shown);
    return name + " " + value + ": PETSc has no such monitor for the viewer " + viewer.type + " in format " +
           lowerCase(viewer.format) + " (it crashed: a segmentation fault); accepted: " + ways;
  }
  // The converged reason's detailed format computes an error against a DM's exact solution (crashed).
  if (endsWith("snes_converged_reason") && viewer.format == "ASCII_INFO_DETAIL")
    return name + " " + value + ": the format ascii_info_detail needs an exact solution on a DM, which the labs' models "
                                "have not (it crashed: a segmentation fault); accepted: " + name + " [ascii][:FILE]";
  return "";
}

} // namespace beam
