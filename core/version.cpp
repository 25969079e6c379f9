#include "core/version.h"

namespace dpsynth::core {
std::string version() { return DPSYNTH_VERSION; }
}  // namespace dpsynth::core
