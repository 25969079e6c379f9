/// Output paths resolve as the system resolves them, so that the checks and the writers look at
/// one file: ".." out of a folder that does not exist is refused (it once passed the input
/// check and was then written over the input), ".." after a link leads out of the link's
/// target, a link as the last part is written through, and a device or FIFO is never replaced.
#include "core/data/output_path.h"

#include <sys/stat.h>
#include <unistd.h>

#include <QTemporaryDir>
#include <QtTest>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>

#include "core/data/csv_writer.h"
#include "support/test_files.h"

namespace data = dpsynth::core::data;
namespace fs = std::filesystem;

class OutputPathTest : public QObject {
  Q_OBJECT

 private:
  QTemporaryDir dir_;
  fs::path root_;

 private slots:
  void init() {
    QVERIFY(dir_.isValid());
    root_ = fs::canonical(dir_.path().toStdString());
    fs::create_directories(root_ / "a" / "b");
    std::ofstream(root_ / "data.csv") << "y\n1\n";
  }
  void cleanup() {
    for (const auto& entry : fs::directory_iterator(root_)) fs::remove_all(entry.path());
  }

  void dotsAndRealFoldersResolveAsSpelled() {
    QCOMPARE(data::resolvedOutputPath((root_ / "a" / "." / "x.csv").string()),
             root_ / "a" / "x.csv");
    QCOMPARE(data::resolvedOutputPath((root_ / "a" / "b" / ".." / "x.csv").string()),
             root_ / "a" / "x.csv");
    QCOMPARE(data::resolvedOutputPath((root_ / "new" / "deeper" / "x.csv").string()),
             root_ / "new" / "deeper" / "x.csv");
    QCOMPARE(data::resolvedOutputPath((root_ / "a" / "").string()), root_ / "a");
  }

  /// On paper "nope/../data.csv" is data.csv; for the system it is nothing. Refused, so that no
  /// check can pass it while a writer replaces data.csv.
  void upOutOfAMissingFolderIsRefused() {
    const std::string path = (root_ / "nope" / ".." / "data.csv").string();
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, data::resolvedOutputPath(path));
    QVERIFY_THROWS_EXCEPTION(data::WriteError, data::writeTextAtomic(path, "replaced\n"));
    QCOMPARE(dpsynth::test::readFile((root_ / "data.csv").string()), std::string("y\n1\n"));
    QVERIFY(!fs::exists(root_ / "nope"));
  }

  /// "L/../x.csv" with L a link to a/b is a/x.csv for the system, not ./x.csv.
  void upAfterALinkLeavesTheLinksTarget() {
    fs::create_directory_symlink(root_ / "a" / "b", root_ / "L");
    QCOMPARE(data::resolvedOutputPath((root_ / "L" / ".." / "data.csv").string()),
             root_ / "a" / "data.csv");
    data::writeTextAtomic((root_ / "L" / ".." / "data.csv").string(), "new\n");
    QCOMPARE(dpsynth::test::readFile((root_ / "a" / "data.csv").string()), std::string("new\n"));
    QCOMPARE(dpsynth::test::readFile((root_ / "data.csv").string()), std::string("y\n1\n"));
  }

  /// A link as the last part is written through: the file it points at is replaced and the
  /// link stays a link. A link to nothing is kept as spelled.
  void aLinkIsWrittenThrough() {
    std::ofstream(root_ / "real.json") << "{}\n";
    fs::create_symlink(root_ / "real.json", root_ / "link.json");
    QCOMPARE(data::resolvedOutputPath((root_ / "link.json").string()), root_ / "real.json");
    data::writeTextAtomic((root_ / "link.json").string(), "{\"new\": 1}\n");
    QVERIFY(fs::is_symlink(root_ / "link.json"));
    QCOMPARE(dpsynth::test::readFile((root_ / "real.json").string()),
             std::string("{\"new\": 1}\n"));
    fs::create_symlink(root_ / "absent.json", root_ / "dangling.json");
    QCOMPARE(data::resolvedOutputPath((root_ / "dangling.json").string()), root_ / "dangling.json");
  }

  /// A FIFO (as /dev/null, a device) is refused by name and left as it was.
  void aFifoIsNeverReplaced() {
    const fs::path fifo = root_ / "pipe";
    QCOMPARE(::mkfifo(fifo.c_str(), 0600), 0);
    QVERIFY(!data::unreplaceableProblem(fifo).empty());
    QVERIFY_THROWS_EXCEPTION(data::WriteError, data::writeTextAtomic(fifo.string(), "x\n"));
    QVERIFY(fs::is_fifo(fifo));
    QVERIFY(!data::unreplaceableProblem("/dev/null").empty());
    QVERIFY(data::unreplaceableProblem(root_ / "data.csv").empty());
    QVERIFY(data::unreplaceableProblem(root_ / "absent.csv").empty());
    QCOMPARE(data::unreplaceableProblem(root_ / "a"), std::string("is a folder"));
  }
};

QTEST_GUILESS_MAIN(OutputPathTest)
#include "output_path_test.moc"
