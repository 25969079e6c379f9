#include "core/report/ownership_manifest.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>

#include "core/data/csv_writer.h"
#include "core/data/regular_file.h"
#include "core/data/sha256.h"
#include "core/io/json_reader.h"

namespace dpsynth::core::report {
namespace {

namespace fs = std::filesystem;

/// A manifest lists a folder's file names and digests: far below this for any export.
constexpr std::uint64_t kMaxManifestBytes = std::uint64_t{4} << 20;

/// Name → recorded SHA-256 from folder's manifest; nullopt when it is missing or not a manifest.
std::optional<std::map<std::string, std::string>> recordedDigests(const fs::path& folder) {
  const fs::path path = folder / kManifestName;
  std::error_code ec;
  if (!fs::is_regular_file(fs::symlink_status(path, ec))) return std::nullopt;
  std::string text;
  try {
    text = data::readRegularFile(path.string(), kMaxManifestBytes);
  } catch (const std::exception&) {
    return std::nullopt;  // unreadable or too large: not one dpsynth wrote, it vouches for nothing
  }
  // The project's one parser: a manifest holding a key twice is not one dpsynth wrote.
  const nlohmann::json j = io::tryParseJson(text).value_or(nlohmann::json());
  // Compared as JSON values: a "kind" that is no string is not a manifest (value() would throw).
  if (!j.is_object() || !j.contains("kind") || j["kind"] != kManifestKind ||
      !j.contains("version") || j["version"] != kManifestVersion)
    return std::nullopt;
  const auto files = j.find("files");
  const auto digests = j.find("files_sha256");
  if (files == j.end() || digests == j.end() || !files->is_array() || !digests->is_array() ||
      files->size() != digests->size())
    return std::nullopt;
  std::map<std::string, std::string> out;
  for (std::size_t i = 0; i < files->size(); ++i) {
    const auto& name = (*files)[i];
    const auto& digest = (*digests)[i];
    if (!name.is_string() || !digest.is_string()) return std::nullopt;
    const fs::path file(name.get<std::string>());
    if (file.filename() != file || file == kManifestName) return std::nullopt;  // plain names
    out.emplace(file.string(), digest.get<std::string>());
  }
  return out;
}

/// The manifest's text for files `recorded` (name → SHA-256), listed by name.
std::string manifestText(const std::map<std::string, std::string>& recorded) {
  std::vector<std::string> names, digests;
  for (const auto& [name, digest] : recorded) {
    names.push_back(name);
    digests.push_back(digest);
  }
  const nlohmann::json manifest = {
      {"kind", kManifestKind},
      {"version", kManifestVersion},
      {"note",
       "the files dpsynth wrote into this folder and their SHA-256: a later dpsynth output into "
       "the same place replaces or deletes them only while they are as written"},
      {"files", names},
      {"files_sha256", digests},
      {"tool", "dpsynth"}};
  return manifest.dump(2) + "\n";
}

/// SHA-256 of a file, empty when it cannot be read (then it is not shown to be dpsynth's).
std::string digestOrEmpty(const fs::path& path) {
  try {
    return data::sha256File(path.string());
  } catch (const std::exception&) {
    return {};
  }
}

}  // namespace

void writeOwnershipManifest(const std::string& folder) {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(folder)) {
    const std::string name = entry.path().filename().string();
    if (name == kManifestName) continue;
    if (!entry.is_regular_file() || entry.is_symlink())
      throw std::runtime_error("'" + entry.path().string() + "' is not a regular file");
    names.push_back(name);
  }
  std::map<std::string, std::string> recorded;
  for (const auto& name : names)
    recorded.emplace(name, data::sha256File((fs::path(folder) / name).string()));
  data::writeTextAtomic((fs::path(folder) / kManifestName).string(), manifestText(recorded));
}

std::vector<std::string> foreignEntries(const std::string& folder) {
  std::error_code ec;
  if (!fs::is_directory(fs::symlink_status(folder, ec))) return {};
  const auto recorded = recordedDigests(folder);
  std::vector<std::string> foreign;
  fs::directory_iterator entries(folder, ec);
  // A folder whose entries cannot be listed cannot be shown to hold only dpsynth's files.
  if (ec) return {"(its entries cannot be listed: " + ec.message() + ")"};
  for (const auto& entry : entries) {
    const std::string name = entry.path().filename().string();
    const auto status = entry.symlink_status(ec);
    if (fs::is_directory(status)) {
      foreign.push_back(name + "/");
      continue;
    }
    if (name == kManifestName) {
      if (!recorded) foreign.push_back(name);
      continue;
    }
    if (!recorded || !recorded->contains(name) || !fs::is_regular_file(status)) {
      foreign.push_back(name);
      continue;
    }
    // Unreadable: it cannot be shown to be the file dpsynth wrote.
    if (digestOrEmpty(entry.path()) != recorded->at(name)) foreign.push_back(name);
  }
  std::sort(foreign.begin(), foreign.end());
  return foreign;
}

std::vector<std::string> foreignFiles(const std::string& folder,
                                      const std::vector<std::string>& names) {
  std::error_code ec;
  if (!fs::is_directory(folder, ec)) return {};
  const auto recorded = recordedDigests(folder);
  std::vector<std::string> foreign;
  for (const auto& name : names) {
    const fs::path path = fs::path(folder) / name;
    const auto status = fs::symlink_status(path, ec);
    if (!fs::exists(status)) continue;
    if (!recorded || !recorded->contains(name) || !fs::is_regular_file(status) ||
        digestOrEmpty(path) != recorded->at(name))
      foreign.push_back(name);
  }
  if (!recorded && fs::exists(fs::symlink_status(fs::path(folder) / kManifestName, ec)))
    foreign.push_back(kManifestName);
  return foreign;
}

std::string manifestRecording(const std::string& folder,
                              const std::map<std::string, std::string>& digests) {
  std::map<std::string, std::string> recorded;
  std::error_code ec;
  if (const auto earlier = recordedDigests(folder))
    for (const auto& [name, digest] : *earlier)
      if (fs::exists(fs::symlink_status(fs::path(folder) / name, ec)))
        recorded.emplace(name, digest);
  for (const auto& [name, digest] : digests) recorded[name] = digest;
  return manifestText(recorded);
}

void recordOwnedFiles(const std::string& folder, const std::vector<std::string>& names) {
  std::map<std::string, std::string> digests;
  for (const auto& name : names)
    digests.emplace(name, data::sha256File((fs::path(folder) / name).string()));
  data::writeTextAtomic((fs::path(folder) / kManifestName).string(),
                        manifestRecording(folder, digests));
}

}  // namespace dpsynth::core::report
