#pragma once
/// Text from a data file (a value, a column name) quoted into a one-line message. Files are not
/// trusted: a field can be 10 MB long or hold terminal escape sequences, and neither may reach
/// the user's terminal whole. Every message that echoes file content goes through this helper.
#include <cstddef>
#include <string>
#include <string_view>

namespace dpsynth::core::data {

/// How many characters (code points) of a value a message shows.
inline constexpr std::size_t kQuotedValueChars = 60;

/// `text` in single quotes, at most `maxChars` code points, e.g. `'abc'`. Control characters
/// (C0, DEL and the C1 range, which includes the 8-bit CSI that terminals obey) and bytes that
/// are not UTF-8 are shown escaped as `\xNN` (`\n`, `\r`, `\t` as such); a longer value is
/// cut with `...` followed by its size in bytes, so the message stays short and on one line.
std::string quoteForMessage(std::string_view text, std::size_t maxChars = kQuotedValueChars);

}  // namespace dpsynth::core::data
