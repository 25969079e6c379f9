#include "ui/workspaces/study/study_rows.h"

#include <algorithm>
#include <stdexcept>

namespace dpsynth::ui {

namespace study = core::study;

QString StudyCellValues::label() const {
  QStringList keys;
  if (!epsilon.isEmpty()) keys << QStringLiteral("ε=%1").arg(epsilon);
  if (!c.isEmpty() && c != QLatin1String("1")) keys << QStringLiteral("c=%1").arg(c);
  if (!g.isEmpty() && g != QLatin1String("0")) keys << QStringLiteral("g=%1").arg(g);
  if (!downscale.isEmpty()) keys << QStringLiteral("d=%1").arg(downscale);
  return keys.isEmpty() ? mechanism : mechanism + QLatin1Char('\n') + keys.join(QLatin1Char(' '));
}

void StudyRowSet::clear() {
  rows_.clear();
  cells_.clear();
  rowsOfCell_.clear();
  skipped_ = 0;
}

void StudyRowSet::add(const std::vector<std::vector<std::string>>& rows) {
  std::vector<study::StudyRow> typed;
  typed.reserve(rows.size());
  for (const auto& fields : rows) {
    try {
      typed.push_back(study::studyRowFromCsv(fields));
    } catch (const std::invalid_argument&) {
      ++skipped_;  // not a row of this layout (a damaged replicates.csv): nothing to show
    }
  }
  add(typed);
}

void StudyRowSet::add(const std::vector<study::StudyRow>& rows) {
  for (const auto& row : rows) {
    auto it = std::find_if(cells_.begin(), cells_.end(),
                           [&](const StudyCellValues& c) { return c.cell == row.cell; });
    if (it == cells_.end()) {
      StudyCellValues values{row.cell,
                             QString::fromStdString(row.keys.mechanism),
                             QString::fromStdString(row.keys.epsilonText()),
                             QString::fromStdString(row.keys.cText()),
                             QString::fromStdString(row.keys.gText()),
                             QString::fromStdString(row.keys.downscaleText()),
                             row.keys,
                             false};
      // The confidential rows go first, the cells in their own order after them.
      if (row.isConfidential()) {
        cells_.insert(cells_.begin(), values);
        rowsOfCell_.insert(rowsOfCell_.begin(), std::vector<std::size_t>{});
        it = cells_.begin();
      } else {
        cells_.push_back(values);
        rowsOfCell_.emplace_back();
        it = cells_.end() - 1;
      }
    }
    it->marginalOnly = it->marginalOnly || (!row.isConfidential() && row.results.marginalOnly);
    rowsOfCell_[static_cast<std::size_t>(it - cells_.begin())].push_back(rows_.size());
    rows_.push_back(row);
  }
}

std::vector<double> StudyRowSet::values(std::size_t index, const std::string& column) const {
  std::vector<double> out;
  for (std::size_t r : rowsOfCell_.at(index))
    if (const auto v = rows_[r].number(column)) out.push_back(*v);
  return out;
}

}  // namespace dpsynth::ui
