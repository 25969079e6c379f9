#pragma once
/// The cells of a CSV table, stored flat: every cell's text back to back in one buffer plus
/// one end offset per cell. A table of 10^6 records × 5 columns was 5·10^6 std::strings and 10^6
/// vectors (an allocation per row and per long cell, most of the import's time); here it is two
/// allocations. Cells are read as std::string_view. Copies share the buffer (copy on write), so
/// a Dataset keeping its source rows costs nothing when no row was dropped.
#include <compare>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace dpsynth::core::data {

namespace detail {

/// A random-access iterator over owner[0..size) by index; operator* returns owner[i] by value
/// (a view), so `for (const auto& row : rows)` binds a temporary, as with std::vector<bool>.
template <typename Owner, typename Value>
class IndexIterator {
 public:
  using iterator_category = std::random_access_iterator_tag;
  using iterator_concept = std::random_access_iterator_tag;
  using value_type = Value;
  using difference_type = std::ptrdiff_t;
  using reference = Value;
  using pointer = void;

  IndexIterator() = default;
  IndexIterator(const Owner* owner, std::size_t index) : owner_(owner), index_(index) {}

  Value operator*() const { return (*owner_)[index_]; }
  Value operator[](difference_type n) const {
    return (*owner_)[static_cast<std::size_t>(static_cast<difference_type>(index_) + n)];
  }
  IndexIterator& operator++() { ++index_; return *this; }
  IndexIterator operator++(int) { auto old = *this; ++index_; return old; }
  IndexIterator& operator--() { --index_; return *this; }
  IndexIterator operator--(int) { auto old = *this; --index_; return old; }
  IndexIterator& operator+=(difference_type n) {
    index_ = static_cast<std::size_t>(static_cast<difference_type>(index_) + n);
    return *this;
  }
  IndexIterator& operator-=(difference_type n) { return *this += -n; }
  friend IndexIterator operator+(IndexIterator it, difference_type n) { return it += n; }
  friend IndexIterator operator+(difference_type n, IndexIterator it) { return it += n; }
  friend IndexIterator operator-(IndexIterator it, difference_type n) { return it -= n; }
  friend difference_type operator-(const IndexIterator& a, const IndexIterator& b) {
    return static_cast<difference_type>(a.index_) - static_cast<difference_type>(b.index_);
  }
  friend bool operator==(const IndexIterator& a, const IndexIterator& b) {
    return a.index_ == b.index_;
  }
  friend auto operator<=>(const IndexIterator& a, const IndexIterator& b) {
    return a.index_ <=> b.index_;
  }

 private:
  const Owner* owner_ = nullptr;
  std::size_t index_ = 0;
};

/// The shared storage: cell k (= row · columns + column) is text[ends[k-1] .. ends[k]) with
/// ends[-1] = 0. 32-bit offsets: input is capped far below 4 GiB (kMaxInputBytes).
struct CsvCells {
  std::string text;
  std::vector<std::uint32_t> ends;
};

}  // namespace detail

/// One record of a CsvRows: a view that is valid while the CsvRows it came from is alive and
/// unchanged.
class CsvRow {
 public:
  using iterator = detail::IndexIterator<CsvRow, std::string_view>;

  CsvRow() = default;
  std::size_t size() const { return columns_; }
  bool empty() const { return columns_ == 0; }
  std::string_view operator[](std::size_t column) const {
    const std::size_t k = first_ + column;
    const std::uint32_t begin = k == 0 ? 0 : cells_->ends[k - 1];
    return {cells_->text.data() + begin, cells_->ends[k] - begin};
  }
  /// Throws std::out_of_range for a column past the end.
  std::string_view at(std::size_t column) const;
  iterator begin() const { return {this, 0}; }
  iterator end() const { return {this, columns_}; }
  /// The cells as strings (for code that keeps a record beyond the table's life).
  std::vector<std::string> toStrings() const;

  friend bool operator==(const CsvRow& a, const CsvRow& b);
  friend bool operator==(const CsvRow& a, const std::vector<std::string>& b);

 private:
  friend class CsvRows;
  CsvRow(const detail::CsvCells* cells, std::size_t first, std::size_t columns)
      : cells_(cells), first_(first), columns_(columns) {}

  const detail::CsvCells* cells_ = nullptr;
  std::size_t first_ = 0;  ///< index of the record's first cell
  std::size_t columns_ = 0;
};

/// Records of equal width. The width is set by the constructor or by the first record added;
/// a record of another width is refused (std::invalid_argument).
class CsvRows {
 public:
  using iterator = detail::IndexIterator<CsvRows, CsvRow>;
  using const_iterator = iterator;
  using value_type = CsvRow;
  using size_type = std::size_t;

  CsvRows() = default;
  explicit CsvRows(std::size_t columns) : columns_(columns) {}

  std::size_t size() const { return rows_; }
  bool empty() const { return rows_ == 0; }
  /// Cells per record (0 until the first record when not given to the constructor).
  std::size_t columns() const { return columns_; }
  /// The text of all cells, in bytes (what the buffer holds).
  std::size_t textBytes() const { return cells_ ? cells_->text.size() : 0; }

  CsvRow operator[](std::size_t row) const { return {cells_.get(), row * columns_, columns_}; }
  /// Throws std::out_of_range for a row past the end.
  CsvRow at(std::size_t row) const;
  CsvRow front() const { return (*this)[0]; }
  CsvRow back() const { return (*this)[rows_ - 1]; }
  iterator begin() const { return {this, 0}; }
  iterator end() const { return {this, rows_}; }

  /// Room for `rows` records of `textBytes` bytes in all, so that appending does not reallocate.
  void reserve(std::size_t rows, std::size_t textBytes = 0);
  void push_back(const std::vector<std::string>& record);
  void push_back(std::initializer_list<std::string_view> record);
  void push_back(const CsvRow& record);

  /// Appends one cell of the record being built; endRecord() closes it after `columns()` cells.
  /// The parser's way in (once per cell, so inline): no temporary strings. Throws
  /// std::length_error past 4 GiB of text.
  void appendCell(std::string_view cell) {
    detail::CsvCells& cells = cells_ && cells_.use_count() == 1 ? *cells_ : mutableCells();
    if (cells.text.size() + cell.size() > kMaxTextBytes) throwTooLong();
    cells.text.append(cell);
    cells.ends.push_back(static_cast<std::uint32_t>(cells.text.size()));
  }
  void endRecord();
  /// Drops the cells appended since the last endRecord().
  void discardOpenRecord();

  /// The records at `indices` (in that order); shares the storage when they are all of them in
  /// order.
  CsvRows select(const std::vector<std::size_t>& indices) const;

  /// Records as strings, e.g. for formatCsv's vector form.
  std::vector<std::vector<std::string>> toVectors() const;

  friend bool operator==(const CsvRows& a, const CsvRows& b);
  friend bool operator==(const CsvRows& a, const std::vector<std::vector<std::string>>& b);

 private:
  static constexpr std::size_t kMaxTextBytes = UINT32_MAX;
  [[noreturn]] static void throwTooLong();
  detail::CsvCells& mutableCells();

  std::size_t columns_ = 0;
  std::size_t rows_ = 0;
  std::shared_ptr<detail::CsvCells> cells_;
};

}  // namespace dpsynth::core::data
