#include "core/study/frontier.h"

#include <QtTest>
#include <algorithm>

#include "core/study/study_runner.h"

namespace study = dpsynth::core::study;
using dpsynth::core::pipeline::Guarantee;

namespace {

/// A row of a fabricated study with the fields the frontier reads.
std::vector<std::string> frontierRow(int replicate, const std::string& cell,
                                     const std::string& mechanism, const std::string& epsilon,
                                     const std::string& c, const std::string& guarantee,
                                     const std::string& realised, const std::string& maxEcdf) {
  const auto header = study::studyHeader();
  std::vector<std::string> row(header.size());
  auto set = [&](const char* name, const std::string& v) {
    row[static_cast<std::size_t>(std::find(header.begin(), header.end(), name) - header.begin())] =
        v;
  };
  set("replicate", std::to_string(replicate));
  set("cell", cell);
  set("cell_mechanism", mechanism);
  set("cell_epsilon", epsilon);
  set("cell_c", c);
  set("mechanism", mechanism);
  set("guarantee", guarantee);
  set("epsilon", realised);
  set("max_ecdf", maxEcdf);
  set("marginal_only", mechanism == "ph" ? "true" : "false");
  return row;
}

std::vector<std::vector<std::string>> frontierRows() {
  std::vector<std::vector<std::string>> rows;
  // Replicates 0..3. Cells: "0" = lw (no ε target; ε_x 2, 4, 3, 5), "1" = ph at ε 4 and
  // "2" = ph at ε 1 (listed in that order, so the series must be re-sorted by ε).
  const char* lwEps[] = {"2", "4", "3", "5"};
  const char* lwVal[] = {"0.1", "0.4", "0.2", "0.3"};
  const char* ph4[] = {"0.05", "0.01", "0.03", "0.02"};
  const char* ph1[] = {"0.5", "", "0.7", "0.9"};  // one replicate without a value
  for (int r = 0; r < 4; ++r) {
    auto confidential = frontierRow(r, "", "confidential", "", "", "", "", "");
    rows.push_back(confidential);
    rows.push_back(frontierRow(r, "0", "lw", "", "1", "aDP", lwEps[r], lwVal[r]));
    rows.push_back(frontierRow(r, "1", "ph", "4", "", "DP", "4", ph4[r]));
    rows.push_back(frontierRow(r, "2", "ph", "1", "", "DP", "1", ph1[r]));
  }
  return rows;
}

}  // namespace

class FrontierTest : public QObject {
  Q_OBJECT

 private slots:
  void measuresAreTheUtilityColumns() {
    const auto m = study::frontierMeasures();
    QVERIFY(!m.empty());
    QCOMPARE(m.front(), std::string("max_ecdf"));
    QVERIFY(std::find(m.begin(), m.end(), "pmse") != m.end());
    QVERIFY(std::find(m.begin(), m.end(), "marginal_only") == m.end());
    QVERIFY(std::find(m.begin(), m.end(), "epsilon") == m.end());
  }

  void mediansAndQuartilesByHand() {
    const auto points = study::frontierPoints(frontierRows(), "max_ecdf");
    QCOMPARE(points.size(), std::size_t(3));
    // lw: values {0.1, 0.2, 0.3, 0.4}: type 7, h = 3p: Q1 = 0.1 + 0.75·0.1 = 0.175,
    // median 0.25, Q3 = 0.3 + 0.25·0.1 = 0.325. No ε target: x = median ε_x of {2,3,4,5} = 3.5.
    const auto& lw = points[0];
    QCOMPARE(lw.mechanism, std::string("lw"));
    QVERIFY(!lw.epsilon);
    QCOMPARE(lw.x, 3.5);
    QCOMPARE(lw.value.n, std::size_t(4));
    QVERIFY(qFuzzyCompare(lw.value.q1, 0.175));
    QVERIFY(qFuzzyCompare(lw.value.median, 0.25));
    QVERIFY(qFuzzyCompare(lw.value.q3, 0.325));
    QCOMPARE(lw.guarantee, Guarantee::aDP);
    QCOMPARE(lw.series, std::string("lw"));
    QVERIFY(!lw.marginalOnly);
    // ph sorted by ε: ε = 1 first. Values {0.5, 0.7, 0.9} (n = 3, the empty field skipped):
    // h = 2p: Q1 = 0.5 + 0.5·0.2 = 0.6, median 0.7, Q3 = 0.8.
    const auto& ph1 = points[1];
    QCOMPARE(ph1.mechanism, std::string("ph"));
    QCOMPARE(ph1.x, 1.0);
    QCOMPARE(ph1.value.n, std::size_t(3));
    QVERIFY(qFuzzyCompare(ph1.value.q1, 0.6));
    QVERIFY(qFuzzyCompare(ph1.value.median, 0.7));
    QVERIFY(qFuzzyCompare(ph1.value.q3, 0.8));
    QCOMPARE(ph1.guarantee, Guarantee::DP);
    QVERIFY(ph1.marginalOnly);
    // ph at ε 4: {0.01, 0.02, 0.03, 0.05}: Q1 = 0.0175, median 0.025, Q3 = 0.035.
    const auto& ph4 = points[2];
    QCOMPARE(ph4.x, 4.0);
    QVERIFY(qFuzzyCompare(ph4.value.q1, 0.0175));
    QVERIFY(qFuzzyCompare(ph4.value.median, 0.025));
    QVERIFY(qFuzzyCompare(ph4.value.q3, 0.035));
    QCOMPARE(ph1.series, ph4.series);
  }

  void weakestGuaranteeOverReplicates() {
    // One replicate of a censor-w cell ran with reference weights (DP), one without (aDP):
    // the point claims only what held in every replicate.
    std::vector<std::vector<std::string>> rows{
        frontierRow(0, "0", "censor-w", "2", "1", "DP", "2", "0.1"),
        frontierRow(1, "0", "censor-w", "2", "1", "aDP", "2.3", "0.2")};
    const auto points = study::frontierPoints(rows, "max_ecdf");
    QCOMPARE(points.size(), std::size_t(1));
    QCOMPARE(points[0].guarantee, Guarantee::aDP);
    QCOMPARE(points[0].bestGuarantee, Guarantee::DP);
    QCOMPARE(points[0].withoutGuarantee, std::size_t(0));
    QCOMPARE(points[0].series, std::string("censor-w (c=1)"));
    QCOMPARE(study::frontierGuaranteeLabel(Guarantee::DP), std::string("strict DP"));
  }

  void failedDiagnosticsAreCounted() {
    // censor-uw's DP stage failed its diagnostics in one of three replicates ("none"): the
    // point is still a strict-DP mechanism's, with one replicate without a guarantee; the
    // unweighted fit claims nothing, so its "none" is no failure.
    std::vector<std::vector<std::string>> rows{
        frontierRow(0, "0", "censor-uw", "1", "", "DP", "1", "0.3"),
        frontierRow(1, "0", "censor-uw", "1", "", "none", "1", "0.9"),
        frontierRow(2, "0", "censor-uw", "1", "", "DP", "1", "0.4"),
        frontierRow(0, "1", "unweighted", "", "", "none", "9", "0.02"),
        frontierRow(1, "1", "unweighted", "", "", "none", "11", "0.03")};
    const auto points = study::frontierPoints(rows, "max_ecdf");
    QCOMPARE(points.size(), std::size_t(2));
    QCOMPARE(points[0].guarantee, Guarantee::none);
    QCOMPARE(points[0].bestGuarantee, Guarantee::DP);
    QCOMPARE(points[0].withoutGuarantee, std::size_t(1));
    QCOMPARE(points[0].value.median, 0.4);
    QCOMPARE(points[1].bestGuarantee, Guarantee::none);
    QCOMPARE(points[1].withoutGuarantee, std::size_t(0));
    QCOMPARE(points[1].x, 10.0);
    // Every replicate failed: still counted (the release would be refused at this ε).
    std::vector<std::vector<std::string>> failed{
        frontierRow(0, "0", "censor-uw", "0.5", "", "none", "0.5", "1"),
        frontierRow(1, "0", "censor-uw", "0.5", "", "none", "0.5", "1")};
    const auto allFailed = study::frontierPoints(failed, "max_ecdf");
    QCOMPARE(allFailed[0].withoutGuarantee, std::size_t(2));
  }

  void cellsWithoutTheMeasureAreLeftOut() {
    const auto points = study::frontierPoints(frontierRows(), "pmse");
    QVERIFY(points.empty());
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             study::frontierPoints(frontierRows(), "lipschitz"));
  }
};

QTEST_APPLESS_MAIN(FrontierTest)
#include "frontier_test.moc"
