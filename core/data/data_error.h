#pragma once
/// The error type for bad input data. It carries where the problem is (file, 1-based row as an
/// editor shows it, column name), what is wrong and what the user can do, so every front end can
/// show the same clear one-line message.
#include <cstddef>
#include <stdexcept>
#include <string>

#include "core/error.h"

namespace dpsynth::core::data {

class DataError : public core::Error {
 public:
  /// row: 1-based line number in the file (the header is line 1); 0 when not about one row.
  /// column: column name, empty when not about one column.
  DataError(std::string file, std::size_t row, std::string column, std::string problem,
            std::string hint = {});

  const std::string& file() const { return file_; }
  std::size_t row() const { return row_; }
  const std::string& column() const { return column_; }
  const std::string& problem() const { return problem_; }
  const std::string& hint() const { return hint_; }

 private:
  std::string file_;
  std::size_t row_;
  std::string column_;
  std::string problem_;
  std::string hint_;
};

}  // namespace dpsynth::core::data
