#include "core/study/study_row.h"

#include <charconv>
#include <stdexcept>

#include "core/data/csv_writer.h"
#include "core/data/quote_value.h"

namespace dpsynth::core::study {
namespace {

constexpr std::size_t kKeyFields = 7;  // replicate, cell, cell_mechanism ... cell_downscale
constexpr std::size_t kDiagnosticFields = 3;

std::string optionalText(const std::optional<double>& v) {
  return v ? data::formatNumber(*v) : std::string();
}

[[noreturn]] void badStudyField(const std::string& column, const std::string& text,
                                const char* what) {
  throw std::invalid_argument("study row: column '" + column +
                              "': " + data::quoteForMessage(text, 40) + " is not " + what);
}

std::optional<double> studyNumber(const std::string& column, const std::string& text) {
  try {
    return summary::csvNumber(column, text);
  } catch (const std::invalid_argument&) {
    badStudyField(column, text, "a number");
  }
}

template <class T>
std::optional<T> studyInteger(const std::string& column, const std::string& text) {
  if (text.empty()) return std::nullopt;
  T v{};
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size())
    badStudyField(column, text, "a whole number");
  return v;
}

}  // namespace

std::string CellKeys::epsilonText() const { return optionalText(epsilon); }
std::string CellKeys::cText() const { return optionalText(c); }
std::string CellKeys::gText() const { return optionalText(g); }
std::string CellKeys::downscaleText() const {
  if (!hasDownscale) return {};
  return downscale ? data::formatNumber(*downscale) : std::string("auto");
}

std::optional<double> StudyRow::number(const std::string& column) const {
  if (column == "divergences")
    return divergences ? std::optional<double>(static_cast<double>(*divergences)) : std::nullopt;
  if (column == "max_rhat") return maxRhat;
  if (column == "seconds") return seconds;
  if (column == "cell_epsilon") return keys.epsilon;
  if (column == "cell_c") return keys.c;
  if (column == "cell_g") return keys.g;
  if (column == "cell_downscale") return keys.downscale;
  if (column == "replicate") return static_cast<double>(replicate);
  if (column == "cell") return cell ? std::optional<double>(*cell) : std::nullopt;
  return results.number(column);
}

const std::vector<std::string>& studyRowHeader() {
  static const std::vector<std::string> kHeader = [] {
    std::vector<std::string> h{"replicate", "cell",   "cell_mechanism", "cell_epsilon",
                               "cell_c",    "cell_g", "cell_downscale"};
    for (const auto& name : summary::resultsHeader()) h.push_back(name);
    for (const char* name : {"divergences", "max_rhat", "seconds"}) h.push_back(name);
    return h;
  }();
  return kHeader;
}

std::vector<std::string> studyCsvFields(const StudyRow& row) {
  std::vector<std::string> out{std::to_string(row.replicate),
                               row.cell ? std::to_string(*row.cell) : std::string(),
                               row.keys.mechanism,
                               row.keys.epsilonText(),
                               row.keys.cText(),
                               row.keys.gText(),
                               row.keys.downscaleText()};
  const auto results = summary::resultsCsvFields(row.results);
  out.insert(out.end(), results.begin(), results.end());
  out.push_back(row.divergences ? std::to_string(*row.divergences) : std::string());
  out.push_back(optionalText(row.maxRhat));
  out.push_back(optionalText(row.seconds));
  return out;
}

StudyRow studyRowFromCsv(const std::vector<std::string>& fields) {
  const auto& header = studyRowHeader();
  if (fields.size() != header.size())
    throw std::invalid_argument("study row: " + std::to_string(fields.size()) +
                                " fields where the header has " + std::to_string(header.size()));
  StudyRow row;
  row.replicate = studyInteger<int>(header[0], fields[0]).value_or(0);
  if (fields[0].empty()) badStudyField(header[0], fields[0], "a whole number");
  row.cell = studyInteger<int>(header[1], fields[1]);
  row.keys.mechanism = fields[2];
  row.keys.epsilon = studyNumber(header[3], fields[3]);
  row.keys.c = studyNumber(header[4], fields[4]);
  row.keys.g = studyNumber(header[5], fields[5]);
  row.keys.hasDownscale = !fields[6].empty();
  if (fields[6] != "auto") row.keys.downscale = studyNumber(header[6], fields[6]);
  const std::size_t results = summary::resultsHeader().size();
  row.results = summary::resultsRowFromCsv(
      std::vector<std::string>(fields.begin() + kKeyFields,
                               fields.begin() + static_cast<std::ptrdiff_t>(kKeyFields + results)));
  const std::size_t d = kKeyFields + results;
  static_assert(kDiagnosticFields == 3);
  row.divergences = studyInteger<long long>(header[d], fields[d]);
  row.maxRhat = studyNumber(header[d + 1], fields[d + 1]);
  row.seconds = studyNumber(header[d + 2], fields[d + 2]);
  return row;
}

std::vector<StudyRow> studyRowsFromCsv(const std::vector<std::vector<std::string>>& rows) {
  std::vector<StudyRow> out;
  out.reserve(rows.size());
  for (const auto& r : rows) out.push_back(studyRowFromCsv(r));
  return out;
}

}  // namespace dpsynth::core::study
