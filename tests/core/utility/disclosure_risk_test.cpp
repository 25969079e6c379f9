/// The disclosure-risk measures (disclosure_risk.h) on a table small enough to compute by hand,
/// and their ends: a copy of the data and a file that shares no keys.
#include "core/utility/disclosure_risk.h"

#include <QtTest>
#include <algorithm>
#include <cmath>

namespace utility = dpsynth::core::utility;

namespace {

Eigen::VectorXd riskVec(std::initializer_list<double> v) {
  Eigen::VectorXd out(static_cast<Eigen::Index>(v.size()));
  Eigen::Index i = 0;
  for (double x : v) out[i++] = x;
  return out;
}

}  // namespace

class DisclosureRiskTest : public QObject {
  Q_OBJECT
 private slots:
  /// Confidential (keys, y): A 10, A 10.25, A 20, B 5, B 50, C 7; synthetic: A 20.5, A 11,
  /// B 5.1, B 5.25, B 49, D 7; τ = 0.05 (values chosen so the distances are exact in binary).
  ///  - unique on keys + outcome: A 20, B 5, B 50, C 7 (A 10 and A 10.25 match each other): 4.
  ///    Exactly one synthetic match: A 20 (20.5), B 50 (49); B 5 has two (5.1, 5.25), C none.
  ///    replicated_uniques = 2/4.
  ///  - matched keys: the five A and B records. Synthetic medians: A 15.75, B 5.25; only B 5
  ///    matches its median: attribute_cap = 1/5. The confidential median is 10.125, matched by
  ///    A 10 and A 10.25: baseline = 2/5.
  ///  - nearest other confidential record of the same keys: 0.25, 0.25, 9.75, 45, 45; the 5th
  ///    percentile is 0.25. Synthetic records that close to a confidential one: B 5.1 (0.1),
  ///    B 5.25 (0.25): dcr_share = 2/6.
  void aTableByHand() {
    const auto r = utility::measureDisclosureRisk(
        {"A", "A", "A", "B", "B", "C"}, riskVec({10, 10.25, 20, 5, 50, 7}),
        {"A", "A", "B", "B", "B", "D"}, riskVec({20.5, 11, 5.1, 5.25, 49, 7}), 0.05);
    QCOMPARE(r.uniques, std::size_t(4));
    QCOMPARE(r.matched, std::size_t(5));
    QCOMPARE(*r.replicatedUniques, 0.5);
    QCOMPARE(*r.attributeCap, 0.2);
    QCOMPARE(*r.attributeCapBaseline, 0.4);
    QCOMPARE(*r.dcrShare, 2.0 / 6.0);
  }

  void aCopyIsFullyDisclosive() {
    const std::vector<std::string> keys{"a", "a", "b", "b", "c"};
    const Eigen::VectorXd y = riskVec({1, 3, 8, 20, 4});
    const auto r = utility::measureDisclosureRisk(keys, y, keys, y);
    QCOMPARE(*r.replicatedUniques, 1.0);
    QCOMPARE(*r.dcrShare, 1.0);
    QVERIFY(*r.attributeCap >= *r.attributeCapBaseline);
  }

  void undefinedMeasuresAreEmpty() {
    // No shared keys: nothing matched; single-record groups: no neighbour distance.
    const auto r = utility::measureDisclosureRisk({"a", "b"}, riskVec({1, 2}), {"c"}, riskVec({1}));
    QCOMPARE(*r.replicatedUniques, 0.0);
    QVERIFY(!r.attributeCap && !r.attributeCapBaseline && !r.dcrShare);
    QCOMPARE(r.matched, std::size_t(0));
    // Two identical confidential records: neither is unique.
    const auto twins =
        utility::measureDisclosureRisk({"", ""}, riskVec({3, 3}), {""}, riskVec({3}));
    QVERIFY(!twins.replicatedUniques);
    // No keys at all: one group, the same as one shared key.
    const auto none = utility::measureDisclosureRisk({}, riskVec({3, 3}), {}, riskVec({3}));
    QVERIFY(!none.replicatedUniques);
    QCOMPARE(none.matched, std::size_t(2));
    QCOMPARE(*none.dcrShare, *twins.dcrShare);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             utility::measureDisclosureRisk({"a"}, riskVec({1}), {}, riskVec({1})));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             utility::measureDisclosureRisk({"a"}, riskVec({1, 2}), {}, {}));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             utility::measureDisclosureRisk({"a"}, riskVec({1}), {}, {}, 1.0));
  }

  /// Against a brute-force count on random tables with ties, negative values and zeros (the
  /// measure finds matches by binary search).
  void agreesWithBruteForce() {
    std::uint64_t state = 12345;
    auto next = [&] {
      state = state * 6364136223846793005ULL + 1442695040888963407ULL;
      return static_cast<double>(state >> 33) / static_cast<double>(1ULL << 31);
    };
    const double tau = 0.05;
    auto match = [&](double a, double b) {
      return std::abs(a - b) <= tau * std::max(std::abs(a), std::abs(b));
    };
    for (int trial = 0; trial < 20; ++trial) {
      const int n = 150, m = 120;
      std::vector<std::string> kc, ks;
      Eigen::VectorXd yc(n), ys(m);
      for (int i = 0; i < n; ++i) {
        kc.push_back(std::string(1, static_cast<char>('a' + static_cast<int>(next() * 3))));
        yc[i] = std::round((next() - 0.3) * 40.0) / 2.0;
      }
      for (int r = 0; r < m; ++r) {
        ks.push_back(std::string(1, static_cast<char>('a' + static_cast<int>(next() * 3))));
        ys[r] = std::round((next() - 0.3) * 40.0) / 2.0;
      }
      std::size_t uniques = 0, replicated = 0;
      for (int i = 0; i < n; ++i) {
        int own = 0, syn = 0;
        for (int j = 0; j < n; ++j) own += kc[j] == kc[i] && match(yc[j], yc[i]);
        for (int r = 0; r < m; ++r) syn += ks[r] == kc[i] && match(ys[r], yc[i]);
        if (own == 1) {
          ++uniques;
          replicated += syn == 1;
        }
      }
      const auto risk = utility::measureDisclosureRisk(kc, yc, ks, ys, tau);
      QCOMPARE(risk.uniques, uniques);
      if (uniques > 0)
        QCOMPARE(*risk.replicatedUniques,
                 static_cast<double>(replicated) / static_cast<double>(uniques));
    }
  }
};

QTEST_APPLESS_MAIN(DisclosureRiskTest)
#include "disclosure_risk_test.moc"
