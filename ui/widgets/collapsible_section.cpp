#include "ui/widgets/collapsible_section.h"

#include <QToolButton>
#include <QVBoxLayout>

namespace dpsynth::ui {

CollapsibleSection::CollapsibleSection(const QString& title, QWidget* content, QWidget* parent)
    : QWidget(parent), content_(content) {
  header_ = new QToolButton(this);
  header_->setText(title);
  header_->setCheckable(true);
  header_->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
  header_->setAutoRaise(true);
  header_->setStyleSheet(QStringLiteral("QToolButton { font-weight: bold; border: none; }"));
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(2);
  layout->addWidget(header_);
  layout->addWidget(content_);
  connect(header_, &QToolButton::toggled, this, [this](bool on) { setExpanded(on); });
  setExpanded(false);
}

bool CollapsibleSection::isExpanded() const { return header_->isChecked(); }

void CollapsibleSection::setExpanded(bool expanded) {
  header_->setChecked(expanded);
  header_->setArrowType(expanded ? Qt::DownArrow : Qt::RightArrow);
  content_->setVisible(expanded);
}

}  // namespace dpsynth::ui
