/// The empirical privacy audit (SPEC §0): each mechanism is run as executed, size and release
/// decision included, many times on a database and on a neighbour; its published output is
/// reduced to events, and a Clopper–Pearson lower bound on the privacy loss of those events
/// (tests/support/privacy_audit.h) is held against the label. Every honest mechanism must stay
/// below its label, and every broken variant the project once had (or could slip into) must be
/// caught above it, so the audit is known to have the power to see each failure:
///   - censor-uw's synthetic data, honest, and with its randomness fixed;
///   - the row count under add-remove: the noisy size, and the exact n it once published;
///   - the family: declared, and suggested from the confidential values.
/// (The censoring interval itself is checked on the mechanism in censored_contribution_test and
/// censoring_test; that intercept-only releases appear whatever the record, in exact_route_test.)
/// Prints one table row per audit (the README's audit table comes from this output).
#include <QtTest>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "core/data/csv_table.h"
#include "core/data/dataset.h"
#include "core/pipeline/pipeline.h"
#include "core/pipeline/synthesis.h"
#include "core/privacy/neighbours.h"
#include "support/model_fixtures.h"
#include "support/privacy_audit.h"

namespace pipeline = dpsynth::core::pipeline;
namespace privacy = dpsynth::core::privacy;
namespace data = dpsynth::core::data;
using dpsynth::core::models::Family;
using dpsynth::test::auditLossLowerBound;
using dpsynth::test::auditLossLowerBoundDiscrete;
using dpsynth::test::printAuditRow;

namespace {

/// One published output of a censor-uw run on beta data: the first synthetic dataset's mean
/// and its number of rows.
struct AuditOutput {
  double mean = 0;
  std::size_t rows = 0;
};

pipeline::RunSettings auditSettings(std::uint64_t seed, privacy::Neighbours neighbours) {
  pipeline::RunSettings s;
  s.model.family = Family::beta;
  s.nuts.chains = 1;
  s.nuts.warmup = 120;
  s.nuts.draws = 60;
  s.nuts.threads = 1;
  s.lipschitzThreads = 1;
  s.nuts.seed = seed;
  s.neighbours = neighbours;
  return s;
}

/// `runs` censor-uw runs at ε on `y` (seed offset + r for run r; fixedSeed: always the same seed,
/// so the output is a function of the data).
std::vector<AuditOutput> auditCensorUw(const std::vector<double>& y, double epsilon, int runs,
                                       privacy::Neighbours neighbours, std::uint64_t offset,
                                       bool fixedSeed = false) {
  const auto d = dpsynth::test::makeDataset(Family::beta, y);
  pipeline::MechanismConfig c;
  c.mechanism = pipeline::Mechanism::censorUw;
  c.epsilon = epsilon;
  std::vector<AuditOutput> out;
  for (int r = 0; r < runs; ++r) {
    const auto s =
        auditSettings(fixedSeed ? 7 : offset + static_cast<std::uint64_t>(r), neighbours);
    const auto run = pipeline::runMechanisms(d, {c}, s);
    const auto& result = run.mechanisms.front();
    const auto syn = pipeline::synthesize(d, result, s.model, 1, s.nuts.seed);
    out.push_back({syn.front().mean(), static_cast<std::size_t>(syn.front().size())});
  }
  return out;
}

std::vector<double> auditMeans(const std::vector<AuditOutput>& v) {
  std::vector<double> out;
  for (const auto& o : v) out.push_back(o.mean);
  return out;
}

std::vector<std::size_t> auditRows(const std::vector<AuditOutput>& v) {
  std::vector<std::size_t> out;
  for (const auto& o : v) out.push_back(o.rows);
  return out;
}

/// y ∈ (0,1) for n = 20, and the same with record 3 moved to an extreme.
std::vector<double> auditBetaData(std::size_t n) {
  std::vector<double> y;
  for (std::size_t i = 0; i < n; ++i) y.push_back(0.3 + 0.4 * static_cast<double>((i * 7) % n) / n);
  return y;
}

}  // namespace

class AuditTest : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    std::printf(
        "audit | mechanism | neighbours | label ε | statistic | runs | lower bound | "
        "verdict |\n");
  }

  /// censor-uw's synthetic mean on n = 8 beta records and a neighbour with one record
  /// replaced by an extreme value; the same with the randomness fixed must be caught.
  void censorUwSyntheticData() {
    const double eps = 2.0;
    const std::vector<double> x{0.3, 0.45, 0.5, 0.52, 0.6, 0.41, 0.55, 0.48};
    std::vector<double> neighbour = x;
    neighbour[2] = 0.001;
    const int runs = 1500;
    const auto r = privacy::Neighbours::replaceOne;
    const double honest =
        auditLossLowerBound(auditMeans(auditCensorUw(x, eps, runs, r, 100000)),
                            auditMeans(auditCensorUw(neighbour, eps, runs, r, 200000)));
    const double broken =
        auditLossLowerBound(auditMeans(auditCensorUw(x, eps, 200, r, 0, true)),
                            auditMeans(auditCensorUw(neighbour, eps, 200, r, 0, true)));
    printAuditRow("censor-uw, beta n=8", "replace-one", eps, "synthetic mean", runs, honest, false);
    printAuditRow("censor-uw, seed fixed", "replace-one", eps, "synthetic mean", 200, broken, true);
    QVERIFY2(honest < eps, qPrintable(QString::number(honest)));
    QVERIFY2(broken > eps, qPrintable(QString::number(broken)));
  }

  /// Under add-remove the row count of the synthetic data is the noisy size; a release that
  /// published n (as it once did) is caught at once.
  void addRemoveRowCount() {
    const double eps = 1.0;
    const std::vector<double> x = auditBetaData(20);
    const std::vector<double> smaller(x.begin(), x.end() - 1);
    const int runs = 600;
    const auto ar = privacy::Neighbours::addRemove;
    const auto a = auditCensorUw(x, eps, runs, ar, 300000);
    const auto b = auditCensorUw(smaller, eps, runs, ar, 400000);
    // The label of the run: ε of the mechanism plus ε_n of the size (SPEC §0).
    const double label = eps + privacy::kDefaultSizeEpsilon;
    const double rows = auditLossLowerBoundDiscrete(auditRows(a), auditRows(b));
    const double means = auditLossLowerBound(auditMeans(a), auditMeans(b));
    std::vector<std::size_t> exactA(runs, x.size()), exactB(runs, smaller.size());
    const double exact = auditLossLowerBoundDiscrete(exactA, exactB);
    printAuditRow("censor-uw, beta n=20 vs 19", "add-remove", label, "row count", runs, rows,
                  false);
    printAuditRow("censor-uw, beta n=20 vs 19", "add-remove", label, "synthetic mean", runs, means,
                  false);
    printAuditRow("n published exactly", "add-remove", label, "row count", runs, exact, true);
    QVERIFY2(rows < label, qPrintable(QString::number(rows)));
    QVERIFY2(means < label, qPrintable(QString::number(means)));
    QVERIFY2(exact > label, qPrintable(QString::number(exact)));
  }

  /// A family suggested from the values changes with one record (values in (0,1) give beta,
  /// one value of 1.5 gives normal); a release takes the declared family, which does not.
  void familyFromTheData() {
    const double eps = 1.0;
    std::string a = "y\n", b = "y\n";
    const auto y = auditBetaData(20);
    for (std::size_t i = 0; i < y.size(); ++i) {
      a += std::to_string(y[i]) + "\n";
      b += (i == 3 ? std::string("1.5") : std::to_string(y[i])) + "\n";
    }
    const auto ta = data::parseCsv(a, "a.csv"), tb = data::parseCsv(b, "b.csv");
    const int runs = 200;
    std::vector<int> suggestedA, suggestedB, declaredA, declaredB;
    for (int r = 0; r < runs; ++r) {
      suggestedA.push_back(static_cast<int>(data::suggestFamily(ta, "y")));
      suggestedB.push_back(static_cast<int>(data::suggestFamily(tb, "y")));
      // What a release uses: the family the analyst declared, whatever the values.
      declaredA.push_back(static_cast<int>(Family::normal));
      declaredB.push_back(static_cast<int>(Family::normal));
    }
    const double honest = auditLossLowerBoundDiscrete(declaredA, declaredB);
    const double broken = auditLossLowerBoundDiscrete(suggestedA, suggestedB);
    printAuditRow("family declared (release)", "replace-one", eps, "family", runs, honest, false);
    printAuditRow("family suggested from the data", "replace-one", eps, "family", runs, broken,
                  true);
    QVERIFY2(honest < eps, qPrintable(QString::number(honest)));
    QVERIFY2(broken > eps, qPrintable(QString::number(broken)));
  }
};

QTEST_APPLESS_MAIN(AuditTest)
#include "audit_test.moc"
