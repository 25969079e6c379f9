#include "ui/widgets/load_indicator.h"

#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QToolButton>
#include <QVBoxLayout>

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
  // The file name on its own line (wrapped): a long name must not widen the narrow left pane.
  label_->setWordWrap(true);
  auto* row = new QHBoxLayout;
  row->setContentsMargins(0, 0, 0, 0);
  row->addWidget(bar_, 1);
  row->addWidget(cancel_);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(2);
  layout->addWidget(label_);
  layout->addLayout(row);
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
    const QFileInfo info(file);
    label_->setText(info.size() >= 1'000'000
                        ? tr("Reading %1 (%2 MB)…")
                              .arg(info.fileName())
                              .arg(static_cast<double>(info.size()) / 1e6, 0, 'f', 1)
                        : tr("Reading %1…").arg(info.fileName()));
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
