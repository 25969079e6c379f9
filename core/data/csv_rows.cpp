#include "core/data/csv_rows.h"

#include <stdexcept>

namespace dpsynth::core::data {

std::string_view CsvRow::at(std::size_t column) const {
  if (column >= columns_) {
    throw std::out_of_range("CsvRow::at: column " + std::to_string(column) + " of " +
                            std::to_string(columns_));
  }
  return (*this)[column];
}

std::vector<std::string> CsvRow::toStrings() const {
  std::vector<std::string> out;
  out.reserve(columns_);
  for (const std::string_view cell : *this) out.emplace_back(cell);
  return out;
}

bool operator==(const CsvRow& a, const CsvRow& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t c = 0; c < a.size(); ++c) {
    if (a[c] != b[c]) return false;
  }
  return true;
}

bool operator==(const CsvRow& a, const std::vector<std::string>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t c = 0; c < a.size(); ++c) {
    if (a[c] != b[c]) return false;
  }
  return true;
}

CsvRow CsvRows::at(std::size_t row) const {
  if (row >= rows_) {
    throw std::out_of_range("CsvRows::at: row " + std::to_string(row) + " of " +
                            std::to_string(rows_));
  }
  return (*this)[row];
}

detail::CsvCells& CsvRows::mutableCells() {
  if (!cells_) {
    cells_ = std::make_shared<detail::CsvCells>();
  } else if (cells_.use_count() > 1) {
    // Another copy shares the cells: this one gets its own before it changes.
    cells_ = std::make_shared<detail::CsvCells>(*cells_);
  }
  return *cells_;
}

void CsvRows::reserve(std::size_t rows, std::size_t textBytes) {
  auto& cells = mutableCells();
  if (columns_ > 0) cells.ends.reserve(rows * columns_);
  cells.text.reserve(textBytes);
}

void CsvRows::throwTooLong() {
  throw std::length_error("a CSV table holds at most 4 GiB of text");
}

void CsvRows::endRecord() {
  const std::size_t open = (cells_ ? cells_->ends.size() : 0) - rows_ * columns_;
  if (rows_ == 0 && columns_ == 0) columns_ = open;
  if (open != columns_) {
    discardOpenRecord();
    throw std::invalid_argument("CsvRows: a record of " + std::to_string(open) +
                                " fields in a table of " + std::to_string(columns_) + " columns");
  }
  ++rows_;
}

void CsvRows::discardOpenRecord() {
  if (!cells_) return;
  auto& cells = mutableCells();
  const std::size_t kept = rows_ * columns_;
  if (cells.ends.size() == kept) return;
  cells.ends.resize(kept);
  cells.text.resize(kept == 0 ? 0 : cells.ends.back());
}

void CsvRows::push_back(const std::vector<std::string>& record) {
  for (const auto& cell : record) appendCell(cell);
  endRecord();
}

void CsvRows::push_back(std::initializer_list<std::string_view> record) {
  for (const auto cell : record) appendCell(cell);
  endRecord();
}

void CsvRows::push_back(const CsvRow& record) {
  if (cells_ && record.cells_ == cells_.get()) {
    push_back(record.toStrings());  // appending would move the cells it reads from
    return;
  }
  for (const std::string_view cell : record) appendCell(cell);
  endRecord();
}

CsvRows CsvRows::select(const std::vector<std::size_t>& indices) const {
  bool all = indices.size() == rows_;
  for (std::size_t i = 0; all && i < indices.size(); ++i) all = indices[i] == i;
  if (all) return *this;
  CsvRows out(columns_);
  std::size_t bytes = 0;
  for (const std::size_t r : indices) {
    const CsvRow row = at(r);
    const std::size_t first = row.first_;
    const std::uint32_t begin = first == 0 ? 0 : cells_->ends[first - 1];
    bytes += cells_->ends[first + columns_ - 1] - begin;
  }
  out.reserve(indices.size(), bytes);
  for (const std::size_t r : indices) out.push_back((*this)[r]);
  return out;
}

std::vector<std::vector<std::string>> CsvRows::toVectors() const {
  std::vector<std::vector<std::string>> out;
  out.reserve(rows_);
  for (const CsvRow row : *this) out.push_back(row.toStrings());
  return out;
}

bool operator==(const CsvRows& a, const CsvRows& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t r = 0; r < a.size(); ++r) {
    if (!(a[r] == b[r])) return false;
  }
  return true;
}

bool operator==(const CsvRows& a, const std::vector<std::vector<std::string>>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t r = 0; r < a.size(); ++r) {
    if (!(a[r] == b[r])) return false;
  }
  return true;
}

}  // namespace dpsynth::core::data
