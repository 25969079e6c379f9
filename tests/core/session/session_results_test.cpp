#include "core/session/session_results.h"

#include <QtTest>
#include <nlohmann/json.hpp>

#include "core/session/session.h"

namespace session = dpsynth::core::session;

namespace {

session::SessionResults exampleResults() {
  session::SessionResults r;
  r.createdAt = "2026-11-23T06:50:00Z";
  r.dataSha256 = std::string(64, 'b');
  r.settingsChanged = true;
  session::StoredRow confidential;
  confidential.mechanism = "confidential";
  confidential.mean = 12.5;
  confidential.median = 9;
  confidential.q15 = 2;
  confidential.q90 = 40.25;
  session::StoredRow lw;
  lw.mechanism = "lw-final";
  lw.guarantee = "aDP";
  lw.lipschitz = 5.295;
  lw.epsilon = 10.59;
  lw.maxEcdf = 0.061;
  lw.avgEcdf = 0.012;
  lw.mean = 12.1;
  lw.epsilonTarget = 1.0;
  lw.targetIgnored = true;
  lw.ciOverlap = 0.75;
  lw.maxStdDiff = 1.25;
  lw.pmse = 0.002;
  lw.maxGroupMeanDiff = 0.5;
  session::StoredRow censor;
  censor.mechanism = "censor-uw";
  censor.guarantee = "DP";
  censor.censored = 999;
  censor.truncated = std::nullopt;
  censor.usable = false;
  censor.verdictReasons = {"999 of 1000 records censored"};
  censor.marginalOnly = true;
  r.rows = {confidential, lw, censor};
  session::StoredMechanism m;
  m.mechanism = "lw-final";
  m.warnings = {"k search stopped at the bound"};
  m.lipschitzMax = 5.295;
  m.lipschitz = session::summarize({1, 2, 3, 4, 5.295});
  m.weights = session::summarize({0.5, 1, 1});
  m.parameters = {{"intercept", 2.1, 0.05, 2.0, 2.1, 2.2}, {"phi", 1.5, 0.2, 1.1, 1.5, 1.9}};
  r.mechanisms = {m};
  return r;
}

session::Session sessionWith(std::optional<session::SessionResults> results) {
  session::Session s;
  s.dataFile = "/data/counts.csv";
  s.dataset.outcome = "count";
  s.dataset.family = dpsynth::core::models::Family::negbin;
  s.run.model.sdScale = 1.0;
  s.results = std::move(results);
  return s;
}

}  // namespace

class SessionResultsTest : public QObject {
  Q_OBJECT

 private slots:
  void summarizeGivesCountMeanAndQuantiles() {
    std::vector<double> values;
    for (int i = 100; i >= 0; --i) values.push_back(i);  // any order
    const auto s = session::summarize(values);
    QCOMPARE(s.count, std::size_t(101));
    QCOMPARE(s.mean, 50.0);
    QCOMPARE(s.quantiles.size(), session::summaryProbabilities().size());
    QCOMPARE(s.quantiles.front(), 0.0);
    QCOMPARE(s.quantiles[10], 50.0);
    QCOMPARE(s.quantiles[1], 5.0);
    QCOMPARE(s.quantiles.back(), 100.0);
    QCOMPARE(session::summarize({}).count, std::size_t(0));
    QVERIFY(session::summarize({}).quantiles.empty());
  }

  void resultsRoundTrip() {
    const auto saved = sessionWith(exampleResults());
    const auto loaded = session::fromJson(session::toJson(saved), "x.dpsynth");
    QVERIFY(loaded.results.has_value());
    const auto& a = *saved.results;
    const auto& b = *loaded.results;
    QCOMPARE(b.createdAt, a.createdAt);
    QCOMPARE(b.dataSha256, a.dataSha256);
    QCOMPARE(b.settingsChanged, true);
    QCOMPARE(b.rows.size(), a.rows.size());
    for (std::size_t i = 0; i < a.rows.size(); ++i) {
      QCOMPARE(b.rows[i].mechanism, a.rows[i].mechanism);
      QCOMPARE(b.rows[i].guarantee, a.rows[i].guarantee);
      QCOMPARE(b.rows[i].lipschitz, a.rows[i].lipschitz);
      QCOMPARE(b.rows[i].epsilon, a.rows[i].epsilon);
      QCOMPARE(b.rows[i].censored, a.rows[i].censored);
      QCOMPARE(b.rows[i].truncated, a.rows[i].truncated);
      QCOMPARE(b.rows[i].maxEcdf, a.rows[i].maxEcdf);
      QCOMPARE(b.rows[i].avgEcdf, a.rows[i].avgEcdf);
      QCOMPARE(b.rows[i].mean, a.rows[i].mean);
      QCOMPARE(b.rows[i].median, a.rows[i].median);
      QCOMPARE(b.rows[i].q15, a.rows[i].q15);
      QCOMPARE(b.rows[i].q90, a.rows[i].q90);
      QCOMPARE(b.rows[i].epsilonTarget, a.rows[i].epsilonTarget);
      QCOMPARE(b.rows[i].targetIgnored, a.rows[i].targetIgnored);
      QCOMPARE(b.rows[i].usable, a.rows[i].usable);
      QCOMPARE(b.rows[i].verdictReasons, a.rows[i].verdictReasons);
      QCOMPARE(b.rows[i].marginalOnly, a.rows[i].marginalOnly);
      QCOMPARE(b.rows[i].ciOverlap, a.rows[i].ciOverlap);
      QCOMPARE(b.rows[i].maxStdDiff, a.rows[i].maxStdDiff);
      QCOMPARE(b.rows[i].pmse, a.rows[i].pmse);
      QCOMPARE(b.rows[i].maxGroupMeanDiff, a.rows[i].maxGroupMeanDiff);
    }
    QVERIFY(b.rows[2].marginalOnly);
    QCOMPARE(*b.rows[1].pmse, 0.002);
    QCOMPARE(b.mechanisms.size(), std::size_t(1));
    QCOMPARE(b.mechanisms[0].warnings, a.mechanisms[0].warnings);
    QCOMPARE(b.mechanisms[0].lipschitzMax, 5.295);
    QCOMPARE(b.mechanisms[0].lipschitz.count, std::size_t(5));
    QCOMPARE(b.mechanisms[0].lipschitz.quantiles, a.mechanisms[0].lipschitz.quantiles);
    QCOMPARE(b.mechanisms[0].lipschitzBefore.count, std::size_t(0));
    QCOMPARE(b.mechanisms[0].weights.mean, a.mechanisms[0].weights.mean);
    QCOMPARE(b.mechanisms[0].parameters.size(), std::size_t(2));
    QCOMPARE(b.mechanisms[0].parameters[1].name, std::string("phi"));
    QCOMPARE(b.mechanisms[0].parameters[1].q975, 1.9);
  }

  void noResultsWritesNoKey() {
    const auto json = nlohmann::json::parse(session::toJson(sessionWith(std::nullopt)));
    QVERIFY(!json.contains("results"));
    QVERIFY(!session::fromJson(json.dump(), "x.dpsynth").results.has_value());
  }

  void aSessionWrittenBeforeResultsExistedStillLoads() {
    // Written by the session code as it was before the "results" key was added.
    const auto s =
        session::loadSession(DPSYNTH_SOURCE_DIR "/tests/data/sessions/before_results.dpsynth");
    QVERIFY(!s.results.has_value());
    QCOMPARE(s.dataset.outcome, std::string("count"));
    QCOMPARE(s.mechanisms.size(), std::size_t(1));
    QCOMPARE(s.run.nuts.chains, 2);
    QCOMPARE(session::checkDataFile(s).status, session::DataFileStatus::unchanged);
  }

  void aMistypedResultsKeyNamesFileAndKey() {
    auto json = nlohmann::json::parse(session::toJson(sessionWith(exampleResults())));
    json["results"]["rows"][1]["mean"] = "twelve";
    try {
      session::fromJson(json.dump(), "bad.dpsynth");
      QFAIL("no error");
    } catch (const session::SessionError& e) {
      const QString what = e.what();
      QVERIFY2(what.contains("bad.dpsynth") && what.contains("results.rows[1].mean"),
               qPrintable(what));
    }
  }
};

QTEST_APPLESS_MAIN(SessionResultsTest)
#include "session_results_test.moc"
