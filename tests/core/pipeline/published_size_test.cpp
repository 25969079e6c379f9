/// The size a run publishes, as the pipeline executes it (SPEC §0 "The size of the data"): the
/// number of synthetic rows, the histogram's default bins and the published ε under add-remove,
/// declared sizes, complete records after dropping missing values, and covariate rows taken
/// from a sample of the input when the size differs from n.
#include <QtTest>
#include <algorithm>
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>

#include "core/data/csv_table.h"
#include "core/data/dataset.h"
#include "core/pipeline/export.h"
#include "core/pipeline/pipeline.h"
#include "core/pipeline/release_claim.h"
#include "core/pipeline/report.h"
#include "core/pipeline/synthesis.h"
#include "support/model_fixtures.h"

namespace pipeline = dpsynth::core::pipeline;
namespace privacy = dpsynth::core::privacy;
namespace data = dpsynth::core::data;
using dpsynth::core::models::Family;

namespace {

/// n outcomes in (0, 1), the audit's tiny beta data.
std::vector<double> betaValues(int n) {
  std::vector<double> y;
  for (int i = 0; i < n; ++i) y.push_back(0.05 + 0.9 * ((i * 7) % n) / double(n));
  return y;
}

pipeline::MechanismConfig histogram(double epsilon) {
  pipeline::MechanismConfig c;
  c.mechanism = pipeline::Mechanism::ph;
  c.epsilon = epsilon;
  c.lower = 0;
  c.upper = 1;
  return c;
}

/// A seeded ph run (no MCMC) of `data`: its result.
pipeline::MechanismResult phRun(const data::Dataset& dataset, privacy::Neighbours neighbours,
                                std::uint64_t seed, privacy::SizeSettings size = {}) {
  pipeline::RunSettings s;
  s.model.family = dataset.family;
  s.neighbours = neighbours;
  s.nuts.seed = seed;
  s.size = size;
  return pipeline::runMechanisms(dataset, {histogram(1.0)}, s).mechanisms.front();
}

/// Synthetic row counts of `runs` seeded ph runs on `dataset`.
std::vector<std::size_t> rowCounts(const data::Dataset& dataset, privacy::Neighbours neighbours,
                                   int runs, std::uint64_t firstSeed) {
  std::vector<std::size_t> out;
  for (int r = 0; r < runs; ++r) {
    const auto result = phRun(dataset, neighbours, firstSeed + r);
    const auto synthetic = pipeline::synthesize(dataset, result, {Family::beta}, 1, firstSeed + r);
    out.push_back(static_cast<std::size_t>(synthetic.front().size()));
  }
  return out;
}

/// The best accuracy of a threshold rule "rows ≥ t means the larger dataset" over all t: 1 when
/// the row count tells the two datasets apart, near 1/2 when it does not.
double bestThresholdAccuracy(const std::vector<std::size_t>& larger,
                             const std::vector<std::size_t>& smaller) {
  double best = 0;
  for (std::size_t t = 0; t <= 200; ++t) {
    const auto hits = std::count_if(larger.begin(), larger.end(), [&](auto r) { return r >= t; }) +
                      std::count_if(smaller.begin(), smaller.end(), [&](auto r) { return r < t; });
    best = std::max(best, double(hits) / double(larger.size() + smaller.size()));
  }
  return best;
}

/// A table with a text covariate, so that synthetic rows show which input rows they copy.
data::Dataset covariateTable(int n, bool dropMissing = false) {
  std::string text = "group,id,y\n";
  for (int i = 0; i < n; ++i) {
    // Appended piece by piece: GCC 12 takes a chain of operator+ here for an overflow.
    text += 'g';
    text += std::to_string(i % 3);
    text += ",r";
    text += std::to_string(i);
    text += ',';
    text += std::to_string(0.1 + 0.8 * ((i * 5) % n) / double(n));
    text += '\n';
  }
  if (dropMissing) text += "g1,rmissing,\n";
  data::DatasetSpec spec;
  spec.outcome = "y";
  spec.covariates = {"id"};
  spec.family = Family::beta;
  spec.dropMissing = dropMissing;
  return data::buildDataset(data::parseCsv(text, "table.csv"), spec);
}

}  // namespace

class PublishedSizeTest : public QObject {
  Q_OBJECT

 private slots:
  /// Under add-remove two neighbouring datasets (n = 20 and 19) give row counts that vary from
  /// run to run and do not tell them apart; under replace-one (n public) the same rule does,
  /// which shows the comparison can see a difference.
  void rowCountDoesNotRevealNUnderAddRemove() {
    const auto a = dpsynth::test::makeDataset(Family::beta, betaValues(20));
    const auto b = dpsynth::test::makeDataset(Family::beta, betaValues(19));
    const int runs = 400;
    const auto rowsA = rowCounts(a, privacy::Neighbours::addRemove, runs, 1000);
    const auto rowsB = rowCounts(b, privacy::Neighbours::addRemove, runs, 5000);
    QVERIFY(std::set<std::size_t>(rowsA.begin(), rowsA.end()).size() > 10);
    QVERIFY(std::count(rowsA.begin(), rowsA.end(), std::size_t{20}) < runs / 10);
    // ε_n = 0.1 bounds any rule's accuracy by e^0.1/(1 + e^0.1) ≈ 0.525; allow Monte Carlo
    // error and the choice of the best of 200 thresholds.
    const double accuracy = bestThresholdAccuracy(rowsA, rowsB);
    QVERIFY2(accuracy < 0.6, qPrintable(QString::number(accuracy)));
    const auto exactA = rowCounts(a, privacy::Neighbours::replaceOne, 20, 1000);
    const auto exactB = rowCounts(b, privacy::Neighbours::replaceOne, 20, 5000);
    QCOMPARE(bestThresholdAccuracy(exactA, exactB), 1.0);
  }

  /// The histogram's default bins come from the published size, and every synthetic dataset has
  /// that many rows.
  void binsAndRowsFollowThePublishedSize() {
    const auto d = dpsynth::test::makeDataset(Family::beta, betaValues(50));
    std::set<std::size_t> bins;
    for (std::uint64_t seed = 1; seed <= 60; ++seed) {
      const auto result = phRun(d, privacy::Neighbours::addRemove, seed);
      QVERIFY(result.size.source == privacy::SizeSource::noisy);
      const std::size_t rows = result.size.rows;
      QCOMPARE(result.ph->noisy.size(), privacy::phDefaultBins(rows));
      bins.insert(result.ph->noisy.size());
      for (const auto& y : pipeline::synthesize(d, result, {Family::beta}, 3, seed))
        QCOMPARE(std::size_t(y.size()), rows);
    }
    QVERIFY(bins.size() > 1);  // ⌈√ñ⌉ moves with ñ, not fixed at ⌈√50⌉
    // Seeded runs are reproducible: the same seed publishes the same size.
    QCOMPARE(phRun(d, privacy::Neighbours::addRemove, 7).size.rows,
             phRun(d, privacy::Neighbours::addRemove, 7).size.rows);
  }

  /// --rows N: exactly N rows in every dataset, N's bins, no ε_n, under either relation.
  void declaredRowsAreExact() {
    const auto d = dpsynth::test::makeDataset(Family::beta, betaValues(20));
    privacy::SizeSettings declared;
    declared.declaredRows = 37;
    for (auto relation : {privacy::Neighbours::addRemove, privacy::Neighbours::replaceOne}) {
      const auto result = phRun(d, relation, 3, declared);
      QVERIFY(result.size.source == privacy::SizeSource::declared);
      QCOMPARE(result.ph->noisy.size(), std::size_t{7});  // ⌈√37⌉
      QCOMPARE(pipeline::sizeEpsilon(result), 0.0);
      for (const auto& y : pipeline::synthesize(d, result, {Family::beta}, 2, 3))
        QCOMPARE(y.size(), Eigen::Index{37});
    }
  }

  /// The published ε is the mechanism's plus ε_n, in the sidecar, the report and the
  /// composition; a declared or public size adds nothing.
  void publishedEpsilonAddsTheSizeEpsilon() {
    const auto d = dpsynth::test::makeDataset(Family::beta, betaValues(40));
    pipeline::RunSettings s;
    s.model.family = Family::beta;
    s.neighbours = privacy::Neighbours::addRemove;
    s.size.epsilon = 0.25;
    pipeline::makeRelease(s);
    const auto run = pipeline::runMechanisms(d, {histogram(1.0)}, s);
    const auto& ph = run.mechanisms.front();
    QVERIFY(!ph.notForRelease);
    QCOMPARE(*pipeline::publishedEpsilon(ph), 1.25);
    QCOMPARE(*pipeline::totalEpsilon(ph, 3), 1.25);  // one histogram, one size
    const auto syn = pipeline::synthesize(d, ph, s.model, 3, s.nuts.seed);
    const auto side = pipeline::sidecarJson(d, ph, 3, s.nuts.seed, {"a.csv", "b.csv", "c.csv"},
                                            {"d1", "d2", "d3"});
    QCOMPARE(side["epsilon"].get<double>(), 1.25);
    QCOMPARE(side["epsilon_split"]["synthesis"].get<double>(), 1.0);
    QCOMPARE(side["epsilon_split"]["size"].get<double>(), 0.25);
    QCOMPARE(side["composition"]["epsilon_total"].get<double>(), 1.25);
    QCOMPARE(side["composition"]["epsilon_size"].get<double>(), 0.25);
    QCOMPARE(side["n"].get<std::size_t>(), ph.size.rows);
    QCOMPARE(side["n_source"].get<std::string>(), std::string("noisy"));
    QCOMPARE(side["guarantee"].get<std::string>(), std::string("DP"));
    QCOMPARE(side["not_for_release"].get<bool>(), false);
    const auto report = pipeline::buildReport(d, ph, s, syn.front());
    QCOMPARE(report["epsilon"].get<double>(), 1.25);
    QCOMPARE(report["epsilon_mechanism"].get<double>(), 1.0);
    QCOMPARE(report["epsilon_size"].get<double>(), 0.25);
    QCOMPARE(report["n"].get<int>(), 40);  // internal: the true n
    QCOMPARE(report["size"]["rows"].get<std::size_t>(), ph.size.rows);

    // Posterior mechanisms: m datasets spend m·ε, the shared size ε_n once; aDP's ε_x is
    // rounded up before ε_n is added.
    pipeline::MechanismResult dp;
    dp.guarantee = pipeline::Guarantee::DP;
    dp.epsilon = 2.0;
    dp.notForRelease = false;
    dp.size = {50, privacy::SizeSource::noisy, 0.1};
    QCOMPARE(*pipeline::publishedEpsilon(dp), 2.1);
    QCOMPARE(*pipeline::totalEpsilon(dp, 3), 6.1);
    pipeline::MechanismResult adp = dp;
    adp.guarantee = pipeline::Guarantee::aDP;
    adp.epsilon = 1.231;
    QCOMPARE(*pipeline::publishedEpsilon(adp), 1.24 + 0.1);
    // Printed as the decimals it adds up to, never just below them (7.14 + 0.1 printed
    // 7.239999999999999 beside a note that said 7.24).
    adp.epsilon = 7.14;
    QCOMPARE(nlohmann::json(*pipeline::publishedEpsilon(adp)).dump(), std::string("7.24"));
    QVERIFY(*pipeline::publishedEpsilon(adp) >= 7.14 + 0.1);
    QCOMPARE(nlohmann::json(*pipeline::totalEpsilon(adp, 2)).dump(), std::string("14.38"));
    adp.epsilon = 7.33;  // 3 × 7.33 is 21.990000000000002: never rounded up past 21.99
    adp.size = {50, privacy::SizeSource::declared, 0.0};
    QCOMPARE(nlohmann::json(*pipeline::totalEpsilon(adp, 3)).dump(), std::string("21.99"));
    adp.size = {50, privacy::SizeSource::noisy, 0.1};
    adp.epsilon = 1.231;
    dp.size = {50, privacy::SizeSource::declared, 0.0};
    QCOMPARE(*pipeline::publishedEpsilon(dp), 2.0);
    pipeline::MechanismResult none;
    QVERIFY(!pipeline::publishedEpsilon(none));
  }

  /// A seeded run claims nothing: guarantee none and not_for_release in sidecar and report,
  /// the label under a secret seed apart; it is never releasable.
  void seededRunsClaimNothing() {
    const auto d = dpsynth::test::makeDataset(Family::beta, betaValues(40));
    const auto ph = phRun(d, privacy::Neighbours::replaceOne, 4);
    QVERIFY(ph.notForRelease);
    QVERIFY(pipeline::statedGuarantee(ph) == pipeline::Guarantee::none);
    QVERIFY(pipeline::guaranteeIfReleased(ph) == pipeline::Guarantee::DP);
    QVERIFY(!pipeline::releasable(ph));
    const auto side = pipeline::sidecarJson(d, ph, 1, 4, {"a.csv"}, {"d1"});
    QCOMPARE(side["guarantee"].get<std::string>(), std::string("none"));
    QCOMPARE(side["guarantee_if_released"].get<std::string>(), std::string("DP"));
    QCOMPARE(side["not_for_release"].get<bool>(), true);
    QVERIFY(side["epsilon"].is_null());
    QCOMPARE(side["epsilon_if_released"].get<double>(), 1.0);
    pipeline::RunSettings s;
    s.model.family = Family::beta;
    s.nuts.seed = 4;
    const auto report =
        pipeline::buildReport(d, ph, s, pipeline::synthesize(d, ph, s.model, 1, 4).front());
    QCOMPARE(report["guarantee"].get<std::string>(), std::string("none"));
    QCOMPARE(report["guarantee_if_released"].get<std::string>(), std::string("DP"));
    QVERIFY(pipeline::inReleaseFolder("/tmp/x/release/a.csv"));
    QVERIFY(!pipeline::inReleaseFolder("/tmp/release/x/a.csv"));
  }

  /// Under replace-one the number of complete records left by --drop-missing is confidential
  /// even when nothing was dropped; without the rule n is public.
  void completeRecordsAreConfidentialUnderReplaceOne() {
    const auto kept = covariateTable(30, /*dropMissing=*/true);
    QCOMPARE(kept.size(), std::size_t{30});
    QVERIFY(kept.completeCasesOnly);
    const auto noisy = phRun(kept, privacy::Neighbours::replaceOne, 8);
    QVERIFY(noisy.size.source == privacy::SizeSource::noisy);
    const auto plain = phRun(covariateTable(30), privacy::Neighbours::replaceOne, 8);
    QVERIFY(plain.size.source == privacy::SizeSource::publicSize);
    QCOMPARE(plain.size.rows, std::size_t{30});
    QVERIFY(!plain.sourceRows);
  }

  /// When the published size differs from n, synthetic records copy the declared covariates of
  /// a random sample of input rows: a subset without repeats below n, every row at least once
  /// above it. The synthetic file shows exactly those rows.
  void covariateRowsFollowTheSize() {
    const auto d = covariateTable(25);
    for (std::size_t rows : {std::size_t{9}, std::size_t{25}, std::size_t{61}}) {
      privacy::SizeSettings declared;
      declared.declaredRows = rows;
      const auto result = phRun(d, privacy::Neighbours::addRemove, 12, declared);
      const auto syn = pipeline::synthesize(d, result, {Family::beta}, 1, 12);
      QCOMPARE(std::size_t(syn.front().size()), rows);
      const auto table = pipeline::syntheticRows(d, syn.front(), 12, 0, result.sourceRows.get());
      QCOMPARE(table.size(), rows);
      std::map<std::string, int> ids;
      for (const auto& row : table) ++ids[row[0]];  // columns: id, y
      if (rows <= 25) {
        QCOMPARE(ids.size(), rows);  // distinct input rows
      } else {
        QCOMPARE(ids.size(), std::size_t{25});  // every input row, some repeated
      }
      for (const auto& [id, count] : ids) QVERIFY(id.rfind("r", 0) == 0);
    }
    // The sample itself: distinct below n, covering above it, and not the file's first rows.
    auto rng = dpsynth::core::random::makeRng(3, 0);
    const auto below = pipeline::syntheticSourceRows(100, 10, rng);
    QCOMPARE(std::set<std::size_t>(below.begin(), below.end()).size(), std::size_t{10});
    QVERIFY(*std::max_element(below.begin(), below.end()) >= 10);
    const auto above = pipeline::syntheticSourceRows(10, 35, rng);
    QCOMPARE(above.size(), std::size_t{35});
    QCOMPARE(std::set<std::size_t>(above.begin(), above.end()).size(), std::size_t{10});
  }

  /// Where n is confidential the sidecar's notes read the same whether or not the noisy size
  /// happens to equal n: a clause present only when ñ ≠ n told which, and with ñ published
  /// beside it, gave away n. Under replace-one (n public) the note may follow the size.
  void notesDoNotTellWhetherTheNoisySizeIsN() {
    const auto d = covariateTable(25);
    std::optional<nlohmann::json> equal, other;
    for (std::uint64_t seed = 1; seed < 400 && !(equal && other); ++seed) {
      const auto run = phRun(d, privacy::Neighbours::addRemove, seed);
      QVERIFY(run.size.source == privacy::SizeSource::noisy);
      auto& slot = run.size.rows == d.size() ? equal : other;
      if (!slot) slot = pipeline::sidecarJson(d, run, 1, seed, {"a.csv"}, {"d1"});
    }
    QVERIFY2(equal && other, "no seed gave a noisy size equal to n, or none gave another");
    for (const char* key : {"covariates_note", "columns_note", "n_note", "n_source"})
      QCOMPARE((*equal)[key].dump(), (*other)[key].dump());
    const auto plain = phRun(d, privacy::Neighbours::replaceOne, 1);
    const auto side = pipeline::sidecarJson(d, plain, 1, 1, {"a.csv"}, {"d1"});
    QVERIFY(side["covariates_note"].get<std::string>().find("random sample") == std::string::npos);
  }

  /// Models with covariates simulate each synthetic record at its source row's covariates.
  void posteriorSynthesisUsesTheSourceRows() {
    const Eigen::Index n = 30;
    Eigen::MatrixXd x(n, 1);
    Eigen::VectorXd y(n);
    for (Eigen::Index i = 0; i < n; ++i) {
      x(i, 0) = i < 15 ? 0.0 : 1.0;
      y[i] = i < 15 ? 2.0 + 0.1 * (i % 3) : 40.0 + 0.1 * (i % 3);  // far apart by group
    }
    const auto d = dpsynth::test::makeDataset(Family::normal, y, x);
    pipeline::RunSettings s;
    s.model.family = Family::normal;
    s.model.sdScale = 10;
    s.nuts.chains = 1;
    s.nuts.warmup = 200;
    s.nuts.draws = 100;
    s.nuts.seed = 2;
    s.size.declaredRows = 71;
    pipeline::MechanismConfig unweighted;
    const auto result = pipeline::runMechanisms(d, {unweighted}, s).mechanisms.front();
    QVERIFY(result.sourceRows);
    const auto syn = pipeline::synthesize(d, result, s.model, 1, 2).front();
    QCOMPARE(syn.size(), Eigen::Index{71});
    for (Eigen::Index r = 0; r < syn.size(); ++r) {
      const bool high = (*result.sourceRows)[std::size_t(r)] >= 15;
      QVERIFY2(high ? syn[r] > 21 : syn[r] < 21, qPrintable(QString::number(syn[r])));
    }
  }
};

QTEST_APPLESS_MAIN(PublishedSizeTest)
#include "published_size_test.moc"
