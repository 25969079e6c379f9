#pragma once
/// A study's rows as values: one StudyRow per replicate × cell (plus the replicate's
/// "confidential" row), with the codec that turns them into the fields of replicates.csv and
/// back. Text exists only at that edge: summaries, violins and the frontier read structs.
#include <optional>
#include <string>
#include <vector>

#include "core/summary/results_rows.h"

namespace dpsynth::core::study {

/// A cell's keys as its rows give them (study_plan.h's StudyCell, with the mechanism by name so
/// that the confidential row, "confidential", has keys too). An axis the mechanism does not use
/// is left out (nullopt).
struct CellKeys {
  std::string mechanism;  ///< cell_mechanism: a mechanism's name, or "confidential"
  std::optional<double> epsilon, c, g;
  bool hasDownscale = false;
  std::optional<double> downscale;  ///< when hasDownscale: a value, or nullopt = "auto"

  /// The keys as replicates.csv spells them ("" for an axis left out, "auto").
  std::string epsilonText() const;
  std::string cText() const;
  std::string gText() const;
  std::string downscaleText() const;
  friend bool operator==(const CellKeys&, const CellKeys&) = default;
};

struct StudyRow {
  int replicate = 0;
  std::optional<int> cell;  ///< the cell's index in studyCells order; none: confidential row
  CellKeys keys;
  summary::ResultsRow results;
  /// Of the final fit (none for ph and the confidential row): divergent transitions and the
  /// largest R-hat; and the mechanism's seconds.
  std::optional<long long> divergences;
  std::optional<double> maxRhat;
  std::optional<double> seconds;

  bool isConfidential() const { return !cell.has_value(); }
  /// The value of a numeric column of studyRowHeader() by its name: a results column
  /// (summary::ResultsRow::number), "divergences", "max_rhat", "seconds" or a cell key
  /// ("cell_epsilon", "cell_c", "cell_g", "cell_downscale"); none where the row has none.
  /// Throws std::invalid_argument for a name that is not a column of studyRowHeader().
  std::optional<double> number(const std::string& column) const;
};

/// "replicate", "cell", "cell_mechanism", "cell_epsilon", "cell_c", "cell_g", "cell_downscale",
/// then every column of summary::resultsHeader() (taken as it is, so measures added there
/// appear here), then "divergences", "max_rhat", "seconds".
const std::vector<std::string>& studyRowHeader();

/// The row's fields in studyRowHeader() order (numbers exact and round-trip,
/// data::formatNumber; empty = not applicable).
std::vector<std::string> studyCsvFields(const StudyRow& row);

/// A row back from its fields. Throws std::invalid_argument naming the column for a width
/// other than the header's or a field that does not hold what its column does.
StudyRow studyRowFromCsv(const std::vector<std::string>& fields);
std::vector<StudyRow> studyRowsFromCsv(const std::vector<std::vector<std::string>>& rows);

}  // namespace dpsynth::core::study
