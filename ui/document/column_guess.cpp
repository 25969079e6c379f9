#include "ui/document/column_guess.h"

#include <QString>
#include <QStringList>
#include <algorithm>
#include <cmath>
#include <limits>
#include <unordered_set>

#include "core/data/value_parsing.h"

namespace dpsynth::ui {

namespace data = core::data;

namespace {

/// Mostly numbers, or no records to say otherwise (a header alone).
bool isNumericColumn(const data::CsvTable& table, std::size_t c) {
  if (const data::ColumnInfo* info = table.info(c);
      info && (info->isDateOrTime() || info->labelsAreLevels))
    return false;
  if (table.rows.empty()) return true;
  std::size_t numbers = 0, present = 0;
  for (const data::CsvRow row : table.rows) {
    if (data::isMissingValue(row[c])) continue;
    ++present;
    if (data::parseNumber(row[c])) ++numbers;
  }
  return present > 0 && 2 * numbers > present;
}

/// A name an identifier or a code goes by: "id", "person_id", "postcode", "ZIP", "serial".
bool idLikeName(const std::string& name) {
  QString n = QString::fromStdString(name).toLower();
  n.replace(QLatin1Char('-'), QLatin1Char('_')).replace(QLatin1Char(' '), QLatin1Char('_'));
  const QStringList words = n.split(QLatin1Char('_'), Qt::SkipEmptyParts);
  for (const QString& w : words)
    if (w == QLatin1String("id") || w == QLatin1String("ids") || w == QLatin1String("identifier") ||
        w == QLatin1String("postcode") || w == QLatin1String("zip") ||
        w == QLatin1String("zipcode") || w == QLatin1String("postal") ||
        w == QLatin1String("serial") || w == QLatin1String("uuid") || w == QLatin1String("key"))
      return true;
  return n.endsWith(QLatin1String("id")) && n.size() <= 8 && !n.contains(QLatin1String("mid"));
}

}  // namespace

std::vector<std::string> idLikeColumns(const data::CsvTable& table) {
  std::vector<std::string> out;
  for (std::size_t c = 0; c < table.header.size(); ++c) {
    if (idLikeName(table.header[c])) {
      out.push_back(table.header[c]);
      continue;
    }
    // Every value distinct over 20 records or more, and either text or whole numbers packed as
    // densely as row numbers: a key, not a measurement (an income is distinct but spread out).
    if (table.rows.size() < 20) continue;
    std::unordered_set<std::string_view> seen;
    bool distinct = true, whole = true, text = false;
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    for (const data::CsvRow row : table.rows) {
      if (!seen.insert(row[c]).second) {
        distinct = false;
        break;
      }
      const auto v = data::parseNumber(row[c]);
      if (!v) {
        text = true;
      } else {
        whole = whole && *v == std::floor(*v);
        lo = std::min(lo, *v);
        hi = std::max(hi, *v);
      }
    }
    const double n = double(table.rows.size());
    if (distinct && (text || (whole && hi - lo + 1 <= 2 * n))) out.push_back(table.header[c]);
  }
  return out;
}

std::vector<std::string> outcomeCandidates(const data::CsvTable& table,
                                           const std::vector<std::string>& ids) {
  std::vector<std::string> out;
  for (std::size_t c = 0; c < table.header.size(); ++c) {
    if (std::find(ids.begin(), ids.end(), table.header[c]) != ids.end()) continue;
    if (isNumericColumn(table, c)) out.push_back(table.header[c]);
  }
  return out;
}

}  // namespace dpsynth::ui
