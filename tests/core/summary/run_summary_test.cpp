/// The one run summary (core/summary/run_summary.h): every front end's first synthetic dataset
/// is the run seed's dataset 0, and the rows are the results table of exactly those datasets.
#include "core/summary/run_summary.h"

#include <QtTest>

#include "core/exec/cancellation.h"
#include "support/sample_data.h"

namespace summary = dpsynth::core::summary;
namespace pipeline = dpsynth::core::pipeline;
using dpsynth::core::models::Family;

class RunSummaryTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    dataset_ = dpsynth::test::bundledSample("salary", Family::normal, 300);
    settings_.model.family = Family::normal;
    settings_.model.sdScale = 10000;
    settings_.nuts.chains = 2;
    settings_.nuts.warmup = 100;
    settings_.nuts.draws = 100;
    settings_.nuts.seed = 29;
    settings_.release = false;
    pipeline::MechanismConfig lw, ph;
    lw.mechanism = pipeline::Mechanism::lw;
    ph.mechanism = pipeline::Mechanism::ph;
    ph.epsilon = 1;
    ph.lower = 0;
    ph.upper = 200000;
    ph.reproducibleNoise = true;
    run_ = pipeline::runMechanisms(dataset_, {lw, ph}, settings_);
    QCOMPARE(run_.mechanisms.size(), std::size_t(2));
  }

  void theFirstDatasetIsTheRunSeedsDatasetZero() {
    QCOMPARE(summary::synthesisSeed(settings_), settings_.nuts.seed);
    const auto s = summary::summarizeRun(dataset_, run_, settings_);
    QCOMPARE(s.firstSynthetic.size(), std::size_t(2));
    QCOMPARE(s.synthesizers.size(), std::size_t(2));
    for (std::size_t j = 0; j < 2; ++j) {
      const auto expected = pipeline::synthesize(dataset_, run_.mechanisms[j], settings_.model, 2,
                                                 settings_.nuts.seed);
      QVERIFY(s.firstSynthetic[j] == expected[0]);
      // Further datasets come from the same synthesizer.
      QVERIFY(s.synthesizers[j]->draw(1) == expected[1]);
    }
    // The rows describe exactly those datasets.
    const auto rows = summary::resultsTable(dataset_, run_, s.firstSynthetic);
    QCOMPARE(summary::resultsCsvRows(s.rows), summary::resultsCsvRows(rows));
    QCOMPARE(s.rows.size(), std::size_t(3));
    QCOMPARE(s.rows[0].mechanism, std::string("confidential"));
    // Without the rows: the same datasets.
    const auto first = summary::firstDatasets(dataset_, run_, settings_);
    QVERIFY(first.rows.empty());
    QVERIFY(first.firstSynthetic == s.firstSynthetic);
  }

  void aStopRequestEndsIt() {
    std::stop_source stop;
    stop.request_stop();
    QVERIFY_THROWS_EXCEPTION(dpsynth::core::exec::Cancelled,
                             summary::summarizeRun(dataset_, run_, settings_, stop.get_token()));
  }

 private:
  dpsynth::core::data::Dataset dataset_;
  pipeline::RunSettings settings_;
  pipeline::RunResult run_;
};

QTEST_APPLESS_MAIN(RunSummaryTest)
#include "run_summary_test.moc"
