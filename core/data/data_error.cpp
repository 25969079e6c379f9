#include "core/data/data_error.h"

#include <cstdio>
#include <utility>

#include "core/data/quote_value.h"

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
  if (!column.empty()) message += "column " + quoteForMessage(column) + ": ";
  message += problem;
  if (!problem.empty() && !endsWithPunctuation(problem)) message += '.';
  if (!hint.empty()) {
    if (!problem.empty()) message += ' ';
    message += hint;
  }
  // Values quoted into messages come from the file (quoteForMessage shortens and escapes them);
  // as a safety net for text that did not go through it, keep the message on one line and let
  // no control character (an ANSI escape sequence starts with ESC) reach the terminal.
  std::string safe;
  safe.reserve(message.size());
  for (std::size_t i = 0; i < message.size(); ++i) {
    const char c = message[i];
    const auto byte = static_cast<unsigned char>(c);
    // C2 80..C2 9F encode the C1 controls; U+009B is an 8-bit CSI.
    const bool c1Control = byte == 0xC2 && i + 1 < message.size() &&
                           static_cast<unsigned char>(message[i + 1]) < 0xA0 &&
                           static_cast<unsigned char>(message[i + 1]) >= 0x80;
    if (c == '\n' || c == '\r') {
      safe += ' ';
    } else if (c1Control) {
      char escaped[16];
      std::snprintf(escaped, sizeof escaped, "\\xc2\\x%02x",
                    static_cast<unsigned char>(message[++i]));
      safe += escaped;
    } else if (byte < 0x20 || byte == 0x7F) {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\x%02x", byte);
      safe += escaped;
    } else {
      safe += c;
    }
  }
  return safe;
}

}  // namespace

DataError::DataError(std::string file, std::size_t row, std::string column, std::string problem,
                     std::string hint)
    : core::Error(Kind::badInput, composeMessage(file, row, column, problem, hint)),
      file_(std::move(file)),
      row_(row),
      column_(std::move(column)),
      problem_(std::move(problem)),
      hint_(std::move(hint)) {}

}  // namespace dpsynth::core::data
