#include "ui/panels/warnings_panel.h"

#include <QApplication>
#include <QLabel>
#include <QListWidget>
#include <QStyle>
#include <QVBoxLayout>
#include <algorithm>

#include "core/report/results_table.h"
#include "ui/field_names.h"

namespace dpsynth::ui {

WarningsPanel::WarningsPanel(QWidget* parent) : QWidget(parent) {
  note_ = new QLabel(tr("No run yet."), this);
  note_->setObjectName(QStringLiteral("warningsNote"));
  note_->setWordWrap(true);
  // One column: "mechanism · stage" above the warning, wrapped in the whole width. Three
  // columns (mechanism, stage, warning) left the sentence a sliver of a narrow or scaled pane,
  // scrolled sideways and cut.
  list_ = new QListWidget(this);
  list_->setObjectName(QStringLiteral("warningsList"));
  list_->setWordWrap(true);
  list_->setTextElideMode(Qt::ElideNone);
  list_->setResizeMode(QListView::Adjust);
  list_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  list_->setVerticalScrollMode(QAbstractItemView::ScrollPerPixel);
  list_->setSpacing(2);
  const int icon = list_->fontMetrics().height();
  list_->setIconSize(QSize(icon, icon));
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(note_);
  layout->addWidget(list_, 1);
}

void WarningsPanel::add(const QString& mechanism, const QString& stage, const QString& text,
                        bool severe) {
  // Core's warnings may name command-line flags (--sd-scale): show the studio's fields.
  const QString shown = withFieldNames(text);
  auto* item =
      new QListWidgetItem(QStringLiteral("%1 · %2\n%3").arg(mechanism, stage, shown), list_);
  item->setIcon(QApplication::style()->standardIcon(severe ? QStyle::SP_MessageBoxCritical
                                                           : QStyle::SP_MessageBoxWarning));
  item->setToolTip(shown);
  entries_.push_back({mechanism, stage, shown});
}

void WarningsPanel::setRun(const RunOutput& output) {
  list_->clear();
  entries_.clear();
  const auto labels = core::report::mechanismLabels(*output.result);
  const auto& mechanisms = output.result->mechanisms;
  for (std::size_t j = 0; j < mechanisms.size(); ++j) {
    const auto& m = mechanisms[j];
    const QString who = QString::fromStdString(labels[j]);
    // The verdict first: an unusable result matters more than any diagnostic.
    if (j + 1 < output.table.size() && !output.table[j + 1].usable) {
      for (const auto& reason : output.table[j + 1].verdictReasons)
        add(who, tr("verdict"), tr("unusable: %1").arg(QString::fromStdString(reason)), true);
    }
    std::vector<std::string> seen;
    for (const auto& stage : m.stages) {
      for (const auto& w : stage->warnings) {
        add(who, QString::fromStdString(stage->name), QString::fromStdString(w), false);
        seen.push_back(w);
      }
    }
    for (const auto& refusal : m.refusals)
      add(who, tr("release"), QString::fromStdString(refusal), true);
    for (const auto& w : m.warnings) {
      if (std::find(seen.begin(), seen.end(), w) != seen.end()) continue;
      add(who, tr("mechanism"), QString::fromStdString(w), false);
    }
  }
  note_->setText(count() == 0 ? tr("No warnings in the last run.")
                              : tr("%n warning(s) in the last run.", nullptr, count()));
  setStale(false);
  emit countChanged(count());
}

void WarningsPanel::setStored(const core::session::SessionResults& results) {
  list_->clear();
  entries_.clear();
  for (std::size_t j = 0; j < results.mechanisms.size(); ++j) {
    const auto& m = results.mechanisms[j];
    const QString who = QString::fromStdString(m.mechanism);
    // rows[0] is the "confidential" row; then one row per mechanism, in the same order.
    if (j + 1 < results.rows.size() && !results.rows[j + 1].usable) {
      for (const auto& reason : results.rows[j + 1].verdictReasons)
        add(who, tr("verdict"), tr("unusable: %1").arg(QString::fromStdString(reason)), true);
    }
    for (const auto& w : m.warnings) add(who, tr("mechanism"), QString::fromStdString(w), false);
  }
  note_->setText(count() == 0 ? tr("No warnings in the session's run.")
                              : tr("%n warning(s) in the session's run.", nullptr, count()));
  setStale(false);
  emit countChanged(count());
}

void WarningsPanel::clear() {
  list_->clear();
  entries_.clear();
  note_->setText(tr("No run yet."));
  setStale(false);
  emit countChanged(0);
}

void WarningsPanel::setStale(bool stale) {
  list_->setEnabled(!stale);
  const QString prefix = tr("Stale: ");
  if (stale && count() > 0 && !note_->text().startsWith(prefix))
    note_->setText(prefix + note_->text());
  else if (!stale && note_->text().startsWith(prefix))
    note_->setText(note_->text().mid(prefix.size()));
}

int WarningsPanel::count() const { return list_->count(); }

QStringList WarningsPanel::lines() const {
  QStringList out;
  for (const auto& e : entries_)
    out << QStringLiteral("%1 | %2 | %3").arg(e.mechanism, e.stage, e.text);
  return out;
}

}  // namespace dpsynth::ui
