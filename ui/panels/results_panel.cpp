#include "ui/panels/results_panel.h"

#include <QApplication>
#include <QClipboard>
#include <QDir>
#include <QFileDialog>
#include <QFontMetrics>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSaveFile>
#include <QStyle>
#include <QTableView>
#include <QVBoxLayout>

#include "ui/models/results_sort_proxy.h"
#include "ui/widgets/elided_label.h"

namespace dpsynth::ui {

ResultsPanel::ResultsPanel(QWidget* parent) : QWidget(parent) {
  model_ = new ResultsTableModel(this);
  view_ = new QTableView(this);
  view_->setObjectName(QStringLiteral("resultsTable"));
  proxy_ = new ResultsSortProxy(this);
  proxy_->setSourceModel(model_);
  view_->setModel(proxy_);
  view_->setTabKeyNavigation(false);  // Tab leaves the table; arrows move within it
  view_->setSortingEnabled(true);
  view_->sortByColumn(-1, Qt::AscendingOrder);  // the run's order until a header is clicked
  view_->setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
  view_->setVerticalScrollBarPolicy(Qt::ScrollBarAsNeeded);
  view_->verticalHeader()->hide();
  view_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  view_->horizontalHeader()->setStretchLastSection(false);
  // The verdict stays narrow (its reasons are in the tooltip and the Warnings tab).
  view_->horizontalHeader()->setSectionResizeMode(ResultsTableModel::kVerdict,
                                                  QHeaderView::Interactive);
  // Measured in bold, as the model draws an unusable verdict, plus the cell's margins.
  QFont verdictFont = view_->font();
  verdictFont.setBold(true);
  const int margins =
      2 * view_->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, view_) + 8;
  view_->horizontalHeader()->resizeSection(
      ResultsTableModel::kVerdict,
      QFontMetrics(verdictFont).horizontalAdvance(QStringLiteral("unusable: 999 of 1000 rec")) +
          margins);
  // ε beside the guarantee it belongs to, before Δ (on a 1024-pixel screen ε was off to the
  // right). Only the view's order changes: Copy and Export CSV keep the model's columns.
  view_->horizontalHeader()->moveSection(
      view_->horizontalHeader()->visualIndex(ResultsTableModel::kEpsilon),
      view_->horizontalHeader()->visualIndex(ResultsTableModel::kLipschitz));
  view_->setSelectionBehavior(QAbstractItemView::SelectRows);
  view_->verticalHeader()->setDefaultSectionSize(view_->fontMetrics().height() + 6);

  note_ = new ElidedLabel(this);
  note_->setObjectName(QStringLiteral("resultsNote"));
  // One line, elided (the whole note in its tooltip): wrapped, a long note took the rows of
  // the table below it on a small or scaled screen.
  note_->setFullText(tr("No results yet: choose mechanisms and press Run."));
  copy_ = new QPushButton(tr("Copy"), this);
  copy_->setToolTip(tr("Copy the table as tab-separated text"));
  export_ = new QPushButton(tr("Export CSV…"), this);
  auto* bar = new QHBoxLayout;
  bar->addWidget(note_, 1);
  bar->addWidget(copy_);
  bar->addWidget(export_);

  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addLayout(bar);
  layout->addWidget(view_, 1);

  connect(copy_, &QPushButton::clicked, this, [this] { copyToClipboard(); });
  connect(export_, &QPushButton::clicked, this, [this] { exportWithDialog(); });
  const auto updateButtons = [this] {
    copy_->setEnabled(!model_->isEmpty());
    export_->setEnabled(!model_->isEmpty());
  };
  connect(model_, &QAbstractItemModel::modelReset, this, updateButtons);
  updateButtons();
}

void ResultsPanel::setNote(const QString& text) { note_->setFullText(text); }
QString ResultsPanel::note() const { return note_->fullText(); }

void ResultsPanel::copyToClipboard() const { QApplication::clipboard()->setText(model_->toTsv()); }

bool ResultsPanel::exportCsv(const QString& path, QString* error) const {
  try {
    const std::string text = model_->toCsv();
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
      if (error) *error = file.errorString();
      return false;
    }
    file.write(text.data(), static_cast<qint64>(text.size()));
    if (!file.commit()) {
      if (error) *error = file.errorString();
      return false;
    }
    return true;
  } catch (const std::exception& e) {
    if (error) *error = QString::fromUtf8(e.what());
    return false;
  }
}

void ResultsPanel::exportWithDialog() {
  const QString path = QFileDialog::getSaveFileName(
      this, tr("Export results"),
      exportFolder_.isEmpty() ? QStringLiteral("results.csv")
                              : QDir(exportFolder_).filePath(QStringLiteral("results.csv")),
      tr("CSV files (*.csv)"));
  if (path.isEmpty()) return;
  QString error;
  if (exportCsv(path, &error)) {
    emit message(tr("Results written to %1").arg(path));
  } else {
    emit message(tr("Could not write %1: %2").arg(path, error));
  }
}

}  // namespace dpsynth::ui
