#include "core/data/dataset.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include "core/data/covariate_levels.h"
#include "core/data/csv_writer.h"
#include "core/data/data_error.h"
#include "core/data/populate_pages.h"
#include "core/data/quote_value.h"
#include "core/data/value_parsing.h"
#include "core/exec/cancellation.h"

namespace dpsynth::core::data {
namespace {

using models::Family;

constexpr std::string_view kOutOfRangeHint =
    "The value is too large or too small in magnitude for a double (about 1.8e308 at most, and "
    "2.2e-308 at least unless 0): correct it, or rescale the column (e.g. to thousands).";

/// The most levels a text covariate may have in n records: each level but the first becomes a
/// dummy column, so an identifier-like column would give (almost) one parameter per record.
std::size_t maxLevels(std::size_t n) { return std::max<std::size_t>(50, n / 2); }

/// Thrown inside the builder when a stop was requested; turned into nullopt at its boundary.
struct Stopped {};

/// Every 65536 records (a millisecond or so of work): throws Stopped if a stop was requested.
inline void checkStop(const std::stop_token& stop, std::size_t record) {
  if ((record & 0xFFFF) == 0 && stop.stop_requested()) throw Stopped{};
}

std::string plural(std::size_t count, const std::string& singular, const std::string& many) {
  return std::to_string(count) + " " + (count == 1 ? singular : many);
}

/// The columns a spec uses, outcome first, after checking names and roles.
std::vector<std::size_t> usedColumns(const CsvTable& table, const DatasetSpec& spec) {
  if (spec.outcome.empty()) {
    throw DataError(table.file, 0, "", "no outcome column was chosen",
                    "Choose the column whose values are to be synthesised.");
  }
  std::vector<std::size_t> columns{table.columnIndex(spec.outcome)};
  for (std::size_t k = 0; k < spec.covariates.size(); ++k) {
    const auto& name = spec.covariates[k];
    if (name == spec.outcome) {
      throw DataError(table.file, 0, name, "the outcome is also listed as a covariate",
                      "Covariates are public columns that explain the outcome; remove the "
                      "outcome from the covariates.");
    }
    for (std::size_t j = 0; j < k; ++j) {
      if (spec.covariates[j] == name) {
        throw DataError(table.file, 0, name, "listed twice as a covariate",
                        "List each covariate once.");
      }
    }
    columns.push_back(table.columnIndex(name));
  }
  // A reference level belongs to a covariate: a misspelt column would otherwise be ignored.
  for (const auto& [column, level] : spec.referenceLevels) {
    if (std::find(spec.covariates.begin(), spec.covariates.end(), column) != spec.covariates.end())
      continue;
    std::string covariates;
    for (const auto& c : spec.covariates) covariates += (covariates.empty() ? "" : ", ") + c;
    throw DataError(table.file, 0, column,
                    "is not a covariate, so it has no reference level (asked for " +
                        quoteForMessage(level) + ")",
                    covariates.empty() ? "The model has no covariates."
                                       : "Name one of the covariates: " + covariates + ".");
  }
  return columns;
}

/// Rows with no missing value in the used columns; throws at the first missing value unless
/// the spec drops such rows.
std::vector<std::size_t> completeRows(const CsvTable& table, const DatasetSpec& spec,
                                      const std::vector<std::size_t>& columns, std::size_t& dropped,
                                      const std::stop_token& stop) {
  std::vector<std::size_t> kept;
  kept.reserve(table.rows.size());
  populatePages(kept.data(), kept.capacity() * sizeof(std::size_t));
  std::optional<std::pair<std::size_t, std::size_t>> firstMissing;  // (row, column)
  dropped = 0;
  for (std::size_t r = 0; r < table.rows.size(); ++r) {
    checkStop(stop, r);
    bool complete = true;
    for (const std::size_t c : columns) {
      if (isMissingValue(table.rows[r][c])) {
        if (!firstMissing) firstMissing = {r, c};
        complete = false;
        break;
      }
    }
    if (complete) {
      kept.push_back(r);
    } else {
      ++dropped;
    }
  }
  if (dropped > 0 && !spec.dropMissing) {
    const auto [r, c] = *firstMissing;
    const std::string_view text = table.rows[r][c];
    const std::string shown = trimBlanks(text).empty() ? "an empty field" : quoteForMessage(text);
    throw DataError(
        table.file, table.lineOfRow[r], table.header[c],
        "missing value (" + shown + "); " + plural(dropped, "record has", "records have") +
            " missing values in the chosen columns",
        kept.empty() ? "Fill them in: every record has one, so dropping incomplete records would "
                       "leave none."
                     : "Fill them in, or drop incomplete records (--drop-missing on the command "
                       "line).");
  }
  return kept;
}

/// A cell as a number's text: a labelled column (labels as levels) holds the label, whose code
/// is the number; every other column holds the number itself.
std::string_view codeText(const CsvTable& table, std::size_t row, std::size_t column) {
  const std::string_view cell = table.rows[row][column];
  const ColumnInfo* info = table.info(column);
  if (!info || !info->labelsAreLevels) return cell;
  const std::string* code = info->codeOf(trimBlanks(cell));
  return code ? std::string_view(*code) : cell;
}

/// SPEC §2's families model numbers; a date or a time is refused with one line.
void refuseDateOutcome(const CsvTable& table, std::size_t column) {
  const ColumnInfo* info = table.info(column);
  if (!info || !info->isDateOrTime()) return;
  throw DataError(table.file, 0, table.header[column],
                  std::string("holds ") + valueKindWords(info->kind) + " (display format " +
                      quoteForMessage(info->format, 20) +
                      "), which cannot be synthesised as an outcome",
                  "Choose a numeric outcome, or derive one (an age, a duration) from the dates "
                  "first.");
}

Eigen::VectorXd parseOutcome(const CsvTable& table, std::size_t column,
                             const std::vector<std::size_t>& kept, const std::stop_token& stop) {
  Eigen::VectorXd y(static_cast<Eigen::Index>(kept.size()));
  populatePages(y.data(), static_cast<std::size_t>(y.size()) * sizeof(double));
  std::size_t bad = 0, firstBad = 0;
  for (std::size_t i = 0; i < kept.size(); ++i) {
    checkStop(stop, i);
    const std::string_view text = codeText(table, kept[i], column);
    const PlainNumber plain = readPlainNumber(text);  // the common case, read faster
    const auto value = plain.ok ? std::optional<double>(plain.value) : parseNumber(text);
    if (value) {
      y[static_cast<Eigen::Index>(i)] = *value;
    } else if (bad++ == 0) {
      firstBad = kept[i];
    }
  }
  if (bad == 0) return y;
  const std::string text(table.rows[firstBad][column]);
  std::string hint = "The outcome must be numeric: choose a numeric column or correct the value.";
  std::string withPoint = text;
  for (char& c : withPoint) {
    if (c == ',') c = '.';
  }
  if (withPoint != text && parseNumber(withPoint)) {
    hint = "Write numbers with '.' as the decimal separator and no thousands separators.";
  } else if (isOutOfRangeNumber(text)) {
    hint = std::string(kOutOfRangeHint);
  } else if (text.find_first_of("0123456789") != std::string::npos) {
    hint =
        "Numbers must be finite and written plainly, e.g. 12, -0.5 or 1e-3 (no units or "
        "currency signs).";
  }
  throw DataError(
      table.file, table.lineOfRow[firstBad], table.header[column],
      "value " + quoteForMessage(text) + " is not a number" +
          (bad > 1 ? " (" + std::to_string(bad) + " values in this column are not numbers)"
                   : std::string()),
      hint);
}

/// The largest count the count families take: 2⁵³, below which every whole number is a double.
constexpr double kLargestCount = 0x1p53;

void checkFamily(const CsvTable& table, std::size_t column, const std::vector<std::size_t>& kept,
                 const Eigen::VectorXd& y, Family family) {
  const std::size_t n = kept.size();
  std::size_t bad = 0, firstBad = 0, outsideClosed = 0, huge = 0, firstHuge = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double v = y[static_cast<Eigen::Index>(i)];
    bool ok = true;
    if (models::isCountFamily(family)) {
      ok = v >= 0.0 && v == std::floor(v);
      if (ok && v > kLargestCount && huge++ == 0) firstHuge = kept[i];
    } else if (family == Family::beta) {
      ok = v > 0.0 && v < 1.0;
      if (v < 0.0 || v > 1.0) ++outsideClosed;
    }
    if (!ok && bad++ == 0) firstBad = kept[i];
  }
  if (bad == 0 && huge > 0) {
    // A double holds every whole number only up to 2⁵³: above it the file's count is not the
    // value read, and synthetic counts of that size could not be written exactly either.
    throw DataError(table.file, table.lineOfRow[firstHuge], table.header[column],
                    std::to_string(huge) + " of " + std::to_string(n) +
                        " counts are above 2^53 = 9007199254740992 (first: " +
                        quoteForMessage(table.rows[firstHuge][column]) +
                        "), beyond what is held exactly",
                    "Rescale the counts (for example to thousands) or model them with the normal "
                    "family.");
  }
  if (bad == 0) return;
  const std::string first = "first: " + quoteForMessage(table.rows[firstBad][column]);
  const std::string count = std::to_string(bad) + " of " + std::to_string(n);
  if (models::isCountFamily(family)) {
    throw DataError(table.file, table.lineOfRow[firstBad], table.header[column],
                    count + " values are not non-negative integers (" + first + ")",
                    "The " + models::familyName(family) +
                        " family models counts 0, 1, 2, ...; choose the normal family for other "
                        "data.");
  }
  const std::string boundaryFix =
      "move values at 0 or 1 inside with (y*(n-1)+0.5)/n, here n = " + std::to_string(n);
  const std::string hint =
      outsideClosed == 0
          ? "Beta data must lie strictly between 0 and 1: " + boundaryFix + "."
          : "Beta data must lie strictly between 0 and 1: rescale by public bounds a < y < b as "
            "(y-a)/(b-a) (bounds known without looking at the data), and " +
                boundaryFix + ".";
  throw DataError(table.file, table.lineOfRow[firstBad], table.header[column],
                  count + " values are outside the open interval (0, 1) (" + first + ")", hint);
}

/// One covariate's part of the design, typed before X is allocated: a numeric column, or the
/// level of every record (levels in orderLevels' order; the first is the reference).
struct CovariateDesign {
  std::string name;
  /// The column's cells: a numeric column's values are its design column (when levels is
  /// empty); a text column's keep each cell's exact text.
  SourceColumn cells;
  std::vector<std::string> levels;   ///< a text covariate's levels, the reference first
  std::size_t referenceAt = 0;       ///< the reference's place in label or sorted order
  std::vector<std::uint32_t> codes;  ///< each kept record's level
  /// The cells held codes, and the value labels cover every kept record's: the levels (and
  /// the copied cells) are the label texts, as when the file's every value has a label.
  bool labelsFromCodes = false;
  /// Design columns: itself, or one dummy per non-reference level.
  std::size_t width() const { return levels.empty() ? 1 : levels.size() - 1; }
};

/// Puts the levels in `order` (order[k] is the current index of the level that becomes k-th);
/// the records' codes follow.
void reorderLevels(const std::vector<std::uint32_t>& order, std::vector<std::string_view>& levels,
                   std::vector<std::uint32_t>& codes) {
  std::vector<std::uint32_t> newIndex(levels.size());
  std::vector<std::string_view> sorted(levels.size());
  for (std::uint32_t k = 0; k < order.size(); ++k) {
    newIndex[order[k]] = k;
    sorted[k] = levels[order[k]];
  }
  levels = std::move(sorted);
  for (std::uint32_t& code : codes) code = newIndex[code];
}

/// The order of a categorical covariate's levels, which never depends on the order of the
/// records: a labelled column's in label order (the file's), a text column's sorted; the
/// reference named by the user, if any, first. Returns the reference's place in label or sorted
/// order (0 without a choice). Throws DataError when the column does not hold that level.
std::size_t orderLevels(const CsvTable& table, const std::string& name, const ColumnInfo* labels,
                        const std::string* reference, std::vector<std::string_view>& levels,
                        std::vector<std::uint32_t>& codes) {
  std::vector<std::uint32_t> order(levels.size());
  for (std::uint32_t k = 0; k < order.size(); ++k) order[k] = k;
  std::size_t referenceAt = 0;
  if (labels) {
    const auto rank = [&](std::string_view level) {
      for (std::size_t k = 0; k < labels->valueLabels.size(); ++k)
        if (labels->valueLabels[k].label == level) return k;
      return labels->valueLabels.size();  // cannot happen when labelsAreLevels; kept last
    };
    std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
      return rank(levels[a]) < rank(levels[b]);
    });
  } else {
    std::sort(order.begin(), order.end(),
              [&](std::uint32_t a, std::uint32_t b) { return levels[a] < levels[b]; });
  }
  if (reference) {
    const std::string_view wanted = trimBlanks(*reference);
    const auto at = std::find_if(order.begin(), order.end(),
                                 [&](std::uint32_t k) { return levels[k] == wanted; });
    if (at == order.end()) {
      std::string known;
      for (std::size_t k = 0; k < order.size() && k < 12; ++k)
        known += (k ? ", " : "") + quoteForMessage(levels[order[k]], 30);
      if (order.size() > 12) known += ", ... (" + std::to_string(order.size()) + " in all)";
      throw DataError(table.file, 0, name,
                      "has no level " + quoteForMessage(*reference) + " to be the reference",
                      "Its levels are " + known + ".");
    }
    referenceAt = static_cast<std::size_t>(at - order.begin());
    std::rotate(order.begin(), at, at + 1);
  }
  reorderLevels(order, levels, codes);
  return referenceAt;
}

/// A column's value labels as code → label text, when they can be its levels (as the reader
/// requires: a number or text column whose labels are distinct and none of them a missing
/// value); empty otherwise.
std::unordered_map<std::string_view, std::string_view> labelsAsLevels(const ColumnInfo& info) {
  std::unordered_map<std::string_view, std::string_view> out;
  if (info.kind != ValueKind::number && info.kind != ValueKind::text) return out;
  std::unordered_set<std::string_view> texts;
  for (const ValueLabel& v : info.valueLabels) {
    if (isMissingValue(v.label) || !texts.insert(v.label).second) return {};
    out.emplace(v.code, v.label);
  }
  return out;
}

/// Types one covariate: numeric if every value is a number, else text with one dummy per
/// non-reference level. A column whose value labels are its levels (a statistical file) is
/// always categorical, its levels in label order.
CovariateDesign typeCovariate(const CsvTable& table, std::size_t column,
                              const std::vector<std::size_t>& kept, const std::string* reference,
                              const std::stop_token& stop) {
  const auto n = static_cast<Eigen::Index>(kept.size());
  // No record says what the column is (a header alone, or every row dropped): typing it read
  // the first value of none. build() refuses so few records first; categoricalLevels lists none.
  if (kept.empty())
    throw DataError(table.file, 0, table.header[column], "has no records to type",
                    "A covariate is typed from the records kept: at least 2 are needed.");
  const ColumnInfo* info = table.info(column);
  // Whether the labels are the levels is decided on the kept records: the reader decides it on
  // every record of the file, so a record dropped for a missing value, whose code had no
  // label, turned a categorical covariate numeric and changed the release (SPEC §0: a dropped
  // record decides nothing).
  const std::unordered_map<std::string_view, std::string_view> labelOfCode =
      info && !info->labelsAreLevels ? labelsAsLevels(*info)
                                     : std::unordered_map<std::string_view, std::string_view>{};
  bool fromCodes = !labelOfCode.empty();
  for (std::size_t i = 0; fromCodes && i < kept.size(); ++i)
    fromCodes = labelOfCode.contains(trimBlanks(table.rows[kept[i]][column]));
  const auto cellOf = [&](std::size_t row) {
    const std::string_view cell = table.rows[row][column];
    return fromCodes ? labelOfCode.at(trimBlanks(cell)) : cell;
  };
  const bool labelled = (info && info->labelsAreLevels) || fromCodes;
  CovariateDesign design;
  design.labelsFromCodes = fromCodes;
  design.name = table.header[column];
  const std::string& name = design.name;
  // Typed straight into the cells a synthetic file copies: no vector of numbers besides them.
  design.cells.startNumeric(kept.size());
  std::size_t outOfRange = 0, firstOutOfRange = 0, textValues = 0, firstText = 0;
  std::size_t infinite = 0, firstInfinite = 0;
  for (Eigen::Index i = 0; i < n; ++i) {
    checkStop(stop, static_cast<std::size_t>(i));
    const std::size_t row = kept[static_cast<std::size_t>(i)];
    const std::string_view cell = table.rows[row][column];
    if (const PlainNumber plain = readPlainNumber(cell); plain.ok) {
      if (textValues == 0) design.cells.appendPlain(plain, cell);
    } else if (const auto value = parseNumber(cell)) {
      if (textValues == 0) design.cells.appendNumber(*value, cell);
    } else if (isOutOfRangeNumber(cell)) {
      if (outOfRange++ == 0) firstOutOfRange = row;
    } else if (isInfiniteNumber(cell)) {
      if (infinite++ == 0) firstInfinite = row;
    } else if (textValues++ == 0) {
      firstText = row;
    }
  }
  // An infinite value in an otherwise numeric column is refused as NaN is: typed as text, one
  // "Inf" would turn the column into a factor with one level per distinct number.
  if (labelled) textValues = std::max<std::size_t>(textValues, 1);
  if (infinite > 0 && textValues == 0) {
    throw DataError(
        table.file, table.lineOfRow[firstInfinite], name,
        "value " + quoteForMessage(table.rows[firstInfinite][column]) + " is infinite" +
            (infinite > 1 ? " (" + std::to_string(infinite) + " values in this column are)"
                          : std::string()),
        "A covariate must hold finite numbers: correct the value, or write NA and drop rows with "
        "missing values.");
  }
  // Numbers that a double cannot hold in an otherwise numeric column are errors, not a reason to
  // treat the column as text (one dummy per distinct value).
  if (outOfRange > 0 && textValues == 0) {
    throw DataError(
        table.file, table.lineOfRow[firstOutOfRange], name,
        "value " + quoteForMessage(table.rows[firstOutOfRange][column]) + " is out of range" +
            (outOfRange > 1
                 ? " (" + std::to_string(outOfRange) + " values in this column are out of range)"
                 : std::string()),
        std::string(kOutOfRangeHint));
  }
  if (textValues == 0) {
    if (reference) {
      throw DataError(table.file, 0, name,
                      "is numeric, so it has no reference level (asked for " +
                          quoteForMessage(*reference) + ")",
                      "A reference level applies to a categorical covariate only.");
    }
    const std::vector<double>& values = design.cells.values();
    if (std::all_of(values.begin(), values.end(), [&](double v) { return v == values[0]; })) {
      throw DataError(table.file, 0, name,
                      "has the same value (" + formatNumber(values[0]) + ") in every record",
                      "A constant covariate duplicates the intercept; remove it.");
    }
    design.cells.finish();
    return design;
  }
  design.cells.startText(kept.size());
  // Levels are interned by their text in the table (views stay valid while `table` lives): one
  // hash look-up per record and no string per record.
  std::unordered_map<std::string_view, std::uint32_t> levelIndex;
  std::vector<std::string_view> levels;
  design.codes.reserve(kept.size());
  populatePages(design.codes.data(), kept.size() * sizeof(std::uint32_t));
  design.codes.resize(kept.size());
  for (std::size_t i = 0; i < kept.size(); ++i) {
    checkStop(stop, i);
    const std::string_view cell = cellOf(kept[i]);
    design.cells.appendText(cell);
    const std::string_view level = trimBlanks(cell);
    const auto [it, inserted] =
        levelIndex.try_emplace(level, static_cast<std::uint32_t>(levels.size()));
    if (inserted) levels.push_back(level);
    design.codes[i] = it->second;
  }
  if (levels.size() > maxLevels(kept.size())) {
    throw DataError(
        table.file, 0, name,
        "is text with " + std::to_string(levels.size()) + " distinct values in " +
            plural(kept.size(), "record", "records") + " (first value that is not a number: " +
            quoteForMessage(table.rows[firstText][column]) + " on line " +
            std::to_string(table.lineOfRow[firstText]) + ")",
        "Each value would become a dummy column (at most " +
            std::to_string(maxLevels(kept.size())) +
            " levels are allowed here): remove an identifier-like column, group its values into "
            "fewer levels, or correct the values if the column is meant to be numeric.");
  }
  if (levels.size() == 1) {
    throw DataError(table.file, 0, name,
                    "has only one level (" + quoteForMessage(levels.front()) + ")",
                    "A covariate with a single level duplicates the intercept; remove it.");
  }
  design.referenceAt =
      orderLevels(table, name, labelled ? info : nullptr, reference, levels, design.codes);
  design.levels.assign(levels.begin(), levels.end());
  design.cells.finish();
  return design;
}

/// The spec with each column it names spelt as in the file's header, where the name matches a
/// column only in another Unicode form (CsvTable::columnIndex): the dataset's names, and the
/// synthetic files', are the file's. Names that match nothing are left for usedColumns to
/// report.
DatasetSpec withFileNames(const CsvTable& table, DatasetSpec spec) {
  const auto respell = [&table](const std::string& name) {
    try {
      return table.header[table.columnIndex(name)];  // an exact match first
    } catch (const DataError&) {
      return name;
    }
  };
  spec.outcome = respell(spec.outcome);
  for (std::string& c : spec.covariates) c = respell(c);
  std::map<std::string, std::string> references;
  for (const auto& [column, level] : spec.referenceLevels) references[respell(column)] = level;
  spec.referenceLevels = std::move(references);
  return spec;
}

Dataset build(const CsvTable& table, const DatasetSpec& given, const std::stop_token& stop) {
  const DatasetSpec spec = withFileNames(table, given);
  const std::vector<std::size_t> columns = usedColumns(table, spec);
  const std::size_t outcome = columns.front();
  std::size_t dropped = 0;
  // The complete records first, without refusing missing values yet: an outcome value that is
  // no number is reported before them, because dropping incomplete records (what the missing
  // value's message suggests) would not mend it.
  DatasetSpec keepGoing = spec;
  keepGoing.dropMissing = true;
  const std::vector<std::size_t> kept = completeRows(table, keepGoing, columns, dropped, stop);

  Dataset dataset;
  dataset.file = table.file;
  dataset.outcomeName = spec.outcome;
  dataset.family = spec.family;
  dataset.droppedRows = dropped;
  dataset.completeCasesOnly = spec.dropMissing;
  refuseDateOutcome(table, outcome);
  dataset.y = parseOutcome(table, outcome, kept, stop);
  if (dropped > 0 && !spec.dropMissing) (void)completeRows(table, spec, columns, dropped, stop);

  const bool anyCount = (spec.countConfidential || spec.dropMissing) && spec.covariates.empty();
  if (kept.size() < 2 && !anyCount) {
    throw DataError(table.file, 0, spec.outcome,
                    kept.empty() ? std::string("no usable records")
                                 : "only " + plural(kept.size(), "usable record", "usable records"),
                    dropped > 0 ? "At least 2 are needed; " +
                                      plural(dropped, "record was", "records were") +
                                      " dropped for missing values."
                                : "At least 2 are needed.");
  }
  checkFamily(table, outcome, kept, dataset.y, spec.family);

  std::vector<CovariateDesign> covariates;
  covariates.reserve(columns.size() - 1);
  std::size_t width = 1;  // the intercept
  for (std::size_t k = 1; k < columns.size(); ++k) {
    const auto reference = spec.referenceLevels.find(spec.covariates[k - 1]);
    covariates.push_back(typeCovariate(
        table, columns[k], kept,
        reference == spec.referenceLevels.end() ? nullptr : &reference->second, stop));
    width += covariates.back().width();
  }
  // X is filled in place, one pass per covariate: a dummy block is zeroed and each record
  // sets its level's column, O(n) however many levels there are.
  const Eigen::Index n = dataset.y.size();
  dataset.X.resize(n, static_cast<Eigen::Index>(width));
  populatePages(dataset.X.data(), static_cast<std::size_t>(dataset.X.size()) * sizeof(double));
  dataset.X.col(0).setOnes();
  dataset.designNames = {"(Intercept)"};
  dataset.designNames.reserve(width);
  Eigen::Index next = 1;
  for (const CovariateDesign& covariate : covariates) {
    if (covariate.levels.empty()) {
      dataset.X.col(next) = Eigen::Map<const Eigen::VectorXd>(covariate.cells.values().data(), n);
      dataset.designNames.push_back(covariate.name);
      ++next;
      continue;
    }
    const auto dummies = static_cast<Eigen::Index>(covariate.width());
    dataset.X.middleCols(next, dummies).setZero();
    for (Eigen::Index i = 0; i < n; ++i) {
      const std::uint32_t level = covariate.codes[static_cast<std::size_t>(i)];
      if (level > 0) dataset.X(i, next + static_cast<Eigen::Index>(level) - 1) = 1.0;
    }
    for (std::size_t level = 1; level < covariate.levels.size(); ++level) {
      dataset.designNames.push_back(covariate.name + "=" + covariate.levels[level]);
    }
    next += dummies;
  }
  dataset.covariateNames = spec.covariates;

  // The covariates' cells, typed: the table's text is not kept.
  dataset.source.file = table.file;
  dataset.source.delimiter = table.delimiter;
  dataset.source.header = table.header;
  dataset.source.columns = table.columns;
  for (std::size_t k = 1; k < columns.size(); ++k)
    if (covariates[k - 1].labelsFromCodes && columns[k] < dataset.source.columns.size())
      dataset.source.columns[columns[k]].labelsAreLevels = true;  // the cells are label texts
  dataset.source.records = kept.size();
  dataset.source.cells.resize(table.header.size());
  // A numeric covariate's numbers are now in X: the source keeps only how they were written.
  for (std::size_t k = 1; k < columns.size(); ++k) {
    SourceColumn& cells = covariates[k - 1].cells;
    if (cells.kind() == SourceColumn::Kind::numeric) cells.releaseValues();
    dataset.source.cells[columns[k]] = std::move(cells);
  }
  dataset.fileLines.reserve(kept.size());
  populatePages(dataset.fileLines.data(), kept.size() * sizeof(std::size_t));
  for (const std::size_t r : kept) dataset.fileLines.push_back(table.lineOfRow[r]);
  return dataset;
}

}  // namespace

SourceCells::SourceCells(const Dataset& dataset)
    : dataset_(dataset), designColumn_(dataset.source.cells.size(), -1) {
  for (std::size_t c = 0; c < dataset.source.cells.size(); ++c) {
    if (dataset.source.cells[c].kind() != SourceColumn::Kind::numeric) continue;
    const auto& names = dataset.designNames;
    const auto at = std::find(names.begin(), names.end(), dataset.source.header[c]);
    if (at == names.end() || dataset.X.rows() != static_cast<Eigen::Index>(dataset.size()))
      throw std::logic_error("SourceCells: no design column holds the numbers of " +
                             dataset.source.header[c]);
    designColumn_[c] = static_cast<Eigen::Index>(at - names.begin());
  }
}

CellText SourceCells::operator()(std::size_t row, std::size_t column) const {
  if (column < designColumn_.size() && designColumn_[column] >= 0) {
    return dataset_.source.cells[column].numberText(
        row, dataset_.X(static_cast<Eigen::Index>(row), designColumn_[column]));
  }
  return dataset_.source.cell(row, column);
}

Dataset numericDataset(std::string outcomeName, models::Family family, Eigen::VectorXd y,
                       Eigen::MatrixXd X, std::vector<std::string> designNames,
                       const std::stop_token& stop) {
  if (X.rows() != y.size() || X.cols() < 1 ||
      designNames.size() != static_cast<std::size_t>(X.cols())) {
    throw std::invalid_argument("numericDataset: inconsistent sizes");
  }
  constexpr Eigen::Index kBlock = Eigen::Index(1) << 16;
  for (Eigen::Index start = 0; start < X.rows(); start += kBlock) {
    exec::throwIfStopped(stop);
    const Eigen::Index count = std::min(kBlock, X.rows() - start);
    if (!(X.col(0).segment(start, count).array() == 1.0).all()) {
      throw std::invalid_argument("numericDataset: the first design column must be all ones");
    }
    if (!y.segment(start, count).allFinite() || !X.middleRows(start, count).allFinite()) {
      throw std::invalid_argument("numericDataset: non-finite values");
    }
  }
  exec::throwIfStopped(stop);
  Dataset d;
  d.file = "generated";
  d.outcomeName = std::move(outcomeName);
  d.family = family;
  d.y = std::move(y);
  d.X = std::move(X);
  d.covariateNames.assign(designNames.begin() + 1, designNames.end());
  d.designNames = std::move(designNames);
  d.fileLines.resize(d.size());
  exec::StopCheck check(stop);
  for (std::size_t i = 0; i < d.fileLines.size(); ++i) {
    check.tick();
    d.fileLines[i] = i + 2;
  }
  return d;
}

Dataset buildDataset(const CsvTable& table, const DatasetSpec& spec) {
  return build(table, spec, {});  // without a stop token nothing throws Stopped
}

std::vector<CovariateLevels> categoricalLevels(const CsvTable& table, const DatasetSpec& given,
                                               const std::stop_token& stop) {
  const DatasetSpec spec = withFileNames(table, given);
  std::vector<CovariateLevels> out;
  try {
    const std::vector<std::size_t> columns = usedColumns(table, spec);
    std::size_t dropped = 0;
    const std::vector<std::size_t> kept = completeRows(table, spec, columns, dropped, stop);
    if (kept.empty()) return {};  // no record holds a level
    for (std::size_t k = 1; k < columns.size(); ++k) {
      const std::string& name = spec.covariates[k - 1];
      const auto reference = spec.referenceLevels.find(name);
      const std::string* chosen =
          reference == spec.referenceLevels.end() ? nullptr : &reference->second;
      CovariateDesign design = typeCovariate(table, columns[k], kept, chosen, stop);
      if (design.levels.empty()) continue;  // numeric
      // Back in label or sorted order: the reference where that order puts it.
      std::rotate(design.levels.begin(), design.levels.begin() + 1,
                  design.levels.begin() + static_cast<std::ptrdiff_t>(design.referenceAt) + 1);
      out.push_back({name, std::move(design.levels), design.referenceAt, chosen != nullptr});
    }
  } catch (const Stopped&) {
    return {};
  }
  return out;
}

std::optional<Dataset> buildDataset(const CsvTable& table, const DatasetSpec& spec,
                                    std::stop_token stop) {
  try {
    return build(table, spec, stop);
  } catch (const Stopped&) {
    return std::nullopt;
  }
}

std::optional<models::Family> familyFromValues(const CsvTable& table, const std::string& outcome) {
  const std::size_t column = table.columnIndex(outcome);
  bool any = false, allCounts = true, allUnit = true;
  for (std::size_t r = 0; r < table.rows.size(); ++r) {
    const auto value = parseNumber(codeText(table, r, column));
    if (!value) continue;
    any = true;
    allCounts = allCounts && *value >= 0.0 && *value == std::floor(*value);
    allUnit = allUnit && *value > 0.0 && *value < 1.0;
  }
  if (!any) return std::nullopt;
  if (allCounts) return Family::negbin;
  if (allUnit) return Family::beta;
  return Family::normal;
}

models::Family suggestFamily(const CsvTable& table, const std::string& outcome) {
  return familyFromValues(table, outcome).value_or(Family::normal);
}

bool holdsANumber(const CsvTable& table, const std::string& column) {
  const std::size_t c = table.columnIndex(column);
  for (std::size_t r = 0; r < table.rows.size(); ++r)
    if (parseNumber(codeText(table, r, c))) return true;
  return false;
}

}  // namespace dpsynth::core::data
