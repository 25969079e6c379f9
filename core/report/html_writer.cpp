#include "core/report/html_writer.h"

#include <charconv>
#include <cmath>

namespace dpsynth::core::report {

namespace {

/// Print is the format that matters for archiving (Print → Save as PDF gives the A4 document);
/// the screen style only keeps lines readable.
constexpr const char* kStyle = R"css(
:root { --ink: #1b1f24; --muted: #5b6470; --rule: #d0d5dc; --accent: #1f5f99; }
* { box-sizing: border-box; }
body { font-family: "DejaVu Sans", "Segoe UI", Helvetica, Arial, sans-serif; color: var(--ink);
       font-size: 14px; line-height: 1.45; max-width: 980px; margin: 0 auto; padding: 16px 24px; }
h1 { font-size: 1.6em; margin: 0.6em 0 0.2em; }
h2 { font-size: 1.3em; margin: 1.4em 0 0.4em; border-bottom: 2px solid var(--rule);
     padding-bottom: 0.15em; color: var(--accent); }
h3 { font-size: 1.05em; margin: 1.1em 0 0.3em; }
p.meta, p.note { color: var(--muted); font-size: 0.92em; }
.banner { font-weight: bold; padding: 8px 12px; border-radius: 4px; margin: 8px 0 12px;
          -webkit-print-color-adjust: exact; print-color-adjust: exact; }
.banner.confidential { background: #b3261e; color: #fff; letter-spacing: 0.04em; }
.banner.public { background: #e6f0e6; color: #1e4d2b; border: 1px solid #9cc29c; }
.banner.warning { background: #fff3cd; color: #5c4400; border: 1px solid #e0c36c; }
table { border-collapse: collapse; margin: 6px 0 10px; font-size: 0.9em; }
th, td { border-bottom: 1px solid var(--rule); padding: 3px 8px; text-align: left;
         vertical-align: top; }
th { background: #f1f3f6; font-weight: 600; -webkit-print-color-adjust: exact;
     print-color-adjust: exact; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
table.facts th { background: none; font-weight: 600; color: var(--muted); width: 15em; }
code, .mono { font-family: "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: 0.9em;
              word-break: break-all; }
figure { margin: 8px 0 14px; }
figure svg { max-width: 100%; height: auto; display: block; }
figcaption { color: var(--muted); font-size: 0.88em; margin-top: 2px; }
ul.warnings li { color: #7a4b00; }
@page { size: A4; margin: 15mm 13mm 16mm; }
@media print {
  body { max-width: none; margin: 0; padding: 0; font-size: 9.5pt; }
  h2 { break-after: avoid; }
  h3 { break-after: avoid; }
  section.mechanism { break-before: page; }
  table, figure, .banner { break-inside: avoid; }
  a { color: inherit; text-decoration: none; }
}
)css";

bool looksNumeric(const std::string& cell) {
  if (cell.empty()) return false;
  const char c = cell.front();
  return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || cell == "n/a" ||
         cell.rfind("∞", 0) == 0 || cell.rfind("−", 0) == 0;
}

}  // namespace

std::string escapeHtml(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string displayNumber(double value) {
  if (std::isnan(value)) return "n/a";
  if (std::isinf(value)) return value > 0 ? "∞" : "−∞";
  if (value == 0) return "0";  // also -0
  char buffer[64];
  const auto result =
      std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::general, 6);
  return std::string(buffer, result.ptr);
}

std::string htmlTable(const std::vector<std::string>& header,
                      const std::vector<std::vector<std::string>>& rows) {
  std::string html = "<table>\n<thead><tr>";
  for (std::size_t c = 0; c < header.size(); ++c)
    html += std::string(c == 0 ? "<th>" : "<th class=\"num\">") + escapeHtml(header[c]) + "</th>";
  html += "</tr></thead>\n<tbody>\n";
  for (const auto& row : rows) {
    html += "<tr>";
    for (std::size_t c = 0; c < row.size(); ++c) {
      const bool num = c > 0 && looksNumeric(row[c]);
      html += std::string(num ? "<td class=\"num\">" : "<td>") + escapeHtml(row[c]) + "</td>";
    }
    html += "</tr>\n";
  }
  html += "</tbody>\n</table>\n";
  return html;
}

std::string htmlFacts(const std::vector<std::pair<std::string, std::string>>& facts) {
  std::string html = "<table class=\"facts\">\n";
  for (const auto& [label, value] : facts)
    html += "<tr><th>" + escapeHtml(label) + "</th><td>" + escapeHtml(value) + "</td></tr>\n";
  html += "</table>\n";
  return html;
}

std::string htmlList(const std::vector<std::string>& items, const std::string& empty) {
  if (items.empty()) return "<p class=\"note\">" + escapeHtml(empty) + "</p>\n";
  std::string html = "<ul class=\"warnings\">\n";
  for (const auto& item : items) html += "<li>" + escapeHtml(item) + "</li>\n";
  html += "</ul>\n";
  return html;
}

std::string htmlPage(const std::string& title, const std::string& body) {
  return "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
         "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
         "<title>" +
         escapeHtml(title) + "</title>\n<style>" + kStyle + "</style>\n</head>\n<body>\n" + body +
         "</body>\n</html>\n";
}

}  // namespace dpsynth::core::report
