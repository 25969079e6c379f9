/// The results table (002 Table 2 layout) and its CSV codec: hand-computed values on tiny
/// samples, and rows read back from their fields.
#include "core/summary/results_rows.h"

#include <QtTest>
#include <fstream>
#include <limits>
#include <memory>
#include <sstream>

namespace report = dpsynth::core::summary;
namespace pipeline = dpsynth::core::pipeline;
namespace data = dpsynth::core::data;

namespace {

data::Dataset tinyDataset() {
  data::Dataset d;
  d.outcomeName.assign(1, 'y');  // (GCC 12 warns falsely on assigning a short literal)
  d.y = Eigen::Vector4d(1, 2, 3, 4);
  d.X = Eigen::MatrixXd::Ones(4, 1);
  return d;
}

pipeline::MechanismResult mechanism(pipeline::Mechanism m, double delta) {
  pipeline::MechanismResult r;
  r.config.mechanism = m;
  r.guarantee = pipeline::guaranteeOf(m, /*referenceWeights=*/true);
  auto stage = std::make_shared<pipeline::StageResult>();
  stage->lipschitz.max = delta;
  r.final = stage;
  r.epsilon = 2 * delta;
  return r;
}

}  // namespace

class ResultsRowsTest : public QObject {
  Q_OBJECT
 private slots:
  void labelsAreUniqueAndKeepPlainNames() {
    pipeline::RunResult run;
    run.mechanisms = {
        mechanism(pipeline::Mechanism::lw, 1), mechanism(pipeline::Mechanism::censorW, 1),
        mechanism(pipeline::Mechanism::censorW, 1), mechanism(pipeline::Mechanism::ph, 1)};
    const auto labels = report::mechanismLabels(run);
    QCOMPARE(labels, (std::vector<std::string>{"lw", "censor-w", "censor-w-2", "ph"}));
  }

  void rowsHoldConfidentialThenMechanisms() {
    // y = 1..4 against y* = 2..5: pooled points 1..5, F_conf = .25 .5 .75 1 1 and
    // F_syn = 0 .25 .5 .75 1, so max-ECDF = .25; avg-ECDF averages over the 8 pooled points
    // (2, 3, 4 twice): 7 · .0625 / 8 = .0546875.
    const auto d = tinyDataset();
    pipeline::RunResult run;
    auto censor = mechanism(pipeline::Mechanism::censorW, 1.5);
    censor.epsilon = 3;
    censor.censoredRecords = 2;
    auto ph = mechanism(pipeline::Mechanism::ph, 0);
    ph.final.reset();
    ph.epsilon = 1;
    run.mechanisms = {censor, ph};
    const auto rows =
        report::resultsTable(d, run, {Eigen::Vector4d(2, 3, 4, 5), Eigen::Vector4d(1, 2, 3, 4)});
    QCOMPARE(rows.size(), std::size_t(3));
    QCOMPARE(rows[0].mechanism, std::string("confidential"));
    QCOMPARE(rows[0].mean, 2.5);
    QCOMPARE(rows[0].median, 2.5);
    QCOMPARE(rows[0].q15, 1.45);  // type 7: 1 + 0.45 · (2 - 1)
    QCOMPARE(rows[0].q90, 3.7);
    QVERIFY(!rows[0].epsilon && !rows[0].lipschitz && !rows[0].maxEcdf);

    QCOMPARE(rows[1].mechanism, std::string("censor-w"));
    QCOMPARE(rows[1].guarantee, std::string("DP"));
    QCOMPARE(*rows[1].lipschitz, 1.5);
    QCOMPARE(*rows[1].epsilon, 3.0);
    QCOMPARE(*rows[1].censored, std::size_t(2));
    QVERIFY(!rows[1].truncated);
    QCOMPARE(*rows[1].maxEcdf, 0.25);
    QCOMPARE(*rows[1].avgEcdf, 0.0546875);
    QCOMPARE(rows[1].mean, 3.5);
    QCOMPARE(rows[1].median, 3.5);

    QVERIFY(!rows[2].lipschitz);  // ph has no fit
    QCOMPARE(*rows[2].maxEcdf, 0.0);
  }

  void csvLayoutMatchesTable2() {
    const auto d = tinyDataset();
    pipeline::RunResult run;
    auto we = mechanism(pipeline::Mechanism::weightedE, 0.25);
    we.truncatedRecords = 7;
    run.mechanisms = {we};
    const auto rows = report::resultsTable(d, run, {Eigen::Vector4d(2, 3, 4, 5)});
    QTemporaryDir dir;
    const std::string path = dir.filePath("results.csv").toStdString();
    report::writeResultsCsv(path, rows);
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    QCOMPARE(QString::fromStdString(text.str()),
             QString("mechanism,guarantee,lipschitz,epsilon,censored,truncated,max_ecdf,"
                     "avg_ecdf,mean,median,q15,q90,marginal_only,ci_overlap,max_std_diff,pmse,"
                     "max_group_mean_diff,replicated_uniques,attribute_cap,"
                     "attribute_cap_baseline,dcr_share\n"
                     "confidential,,,,,,,,2.5,2.5,1.45,3.7,,,,,,,,,\n"
                     // Disclosure risk by hand (no keys: one group; τ = 0.05): all four
                     // values are unique, and 2, 3, 4 have one synthetic match each: 3/4. No
                     // record matches the synthetic median 3.5 or the confidential 2.5: 0, 0.
                     // Nearest-neighbour distances are all 1, and every synthetic value lies
                     // within 1 of a confidential one: 1.
                     "weighted-e,aDP,0.25,0.5,,7,0.25,0.0546875,3.5,3.5,2.45,4.7,false,,,,,0.75,"
                     "0,0,1\n"));
  }

  void csvFieldsReadBackToTheSameRow() {
    report::ResultsRow row;
    row.mechanism = "censor-w-2";
    row.guarantee = "aDP";
    row.lipschitz = 0.1 + 0.2;  // not a short decimal: the digits must round-trip
    row.epsilon = 3;
    row.censored = 12;
    row.maxEcdf = 1.0 / 3.0;
    row.avgEcdf = 0;
    row.mean = -2.5e-12;
    row.median = std::numeric_limits<double>::infinity();  // a wild synthetic file
    row.q15 = std::numeric_limits<double>::quiet_NaN();    // none: written empty
    row.q90 = 7;
    row.marginalOnly = true;
    row.pmse = 0.25;
    row.replicatedUniques = 0.125;
    row.dcrShare = 1;
    const auto fields = report::resultsCsvFields(row);
    QCOMPARE(fields.size(), report::resultsHeader().size());
    const auto back = report::resultsRowFromCsv(fields);
    QCOMPARE(report::resultsCsvFields(back), fields);
    QCOMPARE(*back.lipschitz, 0.1 + 0.2);
    QCOMPARE(*back.censored, std::size_t(12));
    QVERIFY(std::isinf(back.median));
    QVERIFY(std::isnan(back.q15));
    QVERIFY(back.marginalOnly);
    QVERIFY(!back.truncated && !back.ciOverlap);
    // Columns by name, as scripts read them.
    QCOMPARE(*back.number("pmse"), 0.25);
    QCOMPARE(*back.number("censored"), 12.0);
    QVERIFY(!back.number("mechanism") && !back.number("marginal_only"));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, back.number("no_such_column"));
    // The confidential row has no marginal_only flag.
    report::ResultsRow confidential;
    confidential.mechanism = "confidential";
    QCOMPARE(report::resultsCsvFields(confidential)[12], std::string());
  }

  void badFieldsAreRefusedNamingTheColumn() {
    auto fields = report::resultsCsvFields(report::ResultsRow{});
    fields[6] = "0.2x";
    try {
      report::resultsRowFromCsv(fields);
      QFAIL("a bad number was read");
    } catch (const std::invalid_argument& e) {
      QVERIFY2(std::string(e.what()).find("'max_ecdf'") != std::string::npos, e.what());
    }
    fields = report::resultsCsvFields(report::ResultsRow{});
    fields[4] = "-1";
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, report::resultsRowFromCsv(fields));
    fields.pop_back();
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, report::resultsRowFromCsv(fields));
  }

  void mismatchedSyntheticIsRefused() {
    const auto d = tinyDataset();
    pipeline::RunResult run;
    run.mechanisms = {mechanism(pipeline::Mechanism::lw, 1)};
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, report::resultsTable(d, run, {}));
  }
};

QTEST_APPLESS_MAIN(ResultsRowsTest)
#include "results_rows_test.moc"
