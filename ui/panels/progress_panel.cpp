#include "ui/panels/progress_panel.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QScrollArea>
#include <QVBoxLayout>
#include <cmath>

namespace dpsynth::ui {

QString formatDuration(double seconds) {
  if (seconds < 60) return QStringLiteral("%1 s").arg(seconds, 0, 'f', seconds < 10 ? 1 : 0);
  const int total = static_cast<int>(std::lround(seconds));
  return QStringLiteral("%1 min %2 s").arg(total / 60).arg(total % 60, 2, 10, QChar('0'));
}

ProgressPanel::ProgressPanel(QWidget* parent) : QWidget(parent) {
  summary_ = new QLabel(tr("Idle."), this);
  summary_->setObjectName(QStringLiteral("progressSummary"));
  summary_->setWordWrap(true);
  auto* rowsHost = new QWidget;
  rowsLayout_ = new QVBoxLayout(rowsHost);
  rowsLayout_->setContentsMargins(0, 0, 0, 0);
  rowsLayout_->setSpacing(2);
  rowsLayout_->addStretch(1);
  auto* scroll = new QScrollArea(this);
  scroll->setWidget(rowsHost);
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);
  scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);  // rows wrap instead
  scroll_ = scroll;
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(summary_);
  layout->addWidget(scroll, 1);
}

void ProgressPanel::reset() {
  for (auto& row : rows_) delete row.widget;
  rows_.clear();
  summary_->setText(tr("Running…"));
}

void ProgressPanel::stageStarted(const StageEvent& event) {
  Row row;
  row.mechanism = event.mechanism;
  row.stage = event.stage;
  row.fromCache = event.fromCache;
  // Two lines, so that nothing is clipped in a narrow panel: the stage's name (wrapped) and its
  // timing, then the bar across the whole width.
  row.widget = new QWidget;
  auto* v = new QVBoxLayout(row.widget);
  v->setContentsMargins(0, 0, 6, 4);  // clear of the vertical scroll bar
  v->setSpacing(1);
  auto* h = new QHBoxLayout;
  row.name = new QLabel(QStringLiteral("%1 · %2").arg(event.mechanism, event.stage), row.widget);
  row.name->setWordWrap(true);
  row.timing = new QLabel(row.widget);
  row.timing->setWordWrap(true);
  row.timing->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
  row.bar = new QProgressBar(row.widget);
  row.bar->setRange(0, 1000);
  row.bar->setTextVisible(true);
  row.bar->setMaximumHeight(16);
  h->addWidget(row.name, 3);
  h->addWidget(row.timing, 2);
  v->addLayout(h);
  v->addWidget(row.bar);
  if (event.fromCache) {
    row.bar->setValue(1000);
    row.bar->setFormat(tr("from cache"));
    row.bar->setStyleSheet(QStringLiteral("QProgressBar::chunk { background: #8fb9a8; }"));
    row.timing->setText(tr("reused, not run again"));
    const QString why = tr(
        "Computed earlier from the same data and settings (in a release run, the same secret "
        "seed too), so it is reused, not drawn again: drawing a release again until its "
        "result pleases would be a choice made on the confidential data, which ε does not cover.");
    // Rich text, so that the tip wraps (plain text makes one line of the screen's width).
    const QString tip = QStringLiteral("<p>%1</p>").arg(why.toHtmlEscaped());
    row.timing->setToolTip(tip);
    row.bar->setToolTip(tip);
  } else {
    row.bar->setValue(0);
    row.bar->setFormat(tr("starting"));
    row.timing->setText(tr("0.0 s elapsed"));
  }
  rowsLayout_->insertWidget(rowsLayout_->count() - 1, row.widget);
  rows_.push_back(row);
}

ProgressPanel::Row* ProgressPanel::openRow(const QString& stage) {
  for (auto it = rows_.rbegin(); it != rows_.rend(); ++it) {
    if (it->stage == stage && !it->done && !it->fromCache) return &*it;
  }
  return nullptr;
}

void ProgressPanel::updateProgress(const StageProgress& progress) {
  Row* row = openRow(progress.stage);
  if (!row) return;
  const double f = progress.fraction();
  row->bar->setValue(static_cast<int>(std::lround(f * 1000)));
  int warming = 0;
  int divergences = 0;
  for (const auto& c : progress.chains) {
    warming += c.inWarmup ? 1 : 0;
    divergences += c.divergences;
  }
  // The percentage is the whole stage's; the phase is each chain's ("warm-up 81%" read as a
  // warm-up 81% done while some chains were already drawing).
  const int chains = static_cast<int>(progress.chains.size());
  const QString phase = warming == 0 ? tr("sampling")
                        : warming == chains
                            ? tr("warm-up")
                            : tr("%1 of %2 chains in warm-up").arg(warming).arg(chains);
  QString format = QStringLiteral("%p% · %1").arg(phase);
  if (divergences > 0) format += tr(" · %1 divergent").arg(divergences);
  row->bar->setFormat(format);
  const double left = progress.remainingSeconds();
  row->timing->setText(
      left < 0 ? tr("%1 elapsed").arg(formatDuration(progress.elapsedSeconds))
               : tr("%1 elapsed · ~%2 left")
                     .arg(formatDuration(progress.elapsedSeconds), formatDuration(left)));
}

void ProgressPanel::stageFinished(const StageEvent& event) {
  for (auto it = rows_.rbegin(); it != rows_.rend(); ++it) {
    if (it->stage != event.stage || it->done) continue;
    it->done = true;
    if (!it->fromCache) {
      it->bar->setValue(1000);
      it->bar->setFormat(tr("done"));
      if (event.result)
        it->timing->setText(tr("done in %1").arg(formatDuration(event.result->seconds)));
    }
    return;
  }
}

void ProgressPanel::markStopped(const QString& why) {
  for (auto& row : rows_) {
    if (row.done || row.fromCache) continue;
    row.bar->setFormat(why);
    row.bar->setStyleSheet(QStringLiteral("QProgressBar::chunk { background: #c8a0a0; }"));
    row.timing->setText(why);
    row.done = true;
  }
}

void ProgressPanel::setSummary(const QString& text) { summary_->setText(text); }

QString ProgressPanel::summary() const { return summary_->text(); }

}  // namespace dpsynth::ui
