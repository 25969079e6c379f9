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
  table_ = new QTableWidget(0, 3, this);
  table_->setObjectName(QStringLiteral("columnRolesTable"));
  table_->setHorizontalHeaderLabels({tr("Column"), tr("Role in the release"), tr("Label")});
  table_->horizontalHeader()->setStretchLastSection(true);
  table_->horizontalHeader()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
  table_->horizontalHeader()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
  table_->setColumnHidden(2, true);  // a CSV has no labels
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

void ColumnRolesView::setRoles(const core::data::CsvTable& table,
                               const core::data::DatasetSpec& spec,
                               const std::vector<std::string>& idLike) {
  setRoles(table.header, spec);
  bool labelled = false;
  for (int row = 0; row < int(roles_.size()); ++row) {
    const std::string& name = table.header[std::size_t(row)];
    auto* label = new QTableWidgetItem;
    if (const core::data::ColumnInfo* info = table.info(std::size_t(row))) {
      label->setText(QString::fromStdString(info->description));
      QStringList values;
      for (const auto& v : info->valueLabels)
        values << QStringLiteral("%1 = %2").arg(QString::fromStdString(v.code),
                                                QString::fromStdString(v.label));
      QString tip =
          info->description.empty() ? QString() : QString::fromStdString(info->description);
      if (!values.isEmpty()) {
        tip += (tip.isEmpty() ? QString() : QStringLiteral("\n")) +
               tr("Value labels: %1").arg(values.join(QStringLiteral(", ")));
        if (label->text().isEmpty()) label->setText(values.join(QStringLiteral(", ")));
      }
      label->setToolTip(tip);
      for (int c = 0; c < 2; ++c)
        if (auto* item = table_->item(row, c)) item->setToolTip(tip);
      labelled = labelled || !tip.isEmpty();
    }
    table_->setItem(row, 2, label);
    if (std::find(idLike.begin(), idLike.end(), name) != idLike.end()) {
      auto* role = table_->item(row, 1);
      role->setText(role->text() + tr(" · looks like an identifier"));
      role->setToolTip(
          tr("Every value distinct, or a name such as id or postcode: an identifier "
             "or a code. Not a sensible outcome, and never released."));
    }
  }
  table_->setColumnHidden(2, !labelled);
}

void ColumnRolesView::clear() { setRoles(std::vector<std::string>{}, {}); }

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
