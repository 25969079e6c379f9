/// The files of a study folder: a study of bootstrap replicates of confidential data marks
/// itself internal (SPEC §0: the first line of summary.md, an INTERNAL.txt, the chart's title);
/// a study of a generator does not.
#include "core/study/study_outputs.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>
#include <fstream>
#include <sstream>

#include "core/report/ownership_manifest.h"
#include "core/study/study_runner.h"
#include "core/study/study_summary.h"
#include "support/tiny_study.h"

namespace study = dpsynth::core::study;

namespace {

std::string studyOutputText(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

class StudyOutputsTest : public QObject {
  Q_OBJECT

 private slots:
  void bootstrapStudiesMarkThemselvesInternal() {
    const study::StudyConfig generator = dpsynth::test::tinyStudyConfig(2);
    std::vector<std::vector<std::string>> rows;
    study::runStudy(generator, {0, 1}, 1, [&](const study::ReplicateRows& r) {
      rows.insert(rows.end(), r.rows.begin(), r.rows.end());
    });
    QVERIFY(!rows.empty());
    QTemporaryDir dir;
    const std::string plain = dir.filePath("generator").toStdString();
    const std::string internal = dir.filePath("bootstrap").toStdString();
    QVERIFY(QDir().mkpath(QString::fromStdString(plain)));
    QVERIFY(QDir().mkpath(QString::fromStdString(internal)));

    study::writeStudyOutputs(plain, generator, rows);
    QVERIFY(!QFile::exists(QString::fromStdString(plain + "/INTERNAL.txt")));
    QVERIFY(studyOutputText(plain + "/summary.md").rfind("# Study summary", 0) == 0);
    QVERIFY(studyOutputText(plain + "/lipschitz.svg").find("<title>INTERNAL") == std::string::npos);

    study::StudyConfig bootstrap = generator;
    bootstrap.source.generator.reset();
    bootstrap.source.bootstrap = study::Bootstrap{
        "confidential.csv", "count", {}, dpsynth::core::models::Family::poisson, {}};
    study::writeStudyOutputs(internal, bootstrap, rows);
    const std::string marker = studyOutputText(internal + "/" + study::kInternalMarkerFile);
    QVERIFY(marker.rfind(study::kInternalStudyLine, 0) == 0);
    QVERIFY(marker.find("confidential.csv") != std::string::npos);
    const std::string md = studyOutputText(internal + "/summary.md");
    QCOMPARE(md.substr(0, md.find('\n')), std::string(study::kInternalStudyLine));
    QVERIFY(md.find("INTERNAL") == 0);
    QVERIFY(studyOutputText(internal + "/lipschitz.svg").find("<title>INTERNAL") !=
            std::string::npos);
    QVERIFY(studyOutputText(internal + "/summary.json").find("\"internal_study\": true") !=
            std::string::npos);
  }

  void theSummariesAreRecordedAsDpsynths() {
    // A study's --out is often a folder of the user's: the next study replaces the summaries
    // only while the folder's manifest records them as written (app/cli/output_plan.h).
    const study::StudyConfig config = dpsynth::test::tinyStudyConfig(2);
    std::vector<std::vector<std::string>> rows;
    study::runStudy(config, {0, 1}, 1, [&](const study::ReplicateRows& r) {
      rows.insert(rows.end(), r.rows.begin(), r.rows.end());
    });
    QTemporaryDir dir;
    const std::string folder = dir.path().toStdString();
    std::ofstream(folder + "/summary.md") << "my own summary";
    const auto names = study::studyOutputNames(config);
    QCOMPARE(names, (std::vector<std::string>{"summary.json", "summary.md", "lipschitz.svg"}));
    QCOMPARE(dpsynth::core::report::foreignFiles(folder, names),
             std::vector<std::string>{"summary.md"});
    study::writeStudyOutputs(folder, config, rows);
    QCOMPARE(dpsynth::core::report::foreignFiles(folder, names), std::vector<std::string>{});
  }
};

QTEST_APPLESS_MAIN(StudyOutputsTest)
#include "study_outputs_test.moc"
