#include "ui/panels/control_pane.h"

#include <QCheckBox>
#include <QGroupBox>
#include <QIcon>
#include <QPushButton>
#include <QScrollArea>
#include <QVBoxLayout>

#include "ui/panels/data_panel.h"
#include "ui/panels/mechanism_panel.h"
#include "ui/panels/sampler_panel.h"
#include "ui/panels/tuning_panel.h"
#include "ui/widgets/collapsible_section.h"
#include "ui/widgets/guarantee_badge.h"

namespace dpsynth::ui {
namespace {

QGroupBox* group(const QString& title, QWidget* content) {
  auto* box = new QGroupBox(title);
  auto* layout = new QVBoxLayout(box);
  layout->setContentsMargins(6, 6, 6, 6);
  layout->addWidget(content);
  return box;
}

}  // namespace

ControlPane::ControlPane(DataPanel* data, MechanismPanel* mechanisms, TuningPanel* tuning,
                         SamplerPanel* sampler, QWidget* parent)
    : QWidget(parent) {
  auto* inner = new QWidget;
  auto* column = new QVBoxLayout(inner);
  column->setContentsMargins(4, 4, 4, 4);
  dataSection_ = new CollapsibleSection(tr("Data"), data);
  dataSection_->setExpanded(true);
  tuningSection_ = new CollapsibleSection(tr("Tuning"), tuning);
  tuningSection_->setExpanded(true);
  column->addWidget(dataSection_);
  column->addWidget(tuningSection_);
  column->addWidget(new CollapsibleSection(tr("Release and sampler"), sampler));
  column->addStretch(1);
  auto* scroll = new QScrollArea;
  scroll->setWidget(inner);
  scroll->setWidgetResizable(true);
  scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  scroll->setMinimumWidth(inner->sizeHint().width() + 24);

  badge_ = new GuaranteeBadge;
  run_ = new QPushButton(QIcon(QStringLiteral(":/dpsynth/icons/run.svg")), tr("Run"));
  run_->setObjectName(QStringLiteral("runButton"));
  run_->setDefault(true);
  cancel_ = new QPushButton(QIcon(QStringLiteral(":/dpsynth/icons/cancel.svg")), tr("Cancel"));
  cancel_->setObjectName(QStringLiteral("cancelButton"));
  autoRun_ = new QCheckBox(tr("auto-run"));
  autoRun_->setObjectName(QStringLiteral("autoRunBox"));
  autoRun_->setToolTip(
      tr("Re-run 400 ms after a settings change; stages whose inputs did not "
         "change come from the cache."));
  auto* buttons = new QHBoxLayout;
  buttons->addWidget(run_);
  buttons->addWidget(cancel_);
  buttons->addWidget(autoRun_);

  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 4);
  layout->addWidget(scroll, 1);
  layout->addWidget(group(tr("Mechanisms"), mechanisms));
  layout->addWidget(badge_);
  layout->addLayout(buttons);
  setBusy(false);
}

void ControlPane::setBusy(bool busy) {
  run_->setEnabled(!busy);
  cancel_->setEnabled(busy);
}

}  // namespace dpsynth::ui
