#pragma once
// Options whose value is a PETSc viewer: -log_view, and the solvers' reports and monitors
// (-ms_ksp_monitor, -shifted_ksp_view, -mat_view, ...) that PETSc 3.18 takes and then crashes on (a
// segmentation fault, exit 59), fails on as a run (exit 3), or acts on outside the lab (a socket, a
// Python module): judged by name and value before PETSc or a solver reads them.

#include <string>
#include <utility>
#include <vector>

namespace beam {

// A viewer option's value split at its colons, as PETSc reads it (PetscOptionsGetViewer):
// TYPE[:FILE[:FORMAT[:MODE]]] ("" for a part not given).
std::vector<std::string> viewerFields(const std::string &value);

// "" when -log_view's `value` ([ascii]:FILE[:FORMAT[:MODE]]) is one PETSc writes its log with; otherwise
// the refusal, naming `option`. Usable before PetscInitialize (PETSc reads it as it starts).
std::string logViewProblem(const std::string &option, const std::string &value);

// "" when the solver option `name` (as given, with its '-') with `value` ("" for none) is one the labs
// can honour; otherwise the refusal, naming the option and what is accepted. `options`: the whole
// database (a report that needs another option, -ksp_view_diagonal_scale with -ksp_diagonal_scale).
std::string solverReportProblem(const std::string &name, const std::string &value,
                                const std::vector<std::pair<std::string, std::string>> &options);

} // namespace beam
