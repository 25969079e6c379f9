#pragma once
/// The studio's help page (resources/help/help.html: aDP vs DP, ε per mechanism, reading Δ and
/// the plots, a decision guide) in a QTextBrowser, and the About text with version and licence.
#include <QDialog>

class QTextBrowser;

namespace dpsynth::ui {

class HelpDialog : public QDialog {
  Q_OBJECT

 public:
  explicit HelpDialog(QWidget* parent = nullptr);
  QTextBrowser* browser() const { return browser_; }

  /// The help page's HTML (from the resource).
  static QString helpHtml();
  /// "dpsynth studio <version>", what it does, and the licence.
  static QString aboutText();

 private:
  QTextBrowser* browser_ = nullptr;
};

}  // namespace dpsynth::ui
