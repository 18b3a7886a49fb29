// The labs' charts are drawn by Python scripts in output/ with Debian's /usr/bin/python3 and matplotlib;
// without them the CSVs are still written and the lab says the plot was skipped.
#pragma once
#include <string>
#include <vector>

namespace beam {

// Runs output/<script> with `arguments` (each passed as one word) on the calling rank, after flushing
// stdout so the lab's lines come first; prints "plot skipped: <why>" when python3, matplotlib or the
// script is missing (the CSVs are the results). A chart that fails otherwise (it cannot be written) is a
// failed run: one line naming why, exit 3 (130 when interrupted). Call on rank 0 inside agreeOn.
void runPlotScript(const std::string &script, const std::vector<std::string> &arguments);

} // namespace beam
