#pragma once
/// A one-line label that elides its text at the right when it does not fit (the whole text in
/// its tooltip), so that a long note never takes the rows of the table below it on a small or
/// scaled screen.
#include <QLabel>

namespace dpsynth::ui {

class ElidedLabel : public QLabel {
  Q_OBJECT

 public:
  explicit ElidedLabel(QWidget* parent = nullptr);

  /// The whole text (text() is what is shown).
  void setFullText(const QString& text);
  QString fullText() const { return full_; }
  QSize minimumSizeHint() const override;

 protected:
  void resizeEvent(QResizeEvent* event) override;

 private:
  void elide();

  QString full_;
};

}  // namespace dpsynth::ui
