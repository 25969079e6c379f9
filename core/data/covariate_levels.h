#pragma once
/// The levels of the categorical covariates a DatasetSpec chooses, as buildDataset types them:
/// what a front end offers when the analyst picks a covariate's reference level. Covariates are
/// public (SPEC §0), so their levels are too.
#include <cstddef>
#include <stop_token>
#include <string>
#include <vector>

#include "core/data/csv_table.h"
#include "core/data/dataset.h"

namespace dpsynth::core::data {

/// One categorical covariate's levels.
struct CovariateLevels {
  std::string column;
  /// In label order (a labelled column) or sorted order (text): never the records' order.
  std::vector<std::string> levels;
  /// The index in `levels` of the reference (the level without a dummy): the one chosen in
  /// DatasetSpec::referenceLevels, else 0.
  std::size_t reference = 0;
  /// The reference was chosen (DatasetSpec::referenceLevels names this column).
  bool chosen = false;
};

/// The categorical covariates of `spec`, in covariate order (numeric ones left out), typed by
/// the rules of buildDataset (the records it keeps, dropMissing included). Throws DataError
/// where buildDataset would for a covariate (a reference level the column does not hold, too
/// many levels...); an empty vector when `stop` is requested or no record is kept.
std::vector<CovariateLevels> categoricalLevels(const CsvTable& table, const DatasetSpec& spec,
                                               const std::stop_token& stop = {});

}  // namespace dpsynth::core::data
