/// All-or-nothing export folders: files appear together, a failed move restores the folder.
#include "core/report/staged_folder.h"

#include <QDir>
#include <QTemporaryDir>
#include <QtTest>
#include <fstream>
#include <sstream>

#include "support/test_files.h"

namespace report = dpsynth::core::report;

namespace {

void write(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

}  // namespace

class StagedFolderTest : public QObject {
  Q_OBJECT
 private slots:
  void commitMovesEveryFileAndCleansUp() {
    QTemporaryDir tmp;
    const QString out = tmp.filePath("out/nested");
    {
      report::StagedFolder folder(out.toStdString() + "/");
      write(folder.stagedPath("a.csv"), "a");
      write(folder.stagedPath("b.html"), "b");
      QCOMPARE(dpsynth::test::folderEntries(out).size(),
               1);  // only the hidden staging folder so far
      const auto paths = folder.commit({"a.csv", "b.html"});
      QCOMPARE(paths.size(), std::size_t(2));
      QCOMPARE(QString::fromStdString(paths[0]), QDir(out).absoluteFilePath("a.csv"));
    }
    QCOMPARE(dpsynth::test::folderEntries(out), (QStringList{"a.csv", "b.html"}));
    QCOMPARE(dpsynth::test::readFile(out + "/b.html"), std::string("b"));
  }

  void failedCommitRestoresTheFolder() {
    QTemporaryDir tmp;
    const QString out = tmp.path();
    write((out + "/a.csv").toStdString(), "old a");
    write((out + "/keep.txt").toStdString(), "keep");
    {
      report::StagedFolder folder(out.toStdString());
      write(folder.stagedPath("a.csv"), "new a");
      write(folder.stagedPath("b.csv"), "new b");
      // "c.csv" was never staged: its move fails after a.csv and b.csv were moved.
      QVERIFY_THROWS_EXCEPTION(std::runtime_error, folder.commit({"a.csv", "b.csv", "c.csv"}));
    }
    QCOMPARE(dpsynth::test::folderEntries(out), (QStringList{"a.csv", "keep.txt"}));
    QCOMPARE(dpsynth::test::readFile(out + "/a.csv"), std::string("old a"));
  }

  void uncommittedFolderLeavesNothing() {
    QTemporaryDir tmp;
    const QString out = tmp.filePath("new");
    {
      report::StagedFolder folder(out.toStdString());
      write(folder.stagedPath("a.csv"), "a");
    }
    QVERIFY(!QDir(out).exists());  // created by the folder, removed again
    QVERIFY(dpsynth::test::folderEntries(tmp.path()).isEmpty());
  }

  void refusesFilesAndFolders() {
    QTemporaryDir tmp;
    const QString file = tmp.filePath("file");
    write(file.toStdString(), "x");
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, report::StagedFolder(file.toStdString()));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, report::StagedFolder(""));
    QVERIFY(QDir(tmp.path()).mkdir("results.csv"));
    report::StagedFolder folder(tmp.path().toStdString());
    write(folder.stagedPath("results.csv"), "r");
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, folder.commit({"results.csv"}));
    QVERIFY(QFileInfo(tmp.filePath("results.csv")).isDir());
  }
};

QTEST_APPLESS_MAIN(StagedFolderTest)
#include "staged_folder_test.moc"
