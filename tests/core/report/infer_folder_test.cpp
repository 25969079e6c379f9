/// An inference run's folder: the three files appear together with the record that dpsynth
/// wrote them, so that the next run replaces them and nothing else of those names.
#include "core/report/infer_folder.h"

#include <QDir>
#include <QTemporaryDir>
#include <QtTest>
#include <fstream>

#include "core/data/regular_file.h"
#include "core/report/ownership_manifest.h"

namespace report = dpsynth::core::report;

namespace {

dpsynth::core::infer::InferOutputs inferFolderOutputs(const std::string& tag) {
  return {"draw\n" + tag + "\n", "{\"run\": \"" + tag + "\"}\n", "sweep\n" + tag + "\n"};
}

}  // namespace

class InferFolderTest : public QObject {
  Q_OBJECT
 private slots:
  void aRunReplacesItsOwnFilesAndRefusesTheUsers() {
    QTemporaryDir tmp;
    const std::string folder = tmp.filePath("analysis").toStdString();
    report::writeInferFolder(folder, inferFolderOutputs("1"), /*refuseForeignFiles=*/true);
    QCOMPARE(report::foreignFiles(folder, report::inferFileNames()), std::vector<std::string>{});
    // The next run replaces what the first wrote.
    report::writeInferFolder(folder, inferFolderOutputs("2"), true);
    QCOMPARE(dpsynth::core::data::readRegularFile(folder + "/draws.csv"), std::string("draw\n2\n"));
    // A summary.json the user put there (here: edited) is refused, nothing written.
    std::ofstream(folder + "/summary.json") << "my notes";
    try {
      report::writeInferFolder(folder, inferFolderOutputs("3"), true);
      QFAIL("the user's summary.json was replaced");
    } catch (const std::invalid_argument& e) {
      QVERIFY2(std::string(e.what()).find("summary.json") != std::string::npos, e.what());
    }
    QCOMPARE(dpsynth::core::data::readRegularFile(folder + "/summary.json"),
             std::string("my notes"));
    QCOMPARE(dpsynth::core::data::readRegularFile(folder + "/draws.csv"), std::string("draw\n2\n"));
    // Told to (--replace): replaced, and recorded as dpsynth's from then on.
    report::writeInferFolder(folder, inferFolderOutputs("4"), false);
    QCOMPARE(report::foreignFiles(folder, report::inferFileNames()), std::vector<std::string>{});
    QCOMPARE(QDir(QString::fromStdString(folder)).entryList(QDir::Files | QDir::Hidden).size(),
             4);  // the three files and the manifest, no staging leftovers
  }
};

QTEST_APPLESS_MAIN(InferFolderTest)
#include "infer_folder_test.moc"
