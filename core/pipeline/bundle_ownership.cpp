#include "core/pipeline/bundle_ownership.h"

#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>

#include "core/data/regular_file.h"
#include "core/data/sha256.h"
#include "core/io/json_reader.h"
#include "core/pipeline/export.h"

namespace dpsynth::core::pipeline {
namespace {

namespace fs = std::filesystem;

/// A sidecar is a page of JSON; anything far larger is not one.
constexpr std::uint64_t kMaxSidecarBytes = std::uint64_t{1} << 20;
/// The most datasets fit writes (--datasets); a sidecar listing more is not one of ours.
constexpr std::size_t kMaxListedFiles = 1000;

bool sameFile(const std::string& a, const std::string& b) {
  struct stat sa {
  }, sb{};
  return !a.empty() && !b.empty() && ::stat(a.c_str(), &sa) == 0 && ::stat(b.c_str(), &sb) == 0 &&
         sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

bool isSha256Hex(const nlohmann::json& value) {
  if (!value.is_string()) return false;
  const auto& text = value.get_ref<const std::string&>();
  return text.size() == 64 && text.find_first_not_of("0123456789abcdef") == std::string::npos;
}

/// The file names and digests of a sidecar dpsynth wrote for a bundle at csvPath; nullopt (with
/// `why`) when the text is not such a sidecar.
std::optional<std::vector<std::pair<std::string, std::string>>> sidecarFiles(
    const std::string& text, const std::string& csvPath, std::string& why) {
  // The project's one parser: a manifest holding a key twice is not one dpsynth wrote.
  const nlohmann::json j = io::tryParseJson(text).value_or(nlohmann::json());
  // Keys are compared as JSON values: a "kind" that is a number is no sidecar, not an error.
  if (!j.is_object() || !j.contains("kind") || j["kind"] != kSidecarKind ||
      !j.contains("version") || j["version"] != kSidecarVersion || !j.contains("tool") ||
      j["tool"] != "dpsynth") {
    why = "is not a synthetic-data sidecar written by dpsynth (no \"kind\": \"" +
          std::string(kSidecarKind) + "\", \"version\": " + std::to_string(kSidecarVersion) + ")";
    return std::nullopt;
  }
  const auto files = j.find("files");
  const auto digests = j.find("files_sha256");
  if (files == j.end() || digests == j.end() || !files->is_array() || !digests->is_array() ||
      files->size() != digests->size() || files->empty() || files->size() > kMaxListedFiles ||
      !std::all_of(digests->begin(), digests->end(), isSha256Hex)) {
    why = "does not record the SHA-256 of the files it lists (\"files\", \"files_sha256\")";
    return std::nullopt;
  }
  // The names must be exactly those the bundle's naming scheme gives for that many datasets:
  // a sidecar can only ever speak for its own datasets, never for other files of the folder.
  const SyntheticBundle expected = syntheticBundlePaths(csvPath, static_cast<int>(files->size()));
  std::vector<std::pair<std::string, std::string>> out;
  for (std::size_t i = 0; i < files->size(); ++i) {
    const std::string name = fs::path(expected.csvFiles[i]).filename().string();
    if ((*files)[i] != name) {
      why = "lists files that do not follow the naming scheme of a release at " + csvPath;
      return std::nullopt;
    }
    out.emplace_back(expected.csvFiles[i], (*digests)[i].get<std::string>());
  }
  return out;
}

}  // namespace

EarlierBundle earlierBundle(const std::string& csvPath, int m,
                            const std::vector<std::string>& inputs) {
  EarlierBundle out;
  const SyntheticBundle bundle = syntheticBundlePaths(csvPath, m);
  std::error_code ec;
  std::vector<std::string> verified;  // files of an earlier release still as dpsynth wrote them
  const auto sidecarStatus = fs::symlink_status(bundle.sidecar, ec);
  if (fs::exists(sidecarStatus)) {
    const std::string& sidecar = bundle.sidecar;
    if (!fs::is_regular_file(sidecarStatus)) {
      out.problem = sidecar + " exists and is not a regular file, so not a sidecar dpsynth wrote";
      return out;
    }
    if (fs::file_size(sidecar, ec) > kMaxSidecarBytes) {
      out.problem = sidecar + " exists and is too large to be a sidecar dpsynth wrote";
      return out;
    }
    std::string why;
    const auto listed =
        sidecarFiles(data::readRegularFile(sidecar, kMaxSidecarBytes), csvPath, why);
    if (!listed) {
      out.problem = sidecar + " exists and " + why;
      return out;
    }
    for (const auto& [file, digest] : *listed) {
      const auto status = fs::symlink_status(file, ec);
      if (!fs::exists(status)) continue;  // already gone: nothing to supersede
      if (!fs::is_regular_file(status)) {
        out.problem = file + " (listed in " + sidecar + ") is not a regular file";
        return out;
      }
      std::string actual;
      try {
        actual = data::sha256File(file);
      } catch (const std::runtime_error&) {
        out.problem = file + " (listed in " + sidecar + ") cannot be read";
        return out;
      }
      if (actual != digest) {
        out.problem = file + " has changed since dpsynth wrote it (its SHA-256 is not the one " +
                      sidecar + " recorded)";
        return out;
      }
      verified.push_back(file);
    }
  }
  // Paths the new bundle derives from csvPath (csvPath itself is the user's own choice when
  // m = 1): an existing file there must be part of the verified earlier release.
  for (const auto& file : bundle.csvFiles) {
    if (m == 1 || !fs::exists(fs::symlink_status(file, ec))) continue;
    if (std::find(verified.begin(), verified.end(), file) == verified.end()) {
      out.problem = file + " exists and is not a dataset of an earlier release at " + csvPath +
                    " (no sidecar dpsynth wrote lists it with its SHA-256)";
      return out;
    }
  }
  for (const auto& file : verified) {
    const bool isInput = std::any_of(inputs.begin(), inputs.end(),
                                     [&](const auto& in) { return sameFile(file, in); });
    if (!isInput) out.superseded.push_back(file);
  }
  return out;
}

}  // namespace dpsynth::core::pipeline
