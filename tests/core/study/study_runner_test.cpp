#include "core/study/study_runner.h"

#include <QtTest>
#include <algorithm>

#include "core/report/results_table.h"
#include "support/tiny_study.h"

namespace study = dpsynth::core::study;

namespace {

std::vector<std::vector<std::string>> studyRunnerRows(const study::StudyConfig& config,
                                                      int threads) {
  std::vector<study::ReplicateRows> done;
  std::vector<int> all;
  for (int r = 0; r < config.replicates; ++r) all.push_back(r);
  const auto outcome = study::runStudy(
      config, all, threads, [&](const study::ReplicateRows& rows) { done.push_back(rows); });
  if (outcome != study::StudyOutcome::completed) throw std::logic_error("study did not complete");
  std::sort(done.begin(), done.end(), [](auto& a, auto& b) { return a.replicate < b.replicate; });
  std::vector<std::vector<std::string>> rows;
  for (const auto& d : done) rows.insert(rows.end(), d.rows.begin(), d.rows.end());
  return rows;
}

std::size_t studyRunnerColumn(const std::string& name) {
  const auto h = study::studyHeader();
  return static_cast<std::size_t>(std::find(h.begin(), h.end(), name) - h.begin());
}

}  // namespace

class StudyRunnerTest : public QObject {
  Q_OBJECT

 private slots:
  void headerCarriesEveryResultsColumn() {
    const auto header = study::studyHeader();
    const auto results = dpsynth::core::report::resultsHeader();
    QCOMPARE(header.size(), 7 + results.size() + 3);
    QVERIFY(std::equal(results.begin(), results.end(), header.begin() + 7));
    QCOMPARE(header.front(), std::string("replicate"));
    QCOMPARE(header.back(), std::string("seconds"));
  }

  void replicateRowsHaveTheCellsAndSaneValues() {
    const auto config = dpsynth::test::tinyStudyConfig(1);
    const study::ReplicateSource source(config);
    const auto rows = study::runReplicate(config, source, 0);
    QVERIFY(rows);
    QCOMPARE(rows->rows.size(), std::size_t(4));  // confidential + 3 cells
    QCOMPARE(rows->rows[0][2], std::string("confidential"));
    QCOMPARE(rows->rows[1][2], std::string("unweighted"));
    QCOMPARE(rows->rows[3][2], std::string("censor-uw"));
    QCOMPARE(rows->rows[3][3], std::string("6"));
    const auto lip = studyRunnerColumn("lipschitz");
    const auto censored = studyRunnerColumn("censored");
    for (std::size_t i = 1; i < rows->rows.size(); ++i) {
      QCOMPARE(rows->rows[i].size(), study::studyHeader().size());
      QVERIFY(std::stod(rows->rows[i][lip]) > 0);
    }
    // The censored fit's Δ is on clamped contributions: never above ε/2 (replace-one: the
    // interval's sensitivity is at most ε/2 as well).
    QVERIFY(std::stod(rows->rows[3][lip]) <= 3.0 + 1e-12);
    QVERIFY(!rows->rows[3][censored].empty());
    // The generator draws the replicate's data: its confidential mean is near 20.
    const double mean = std::stod(rows->rows[0][studyRunnerColumn("mean")]);
    QVERIFY(mean > 17 && mean < 23);
  }

  void sameSeedSameRowsWithOneAndTwoThreads() {
    const auto config = dpsynth::test::tinyStudyConfig(3);
    auto strip = [](std::vector<std::vector<std::string>> rows) {
      for (auto& row : rows) row.back().clear();  // seconds differ from run to run
      return rows;
    };
    const auto one = strip(studyRunnerRows(config, 1));
    const auto two = strip(studyRunnerRows(config, 2));
    QCOMPARE(one.size(), std::size_t(12));
    QVERIFY(one == two);
    // Replicates differ from each other (their seeds do).
    QVERIFY(one[0] != one[4]);
  }

  void stopBeforeStartRunsNothing() {
    const auto config = dpsynth::test::tinyStudyConfig(2);
    std::stop_source stop;
    stop.request_stop();
    int calls = 0;
    const auto outcome = study::runStudy(
        config, {0, 1}, 1, [&](const study::ReplicateRows&) { ++calls; }, {}, stop.get_token());
    QCOMPARE(outcome, study::StudyOutcome::cancelled);
    QCOMPARE(calls, 0);
  }
};

QTEST_APPLESS_MAIN(StudyRunnerTest)
#include "study_runner_test.moc"
