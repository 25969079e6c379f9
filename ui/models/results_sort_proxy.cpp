#include "ui/models/results_sort_proxy.h"

namespace dpsynth::ui {

ResultsSortProxy::ResultsSortProxy(QObject* parent) : QSortFilterProxyModel(parent) {
  setSortRole(Qt::UserRole);
}

bool ResultsSortProxy::lessThan(const QModelIndex& left, const QModelIndex& right) const {
  // Row 0 of the source is the confidential data: the reference, on top in either order.
  const bool descending = sortOrder() == Qt::DescendingOrder;
  if (left.row() == 0 || right.row() == 0) return (left.row() == 0) != descending;
  const QVariant a = left.data(sortRole());
  const QVariant b = right.data(sortRole());
  if (!a.isValid() || !b.isValid()) {
    // n/a after every value, in either order.
    if (a.isValid() == b.isValid()) return left.row() < right.row();
    return a.isValid() != descending;
  }
  if (a.typeId() == QMetaType::QString || b.typeId() == QMetaType::QString)
    return QString::localeAwareCompare(a.toString(), b.toString()) < 0;
  return a.toDouble() < b.toDouble();
}

}  // namespace dpsynth::ui
