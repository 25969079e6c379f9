#pragma once
/// The results table with copy (tab-separated) and CSV export (atomic, via QSaveFile).
#include <QWidget>

#include "ui/models/results_table_model.h"

class QLabel;
class QPushButton;
class QTableView;

namespace dpsynth::ui {

class ElidedLabel;
class ResultsSortProxy;

class ResultsPanel : public QWidget {
  Q_OBJECT

 public:
  explicit ResultsPanel(QWidget* parent = nullptr);

  ResultsTableModel* model() const { return model_; }
  /// Shows model() through a sorting proxy (click a header to sort).
  QTableView* view() const { return view_; }
  ResultsSortProxy* sortProxy() const { return proxy_; }
  void setNote(const QString& text);
  QString note() const;

  /// Puts the table on the clipboard as tab-separated text.
  void copyToClipboard() const;
  /// Writes the table as CSV atomically; false (and *error) on failure.
  bool exportCsv(const QString& path, QString* error = nullptr) const;
  void exportWithDialog();
  /// Where the export dialog opens (ExportActions::defaultFolder; empty: the current folder).
  void setExportFolder(const QString& folder) { exportFolder_ = folder; }

 signals:
  void message(const QString& text);

 private:
  ResultsTableModel* model_ = nullptr;
  ResultsSortProxy* proxy_ = nullptr;
  QTableView* view_ = nullptr;
  ElidedLabel* note_ = nullptr;
  QPushButton* copy_ = nullptr;
  QPushButton* export_ = nullptr;
  QString exportFolder_;
};

}  // namespace dpsynth::ui
