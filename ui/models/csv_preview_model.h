#pragma once
/// Read-only table model over the first rows of a loaded CSV (the preview): a preview of a
/// million-row file must not cost a million rows of widgets.
#include <QAbstractTableModel>
#include <memory>

#include "core/data/csv_table.h"

namespace dpsynth::ui {

class CsvPreviewModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  static constexpr int kPreviewRows = 100;

  explicit CsvPreviewModel(QObject* parent = nullptr);

  void setTable(std::shared_ptr<const core::data::CsvTable> table);
  const core::data::CsvTable* table() const { return table_.get(); }

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  /// Columns: the CSV header; rows: the file line numbers.
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;

 private:
  std::shared_ptr<const core::data::CsvTable> table_;
};

}  // namespace dpsynth::ui
