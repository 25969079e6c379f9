/// exec::stableSort: exactly std::stable_sort's order (ties included) at every size around its
/// run length and merge pieces, and a stop request ends it with Cancelled.
#include "core/exec/interruptible_sort.h"

#include <QtTest>
#include <algorithm>
#include <random>
#include <stop_token>
#include <utility>
#include <vector>

namespace exec = dpsynth::core::exec;

class InterruptibleSortTest : public QObject {
  Q_OBJECT

 private slots:
  void givesStdStableSortsOrderWithTies() {
    // (key, original index): few distinct keys, so equal keys must keep their input order.
    std::mt19937_64 rng(7);
    for (std::size_t n :
         {0u, 1u, 2u, 1000u, (1u << 15) - 1, 1u << 15, (1u << 15) + 1, 3u << 15, 600'001u}) {
      std::vector<std::pair<int, std::size_t>> data(n);
      for (std::size_t i = 0; i < n; ++i) data[i] = {static_cast<int>(rng() % 13), i};
      auto expected = data;
      const auto byKey = [](const auto& a, const auto& b) { return a.first < b.first; };
      std::stable_sort(expected.begin(), expected.end(), byKey);
      exec::stableSort(data.begin(), data.end(), byKey, {});
      QVERIFY2(data == expected, qPrintable(QString("n = %1").arg(n)));
    }
  }

  void mergesPiecesAcrossLongRunsOfEqualKeys() {
    // One range far longer than a merge piece holding a single key, the other with keys on
    // both sides of it: the pieces must cut on the right side of every tie.
    std::vector<std::pair<int, int>> data;
    for (int i = 0; i < 700'000; ++i) data.push_back({i < 400'000 ? 5 : (i % 3) * 5, i});
    auto expected = data;
    const auto byKey = [](const auto& a, const auto& b) { return a.first < b.first; };
    std::stable_sort(expected.begin(), expected.end(), byKey);
    exec::stableSort(data.begin(), data.end(), byKey, {});
    QVERIFY(data == expected);
  }

  void aStopRequestEndsTheSort() {
    std::vector<double> values(1 << 20);
    std::mt19937_64 rng(3);
    for (double& v : values) v = static_cast<double>(rng());
    std::stop_source stop;
    stop.request_stop();
    QVERIFY_THROWS_EXCEPTION(
        exec::Cancelled,
        exec::stableSort(values.begin(), values.end(), std::less<double>(), stop.get_token()));
    // Small inputs are one std::stable_sort: nothing to interrupt, and nothing is refused.
    std::vector<double> few{3, 1, 2};
    exec::stableSort(few.begin(), few.end(), std::less<double>(), stop.get_token());
    QCOMPARE(few, (std::vector<double>{1, 2, 3}));
  }
};

QTEST_APPLESS_MAIN(InterruptibleSortTest)
#include "interruptible_sort_test.moc"
