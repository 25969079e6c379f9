#pragma once
/// Every warning of the last run in one list, with the mechanism and the stage it belongs to
/// (sampler diagnostics of a fit, a mechanism's own warnings, and "unusable" verdicts), so that
/// warnings are read rather than found by hovering.
#include <QWidget>

#include "core/session/session_results.h"
#include "ui/document/run_types.h"

class QLabel;
class QListWidget;

namespace dpsynth::ui {

class WarningsPanel : public QWidget {
  Q_OBJECT

 public:
  explicit WarningsPanel(QWidget* parent = nullptr);

  /// Lists the warnings of a finished run.
  void setRun(const RunOutput& output);
  /// Lists the warnings a session stored with its results (verdicts and each mechanism's
  /// warnings; the stages are not stored).
  void setStored(const core::session::SessionResults& results);
  void clear();
  /// Greys the list: the warnings belong to a run made with other settings or data.
  void setStale(bool stale);
  int count() const;
  QListWidget* list() const { return list_; }
  /// "mechanism | stage | warning" per line, for tests and the clipboard.
  QStringList lines() const;

 signals:
  void countChanged(int count);

 private:
  void add(const QString& mechanism, const QString& stage, const QString& text, bool severe);

  QListWidget* list_ = nullptr;
  struct Entry {
    QString mechanism, stage, text;
  };
  std::vector<Entry> entries_;
  QLabel* note_ = nullptr;
};

}  // namespace dpsynth::ui
