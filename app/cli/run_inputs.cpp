#include "app/cli/run_inputs.h"

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

#include "app/cli/cli_common.h"
#include "core/data/csv_table.h"
#include "core/pipeline/export.h"
#include "core/pipeline/release_claim.h"

namespace dpsynth::cli {

namespace fs = std::filesystem;

std::uint64_t parseSeed(const std::string& text, const std::string& option) {
  const bool digits =
      !text.empty() && text.size() <= 20 &&
      text.find_first_not_of("0123456789") == std::string::npos;
  if (digits) {
    try {
      return std::stoull(text);
    } catch (const std::exception&) {
    }
  }
  throw std::invalid_argument(option + " must be a whole number from 0 to " +
                              std::to_string(std::numeric_limits<std::uint64_t>::max()) +
                              ", written in decimal digits; leave it out for a release");
}

void applySeed(core::pipeline::RunSettings& settings, std::optional<std::uint64_t> seed) {
  if (seed) {
    settings.nuts.seed = *seed;
    settings.release = false;
  } else {
    core::pipeline::makeRelease(settings);
  }
}

void addSizeOptions(CLI::App& command, std::optional<std::size_t>& rows,
                    std::optional<double>& sizeEpsilon, const std::string& what) {
  command
      .add_option("--rows", rows,
                  "Synthetic records per dataset, declared public: used as the published size "
                  "instead of a noisy count under add-remove or --drop-missing (choose it "
                  "without looking at the data)" + what)
      ->check(unsignedDecimal(1, core::privacy::kMaxDeclaredRows));
  command
      .add_option("--size-epsilon", sizeEpsilon,
                  "epsilon_n of the noisy number of records published when n is confidential "
                  "(add-remove, or the complete records after --drop-missing); added to every "
                  "published epsilon (default 0.1)" + what)
      ->check(finiteNumber(1e-6, 1e6));
}

void applySize(core::pipeline::RunSettings& settings, std::optional<std::size_t> rows,
               std::optional<double> sizeEpsilon) {
  if (rows && sizeEpsilon)
    throw std::invalid_argument(
        "give either --rows (a size declared public, no epsilon spent) or --size-epsilon (a "
        "noisy size), not both");
  if (rows) settings.size.declaredRows = *rows;
  if (sizeEpsilon) {
    settings.size.declaredRows.reset();
    settings.size.epsilon = *sizeEpsilon;
  }
}

std::string sizeLine(const core::pipeline::RunSettings& settings,
                     const core::data::Dataset& dataset) {
  if (settings.size.declaredRows)
    return "synthetic size: " + std::to_string(*settings.size.declaredRows) +
           " records per dataset (--rows, declared public)";
  if (!core::privacy::sizeIsConfidential(settings.neighbours, dataset.completeCasesOnly))
    return {};
  std::ostringstream line;
  line << "synthetic size: a noisy count of the "
       << (settings.neighbours == core::privacy::Neighbours::addRemove ? "records (add-remove)"
                                                                       : "complete records")
       << " at epsilon_n = " << settings.size.epsilon
       << ", added to every published epsilon (--rows N declares a public size instead)";
  return line.str();
}

std::optional<core::data::CsvTable> readInputCsv(const std::string& path,
                                                 const std::stop_token& stop, bool quiet) {
  constexpr std::uintmax_t kAnnouncedBytes = 16'000'000;
  std::error_code ec;
  const std::uintmax_t bytes = fs::is_regular_file(path, ec) ? fs::file_size(path, ec) : 0;
  if (!quiet && !ec && bytes >= kAnnouncedBytes) {
    std::ostringstream line;
    line << "reading " << path << " (" << std::fixed << std::setprecision(1)
         << static_cast<double>(bytes) / 1e6 << " MB)\n";
    std::cerr << line.str() << std::flush;
  }
  core::data::ReadControl control;
  control.stop = stop;
  return core::data::readCsv(path, control);
}

std::optional<core::data::Dataset> buildInputDataset(const core::data::CsvTable& table,
                                                     const core::data::DatasetSpec& spec,
                                                     const std::stop_token& stop) {
  return core::data::buildDataset(table, spec, stop);
}

std::shared_ptr<const core::data::Dataset> loadReference(const std::string& file,
                                                         const core::data::DatasetSpec& spec,
                                                         const std::stop_token& stop, bool quiet) {
  const auto table = readInputCsv(file, stop, quiet);
  if (!table) return nullptr;
  auto dataset = buildInputDataset(*table, spec, stop);
  if (!dataset) return nullptr;
  return std::make_shared<const core::data::Dataset>(std::move(*dataset));
}

int cancelledWhileReading(const std::string& file) {
  std::cerr << "dpsynth: cancelled while reading " << file << "; no files were written\n";
  return kExitCancelled;
}

namespace {

struct FileId {
  dev_t dev;
  ino_t ino;
};

std::optional<FileId> idOf(const std::string& path) {
  struct stat st {};
  if (path.empty() || ::stat(path.c_str(), &st) != 0) return std::nullopt;
  return FileId{st.st_dev, st.st_ino};
}

}  // namespace

void checkOutputPaths(const std::vector<std::pair<std::string, std::string>>& outputs,
                      const std::vector<std::string>& inputs) {
  std::vector<std::pair<std::string, fs::path>> seen;
  for (const auto& [option, path] : outputs) {
    if (path.empty()) continue;
    const std::string who = option + " " + path;
    if (path.back() == '/')
      throw std::invalid_argument(who + ": names a folder; give a file name");
    std::error_code ec;
    if (fs::is_directory(path, ec))
      throw std::invalid_argument(who + " is a folder; give a file name inside it");
    const fs::path full = fs::absolute(path).lexically_normal();
    const fs::path parent = full.parent_path();
    if (!fs::is_directory(parent, ec))
      throw std::invalid_argument(who + ": the folder " + parent.string() +
                                  " does not exist; create it first");
    if (::access(parent.c_str(), W_OK | X_OK) != 0)
      throw std::invalid_argument(who + ": the folder " + parent.string() +
                                  " is not writable; choose another place");
    const fs::path canonical = fs::weakly_canonical(full, ec);
    const auto id = idOf(path);
    for (const auto& [otherOption, other] : seen)
      if (other == canonical ||
          (id && idOf(other.string()) && idOf(other.string())->dev == id->dev &&
           idOf(other.string())->ino == id->ino))
        throw std::invalid_argument(who + " is also written as " + otherOption +
                                    ": give each output its own file");
    for (const auto& input : inputs) {
      const auto in = idOf(input);
      if (id && in && id->dev == in->dev && id->ino == in->ino)
        throw std::invalid_argument(who + " is the input file " + input +
                                    ": refusing to overwrite an input; choose another path");
    }
    seen.emplace_back(who, canonical);
  }
}

std::vector<std::string> earlierReleaseFiles(const std::string& sidecar,
                                             const std::vector<std::string>& inputs) {
  std::vector<std::string> out;
  std::error_code ec;
  if (!fs::is_regular_file(sidecar, ec) || fs::file_size(sidecar, ec) > (1u << 20)) return out;
  std::ifstream in(sidecar, std::ios::binary);
  const nlohmann::json j = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
  if (!j.is_object() || !j.contains("files") || !j["files"].is_array()) return out;
  const fs::path folder = fs::absolute(sidecar).parent_path();
  for (const auto& name : j["files"]) {
    if (!name.is_string()) continue;
    const fs::path file = fs::path(name.get<std::string>());
    if (file.has_parent_path() || file.filename() != file) continue;  // a plain name only
    const fs::path full = folder / file;
    if (!fs::is_regular_file(fs::symlink_status(full, ec))) continue;
    bool isInput = false;
    for (const auto& input : inputs) {
      const auto a = idOf(full.string()), b = idOf(input);
      isInput |= a && b && a->dev == b->dev && a->ino == b->ino;
    }
    if (!isInput) out.push_back(full.string());
  }
  return out;
}

void refuseSeededIntoRelease(const std::string& path, bool seeded) {
  if (seeded && core::pipeline::inReleaseFolder(path))
    throw std::invalid_argument("--out " + path +
                                ": a seeded run (--seed) is not for release and never writes "
                                "into a release/ folder; choose another folder");
}

std::string droppedColumnsLine(const core::data::Dataset& dataset) {
  const auto dropped = core::pipeline::droppedColumns(dataset);
  if (dropped.empty()) return {};
  std::string line;
  for (const auto& d : dropped) line += (line.empty() ? "" : ", ") + d.substr(0, 60);
  return "not released (only the outcome and the declared covariates leave): " + line;
}

}  // namespace dpsynth::cli
