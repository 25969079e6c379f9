#include "ui/widgets/column_roles_view.h"

#include <QComboBox>
#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>
#include <algorithm>

namespace dpsynth::ui {

QString columnRoleName(ColumnRole role) {
  // Short: the data pane is narrow, and the explanation above the table says what each means.
  switch (role) {
    case ColumnRole::outcome:
      return ColumnRolesView::tr("outcome (synthesized)");
    case ColumnRole::publicCovariate:
      return ColumnRolesView::tr("public (copied)");
    case ColumnRole::notReleased:
      break;
  }
  return ColumnRolesView::tr("not released");
}

QString columnRoleDescription(ColumnRole role) {
  switch (role) {
    case ColumnRole::outcome:
      return ColumnRolesView::tr(
          "The outcome: the release holds synthetic values drawn from the "
          "model, never the confidential ones.");
    case ColumnRole::publicCovariate:
      return ColumnRolesView::tr(
          "A public covariate: copied into the release as it is, so it "
          "must be public already.");
    case ColumnRole::notReleased:
      break;
  }
  return ColumnRolesView::tr("Not released: this column never leaves.");
}

ColumnRolesView::ColumnRolesView(QWidget* parent) : QWidget(parent) {
  setObjectName(QStringLiteral("columnRoles"));
  auto* explanation = new QLabel(
      tr("Only the outcome and the public covariates leave: the outcome is synthesized, public "
         "covariates are copied into the release as they are, and columns marked not released "
         "never leave. Change roles with Outcome and Covariates above."),
      this);
  explanation->setWordWrap(true);
  table_ = new QTableWidget(0, 4, this);
  table_->setObjectName(QStringLiteral("columnRolesTable"));
  table_->setHorizontalHeaderLabels(
      {tr("Column"), tr("Role in the release"), tr("Label"), tr("Reference level")});
  table_->horizontalHeaderItem(kReference)
      ->setToolTip(tr("The level of a categorical covariate the others are compared with (the "
                      "design has no dummy for it). By default the first level in label order "
                      "(a labelled file) or sorted order (text), never the order of the rows."));
  auto* header = table_->horizontalHeader();
  header->setStretchLastSection(false);
  header->setSectionResizeMode(kName, QHeaderView::ResizeToContents);
  header->setSectionResizeMode(kRole, QHeaderView::ResizeToContents);
  header->setSectionResizeMode(kLabel, QHeaderView::Stretch);
  header->setSectionResizeMode(kReference, QHeaderView::ResizeToContents);
  // Shown beside the column's name: in the narrow data pane the role's long text would push the
  // reference level out of sight.
  header->moveSection(header->visualIndex(kReference), kRole);
  table_->setColumnHidden(kLabel, true);      // a CSV has no labels
  table_->setColumnHidden(kReference, true);  // until a categorical covariate is chosen
  table_->verticalHeader()->hide();
  rowHeight_ = table_->fontMetrics().height() + 4;
  table_->verticalHeader()->setDefaultSectionSize(rowHeight_);
  table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table_->setSelectionMode(QAbstractItemView::NoSelection);
  table_->setFocusPolicy(Qt::NoFocus);
  table_->setMaximumHeight(6 * rowHeight_ + 8);
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
    roleItem->setToolTip(columnRoleDescription(role));
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
      if (!tip.isEmpty()) {
        if (auto* item = table_->item(row, 0)) item->setToolTip(tip);
        if (auto* item = table_->item(row, 1))
          item->setToolTip(tip + QStringLiteral("\n") +
                           columnRoleDescription(roles_[std::size_t(row)].second));
      }
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

void ColumnRolesView::clear() {
  setRoles(std::vector<std::string>{}, {});
  setReferenceLevels({}, {});
}

void ColumnRolesView::setReferenceLevels(const std::vector<core::data::CovariateLevels>& levels,
                                         const std::map<std::string, std::string>& chosen) {
  bool any = false;
  for (int row = 0; row < int(roles_.size()); ++row) {
    const auto& [name, role] = roles_[std::size_t(row)];
    const std::string column = name.toStdString();
    const auto covariate =
        std::find_if(levels.begin(), levels.end(),
                     [&](const core::data::CovariateLevels& l) { return l.column == column; });
    if (role != ColumnRole::publicCovariate || covariate == levels.end()) {
      table_->removeCellWidget(row, kReference);
      table_->setRowHeight(row, rowHeight_);
      auto* item = new QTableWidgetItem;
      if (const auto it = chosen.find(column);
          role == ColumnRole::publicCovariate && it != chosen.end()) {
        // The choice does not make a dataset (dataProblem says why): the level asked for.
        item->setText(tr("%1 (chosen)").arg(QString::fromStdString(it->second)));
        any = true;
      }
      table_->setItem(row, kReference, item);
      continue;
    }
    any = true;
    QStringList texts;
    for (const auto& level : covariate->levels) texts << QString::fromStdString(level);
    // A level chosen that the column does not hold (a session made on other data) is shown as
    // such, current, until another is picked.
    QString missing;
    int current = int(covariate->reference);
    if (const auto it = chosen.find(column); it != chosen.end()) {
      const QString level = QString::fromStdString(it->second);
      if (texts.contains(level))
        current = int(texts.indexOf(level));  // also when another choice stopped the dataset
      else
        missing = level;
    }
    // The chooser stays while the column and its levels do: a pick in it may be under way.
    auto* box = qobject_cast<QComboBox*>(table_->cellWidget(row, kReference));
    if (!box || box->property("column").toString() != name ||
        box->property("levels").toStringList() != texts ||
        box->property("missing").toString() != missing) {
      box = new QComboBox;
      box->setObjectName(QStringLiteral("referenceLevel_") + name);
      box->setProperty("column", name);
      box->setProperty("levels", texts);
      box->setProperty("missing", missing);
      box->setSizeAdjustPolicy(QComboBox::AdjustToContents);
      for (int k = 0; k < texts.size(); ++k)
        box->addItem(k == 0 ? tr("%1 (first)").arg(texts[k]) : texts[k], texts[k]);
      if (!missing.isEmpty()) box->addItem(tr("%1 (not in the data)").arg(missing), missing);
      box->setToolTip(table_->horizontalHeaderItem(kReference)->toolTip());
      connect(box, &QComboBox::activated, this, [this, box, name](int index) {
        emit referenceLevelChosen(name, box->itemData(index).toString());
      });
      table_->setCellWidget(row, kReference, box);
    }
    box->setCurrentIndex(missing.isEmpty() ? current : box->count() - 1);
    table_->setRowHeight(row, std::max(rowHeight_, box->sizeHint().height()));
  }
  table_->setColumnHidden(kReference, !any);
}

QComboBox* ColumnRolesView::referenceChooser(const QString& column) const {
  for (int row = 0; row < int(roles_.size()); ++row)
    if (roles_[std::size_t(row)].first == column)
      return qobject_cast<QComboBox*>(table_->cellWidget(row, kReference));
  return nullptr;
}

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
