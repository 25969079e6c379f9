#include "core/data/quote_value.h"

#include <cstdio>

namespace dpsynth::core::data {
namespace {

void appendHex(std::string& out, unsigned int byte) {
  char buffer[8];
  std::snprintf(buffer, sizeof buffer, "\\x%02x", byte & 0xFFu);
  out += buffer;
}

/// Length of the valid UTF-8 sequence starting at text[i] (2 to 4), or 0 when it is not one.
std::size_t utf8Length(std::string_view text, std::size_t i) {
  const auto c = static_cast<unsigned char>(text[i]);
  std::size_t length = 0;
  unsigned char low = 0x80, high = 0xBF;
  if (c >= 0xC2 && c <= 0xDF) {
    length = 2;
  } else if (c >= 0xE0 && c <= 0xEF) {
    length = 3;
    if (c == 0xE0) low = 0xA0;
    if (c == 0xED) high = 0x9F;
  } else if (c >= 0xF0 && c <= 0xF4) {
    length = 4;
    if (c == 0xF0) low = 0x90;
    if (c == 0xF4) high = 0x8F;
  } else {
    return 0;
  }
  if (i + length > text.size()) return 0;
  const auto second = static_cast<unsigned char>(text[i + 1]);
  if (second < low || second > high) return 0;
  for (std::size_t k = 2; k < length; ++k) {
    const auto next = static_cast<unsigned char>(text[i + k]);
    if (next < 0x80 || next > 0xBF) return 0;
  }
  return length;
}

}  // namespace

std::string quoteForMessage(std::string_view text, std::size_t maxChars) {
  std::string out = "'";
  std::size_t i = 0, shown = 0;
  while (i < text.size() && shown < maxChars) {
    const auto c = static_cast<unsigned char>(text[i]);
    ++shown;
    if (c < 0x80) {
      if (c == '\n') {
        out += "\\n";
      } else if (c == '\r') {
        out += "\\r";
      } else if (c == '\t') {
        out += "\\t";
      } else if (c < 0x20 || c == 0x7F) {
        appendHex(out, c);
      } else {
        out += static_cast<char>(c);
      }
      ++i;
      continue;
    }
    const std::size_t length = utf8Length(text, i);
    // U+0080..U+009F (C2 80..C2 9F) are the C1 controls; U+009B is a one-byte CSI.
    const bool c1Control =
        length == 2 && c == 0xC2 && static_cast<unsigned char>(text[i + 1]) < 0xA0;
    if (length == 0) {
      appendHex(out, c);
      ++i;
    } else if (c1Control) {
      appendHex(out, c);
      appendHex(out, static_cast<unsigned char>(text[i + 1]));
      i += length;
    } else {
      out.append(text.substr(i, length));
      i += length;
    }
  }
  out += '\'';
  if (i < text.size()) out += "... (" + std::to_string(text.size()) + " bytes)";
  return out;
}

}  // namespace dpsynth::core::data
