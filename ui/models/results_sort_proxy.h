#pragma once
/// Sorting for the results table: by the exact values (Qt::UserRole), numbers as numbers, n/a
/// last, and the "confidential" reference row always first whatever the order.
#include <QSortFilterProxyModel>

namespace dpsynth::ui {

class ResultsSortProxy : public QSortFilterProxyModel {
  Q_OBJECT

 public:
  explicit ResultsSortProxy(QObject* parent = nullptr);

 protected:
  bool lessThan(const QModelIndex& left, const QModelIndex& right) const override;
};

}  // namespace dpsynth::ui
