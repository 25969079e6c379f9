/// The 004 coverage study as a study kind: its config, the fixed truth, the rows of a replicate
/// (acceptance never below e^{−ε}), thread-independence, resume, and a reduced coverage study
/// whose intervals cover about as often as they claim and fall back to the prior at tiny ε.
#include "core/study/coverage_study.h"

#include <QTemporaryDir>
#include <QtTest>
#include <boost/math/distributions/beta.hpp>

#include "core/study/study_store.h"
#include "support/test_files.h"

namespace study = dpsynth::core::study;

namespace {

study::CoverageConfig coverageTiny(std::vector<double> epsilon, int replicates, int records = 40) {
  study::CoverageConfig c;
  c.records = records;
  c.classProbabilities = {0.3, 0.7};
  c.levels = {2};
  c.epsilon = std::move(epsilon);
  c.replicates = replicates;
  c.iterations = 600;
  c.warmup = 300;
  c.seed = 11;
  return c;
}

std::vector<std::vector<std::string>> coverageRows(const study::CoverageConfig& c, int threads) {
  std::vector<int> all;
  for (int r = 0; r < c.replicates; ++r) all.push_back(r);
  std::vector<study::ReplicateRows> done;
  const auto outcome = study::runCoverageStudy(
      c, all, threads, [&](const study::ReplicateRows& r) { done.push_back(r); });
  if (outcome != study::StudyOutcome::completed) throw std::logic_error("coverage study stopped");
  std::sort(done.begin(), done.end(), [](auto& a, auto& b) { return a.replicate < b.replicate; });
  std::vector<std::vector<std::string>> rows;
  for (const auto& d : done)
    for (auto row : d.rows) {
      row.pop_back();  // seconds
      rows.push_back(row);
    }
  return rows;
}

std::size_t coverageCol(const char* name) {
  const auto h = study::coverageHeader();
  return static_cast<std::size_t>(std::find(h.begin(), h.end(), name) - h.begin());
}

}  // namespace

class CoverageStudyTest : public QObject {
  Q_OBJECT

 private slots:
  void thePresetReadsAndRoundTrips() {
    const std::string path =
        std::string(DPSYNTH_SOURCE_DIR) + "/resources/studies/004-naive-bayes-coverage.json";
    const std::string text = dpsynth::test::readFile(path);
    QVERIFY(study::isCoverageConfigText(text));
    const auto c = study::coverageConfigFromJson(text, path);
    QCOMPARE(c.records, 100);
    QCOMPARE(c.classes(), 5);
    QCOMPARE(c.levels, std::vector<int>(5, 3));
    QCOMPARE(c.epsilon.size(), std::size_t(5));
    QCOMPARE(c.iterations, 10000);
    QCOMPARE(c.warmup, 5000);
    double sum = 0;
    for (double p : c.classProbabilities) sum += p;
    QVERIFY(std::abs(sum - 1) < 1e-12);  // 004's values sum to 0.999: normalised
    QCOMPARE(c.reference.at("0.1")[3], 0.36);
    const std::string canonical = study::coverageConfigToJson(c);
    const auto again = study::coverageConfigFromJson(canonical, "canonical");
    QCOMPARE(study::coverageConfigToJson(again), canonical);
    QCOMPARE(study::coverageConfigHash(again), study::coverageConfigHash(c));
    QVERIFY(!study::isCoverageConfigText(dpsynth::test::readFile(
        std::string(DPSYNTH_SOURCE_DIR) + "/resources/studies/002-beta.json")));
    QVERIFY(!study::isCoverageConfigText("not json"));
  }

  void badConfigsNameTheirKey() {
    const auto message = [](const std::string& text) -> std::string {
      try {
        study::coverageConfigFromJson(text, "c.json");
      } catch (const study::ConfigError& e) {
        return e.what();
      }
      return "accepted";
    };
    const std::string head = R"({"version":1,"kind":"da-coverage","records":10,"replicates":2,)";
    QVERIFY(QString::fromStdString(
                message(head + R"("class_probabilities":[0.5,0.5],"levels":[1],"epsilon":[1]})"))
                .contains("levels"));
    QVERIFY(QString::fromStdString(
                message(head + R"("class_probabilities":[0.5,0.9],"levels":[2],"epsilon":[1]})"))
                .contains("class_probabilities"));
    QVERIFY(QString::fromStdString(
                message(head + R"("class_probabilities":[0.5,0.5],"levels":[2],"epsilon":[0]})"))
                .contains("epsilon"));
    QVERIFY(
        QString::fromStdString(
            message(
                head +
                R"("class_probabilities":[0.5,0.5],"levels":[2],"epsilon":[1],"sampler":{"iterations":10,"warmup":10}})"))
            .contains("sampler.iterations"));
    QVERIFY(
        QString::fromStdString(
            message(head +
                    R"("class_probabilities":[0.5,0.5],"levels":[2],"epsilon":[1],"colour":1})"))
            .contains("colour"));
    QVERIFY(QString::fromStdString(message(R"({"version":1,"kind":"da-coverage","seed":1e999})"))
                .contains("c.json"));
  }

  void theTruthIsFixedByTheSeedAndEachVectorSumsToOne() {
    study::CoverageConfig c = coverageTiny({1}, 1);
    c.classProbabilities = {0.2, 0.3, 0.5};
    c.levels = {2, 4};
    const Eigen::VectorXd t = study::coverageTruth(c);
    QCOMPARE(t.size(), Eigen::Index(3 + 3 * 6));
    QCOMPARE(t[2], 0.5);
    const auto layout = c.layout();
    for (int i = 0; i < 3; ++i)
      for (int k = 0; k < 2; ++k)
        QVERIFY(std::abs(t.segment(3 + layout.cell(i, k, 0), layout.levelCount(k)).sum() - 1) <
                1e-12);
    QVERIFY(study::coverageTruth(c) == t);
    c.seed = 12;
    QVERIFY(study::coverageTruth(c) != t);
  }

  void aReplicateHasARowPerEpsilonAndClassAndAcceptanceNeverBelowTheBound() {
    const auto c = coverageTiny({0.2, 5}, 1);
    const auto rows = study::runCoverageReplicate(c, 0);
    QVERIFY(rows);
    QCOMPARE(rows->rows.size(), std::size_t(4));
    for (const auto& row : rows->rows) {
      QCOMPARE(row.size(), study::coverageHeader().size());
      const double minAcceptance = std::stod(row[coverageCol("min_acceptance")]);
      const double bound = std::stod(row[coverageCol("acceptance_bound")]);
      QCOMPARE(bound, std::exp(-std::stod(row[coverageCol("epsilon")])));
      QVERIFY2(minAcceptance >= bound - 1e-12, row[coverageCol("min_acceptance")].c_str());
      QVERIFY(minAcceptance < 1.0);  // some proposal was rejected with positive probability
      QVERIFY(std::stod(row[coverageCol("lower")]) < std::stod(row[coverageCol("upper")]));
    }
    QCOMPARE(rows->rows[0][coverageCol("parameter")], std::string("p[1]"));
    QCOMPARE(rows->rows[1][coverageCol("parameter")], std::string("p[2]"));
  }

  void oneAndTwoThreadsGiveTheSameRows() {
    const auto c = coverageTiny({1}, 3, 20);
    QCOMPARE(coverageRows(c, 1), coverageRows(c, 2));
  }

  void aResumedStudyEqualsAnUninterruptedOne() {
    const auto c = coverageTiny({1}, 3, 20);
    QTemporaryDir dir;
    const auto identity = study::coverageStoreIdentity(c);
    {
      study::StudyStore store(dir.filePath("s").toStdString(), identity);
      study::runCoverageStudy(c, {0, 2}, 1,
                              [&](const study::ReplicateRows& r) { store.append(r); });
    }
    study::StudyStore resumed(dir.filePath("s").toStdString(), identity);
    QCOMPARE(resumed.completed(), (std::set<int>{0, 2}));
    study::runCoverageStudy(c, {1}, 1, [&](const study::ReplicateRows& r) { resumed.append(r); });
    auto stored = resumed.rows();
    for (auto& row : stored) row.pop_back();
    QCOMPARE(stored, coverageRows(c, 1));
    // Another config in the same folder is refused.
    auto other = c;
    other.seed = 99;
    QVERIFY_THROWS_EXCEPTION(
        study::ConfigError,
        study::StudyStore(dir.filePath("s").toStdString(), study::coverageStoreIdentity(other)));
  }

  /// A reduced version of 004's experiment: 40 replicates of N = 40 records, I = 2, K = 1, J = 2.
  /// At ε = 2 the 90% intervals must cover about 90% of the time (a sampler that ignored the
  /// noise, or the data, would not); at ε = 0.001 the release says nothing, so the intervals
  /// must be the prior's: P(Y = 1) ~ Beta(2, 2), 5% and 95% quantiles 0.1354 and 0.8646.
  void reducedCoverageStudy() {
    const auto c = coverageTiny({0.001, 2}, 40);
    const auto rows = coverageRows(c, 2);
    std::vector<std::vector<std::string>> withSeconds;
    for (auto row : rows) {
      row.push_back("0");
      withSeconds.push_back(row);
    }
    const auto cells = study::summarizeCoverage(withSeconds);
    QCOMPARE(cells.size(), std::size_t(4));
    for (const auto& cell : cells) {
      QCOMPARE(cell.replicates, 40);
      QVERIFY2(
          cell.coverage() >= 0.75,
          (cell.epsilon + " " + cell.parameter + " " + std::to_string(cell.coverage())).c_str());
      QVERIFY(cell.minAcceptance >= cell.acceptanceBound - 1e-12);
    }
    const boost::math::beta_distribution<> prior(2, 2);
    double lower = 0, upper = 0;
    int n = 0;
    for (const auto& row : rows)
      if (row[coverageCol("epsilon")] == "0.001" && row[coverageCol("parameter")] == "p[1]") {
        lower += std::stod(row[coverageCol("lower")]);
        upper += std::stod(row[coverageCol("upper")]);
        ++n;
      }
    QCOMPARE(n, 40);
    QVERIFY2(std::abs(lower / n - boost::math::quantile(prior, 0.05)) < 0.03,
             std::to_string(lower / n).c_str());
    QVERIFY2(std::abs(upper / n - boost::math::quantile(prior, 0.95)) < 0.03,
             std::to_string(upper / n).c_str());
  }

  void outputsHoldTheTableWithTheReferenceBeside() {
    auto c = coverageTiny({1}, 2, 20);
    c.reference["1"] = {0.91, 0.87};
    c.referenceName = "a published table";
    QTemporaryDir dir;
    auto rows = coverageRows(c, 1);
    for (auto& row : rows) row.push_back("0.1");
    study::writeCoverageOutputs(dir.path().toStdString(), c, rows);
    const std::string md = dpsynth::test::readFile(dir.filePath("coverage.md").toStdString());
    QVERIFY2(md.find("(0.91)") != std::string::npos, md.c_str());
    QVERIFY(md.find("a published table") != std::string::npos);
    QVERIFY(md.find("not a release") != std::string::npos);
    const std::string json = dpsynth::test::readFile(dir.filePath("coverage.json").toStdString());
    QVERIFY(json.find("\"internal_study\": true") != std::string::npos);
  }
};

QTEST_APPLESS_MAIN(CoverageStudyTest)
#include "coverage_study_test.moc"
