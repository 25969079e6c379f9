#pragma once
#include <string>

namespace dpsynth::core {
/// The tool version written into reports and synthetic-data sidecars.
std::string version();
}  // namespace dpsynth::core
