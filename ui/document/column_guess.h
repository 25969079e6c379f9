#pragma once
/// What the studio guesses about a freshly read table's columns, from public structure (names,
/// kinds, whether every value is distinct), never to choose for the analyst: which columns look
/// like identifiers (flagged in the column roles) and which could be the outcome (one only:
/// chosen; several: none until the analyst picks).
#include <string>
#include <vector>

#include "core/data/csv_table.h"

namespace dpsynth::ui {

/// Columns that look like identifiers or codes: a name such as id, postcode or zip, or every
/// value distinct over 20 records or more as text or densely packed whole numbers.
std::vector<std::string> idLikeColumns(const core::data::CsvTable& table);
/// The columns that could be the outcome: mostly numbers (any, in a table of no records), not a
/// date or a labelled category, not identifier-like (`ids`: idLikeColumns of the table).
std::vector<std::string> outcomeCandidates(const core::data::CsvTable& table,
                                           const std::vector<std::string>& ids);

}  // namespace dpsynth::ui
