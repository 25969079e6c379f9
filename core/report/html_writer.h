#pragma once
/// Small building blocks for the self-contained HTML reports: escaping, number display, tables
/// and the page skeleton with its inline (screen + A4 print) stylesheet. No scripts, no external
/// files, nothing that depends on the time or the locale: the same run gives the same bytes.
#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace dpsynth::core::report {

/// Text for HTML element content and attribute values: & < > " ' become entities.
std::string escapeHtml(std::string_view text);

/// A number for reading: 6 significant digits in the C locale whatever the process locale
/// ("100.312", "0.0123457", "1.5e-07"), "n/a" for NaN, "∞" / "−∞" for infinities.
std::string displayNumber(double value);

/// A table whose header and cells are plain text (escaped here). Numeric-looking cells are
/// right-aligned by the stylesheet through the "num" class on every column but the first.
std::string htmlTable(const std::vector<std::string>& header,
                      const std::vector<std::vector<std::string>>& rows);

/// Label/value pairs as a two-column definition table (both escaped).
std::string htmlFacts(const std::vector<std::pair<std::string, std::string>>& facts);

/// A bulleted list of plain-text items (escaped); `empty` is shown when there are none.
std::string htmlList(const std::vector<std::string>& items, const std::string& empty);

/// A complete UTF-8 HTML5 document: `title` is plain text, `body` is already HTML.
std::string htmlPage(const std::string& title, const std::string& body);

}  // namespace dpsynth::core::report
