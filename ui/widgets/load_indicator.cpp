#include "ui/widgets/load_indicator.h"

#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QToolButton>

#include "ui/workers/data_loader.h"

namespace dpsynth::ui {

LoadIndicator::LoadIndicator(QWidget* parent) : QWidget(parent) {
  setObjectName(QStringLiteral("loadIndicator"));
  label_ = new QLabel(this);
  label_->setObjectName(QStringLiteral("loadLabel"));
  bar_ = new QProgressBar(this);
  bar_->setObjectName(QStringLiteral("loadProgress"));
  bar_->setRange(0, 100);
  bar_->setTextVisible(true);
  cancel_ = new QToolButton(this);
  cancel_->setObjectName(QStringLiteral("loadCancelButton"));
  cancel_->setText(tr("Cancel"));
  cancel_->setToolTip(tr("Stop reading this file; the data loaded before stays"));
  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(label_);
  layout->addWidget(bar_, 1);
  layout->addWidget(cancel_);
  hide();

  showTimer_.setSingleShot(true);
  showTimer_.setInterval(kShowAfterMs);
  connect(&showTimer_, &QTimer::timeout, this, [this] {
    if (loader_ && loader_->isLoading()) show();
  });
}

void LoadIndicator::track(DataLoader* loader) {
  loader_ = loader;
  connect(loader, &DataLoader::started, this, [this](const QString& file) {
    label_->setText(tr("Reading %1…").arg(QFileInfo(file).fileName()));
    setToolTip(file);
    bar_->setValue(0);
    cancel_->setEnabled(true);
    showTimer_.start();  // restarts for a load that replaces another
  });
  connect(loader, &DataLoader::progressChanged, bar_, &QProgressBar::setValue);
  connect(loader, &DataLoader::ended, this, [this] {
    showTimer_.stop();
    hide();
  });
  connect(cancel_, &QToolButton::clicked, this, [this] {
    if (!loader_) return;
    label_->setText(tr("Cancelling…"));
    cancel_->setEnabled(false);
    loader_->cancel();
  });
}

}  // namespace dpsynth::ui
