#pragma once
/// What fit and run share about a run's inputs: release vs reproducible seeds, the neighbour
/// relation, the published size, reference data for weight functions (outputs are checked by
/// output_plan.h).
#include <CLI/CLI.hpp>
#include <cstdint>
#include <map>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

#include "core/data/csv_table.h"
#include "core/data/dataset.h"
#include "core/pipeline/pipeline.h"

namespace dpsynth::cli {

/// A seed as typed by a user: an unsigned decimal number below 2^64 ("-1", "1e3", "0x10" are
/// refused with std::invalid_argument naming the option).
std::uint64_t parseSeed(const std::string& text, const std::string& option);

/// Release (no seed: a 128-bit seed from the OS, SPEC §0) or reproducible (seed given).
void applySeed(core::pipeline::RunSettings& settings, std::optional<std::uint64_t> seed);

/// Adds --rows and --size-epsilon (SPEC §0 "The size of the data") to a command that
/// synthesises; `what` ends the help text ("" or " (default: the session's)").
void addSizeOptions(CLI::App& command, std::optional<std::size_t>& rows,
                    std::optional<double>& sizeEpsilon, const std::string& what);

/// Sets settings.size from --rows / --size-epsilon (each overrides; giving both is refused with
/// std::invalid_argument: a declared size spends no ε_n).
void applySize(core::pipeline::RunSettings& settings, std::optional<std::size_t> rows,
               std::optional<double> sizeEpsilon);

/// One line for stderr saying which size the run publishes ("" when n is public and no size was
/// declared).
std::string sizeLine(const core::pipeline::RunSettings& settings,
                     const core::data::Dataset& dataset);

/// An input data file (CSV, or SPSS, Stata or SAS by its extension: core/data/data_file.h)
/// read so that Ctrl-C (`stop`) ends the read at its next check: nullopt then. A
/// file of 16 MB or more is announced on stderr first ("reading FILE (N MB)") unless quiet,
/// because reading it takes a noticeable moment.
std::optional<core::data::CsvTable> readInputCsv(const std::string& path,
                                                 const std::stop_token& stop, bool quiet);

/// The two halves of readInputCsv, for a caller that must check the very bytes it parses (a
/// session's data against its SHA-256): the file's bytes, announced as above (nullopt on
/// Ctrl-C), then the table parsed from them (nullopt on Ctrl-C).
std::optional<std::string> readInputText(const std::string& path, const std::stop_token& stop,
                                         bool quiet);
std::optional<core::data::CsvTable> parseInputCsv(const std::string& text, const std::string& path,
                                                  const std::stop_token& stop);

/// buildDataset that Ctrl-C can stop (nullopt then).
std::optional<core::data::Dataset> buildInputDataset(const core::data::CsvTable& table,
                                                     const core::data::DatasetSpec& spec,
                                                     const std::stop_token& stop);

/// The reference dataset of --weights-from / a session's weights_from: read and built with the
/// data's own column choices, its design matched to `data`'s (core::data::matchDesign; a
/// DataError naming the covariates whose levels or kind differ). Null when `stop` was requested
/// while it was read or typed.
std::shared_ptr<const core::data::Dataset> loadReference(const std::string& file,
                                                         const core::data::DatasetSpec& spec,
                                                         const core::data::Dataset& data,
                                                         const std::stop_token& stop = {},
                                                         bool quiet = true);

/// Says on stderr that Ctrl-C stopped the command while it read `file`, and that nothing was
/// written, and exits 130 (exitCancelled). Declared int so that `return` reads as the end.
[[noreturn]] int cancelledWhileReading(const std::string& file);
/// Prints "dpsynth: cancelled; nothing was written" and exits 130 (exitCancelled).
[[noreturn]] int cancelledNothingWritten();

/// SPEC §0: a seeded run is not for release and never writes into a folder named release/;
/// throws std::invalid_argument naming `path` when seeded and it lies in one.
void refuseSeededIntoRelease(const std::string& path, bool seeded);

/// Adds --reference COL=LEVEL (repeatable, or comma-separated) to a command that builds a
/// design: the reference level of a categorical covariate.
void addReferenceOption(CLI::App& command, std::vector<std::string>& references,
                        const std::string& what);

/// --reference's items as column → level. Throws std::invalid_argument naming the option for an
/// item that is not COLUMN=LEVEL or a column named twice. Whether the column is a categorical
/// covariate holding that level is checked when the dataset is built (data::buildDataset).
std::map<std::string, std::string> parseReferenceLevels(const std::vector<std::string>& items);

/// One line naming the input columns that will not leave (empty when none).
std::string droppedColumnsLine(const core::data::Dataset& dataset);

}  // namespace dpsynth::cli
