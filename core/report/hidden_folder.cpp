#include "core/report/hidden_folder.h"

#include <random>
#include <stdexcept>
#include <system_error>

namespace dpsynth::core::report::detail {

namespace fs = std::filesystem;

fs::path createHiddenFolder(const fs::path& parent, const std::string& prefix) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::random_device device;
  std::error_code ec;
  for (int attempt = 0; attempt < 100; ++attempt) {
    std::string suffix;
    for (int i = 0; i < 8; ++i) suffix += kHex[device() % 16];
    const fs::path candidate = parent / (prefix + suffix);
    if (fs::create_directory(candidate, ec)) return candidate;
    if (ec) break;
  }
  throw std::runtime_error("cannot create a temporary folder in '" + parent.string() + "'" +
                           (ec ? ": " + ec.message() : std::string()));
}

}  // namespace dpsynth::core::report::detail
