#include "ui/widgets/load_indicator.h"

#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QToolButton>
#include <QVBoxLayout>

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

  connect(cancel_, &QToolButton::clicked, this, [this] {
    if (!loading_) return;
    label_->setText(tr("Cancelling…"));
    cancel_->setEnabled(false);
    emit cancelRequested();
  });
  showTimer_.setSingleShot(true);
  showTimer_.setInterval(kShowAfterMs);
  connect(&showTimer_, &QTimer::timeout, this, [this] {
    if (loading_) show();
  });
}

void LoadIndicator::loadStarted(const QString& file) {
  loading_ = true;
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
}

void LoadIndicator::setPercent(int percent) { bar_->setValue(percent); }

void LoadIndicator::loadEnded() {
  loading_ = false;
  showTimer_.stop();
  hide();
}

}  // namespace dpsynth::ui
