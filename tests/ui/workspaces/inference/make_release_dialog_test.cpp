/// The levels of a naive-Bayes release are published, and which values occur in the data is
/// confidential: the dialog never fills them from the data being released (SPEC §0), and makes
/// nothing until the analyst declares the levels public. Levels come from typing, a codebook, an
/// earlier release or a public CSV.
#include "ui/workspaces/inference/make_release_dialog.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QFile>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTemporaryDir>
#include <QtTest>

namespace {

QString makeReleaseDialogTestWrite(const QTemporaryDir& dir, const QString& name,
                                   const QByteArray& text) {
  const QString path = dir.filePath(name);
  QFile f(path);
  f.open(QIODevice::WriteOnly);
  f.write(text);
  return path;
}

}  // namespace

class MakeReleaseDialogTest : public QObject {
  Q_OBJECT

 private slots:
  void okWaitsForTheLevelsToBeDeclaredPublic() {
    std::vector<dpsynth::ui::CategoricalColumn> columns{{"cls", {"a", "b"}},
                                                        {"f", {"x", "y", "z"}}};
    dpsynth::ui::MakeReleaseDialog dialog(columns, "data.csv");
    auto* ok = dialog.findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok);
    auto* isPublic = dialog.findChild<QCheckBox*>("releaseLevelsPublic");
    QVERIFY(isPublic);
    QVERIFY(!isPublic->isChecked());
    QVERIFY(!ok->isEnabled());
    isPublic->setChecked(true);
    dialog.levelsEdit()->setPlainText("cls=a|b\nnot a line");
    QVERIFY(!ok->isEnabled());  // a malformed declaration makes nothing either
    dialog.levelsEdit()->setPlainText("cls=a|b\nf=x|y|z");
    QVERIFY(ok->isEnabled());
    isPublic->setChecked(false);
    QVERIFY(!ok->isEnabled());
  }

  /// The levels the data holds are not written into the form, whatever is chosen.
  void neverPrefillsLevelsFromTheData() {
    std::vector<dpsynth::ui::CategoricalColumn> columns{{"cls", {"a", "b"}},
                                                        {"f", {"secret1", "secret2"}}};
    dpsynth::ui::MakeReleaseDialog dialog(columns, "data.csv");
    QVERIFY(dialog.levelsEdit()->toPlainText().isEmpty());
    dialog.classBox()->setCurrentIndex(1);
    QVERIFY(dialog.levelsEdit()->toPlainText().isEmpty());
    QVERIFY(!dialog.levelsEdit()->toPlainText().contains("secret"));
  }

  void loadsLevelsFromPublicFiles() {
    QTemporaryDir dir;
    std::vector<dpsynth::ui::CategoricalColumn> columns{{"cls", {"a", "b"}}, {"f", {"x", "y"}}};
    dpsynth::ui::MakeReleaseDialog dialog(columns, "data.csv");
    auto* source = dialog.findChild<QLabel*>("releaseLevelsSource");
    QVERIFY(source);

    // A codebook declares levels the data need not hold (here "z"), for the chosen columns only.
    QVERIFY(dialog.loadLevelsFrom(
        makeReleaseDialogTestWrite(dir, "codebook.txt", "cls=a|b\nf=x|y|z\nother=p|q\n")));
    QCOMPARE(dialog.levelsEdit()->toPlainText(), QString("cls=a|b\nf=x|y|z\n"));
    QVERIFY(source->text().contains("codebook.txt"));

    // A public CSV: the distinct values of its categorical columns.
    QVERIFY(dialog.loadLevelsFrom(
        makeReleaseDialogTestWrite(dir, "public.csv", "cls,f\na,x\nb,w\na,x\n")));
    QCOMPARE(dialog.levelsEdit()->toPlainText(), QString("cls=a|b\nf=w|x\n"));

    // A column the file does not declare is named, to be typed.
    QVERIFY(dialog.loadLevelsFrom(makeReleaseDialogTestWrite(dir, "partial.txt", "cls=a|b\n")));
    QCOMPARE(dialog.levelsEdit()->toPlainText(), QString("cls=a|b\n"));
    QVERIFY(source->text().contains("none for f"));

    // A file that is neither is refused with its name, and the form is left as it was.
    QVERIFY(!dialog.loadLevelsFrom(dir.filePath("missing.txt")));
    QVERIFY(source->text().contains("missing.txt"));
    QCOMPARE(dialog.levelsEdit()->toPlainText(), QString("cls=a|b\n"));
  }
};

QTEST_MAIN(MakeReleaseDialogTest)
#include "make_release_dialog_test.moc"
