/// Staging folders: locked while their owner lives, removed by the next one when stale, with
/// what a killed run had set aside put back where nothing took its place.
#include "core/report/hidden_folder.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <QDir>
#include <QTemporaryDir>
#include <QtTest>
#include <fstream>

#include "core/data/csv_writer.h"
#include "support/test_files.h"

namespace report = dpsynth::core::report;
namespace fs = std::filesystem;

namespace {

void write(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary) << text;
}

QStringList hiddenIn(const QString& dir) {
  return QDir(dir).entryList({".dpsynth-*"}, QDir::AllEntries | QDir::Hidden, QDir::Name);
}

}  // namespace

class HiddenFolderTest : public QObject {
  Q_OBJECT
 private slots:
  void aLiveFolderIsLockedAndRemovedWithItsOwner() {
    QTemporaryDir tmp;
    const fs::path parent = tmp.path().toStdString();
    fs::path path;
    {
      report::detail::HiddenFolder folder(parent, ".dpsynth-stage-");
      path = folder.path();
      QVERIFY(fs::is_directory(path));
      QCOMPARE(path.filename().string().size(), std::string(".dpsynth-stage-").size() + 8);
      struct stat st {};
      QCOMPARE(::stat(path.c_str(), &st), 0);
      QCOMPARE(st.st_mode & 0777, 0700u);  // staged reports are confidential
      write(path / "x.csv", "x");
      // Another process's cleaning (here: ours, on a second descriptor) cannot take it.
      QCOMPARE(report::detail::removeStaleStaging(parent), 0);
      QVERIFY(fs::exists(path / "x.csv"));
      const int fd = ::open(path.c_str(), O_RDONLY | O_DIRECTORY);
      QVERIFY(fd >= 0);
      QVERIFY(::flock(fd, LOCK_EX | LOCK_NB) != 0);
      ::close(fd);
    }
    QVERIFY(!fs::exists(path));
  }

  void staleFoldersGoAndPutBackWhatTheySetAside() {
    QTemporaryDir tmp;
    const fs::path parent = tmp.path().toStdString();
    // Killed while moving: a.csv set aside and not yet replaced, b.csv set aside and replaced.
    write(parent / ".dpsynth-export-0123abcd" / ".replaced" / "a.csv", "old a");
    write(parent / ".dpsynth-export-0123abcd" / ".replaced" / "b.csv", "old b");
    write(parent / "b.csv", "new b");
    write(parent / ".dpsynth-confidential-ffff0000" / "report.json", "{}");
    // Not staging folders: a longer suffix, another prefix, a file of a staging name.
    write(parent / ".dpsynth-stage-0123abcdx" / "keep", "k");
    write(parent / ".dpsynth-manifest.json", "{}");
    write(parent / "a" / "b", "k");
    QCOMPARE(report::detail::removeStaleStaging(parent), 2);
    QCOMPARE(dpsynth::test::readFile(QString::fromStdString((parent / "a.csv").string())),
             std::string("old a"));
    QCOMPARE(dpsynth::test::readFile(QString::fromStdString((parent / "b.csv").string())),
             std::string("new b"));
    QCOMPARE(hiddenIn(tmp.path()),
             (QStringList{".dpsynth-manifest.json", ".dpsynth-stage-0123abcdx"}));
    // A new staging folder cleans its folder first.
    write(parent / ".dpsynth-stage-00000000" / "left.csv", "x");
    {
      report::detail::HiddenFolder folder(parent, ".dpsynth-stage-");
      QVERIFY(!fs::exists(parent / ".dpsynth-stage-00000000"));
    }
  }

  void aFolderThatCannotHoldOneNamesItself() {
    QTemporaryDir tmp;
    const fs::path file = fs::path(tmp.path().toStdString()) / "file";
    write(file, "x");
    try {
      report::detail::HiddenFolder folder(file, ".dpsynth-stage-");
      QFAIL("a staging folder inside a file");
    } catch (const dpsynth::core::data::WriteError& e) {
      QCOMPARE(QString::fromStdString(e.path()), QString::fromStdString(file.string()));
      QCOMPARE(dpsynth::core::classify(e), dpsynth::core::Error::Kind::badInput);
    }
  }
};

QTEST_APPLESS_MAIN(HiddenFolderTest)
#include "hidden_folder_test.moc"
