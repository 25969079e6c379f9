#include <QtTest>
#include <cmath>

#include "core/pipeline/reweight_search.h"

using namespace dpsynth::core::pipeline;

namespace {

/// A fit whose Lipschitz bound is a known function of k.
struct FakeFit {
  std::function<double(double)> bound;
  std::vector<double> ks;
  StagePtr operator()(double k) {
    ks.push_back(k);
    auto s = std::make_shared<StageResult>();
    s->k = k;
    s->lipschitz.max = bound(k);
    return s;
  }
};

}  // namespace

class ReweightSearchTest : public QObject {
  Q_OBJECT
 private slots:
  void landsInBandWithoutExceeding() {
    const double target = 3.0;
    FakeFit fit{[&](double k) { return target * (0.3 + 0.75 * k); }};  // 0.95 overshoots
    auto r = detail::searchReweightK(target, std::ref(fit));
    QVERIFY(r.chosen);
    QVERIFY(r.chosen->lipschitz.max <= target);
    QVERIFY(r.chosen->lipschitz.max >= 0.99 * target);
    QVERIFY(r.refits <= detail::kMaxRefits);
    QCOMPARE(fit.ks.front(), 0.95);
  }

  void nonlinearBoundStillLands() {
    const double target = 2.0;
    FakeFit fit{[&](double k) { return target * std::pow(k, 3.0) * 1.4; }};
    auto r = detail::searchReweightK(target, std::ref(fit));
    QVERIFY(r.chosen);
    QVERIFY(r.chosen->lipschitz.max <= target);
    QVERIFY(r.shortfall <= 0.01);
  }

  void atKOneKeepsShortfall() {
    // Even k = 1 stays well under the target: keep the largest k and report the shortfall.
    const double target = 10.0;
    FakeFit fit{[](double k) { return 5.0 * k; }};
    auto r = detail::searchReweightK(target, std::ref(fit));
    QVERIFY(r.chosen);
    QCOMPARE(*r.chosen->k, 1.0);
    QVERIFY(std::abs(r.shortfall - 0.5) < 1e-12);
  }

  void neverFeasibleGivesNoChoice() {
    FakeFit fit{[](double) { return 100.0; }};
    auto r = detail::searchReweightK(1.0, std::ref(fit));
    QVERIFY(!r.chosen);
    QVERIFY(r.refits <= detail::kMaxRefits);
  }

  void chosenIsLargestFeasibleK() {
    const double target = 1.0;
    // Noisy, non-monotone bound: the answer is the largest tried k that is feasible.
    FakeFit fit{[](double k) { return k < 0.9 ? k : 1.02 + 0.0 * k; }};
    auto r = detail::searchReweightK(target, std::ref(fit));
    QVERIFY(r.chosen);
    for (double k : fit.ks)
      if (fit.bound(k) <= target) QVERIFY(k <= *r.chosen->k);
  }

  void cancellationStops() {
    int calls = 0;
    auto fit = [&](double) -> StagePtr {
      ++calls;
      return nullptr;
    };
    auto r = detail::searchReweightK(1.0, fit);
    QVERIFY(r.cancelled);
    QCOMPARE(calls, 1);
  }
};

QTEST_APPLESS_MAIN(ReweightSearchTest)
#include "reweight_search_test.moc"
