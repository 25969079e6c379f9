#pragma once
/// One row per stage of the current run: a progress bar over all chains' iterations, elapsed
/// time and estimated time remaining, or "from cache" for stages that were not run again.
#include <QWidget>
#include <vector>

#include "ui/document/run_types.h"

class QLabel;
class QProgressBar;
class QScrollArea;
class QVBoxLayout;

namespace dpsynth::ui {

class ProgressPanel : public QWidget {
  Q_OBJECT

 public:
  explicit ProgressPanel(QWidget* parent = nullptr);

  void reset();
  void stageStarted(const StageEvent& event);
  void updateProgress(const StageProgress& progress);
  void stageFinished(const StageEvent& event);
  /// Unfinished rows say "cancelled" / "failed".
  void markStopped(const QString& why);
  void setSummary(const QString& text);

  struct Row {
    QString mechanism, stage;
    bool fromCache = false, done = false;
    QWidget* widget = nullptr;
    QLabel* name = nullptr;
    QProgressBar* bar = nullptr;
    QLabel* timing = nullptr;
  };
  const std::vector<Row>& rows() const { return rows_; }
  QScrollArea* scrollArea() const { return scroll_; }
  QString summary() const;

 private:
  Row* openRow(const QString& stage);

  QVBoxLayout* rowsLayout_ = nullptr;
  QScrollArea* scroll_ = nullptr;
  QLabel* summary_ = nullptr;
  std::vector<Row> rows_;
};

/// "1.2 s", "3 min 05 s".
QString formatDuration(double seconds);

}  // namespace dpsynth::ui
