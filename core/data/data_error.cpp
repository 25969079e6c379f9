#include "core/data/data_error.h"

#include <utility>

namespace dpsynth::core::data {
namespace {

bool endsWithPunctuation(const std::string& text) {
  if (text.empty()) return false;
  const char last = text.back();
  return last == '.' || last == '!' || last == '?' || last == ':';
}

/// One line, the same everywhere (CLI, studio, logs): `FILE:LINE: column 'C': PROBLEM. HINT`.
/// Editors and IDEs recognise the `FILE:LINE:` prefix and jump to the place.
std::string composeMessage(const std::string& file, std::size_t row, const std::string& column,
                           const std::string& problem, const std::string& hint) {
  std::string message;
  if (!file.empty()) {
    message += file;
    if (row > 0) message += ':' + std::to_string(row);
    message += ": ";
  } else if (row > 0) {
    message += "line " + std::to_string(row) + ": ";
  }
  if (!column.empty()) message += "column '" + column + "': ";
  message += problem;
  if (!problem.empty() && !endsWithPunctuation(problem)) message += '.';
  if (!hint.empty()) {
    if (!problem.empty()) message += ' ';
    message += hint;
  }
  // Values quoted into messages come from the file: keep the message on one line.
  for (char& c : message) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  return message;
}

}  // namespace

DataError::DataError(std::string file, std::size_t row, std::string column, std::string problem,
                     std::string hint)
    : std::runtime_error(composeMessage(file, row, column, problem, hint)),
      file_(std::move(file)),
      row_(row),
      column_(std::move(column)),
      problem_(std::move(problem)),
      hint_(std::move(hint)) {}

}  // namespace dpsynth::core::data
