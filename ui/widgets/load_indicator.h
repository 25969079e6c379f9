#pragma once
/// "Reading big.csv… 42 % [Cancel]": shown for a load once it has taken longer than a moment
/// (kShowAfterMs), so that quick loads do not flicker. A view: it is told that a load started,
/// progressed and ended (DataLoader::showOn connects a loader), and asks for the cancel.
#include <QTimer>
#include <QWidget>

class QLabel;
class QProgressBar;
class QToolButton;

namespace dpsynth::ui {

class LoadIndicator : public QWidget {
  Q_OBJECT

 public:
  static constexpr int kShowAfterMs = 300;

  explicit LoadIndicator(QWidget* parent = nullptr);

  /// A load of `file` started (it replaces any load shown).
  void loadStarted(const QString& file);
  /// Whole percents of the load shown.
  void setPercent(int percent);
  /// The load ended (read, failed or cancelled).
  void loadEnded();
  bool isLoading() const { return loading_; }

  QProgressBar* bar() const { return bar_; }
  QToolButton* cancelButton() const { return cancel_; }
  QLabel* label() const { return label_; }

 signals:
  /// The user pressed Cancel.
  void cancelRequested();

 private:
  bool loading_ = false;
  QTimer showTimer_;
  QLabel* label_ = nullptr;
  QProgressBar* bar_ = nullptr;
  QToolButton* cancel_ = nullptr;
};

}  // namespace dpsynth::ui
