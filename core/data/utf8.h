#pragma once
/// UTF-8 validation, shared by the readers: dpsynth keeps text as UTF-8 and refuses what is not
/// (a CSV in another encoding; a string in an SPSS, Stata or SAS file that its declared encoding
/// does not explain), so every file it writes reads back.
#include <cstddef>
#include <string>
#include <string_view>

namespace dpsynth::core::data {

/// Offset of the first byte that breaks UTF-8 (overlong forms, surrogates and code points above
/// U+10FFFF included), or npos when the whole text is valid. Eight ASCII bytes at a time where
/// it can (most text is ASCII).
std::size_t firstInvalidUtf8(std::string_view text);

/// The text in Unicode normalisation form C (composed: "é" as one code point, as typed on most
/// systems, where macOS file names and some exports write "e" + U+0301). Text that is not valid
/// UTF-8 comes back unchanged. Used to match a column named on the command line with the same
/// name written in the file in another form.
std::string composedUtf8(std::string_view text);

}  // namespace dpsynth::core::data
