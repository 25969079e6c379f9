/// The levels of a naive-Bayes release are published, and which values occur in the data is
/// confidential: the dialog makes nothing until the analyst declares the levels public.
#include "ui/workspaces/inference/make_release_dialog.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QtTest>

class MakeReleaseDialogTest : public QObject {
  Q_OBJECT

 private slots:
  void okWaitsForTheLevelsToBeDeclaredPublic() {
    std::vector<dpsynth::ui::CategoricalColumn> columns{{"cls", {"a", "b"}}, {"f", {"x", "y", "z"}}};
    dpsynth::ui::MakeReleaseDialog dialog(columns, "data.csv");
    auto* ok = dialog.findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok);
    auto* isPublic = dialog.findChild<QCheckBox*>("releaseLevelsPublic");
    QVERIFY(isPublic);
    QVERIFY(!isPublic->isChecked());
    QVERIFY(!ok->isEnabled());
    isPublic->setChecked(true);
    QVERIFY(ok->isEnabled());
    dialog.levelsEdit()->setPlainText("cls=a|b\nnot a line");
    QVERIFY(!ok->isEnabled());  // a malformed declaration makes nothing either
    dialog.levelsEdit()->setPlainText("cls=a|b\nf=x|y|z");
    QVERIFY(ok->isEnabled());
    isPublic->setChecked(false);
    QVERIFY(!ok->isEnabled());
  }
};

QTEST_MAIN(MakeReleaseDialogTest)
#include "make_release_dialog_test.moc"
