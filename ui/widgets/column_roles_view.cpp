#include "ui/widgets/column_roles_view.h"

#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>
#include <algorithm>

namespace dpsynth::ui {

QString columnRoleName(ColumnRole role) {
  switch (role) {
    case ColumnRole::outcome:
      return ColumnRolesView::tr("outcome (synthesized)");
    case ColumnRole::publicCovariate:
      return ColumnRolesView::tr("public covariate (copied as it is)");
    case ColumnRole::notReleased:
      break;
  }
  return ColumnRolesView::tr("not released");
}

ColumnRolesView::ColumnRolesView(QWidget* parent) : QWidget(parent) {
  setObjectName(QStringLiteral("columnRoles"));
  auto* explanation = new QLabel(
      tr("Only the outcome and the public covariates leave: the outcome is synthesized, public "
         "covariates are copied into the release as they are, and columns marked not released "
         "never leave. Change roles with Outcome and Covariates above."),
      this);
  explanation->setWordWrap(true);
  table_ = new QTableWidget(0, 2, this);
  table_->setObjectName(QStringLiteral("columnRolesTable"));
  table_->setHorizontalHeaderLabels({tr("Column"), tr("Role in the release")});
  table_->horizontalHeader()->setStretchLastSection(true);
  table_->horizontalHeader()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
  table_->verticalHeader()->hide();
  table_->verticalHeader()->setDefaultSectionSize(table_->fontMetrics().height() + 4);
  table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table_->setSelectionMode(QAbstractItemView::NoSelection);
  table_->setFocusPolicy(Qt::NoFocus);
  table_->setMaximumHeight(6 * (table_->fontMetrics().height() + 4) + 8);
  summary_ = new QLabel(this);
  summary_->setObjectName(QStringLiteral("releasedColumnsLabel"));
  summary_->setWordWrap(true);
  summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(explanation);
  layout->addWidget(table_);
  layout->addWidget(summary_);
}

void ColumnRolesView::setRoles(const std::vector<std::string>& columns,
                               const core::data::DatasetSpec& spec) {
  roles_.clear();
  for (const auto& name : columns) {
    ColumnRole role = ColumnRole::notReleased;
    if (name == spec.outcome) {
      role = ColumnRole::outcome;
    } else if (std::find(spec.covariates.begin(), spec.covariates.end(), name) !=
               spec.covariates.end()) {
      role = ColumnRole::publicCovariate;
    }
    roles_.emplace_back(QString::fromStdString(name), role);
  }
  table_->setRowCount(int(roles_.size()));
  for (int row = 0; row < int(roles_.size()); ++row) {
    const auto& [name, role] = roles_[std::size_t(row)];
    auto* column = new QTableWidgetItem(name);
    auto* roleItem = new QTableWidgetItem(columnRoleName(role));
    const QColor background = role == ColumnRole::outcome           ? QColor(0xdc, 0xe8, 0xf8)
                              : role == ColumnRole::publicCovariate ? QColor(0xfb, 0xe7, 0xc0)
                                                                    : QColor(0xee, 0xee, 0xee);
    for (auto* item : {column, roleItem}) item->setBackground(background);
    if (role == ColumnRole::notReleased) roleItem->setForeground(QColor(0x55, 0x55, 0x55));
    table_->setItem(row, 0, column);
    table_->setItem(row, 1, roleItem);
  }
  const QStringList released = releasedColumns();
  summary_->setText(released.isEmpty()
                        ? tr("The release holds no column yet.")
                        : tr("The release holds: %1").arg(released.join(QStringLiteral(", "))));
}

void ColumnRolesView::clear() { setRoles({}, {}); }

ColumnRole ColumnRolesView::role(const QString& column) const {
  for (const auto& [name, role] : roles_)
    if (name == column) return role;
  return ColumnRole::notReleased;
}

QStringList ColumnRolesView::releasedColumns() const {
  QStringList out;
  for (const auto& [name, role] : roles_)
    if (role != ColumnRole::notReleased) out << name;
  return out;
}

}  // namespace dpsynth::ui
