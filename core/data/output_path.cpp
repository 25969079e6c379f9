#include "core/data/output_path.h"

#include <stdexcept>
#include <system_error>

namespace dpsynth::core::data {

namespace fs = std::filesystem;

fs::path resolvedOutputPath(const std::string& path) {
  const fs::path spelled = fs::absolute(path);
  fs::path out = spelled.root_path();
  bool existing = true;  // out is a real, link-free path that exists
  for (const fs::path& part : spelled.relative_path()) {
    if (part.empty() || part == ".") continue;  // an empty part: a trailing slash
    if (part == "..") {
      if (!existing)
        throw std::invalid_argument("'" + path +
                                    "' goes up (..) out of a folder that does not exist; give "
                                    "a path without it");
      out = out.parent_path();  // out has no links, so this is the real parent
      continue;
    }
    out /= part;
    if (!existing) continue;
    std::error_code ec;
    const fs::file_status status = fs::symlink_status(out, ec);
    if (!fs::exists(status)) {
      existing = false;
    } else if (fs::is_symlink(status)) {
      const fs::path target = fs::canonical(out, ec);
      if (ec) {
        existing = false;  // a link to nothing (or a loop): kept as spelled
      } else {
        out = target;
      }
    }
  }
  return out;
}

std::string unreplaceableProblem(const fs::path& resolved) {
  std::error_code ec;
  const fs::file_status status = fs::status(resolved, ec);
  if (!fs::exists(status) || fs::is_regular_file(status)) return {};
  if (fs::is_directory(status)) return "is a folder";
  if (fs::is_character_file(status) || fs::is_block_file(status))
    return "is a device, not a regular file; dpsynth writes whole files and never replaces one";
  if (fs::is_fifo(status))
    return "is a FIFO (named pipe), not a regular file; dpsynth writes whole files and never "
           "replaces one";
  return "is not a regular file; dpsynth writes whole files and never replaces it";
}

}  // namespace dpsynth::core::data
