#include "ui/panels/mechanism_panel.h"

#include <QApplication>
#include <QListWidget>
#include <QStyle>
#include <QVBoxLayout>

#include "ui/field_names.h"

namespace dpsynth::ui {

namespace pipeline = core::pipeline;

namespace {

constexpr int kDescriptionRole = Qt::UserRole + 1;
constexpr int kWarningRole = Qt::UserRole + 2;

QString guaranteeHint(pipeline::Mechanism m) {
  switch (pipeline::guaranteeOf(m)) {
    case pipeline::Guarantee::DP:
      return QStringLiteral("strict DP");
    case pipeline::Guarantee::aDP:
      return QStringLiteral("asymptotic DP");
    case pipeline::Guarantee::none:
      return QStringLiteral("no guarantee");
  }
  return {};
}

}  // namespace

MechanismPanel::MechanismPanel(StudioDocument* document, QWidget* parent)
    : QWidget(parent), document_(document) {
  list_ = new QListWidget(this);
  list_->setObjectName(QStringLiteral("mechanismList"));
  // A problem icon (setProblems, setWarning) must not make its row taller than the others: the list
  // is sized to show all ten rows.
  const int text = list_->fontMetrics().height();
  list_->setIconSize(QSize(text, text));
  list_->setUniformItemSizes(true);
  QPixmap blank(text, text);
  blank.fill(Qt::transparent);
  blankIcon_ = QIcon(blank);
  for (auto m : pipeline::allMechanisms()) {
    const QString name = QString::fromStdString(pipeline::mechanismName(m));
    auto* item = new QListWidgetItem(name, list_);
    item->setData(Qt::UserRole, static_cast<int>(m));
    item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
    item->setCheckState(Qt::Unchecked);
    item->setIcon(blankIcon_);  // the rows' height already counts the problem icon
    item->setToolTip(mechanismTooltip(m) + "\n(" + guaranteeHint(m) + ")");
    item->setData(kDescriptionRole, item->toolTip());
  }
  // Tall enough for every mechanism without scrolling.
  const int height = list_->sizeHintForRow(0) * list_->count() + 2 * list_->frameWidth() + 4;
  list_->setMinimumHeight(height);
  list_->setMaximumHeight(height);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(list_);

  connect(list_, &QListWidget::itemChanged, this, [this] {
    if (!rendering_) document_->edit(Field::mechanisms, checked());
  });
  connect(list_, &QListWidget::currentRowChanged, this, [this](int row) {
    if (rendering_ || row < 0) return;
    document_->setCurrentMechanism(
        static_cast<pipeline::Mechanism>(list_->item(row)->data(Qt::UserRole).toInt()));
  });
  connect(document_, &StudioDocument::changed, this, [this](StudioDocument::Parts parts) {
    if (parts & (StudioDocument::kMechanisms | StudioDocument::kFocus)) render();
  });
  render();
}

void MechanismPanel::render() {
  rendering_ = true;
  const auto& on = document_->settings().mechanisms;
  const auto focus = document_->currentMechanism();
  for (int row = 0; row < list_->count(); ++row) {
    auto* item = list_->item(row);
    const auto m = static_cast<pipeline::Mechanism>(item->data(Qt::UserRole).toInt());
    const auto state = std::find(on.begin(), on.end(), m) != on.end() ? Qt::Checked : Qt::Unchecked;
    if (item->checkState() != state) item->setCheckState(state);
    if (focus == m && list_->currentRow() != row) list_->setCurrentRow(row);
  }
  rendering_ = false;
}

std::vector<pipeline::Mechanism> MechanismPanel::checked() const {
  std::vector<pipeline::Mechanism> out;
  for (int row = 0; row < list_->count(); ++row) {
    const auto* item = list_->item(row);
    if (item->checkState() == Qt::Checked) {
      out.push_back(static_cast<pipeline::Mechanism>(item->data(Qt::UserRole).toInt()));
    }
  }
  return out;
}

void MechanismPanel::setWarning(pipeline::Mechanism mechanism, const QString& text) {
  for (int row = 0; row < list_->count(); ++row) {
    auto* item = list_->item(row);
    if (item->data(Qt::UserRole).toInt() != static_cast<int>(mechanism)) continue;
    if (item->data(kWarningRole).toString() == text) return;
    const QSignalBlocker block(list_);  // decoration only: no edit, no changed()
    item->setData(kWarningRole, text);
    decorate(item);
  }
}

QString MechanismPanel::warning(pipeline::Mechanism mechanism) const {
  for (int row = 0; row < list_->count(); ++row) {
    const auto* item = list_->item(row);
    if (item->data(Qt::UserRole).toInt() == static_cast<int>(mechanism))
      return item->data(kWarningRole).toString();
  }
  return {};
}

void MechanismPanel::setProblems(const std::map<pipeline::Mechanism, QString>& problems) {
  problems_ = problems;
  const QSignalBlocker block(list_);  // decoration only: no edit, no changed()
  for (int row = 0; row < list_->count(); ++row) decorate(list_->item(row));
}

void MechanismPanel::decorate(QListWidgetItem* item) const {
  // A problem (the mechanism will not run) outranks a warning (it runs on settings that do not
  // fit the data); the tooltip lists both.
  const auto m = static_cast<pipeline::Mechanism>(item->data(Qt::UserRole).toInt());
  const auto it = problems_.find(m);
  const QString warning = item->data(kWarningRole).toString();
  QString tip = item->data(kDescriptionRole).toString();
  if (!warning.isEmpty()) tip = QStringLiteral("⚠ %1\n\n%2").arg(warning, tip);
  if (it != problems_.end()) tip = tr("Will not run: %1").arg(it->second) + "\n\n" + tip;
  item->setToolTip(tip);
  if (it == problems_.end() && warning.isEmpty()) {
    item->setIcon(blankIcon_);
    item->setForeground(QBrush());
    return;
  }
  item->setIcon(QApplication::style()->standardIcon(QStyle::SP_MessageBoxWarning));
  item->setForeground(it != problems_.end() ? QColor(0xb0, 0x1c, 0x1c) : QColor(0xb3, 0x5c, 0x00));
}

QString MechanismPanel::problemOf(pipeline::Mechanism mechanism) const {
  const auto it = problems_.find(mechanism);
  return it == problems_.end() ? QString() : it->second;
}

}  // namespace dpsynth::ui
