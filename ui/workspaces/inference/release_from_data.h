#pragma once
/// Making a naive-Bayes release from the data loaded in the synthesis workspace: which columns
/// are categorical (2 to kMaxLevels distinct values), and the release itself, through the same
/// core function as `dpsynth release --kind naive-bayes`.
#include <map>
#include <string>
#include <vector>

#include "core/data/csv_table.h"
#include "core/infer/naive_bayes_records.h"
#include "core/infer/release_file.h"
#include "core/privacy/perturbed_histogram.h"

namespace dpsynth::ui {

struct CategoricalColumn {
  std::string name;
  std::vector<std::string> levels;  ///< distinct values, sorted
};

constexpr int kMaxLevels = 20;

/// The columns with between 2 and kMaxLevels distinct values (empty values count as a level).
std::vector<CategoricalColumn> categoricalColumns(const core::data::CsvTable& table);

/// Declared public levels per column (as `dpsynth release --levels` takes them).
using DeclaredLevels = core::infer::DeclaredLevels;

/// Parses lines "column=level1|level2|…" (blank lines ignored). Throws std::invalid_argument
/// naming the line that has no '=' or fewer than two levels.
DeclaredLevels parseDeclaredLevels(const std::string& text);
/// The lines parseDeclaredLevels reads, for these columns in this order.
std::string formatDeclaredLevels(const std::vector<CategoricalColumn>& columns);
std::string formatDeclaredLevels(const DeclaredLevels& levels);

/// Public levels from a file that is not the data being released (SPEC §0: which values occur
/// in the confidential data is itself confidential): a codebook of "column=level1|level2|…"
/// lines, an earlier naive-Bayes release (its features' levels, and its class levels for
/// `classColumn`), or a public CSV such as the reference dataset (the distinct values of its
/// categorical columns). Throws std::invalid_argument or core::Error naming the file.
DeclaredLevels declaredLevelsFromFile(const std::string& path, const std::string& classColumn);

/// Codes every row (class, then the features) with the declared levels — as on the command
/// line, the layout is what the user declares, and a value outside it is refused — and adds the
/// release's noise from `bits`. notForRelease marks a seeded source. Throws
/// std::invalid_argument for an unknown column, a column without declared levels, a value
/// outside them, a feature equal to the class, no features or a bad ε (core's messages).
core::infer::NaiveBayesRelease releaseFromTable(const core::data::CsvTable& table,
                                                const std::string& classColumn,
                                                const std::vector<std::string>& features,
                                                const DeclaredLevels& levels, double epsilon,
                                                core::privacy::BitSource& bits, bool notForRelease);

}  // namespace dpsynth::ui
