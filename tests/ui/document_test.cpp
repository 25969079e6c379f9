/// The session as a document: title and modified marker, Save / Save As, and the
/// Save / Discard / Cancel question before unsaved work would be lost.
#include <QAction>
#include <QCryptographicHash>
#include <QDoubleSpinBox>
#include <QFile>
#include <QMenu>
#include <QMenuBar>
#include <QtTest>

#include "studio_test_helpers.h"
#include "ui/controllers/document_controller.h"
#include "ui/controllers/session_controller.h"
#include "ui/main_window.h"
#include "ui/panels/data_panel.h"
#include "ui/panels/tuning_panel.h"
#include "ui/widgets/tuning_field.h"

using namespace dpsynth::ui;

/// Named (not anonymous): DocumentTest holds them as fields, and a class with external linkage
/// may not hold a type of an anonymous namespace (-Wsubobject-linkage).
namespace document_test {

/// Answers the unsaved-work question and records each time it was asked.
struct Prompt {
  std::shared_ptr<QStringList> asked = std::make_shared<QStringList>();
  std::shared_ptr<UnsavedChoice> answer = std::make_shared<UnsavedChoice>(UnsavedChoice::cancel);
  UnsavedPrompt prompt() const {
    return [asked = asked, answer = answer](const QString& document, const QString& action) {
      asked->push_back(document + QStringLiteral(" | ") + action);
      return *answer;
    };
  }
};

/// Answers Save As with a fixed file and counts the calls.
struct Chooser {
  std::shared_ptr<int> calls = std::make_shared<int>(0);
  std::shared_ptr<QString> path = std::make_shared<QString>();
  SavePathChooser chooser() const {
    return [calls = calls, path = path](const QString&) {
      ++*calls;
      return *path;
    };
  }
};

}  // namespace document_test

using document_test::Chooser;
using document_test::Prompt;

namespace {

QByteArray sha(const QString& file) {
  QFile f(file);
  if (!f.open(QIODevice::ReadOnly)) return {};
  return QCryptographicHash::hash(f.readAll(), QCryptographicHash::Sha256).toHex();
}

/// A user edit of c (committed, on the undo stack).
void editC(MainWindow& window, double value) {
  window.synthesis()->tuningPanel()->field("c")->spinBox()->setValue(value);
}

/// The window's "Open sample" action for this kind (guarded like every user load).
QAction* sampleAction(MainWindow& window, const QString& kind) {
  for (QAction* a : window.menuBar()->findChildren<QAction*>()) {
    if (a->text() == kind) return a;
  }
  return nullptr;
}

}  // namespace

class DocumentTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    QVERIFY(settingsDir_.isValid());
    test::isolateSettings(settingsDir_);
    QApplication::setQuitOnLastWindowClosed(false);  // the tests close windows
  }

  void init() {
    window_ = std::make_unique<MainWindow>();
    window_->setErrorPresenter(errors_.presenter());
    window_->synthesis()->autoRunBox()->setChecked(false);
    window_->loadDefaults();
    prompt_ = {};
    chooser_ = {};
    window_->documentController()->setPrompt(prompt_.prompt());
    window_->documentController()->setPathChooser(chooser_.chooser());
  }

  void cleanup() {
    *prompt_.answer = UnsavedChoice::discard;  // let the window go
    window_.reset();
  }

  void titleShowsTheFileAndTheModifiedMarker() {
    MainWindow& w = *window_;
    QVERIFY(w.windowTitle().startsWith("Untitled[*]"));
    QVERIFY(w.windowTitle().contains("sample: nbmix"));
    QVERIFY(!w.isWindowModified());
    editC(w, 0.6);
    QVERIFY(w.isWindowModified());
    *chooser_.path = dir_.filePath("title.dpsynth");
    QVERIFY(w.documentController()->save());
    QCOMPARE(*chooser_.calls, 1);
    QVERIFY(w.windowTitle().startsWith("title.dpsynth[*]"));
    QVERIFY(!w.isWindowModified());
    editC(w, 0.7);
    QVERIFY(w.isWindowModified());
    QVERIFY(w.documentController()->save());  // to its file: no question
    QCOMPARE(*chooser_.calls, 1);
    QVERIFY(!w.isWindowModified());
    // Undoing every edit since the save is back at the saved file: no marker; redo or a new
    // edit brings it back (the marker stayed after the undo before).
    editC(w, 0.8);
    editC(w, 0.9);
    QVERIFY(w.isWindowModified());
    QUndoStack* undo = w.document()->undoStack();
    undo->undo();
    QVERIFY(w.isWindowModified());
    undo->undo();
    QCOMPARE(w.document()->settings().tuning.c, 0.7);
    QVERIFY(!w.isWindowModified());
    undo->undo();  // before the save: unsaved again
    QVERIFY(w.isWindowModified());
    undo->redo();
    QVERIFY(!w.isWindowModified());
    undo->redo();
    QVERIFY(w.isWindowModified());
  }

  void quittingWithUnsavedWorkAsksAndCancelKeepsEverything() {
    MainWindow& w = *window_;
    w.show();
    QVERIFY(QTest::qWaitForWindowActive(&w));
    w.close();  // nothing unsaved: no question
    QVERIFY(prompt_.asked->isEmpty());
    w.show();
    QVERIFY(QTest::qWaitForWindowActive(&w));
    editC(w, 0.6);
    QAction* quit = nullptr;
    for (QAction* a : w.menuBar()->findChildren<QAction*>()) {
      if (a->text() == "&Quit") quit = a;
    }
    QVERIFY(quit);
    QCOMPARE(quit->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_Q));
    QTest::keyClick(&w, Qt::Key_Q, Qt::ControlModifier);  // File > Quit
    QCOMPARE(prompt_.asked->size(), 1);
    QCOMPARE(prompt_.asked->front(), QString("Untitled | quitting"));
    QVERIFY(w.isVisible());
    QCOMPARE(w.document()->settings().tuning.c, 0.6);
    QVERIFY(w.isWindowModified());

    // Save: asks for a file, writes it, then quits.
    *prompt_.answer = UnsavedChoice::save;
    *chooser_.path = dir_.filePath("quit.dpsynth");
    QVERIFY(w.close());
    QVERIFY(!w.isVisible());
    QVERIFY(QFile::exists(*chooser_.path));
  }

  void openingASessionWithUnsavedWorkAsks() {
    MainWindow& w = *window_;
    const QString a = dir_.filePath("a.dpsynth");
    const QString b = dir_.filePath("b.dpsynth");
    QVERIFY(w.saveSession(b));
    *chooser_.path = a;
    editC(w, 0.4);
    QVERIFY(w.documentController()->saveAs());
    editC(w, 0.6);               // unsaved
    QVERIFY(!w.openSession(b));  // Cancel
    QCOMPARE(prompt_.asked->size(), 1);
    QCOMPARE(w.sessionController()->currentPath(), a);
    QCOMPARE(w.document()->settings().tuning.c, 0.6);
    QVERIFY(w.isWindowModified());

    *prompt_.answer = UnsavedChoice::save;  // to a.dpsynth, then open b
    QVERIFY(w.openSession(b));
    QCOMPARE(w.sessionController()->currentPath(), b);
    QCOMPARE(w.document()->settings().tuning.c, 1.0);
    QVERIFY(!w.isWindowModified());
    QVERIFY(w.openSession(a));  // nothing unsaved now: no question
    QCOMPARE(prompt_.asked->size(), 2);
    QCOMPARE(w.document()->settings().tuning.c, 0.6);
  }

  void loadingOtherDataWithUnsavedWorkAsks() {
    MainWindow& w = *window_;
    QAction* beta = sampleAction(w, "beta");
    QVERIFY(beta);
    editC(w, 0.6);
    beta->trigger();  // Cancel
    QCOMPARE(prompt_.asked->size(), 1);
    QVERIFY(prompt_.asked->front().endsWith("loading other data"));
    QCOMPARE(w.document()->source().sample, QString("nbmix"));
    QCOMPARE(w.document()->settings().tuning.c, 0.6);
    QVERIFY(!w.services().data->mayLoad());  // the panel's own Open and Sample ask too
    QCOMPARE(prompt_.asked->size(), 2);

    *prompt_.answer = UnsavedChoice::discard;
    beta->trigger();
    QCOMPARE(w.document()->source().sample, QString("beta"));
    QVERIFY(!w.isWindowModified());  // new data, nothing done on it yet
  }

  void saveAfterLoadingOtherDataNeverTouchesTheOldSession() {
    MainWindow& w = *window_;
    w.show();
    QVERIFY(QTest::qWaitForWindowActive(&w));
    const QString old = dir_.filePath("old.dpsynth");
    editC(w, 0.6);
    *chooser_.path = old;
    QVERIFY(w.documentController()->save());
    const QByteArray before = sha(old);
    QVERIFY(!before.isEmpty());
    QVERIFY(w.windowTitle().startsWith("old.dpsynth"));

    sampleAction(w, "poisson")->trigger();  // nothing unsaved: no question
    QVERIFY(prompt_.asked->isEmpty());
    QCOMPARE(w.document()->source().sample, QString("poisson"));
    QVERIFY(w.windowTitle().startsWith("Untitled[*]"));  // detached from old.dpsynth
    QVERIFY(w.sessionController()->currentPath().isEmpty());

    // Ctrl+S asks for a new file; the old session keeps its bytes.
    *chooser_.path = QString();  // the user cancels the file dialog
    editC(w, 0.3);
    QTest::keyClick(&w, Qt::Key_S, Qt::ControlModifier);
    QCOMPARE(*chooser_.calls, 2);
    QCOMPARE(sha(old), before);
    *chooser_.path = dir_.filePath("new.dpsynth");
    QTest::keyClick(&w, Qt::Key_S, Qt::ControlModifier);
    QCOMPARE(*chooser_.calls, 3);
    QCOMPARE(sha(old), before);
    QFile saved(*chooser_.path);
    QVERIFY(saved.open(QIODevice::ReadOnly));
    QVERIFY(saved.readAll().contains("poisson"));
    QVERIFY(w.windowTitle().startsWith("new.dpsynth[*]"));
  }

  void newSessionAsksThenStartsUntitledWithDefaults() {
    MainWindow& w = *window_;
    *chooser_.path = dir_.filePath("n.dpsynth");
    QVERIFY(w.documentController()->save());
    editC(w, 0.6);
    QVERIFY(!w.newSession());  // Cancel
    QCOMPARE(w.document()->settings().tuning.c, 0.6);
    *prompt_.answer = UnsavedChoice::discard;
    QVERIFY(w.newSession());
    QCOMPARE(w.document()->settings().tuning.c, 1.0);
    QVERIFY(w.windowTitle().startsWith("Untitled[*]"));
    QVERIFY(!w.isWindowModified());
    QCOMPARE(w.document()->source().sample, QString("nbmix"));  // the data stays
  }

 private:
  QTemporaryDir settingsDir_;
  QTemporaryDir dir_;
  test::ErrorRecorder errors_;
  std::unique_ptr<MainWindow> window_;
  Prompt prompt_;
  Chooser chooser_;
};

QTEST_MAIN(DocumentTest)
#include "document_test.moc"
