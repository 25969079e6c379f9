#include "core/privacy/contribution_groups.h"

#include <QtTest>
#include <set>
#include <stdexcept>
#include <utility>

#include "core/exec/cancellation.h"
#include "core/random/rng.h"

using namespace dpsynth::core;
using namespace dpsynth::core::privacy;

class ContributionGroupsTest : public QObject {
  Q_OBJECT
 private slots:
  void groupsAreTheDistinctPatternWeightPairs() {
    random::Rng rng = random::makeRng(4);
    const std::size_t P = 9, n = 500;
    std::vector<std::size_t> pattern(n);
    std::vector<double> alpha(n);
    for (std::size_t i = 0; i < n; ++i) {
      pattern[i] = random::uniformIndex(rng, P - 1);  // pattern P - 1 has no records
      alpha[i] = 0.25 * static_cast<double>(random::uniformIndex(rng, 5));
    }
    const ContributionGroups g = groupContributions(pattern, P, n, alpha);
    std::set<std::pair<std::size_t, double>> distinct;
    for (std::size_t i = 0; i < n; ++i) distinct.insert({pattern[i], alpha[i]});
    QCOMPARE(g.groups(), distinct.size());
    QCOMPARE(g.records(), n);
    QCOMPARE(g.firstGroup.size(), P + 1);
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t k = g.recordGroup[i];
      QCOMPARE(g.pattern[k], pattern[i]);
      QCOMPARE(g.alpha[k], alpha[i]);
    }
    for (std::size_t p = 0; p < P; ++p) {
      for (std::size_t k = g.firstGroup[p]; k < g.firstGroup[p + 1]; ++k) {
        QCOMPARE(g.pattern[k], p);
        if (k > g.firstGroup[p]) QVERIFY(g.alpha[k] > g.alpha[k - 1]);
      }
    }
    QCOMPARE(g.firstGroup[P - 1], g.firstGroup[P]);  // the empty pattern has no group
  }

  void identityMapAndUnitWeights() {
    const ContributionGroups g = groupContributions({}, 4, 4, {});
    QCOMPARE(g.groups(), std::size_t{4});
    for (std::size_t i = 0; i < 4; ++i) {
      QCOMPARE(g.recordGroup[i], i);
      QCOMPARE(g.pattern[i], i);
      QCOMPARE(g.alpha[i], 1.0);
    }
  }

  void stopRequestedEndsTheGrouping() {
    std::stop_source source;
    source.request_stop();
    QVERIFY_THROWS_EXCEPTION(dpsynth::core::exec::Cancelled,
                             groupContributions({}, 100000, 100000, {}, source.get_token()));
  }

  void rejectsInconsistentInput() {
    const std::vector<std::size_t> map = {0, 1, 5};
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, groupContributions(map, 3, 3, {}));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, groupContributions({}, 3, 4, {}));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             groupContributions({}, 3, 3, std::vector<double>(2, 1.0)));
  }
};

QTEST_APPLESS_MAIN(ContributionGroupsTest)
#include "contribution_groups_test.moc"
