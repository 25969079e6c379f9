#pragma once
/// The covariate cells a synthetic file copies, kept typed rather than as text: a numeric
/// column as its doubles, a text column as one level code per record and a dictionary of
/// levels. A synthetic file must hold each covariate exactly as the input wrote it ("1.50",
/// "007", "1e3" included), so a numeric cell remembers how its text is made from its value:
/// the shortest round-trip form (std::to_chars), a fixed number of decimals, or, for anything
/// else, the text itself. At 10^6 records × 5 columns the text and its offsets took 105 MB;
/// typed they take the doubles the design needs anyway, and no byte per cell when every cell is
/// in the shortest form.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/data/column_info.h"

namespace dpsynth::core::data {

/// A cell's text: a view into a column's dictionary or exceptions, or the number written into
/// its own buffer. Copies stay valid (the view is rebuilt on each call).
class CellText {
 public:
  CellText() = default;
  explicit CellText(std::string_view stored) : stored_(stored.data()), size_(stored.size()) {}
  std::string_view view() const {
    return stored_ ? std::string_view(stored_, size_) : std::string_view(buffer_, size_);
  }
  operator std::string_view() const { return view(); }  // NOLINT: a cell reads as its text

 private:
  friend class SourceColumn;
  static constexpr std::size_t kBufferBytes = 48;
  const char* stored_ = nullptr;
  std::size_t size_ = 0;
  char buffer_[kBufferBytes] = {};
};

/// A plain decimal read in one pass: [-]digits[.digits] with at most 15 significant digits and
/// 22 decimals. Most numbers in a CSV look so; reading them here costs a fraction of
/// parseNumber and std::to_chars together.
struct PlainNumber {
  bool ok = false;        ///< the text is such a decimal; otherwise ask parseNumber
  double value = 0.0;     ///< exactly parseNumber(text) when ok
  bool shortest = false;  ///< when ok: the text is what std::to_chars(value) writes
  /// When ok and not -1: the text is what std::to_chars(value, fixed, decimals) writes.
  int decimals = -1;
};
PlainNumber readPlainNumber(std::string_view text);

/// One column's cells for the kept records: nothing (a column that never leaves), numbers, or
/// text levels. Built by appending every record's cell in order.
class SourceColumn {
 public:
  enum class Kind : std::uint8_t { absent, numeric, text };

  Kind kind() const { return kind_; }
  std::size_t size() const { return kind_ == Kind::text ? codes_.size() : numbers_; }

  /// Starts a numeric column of room for `records` cells.
  void startNumeric(std::size_t records);
  /// Appends a numeric cell: `value` as parsed from `text` (parseNumber). The text is kept only
  /// when neither the shortest form nor a fixed number of decimals reproduces it.
  void appendNumber(double value, std::string_view text);
  /// The same for a cell readPlainNumber read (`number.ok`), whose form is then known.
  void appendPlain(const PlainNumber& number, std::string_view text) {
    if (number.shortest && formats_.empty()) {
      values_.push_back(number.value);  // once per cell, so inline
      ++numbers_;
    } else {
      appendPlainSlowly(number, text);
    }
  }
  /// Starts a text column of room for `records` cells.
  void startText(std::size_t records);
  /// Appends a text cell, interned in the column's dictionary.
  void appendText(std::string_view text);
  /// Frees the building state (the dictionary's index): call once every cell is in.
  void finish();

  /// The numbers of a numeric column, one per record, until releaseValues().
  const std::vector<double>& values() const { return values_; }
  /// Frees the numbers where another copy of them is kept (a Dataset's design matrix): the
  /// texts are then made by numberText from that copy.
  void releaseValues() { values_ = std::vector<double>(); }
  /// Whether the numbers are held (a numeric column before releaseValues()).
  bool holdsValues() const { return values_.size() == numbers_; }
  /// A text column's levels (each distinct cell text, in order of first appearance) and each
  /// record's index among them.
  const std::vector<std::string>& levels() const { return levels_; }
  const std::vector<std::uint32_t>& codes() const { return codes_; }

  /// The text of record `row`'s cell, exactly as appended; a numeric column must hold its
  /// numbers (std::logic_error otherwise).
  CellText text(std::size_t row) const;
  /// The text of a numeric column's cell from its number `value` (the one appended).
  CellText numberText(std::size_t row, double value) const;

  /// Cells kept as text because no rule made them from their number (for tests and
  /// measurements).
  std::size_t exceptions() const { return exceptionRows_.size(); }

 private:
  /// formats_[row]: how a numeric cell's text is made from its value.
  static constexpr std::uint8_t kShortest = 0;  ///< std::to_chars(value)
  static constexpr std::uint8_t kAsText = 255;  ///< the text in exceptionText_
  /// Otherwise 1 + d: std::to_chars(value, fixed, d).

  void appendPlainSlowly(const PlainNumber& number, std::string_view text);
  void appendFormatted(double value, std::string_view text, std::uint8_t format);

  Kind kind_ = Kind::absent;
  std::vector<double> values_;
  std::size_t numbers_ = 0;  ///< numeric cells appended
  /// Empty while every cell is in the shortest form (the common case: no byte per cell).
  std::vector<std::uint8_t> formats_;
  /// Rows whose text is kept, ascending, and where each one's text ends in exceptionText_.
  std::vector<std::uint32_t> exceptionRows_;
  std::vector<std::uint32_t> exceptionEnds_;
  std::string exceptionText_;
  std::vector<std::string> levels_;
  std::vector<std::uint32_t> codes_;
  /// Level text → index while the column is built.
  struct LevelIndex;
  std::shared_ptr<LevelIndex> index_;
};

/// The kept records' covariate cells of a Dataset, with what a synthetic file needs besides:
/// the file's column names, delimiter and column information. CONFIDENTIAL like the data: only
/// the declared covariates are held at all (SPEC §0), and only they may leave.
struct SourceTable {
  std::string file;                 ///< path as given (for messages)
  char delimiter = ',';             ///< the input's, kept by synthetic CSV files
  std::vector<std::string> header;  ///< every column name of the input, in its order
  /// Empty for a CSV; for a statistical file one entry per column (column_info.h).
  std::vector<ColumnInfo> columns;
  /// One per header column: the declared covariates hold their kept records' cells, the other
  /// columns (the outcome included) are absent.
  std::vector<SourceColumn> cells;
  std::size_t records = 0;  ///< kept records

  std::size_t size() const { return records; }
  bool empty() const { return records == 0; }
  const ColumnInfo* info(std::size_t column) const {
    return column < columns.size() ? &columns[column] : nullptr;
  }
  /// Throws DataError (as CsvTable::columnIndex) if absent.
  std::size_t columnIndex(const std::string& name) const;
  /// Whether column `column` holds cells (a declared covariate).
  bool holds(std::size_t column) const {
    return column < cells.size() && cells[column].kind() != SourceColumn::Kind::absent;
  }
  /// The text of a held column's cell; throws std::logic_error for a column that is not held
  /// and for a numeric one whose numbers live in the design (read those through
  /// data::SourceCells, dataset.h).
  CellText cell(std::size_t row, std::size_t column) const;
};

}  // namespace dpsynth::core::data
