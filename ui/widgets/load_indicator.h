#pragma once
/// "Reading big.csv… 42 % [Cancel]": shown for a DataLoader's load once it has taken longer
/// than a moment (kShowAfterMs), so that quick loads do not flicker. Cancel stops the read;
/// the owner's previous data stays.
#include <QTimer>
#include <QWidget>

class QLabel;
class QProgressBar;
class QToolButton;

namespace dpsynth::ui {

class DataLoader;

class LoadIndicator : public QWidget {
  Q_OBJECT

 public:
  static constexpr int kShowAfterMs = 300;

  explicit LoadIndicator(QWidget* parent = nullptr);

  /// Follows this loader's loads (one loader per indicator).
  void track(DataLoader* loader);

  QProgressBar* bar() const { return bar_; }
  QToolButton* cancelButton() const { return cancel_; }
  QLabel* label() const { return label_; }

 private:
  DataLoader* loader_ = nullptr;
  QTimer showTimer_;
  QLabel* label_ = nullptr;
  QProgressBar* bar_ = nullptr;
  QToolButton* cancel_ = nullptr;
};

}  // namespace dpsynth::ui
