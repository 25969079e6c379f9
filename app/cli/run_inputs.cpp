#include "app/cli/run_inputs.h"

#include <filesystem>
#include <iomanip>
#include <iostream>
#include <limits>
#include <sstream>
#include <stdexcept>

#include "app/cli/cli_common.h"
#include "core/data/csv_table.h"
#include "core/data/data_error.h"
#include "core/data/data_file.h"
#include "core/data/design_match.h"
#include "core/data/quote_value.h"
#include "core/pipeline/export.h"
#include "core/pipeline/release_claim.h"

namespace dpsynth::cli {

namespace fs = std::filesystem;

std::uint64_t parseSeed(const std::string& text, const std::string& option) {
  const bool digits = !text.empty() && text.size() <= 20 &&
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
                  "without looking at the data)" +
                      what)
      ->check(unsignedDecimal(1, core::privacy::kMaxDeclaredRows));
  command
      .add_option("--size-epsilon", sizeEpsilon,
                  "epsilon_n of the noisy number of records published when n is confidential "
                  "(add-remove, or the complete records after --drop-missing); added to every "
                  "published epsilon (default 0.1)" +
                      what)
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
  if (!core::privacy::sizeIsConfidential(settings.neighbours, dataset.completeCasesOnly)) return {};
  std::ostringstream line;
  line << "synthetic size: a noisy count of the "
       << (settings.neighbours == core::privacy::Neighbours::addRemove ? "records (add-remove)"
                                                                       : "complete records")
       << " at epsilon_n = " << settings.size.epsilon
       << ", added to every published epsilon (--rows N declares a public size instead)";
  return line.str();
}

std::optional<std::string> readInputText(const std::string& path, const std::stop_token& stop,
                                         bool quiet) {
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
  return core::data::readRegularFile(path, control);
}

std::optional<core::data::CsvTable> parseInputCsv(const std::string& text, const std::string& path,
                                                  const std::stop_token& stop) {
  core::data::ReadControl control;
  control.stop = stop;
  return core::data::parseDataFile(text, path, control);
}

std::optional<core::data::CsvTable> readInputCsv(const std::string& path,
                                                 const std::stop_token& stop, bool quiet) {
  const std::optional<std::string> text = readInputText(path, stop, quiet);
  if (!text) return std::nullopt;
  return parseInputCsv(*text, path, stop);
}

std::optional<core::data::Dataset> buildInputDataset(const core::data::CsvTable& table,
                                                     const core::data::DatasetSpec& spec,
                                                     const std::stop_token& stop) {
  std::optional<core::data::Dataset> dataset = core::data::buildDataset(table, spec, stop);
  // A constant outcome is no reason to refuse (SPEC §0: a refusal that rests on the whole
  // database tells it from a neighbour whose one changed record breaks the tie); it is worth a
  // word on the terminal, which is no part of a release.
  // Nor is a confidential count too small to fit (DatasetSpec::countConfidential): the terminal
  // says what the synthetic data then come from.
  if (dataset && dataset->size() < 2)
    std::cerr << "note: " << table.file << " leaves "
              << (dataset->size() == 0 ? "no record" : "1 record")
              << " to fit; the run goes on, since its number of records is confidential and a "
                 "refusal would reveal it: the synthetic values come mostly from the prior\n";
  if (dataset && dataset->size() > 1 && (dataset->y.array() == dataset->y[0]).all())
    std::cerr << "note: every value of '" << dataset->outcomeName.substr(0, 60)
              << "' is the same in " << table.file
              << ": the synthetic values come from the model's spread around it\n";
  return dataset;
}

std::shared_ptr<const core::data::Dataset> loadReference(const std::string& file,
                                                         const core::data::DatasetSpec& spec,
                                                         const core::data::Dataset& data,
                                                         const std::stop_token& stop, bool quiet) {
  const auto table = readInputCsv(file, stop, quiet);
  if (!table) return nullptr;
  auto dataset = buildInputDataset(*table, spec, stop);
  if (!dataset) return nullptr;
  // As the studio does: the same covariates with the same levels are the same design whichever
  // level each file lists first (last period's synthetic CSV, sorted, against this period's
  // .sav in label order was refused, and a session the studio ran failed in `dpsynth run`).
  std::string problem;
  auto matched = core::data::matchDesign(*dataset, data, &problem);
  if (!matched)
    throw core::data::DataError(
        file, 0, "", "its covariates differ from the data's: " + problem,
        "A reference holds the data's covariates with the same levels (its records may "
        "differ): give such a file, or use censor-uw, which needs no reference.");
  return std::make_shared<const core::data::Dataset>(std::move(*matched));
}

void addReferenceOption(CLI::App& command, std::vector<std::string>& references,
                        const std::string& what) {
  command
      .add_option("--reference", references,
                  "Reference level of a categorical covariate, COLUMN=LEVEL (repeat or separate "
                  "by commas; default: the first level in label order, or in sorted order for "
                  "text)" +
                      what)
      ->delimiter(',');
}

std::map<std::string, std::string> parseReferenceLevels(const std::vector<std::string>& items) {
  std::map<std::string, std::string> out;
  for (const auto& item : items) {
    const auto eq = item.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == item.size())
      throw std::invalid_argument("--reference " + core::data::quoteForMessage(item, 40) +
                                  ": write COLUMN=LEVEL, e.g. --reference health=poor");
    const std::string column = item.substr(0, eq);
    if (!out.emplace(column, item.substr(eq + 1)).second)
      throw std::invalid_argument("--reference: the column " +
                                  core::data::quoteForMessage(column, 40) +
                                  " is given twice; a covariate has one reference level");
  }
  return out;
}

[[noreturn]] int cancelledWhileReading(const std::string& file) {
  exitCancelled("dpsynth: cancelled while reading " + file + "; no files were written\n");
}

[[noreturn]] int cancelledNothingWritten() {
  exitCancelled("dpsynth: cancelled; nothing was written\n");
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
