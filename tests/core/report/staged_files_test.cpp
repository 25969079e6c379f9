/// StagedFiles: a set of outputs in several folders appears together or not at all.
#include "core/report/staged_files.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <QDir>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QtTest>
#include <fstream>
#include <sstream>

#include "support/test_files.h"

namespace report = dpsynth::core::report;

namespace {

void write(const QString& path, const std::string& text) {
  std::ofstream(path.toStdString(), std::ios::binary) << text;
}

QStringList everything(const QString& dir) {
  return QDir(dir).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot, QDir::Name);
}

}  // namespace

class StagedFilesTest : public QObject {
  Q_OBJECT
 private slots:
  void commitsEveryFileTogether() {
    QTemporaryDir tmp;
    QVERIFY(QDir(tmp.path()).mkdir("a") && QDir(tmp.path()).mkdir("b"));
    const QString a = tmp.filePath("a/x.csv"), b = tmp.filePath("b/y.json"),
                  old = tmp.filePath("a/x_3.csv");
    write(a, "old a");
    write(old, "old dataset 3");
    {
      report::StagedFiles files;
      write(QString::fromStdString(files.stage(a.toStdString())), "new a");
      write(QString::fromStdString(files.stage(b.toStdString())), "new b");
      files.supersede(old.toStdString());
      QCOMPARE(dpsynth::test::readFile(a), std::string("old a"));  // nothing moves before commit()
      QVERIFY(!QFile::exists(b));
      QCOMPARE(files.commit().size(), std::size_t(2));
    }
    QCOMPARE(dpsynth::test::readFile(a), std::string("new a"));
    QCOMPARE(dpsynth::test::readFile(b), std::string("new b"));
    QVERIFY(!QFile::exists(old));
    QCOMPARE(everything(tmp.filePath("a")), QStringList{"x.csv"});  // no staging folder left
    QCOMPARE(everything(tmp.filePath("b")), QStringList{"y.json"});
  }

  /// Two runs writing the same names into one folder commit one after the other: the decision
  /// made under the lock (what to supersede) holds while the files move. Another descriptor of
  /// the folder cannot take the lock meanwhile; afterwards it can.
  void commitHoldsTheFoldersLock() {
    QTemporaryDir tmp;
    const QString a = tmp.filePath("x.csv");
    auto lockable = [&] {
      const int fd = ::open(tmp.path().toLocal8Bit().constData(), O_RDONLY | O_DIRECTORY);
      const bool free = fd >= 0 && ::flock(fd, LOCK_EX | LOCK_NB) == 0;
      if (fd >= 0) ::close(fd);
      return free;
    };
    bool heldDuringDecision = false;
    {
      report::StagedFiles files;
      write(QString::fromStdString(files.stage(a.toStdString())), "new");
      QVERIFY(lockable());
      files.commit([&] { heldDuringDecision = !lockable(); });
    }
    QVERIFY(heldDuringDecision);
    QVERIFY(lockable());
    QCOMPARE(dpsynth::test::readFile(a), std::string("new"));
    // What the decision throws leaves everything as it was.
    {
      report::StagedFiles files;
      write(QString::fromStdString(files.stage(a.toStdString())), "newer");
      QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                               files.commit([] { throw std::invalid_argument("foreign file"); }));
    }
    QCOMPARE(dpsynth::test::readFile(a), std::string("new"));
    QCOMPARE(everything(tmp.path()), QStringList{"x.csv"});
  }

  void aFailedCommitRestoresEverything() {
    QTemporaryDir tmp;
    const QString a = tmp.filePath("x.csv"), blocked = tmp.filePath("report.json"),
                  old = tmp.filePath("x_2.csv");
    write(a, "old a");
    write(old, "old dataset 2");
    QVERIFY(QDir(tmp.path()).mkdir("report.json"));  // a folder where a file must go
    {
      report::StagedFiles files;
      write(QString::fromStdString(files.stage(a.toStdString())), "new a");
      files.supersede(old.toStdString());
      write(QString::fromStdString(files.stage(blocked.toStdString())), "new report");
      QVERIFY_THROWS_EXCEPTION(std::runtime_error, files.commit());
    }
    QCOMPARE(dpsynth::test::readFile(a), std::string("old a"));
    QCOMPARE(dpsynth::test::readFile(old), std::string("old dataset 2"));
    QCOMPARE(everything(tmp.path()), (QStringList{"report.json", "x.csv", "x_2.csv"}));
  }

  /// Issue 21, 14: a report is staged, and the report it replaces set aside, in a folder of its
  /// own, never in the staging folder of the files being released beside it.
  void confidentialFilesAreStagedApart() {
    QTemporaryDir tmp;
    const QString report = tmp.filePath("report.json"), data = tmp.filePath("s.csv");
    write(report, "old report");
    {
      report::StagedFiles files;
      const QString stagedReport = QString::fromStdString(
          files.stage(report.toStdString(), report::Sensitivity::confidential));
      const QString stagedData = QString::fromStdString(files.stage(data.toStdString()));
      const QString reportFolder = QFileInfo(stagedReport).dir().dirName();
      const QString dataFolder = QFileInfo(stagedData).dir().dirName();
      QVERIFY2(reportFolder.startsWith(".dpsynth-confidential-"), qPrintable(reportFolder));
      QVERIFY2(dataFolder.startsWith(".dpsynth-stage-"), qPrintable(dataFolder));
      write(stagedReport, "new report");
      write(stagedData, "y\n1\n");
      // Messages name the user's file, not the staging folder.
      QCOMPARE(QString::fromStdString(files.userPath(stagedReport.toStdString())),
               QFileInfo(report).absoluteFilePath());
      QCOMPARE(files.commit().size(), std::size_t(2));
      // The report it replaced waits among the confidential files only, until the end.
      QVERIFY(QFile::exists(tmp.filePath(reportFolder + "/.replaced/report.json")));
      QVERIFY(!QFile::exists(tmp.filePath(dataFolder + "/.replaced/report.json")));
    }
    QCOMPARE(dpsynth::test::readFile(report), std::string("new report"));
    QCOMPARE(everything(tmp.path()), (QStringList{"report.json", "s.csv"}));
  }

  void droppedWithoutCommitLeavesNothing() {
    QTemporaryDir tmp;
    {
      report::StagedFiles files;
      write(QString::fromStdString(files.stage(tmp.filePath("new.csv").toStdString())), "x");
    }
    QVERIFY(everything(tmp.path()).isEmpty());
  }
};

QTEST_APPLESS_MAIN(StagedFilesTest)
#include "staged_files_test.moc"
