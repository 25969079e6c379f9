#include "ui/models/csv_preview_model.h"

namespace dpsynth::ui {

CsvPreviewModel::CsvPreviewModel(QObject* parent) : QAbstractTableModel(parent) {}

void CsvPreviewModel::setTable(std::shared_ptr<const core::data::CsvTable> table) {
  beginResetModel();
  table_ = std::move(table);
  endResetModel();
}

int CsvPreviewModel::rowCount(const QModelIndex& parent) const {
  if (parent.isValid() || !table_) return 0;
  return static_cast<int>(std::min<std::size_t>(table_->rows.size(), kPreviewRows));
}

int CsvPreviewModel::columnCount(const QModelIndex& parent) const {
  if (parent.isValid() || !table_) return 0;
  return static_cast<int>(table_->header.size());
}

QVariant CsvPreviewModel::data(const QModelIndex& index, int role) const {
  if (!table_ || !index.isValid()) return {};
  if (role != Qt::DisplayRole && role != Qt::ToolTipRole) return {};
  const std::string_view cell = table_->rows.at(static_cast<std::size_t>(index.row()))
                                    .at(static_cast<std::size_t>(index.column()));
  return QString::fromUtf8(cell.data(), static_cast<qsizetype>(cell.size()));
}

QVariant CsvPreviewModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (!table_) return {};
  if (orientation == Qt::Vertical && role == Qt::ToolTipRole) {
    // The numbers are the file's lines (the header is line 1), as error messages cite them.
    return tr("Line %1 of the file (the header is line 1)")
        .arg(headerData(section, orientation, Qt::DisplayRole).toString());
  }
  if (role != Qt::DisplayRole) return {};
  if (orientation == Qt::Horizontal) {
    return QString::fromStdString(table_->header.at(static_cast<std::size_t>(section)));
  }
  const auto s = static_cast<std::size_t>(section);
  if (s < table_->lineOfRow.size()) return QVariant::fromValue(table_->lineOfRow[s]);
  return section + 2;
}

}  // namespace dpsynth::ui
