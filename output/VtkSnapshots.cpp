// placeholder: implemented by the VTK output work
#include "output/VtkSnapshots.hpp"
namespace beam {
VtkSnapshots::VtkSnapshots(const Beam &beam, std::string dir, int every, std::string name)
    : beam_(beam), dir_(std::move(dir)), name_(std::move(name)), every_(every) {}
VtkSnapshots::~VtkSnapshots() = default;
void VtkSnapshots::observe(const StepState &) {}
void VtkSnapshots::finish(const RunResult &) {}
} // namespace beam
