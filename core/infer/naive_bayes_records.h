#pragma once
/// The records of a naive-Bayes release (004 §4) from a table and the levels the user declared:
/// the one rule `dpsynth release --kind naive-bayes` and the studio's release-from-data share.
/// The levels are declared, never read from the data (which values occur in confidential data
/// is itself confidential, SPEC §0), and a value outside them is refused.
#include <map>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

#include "core/data/csv_table.h"
#include "core/infer/naive_bayes_release.h"

namespace dpsynth::core::infer {

/// Declared public levels per column (`dpsynth release --levels A=x|y`, the studio's list).
using DeclaredLevels = std::map<std::string, std::vector<std::string>>;

/// The layout of a release of `classColumn` and `features` with the declared levels. Throws
/// std::invalid_argument for no features, the class among the features, a column without
/// declared levels, or a layout NaiveBayesLayout::validate refuses.
NaiveBayesLayout declaredLayout(const std::string& classColumn,
                                const std::vector<std::string>& features,
                                const DeclaredLevels& levels);

/// Every row coded with the layout: the class's index, then each feature's level index. Throws
/// std::invalid_argument for a column the table lacks (its message lists the columns) and for a
/// value outside the declared levels (one line: "FILE line L, column C: 'v' is not one of the
/// declared levels"). `stop` is polled every 4096 rows: nullopt when it was requested.
std::optional<CodedRecords> naiveBayesRecords(const data::CsvTable& table,
                                              const std::string& classColumn,
                                              const NaiveBayesLayout& layout,
                                              const std::stop_token& stop = {});

}  // namespace dpsynth::core::infer
