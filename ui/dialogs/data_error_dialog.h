#pragma once
/// Shows an ErrorReport field by field (file, line, column, problem, what to do). Non-modal
/// by default (open()), so that tests and the event loop are never blocked by it.
#include <QDialog>

#include "ui/dialogs/error_report.h"

namespace dpsynth::ui {

class DataErrorDialog : public QDialog {
  Q_OBJECT

 public:
  explicit DataErrorDialog(const ErrorReport& report, QWidget* parent = nullptr);
  const ErrorReport& report() const { return report_; }

 private:
  ErrorReport report_;
};

/// The window's default presenter: a DataErrorDialog deleted on close, shown window-modally
/// without blocking.
ErrorPresenter dialogPresenter(QWidget* parent);

}  // namespace dpsynth::ui
