#include "ui/workspaces/study/study_rows.h"

#include <algorithm>
#include <stdexcept>

#include "core/study/study_runner.h"

namespace dpsynth::ui {

QString StudyCellValues::label() const {
  QStringList keys;
  if (!epsilon.isEmpty()) keys << QStringLiteral("ε=%1").arg(epsilon);
  if (!c.isEmpty() && c != QLatin1String("1")) keys << QStringLiteral("c=%1").arg(c);
  if (!g.isEmpty() && g != QLatin1String("0")) keys << QStringLiteral("g=%1").arg(g);
  if (!downscale.isEmpty()) keys << QStringLiteral("d=%1").arg(downscale);
  return keys.isEmpty() ? mechanism : mechanism + QLatin1Char('\n') + keys.join(QLatin1Char(' '));
}

std::size_t StudyRowSet::column(const std::string& name) {
  static const auto header = core::study::studyHeader();
  const auto it = std::find(header.begin(), header.end(), name);
  if (it == header.end()) throw std::out_of_range("study rows: no column '" + name + "'");
  return static_cast<std::size_t>(it - header.begin());
}

void StudyRowSet::clear() {
  rows_.clear();
  cells_.clear();
  rowsOfCell_.clear();
}

void StudyRowSet::add(const std::vector<std::vector<std::string>>& rows) {
  for (const auto& row : rows) {
    if (row.size() < 7) continue;
    const QString cell = QString::fromStdString(row[1]);
    auto it = std::find_if(cells_.begin(), cells_.end(),
                           [&](const StudyCellValues& c) { return c.cell == cell; });
    if (it == cells_.end()) {
      StudyCellValues values{cell,
                             QString::fromStdString(row[2]),
                             QString::fromStdString(row[3]),
                             QString::fromStdString(row[4]),
                             QString::fromStdString(row[5]),
                             QString::fromStdString(row[6])};
      // The confidential rows (cell "") go first, the cells in their own order after them.
      if (cell.isEmpty()) {
        cells_.insert(cells_.begin(), values);
        rowsOfCell_.insert(rowsOfCell_.begin(), std::vector<std::size_t>{});
        it = cells_.begin();
      } else {
        cells_.push_back(values);
        rowsOfCell_.emplace_back();
        it = cells_.end() - 1;
      }
    }
    rowsOfCell_[static_cast<std::size_t>(it - cells_.begin())].push_back(rows_.size());
    rows_.push_back(row);
  }
}

std::vector<double> StudyRowSet::values(std::size_t index, const std::string& name) const {
  const std::size_t col = column(name);
  std::vector<double> out;
  for (std::size_t r : rowsOfCell_.at(index)) {
    const std::string& field = rows_[r][col];
    if (field.empty()) continue;
    try {
      out.push_back(std::stod(field));
    } catch (const std::exception&) {
      // a text column ("true"/"false"): not a number to plot
    }
  }
  return out;
}

}  // namespace dpsynth::ui
