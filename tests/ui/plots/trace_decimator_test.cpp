#include "ui/plots/trace_decimator.h"

#include <QtTest>
#include <algorithm>
#include <vector>

#include "plot_test_data.h"

using dpsynth::ui::TraceDecimator;

class TraceDecimatorTest : public QObject {
  Q_OBJECT

 private slots:
  void shortTracesAreKeptExactly() {
    TraceDecimator d(100);
    for (int i = 0; i < 50; ++i) d.append(i, i * 0.5);
    std::vector<double> x, y;
    d.points(x, y);
    QCOMPARE(x.size(), size_t{50});
    for (int i = 0; i < 50; ++i) {
      QCOMPARE(x[size_t(i)], double(i));
      QCOMPARE(y[size_t(i)], i * 0.5);
    }
    QCOMPARE(d.bucketWidth(), std::int64_t{1});
  }

  void longTracesStayUnderTheCapAndKeepExtremes() {
    TraceDecimator d(2000);
    dpsynth::ui::test::FakeData data(9);
    double lo = 1e300, hi = -1e300;
    for (int i = 0; i < 100000; ++i) {
      double v = data.normal();
      if (i == 31337) v = -25;  // isolated spikes must survive decimation
      if (i == 77777) v = 40;
      lo = std::min(lo, v);
      hi = std::max(hi, v);
      d.append(i, v);
      QVERIFY(d.pointCount() <= 2000);
    }
    std::vector<double> x, y;
    d.points(x, y);
    QVERIFY(x.size() <= 2000);
    QVERIFY(x.size() >= 1000);  // not over-decimated either
    QCOMPARE(static_cast<int>(x.size()), d.pointCount());
    QVERIFY(std::is_sorted(x.begin(), x.end()));
    QCOMPARE(*std::min_element(y.begin(), y.end()), lo);
    QCOMPARE(*std::max_element(y.begin(), y.end()), hi);
    // The spikes keep their iteration numbers.
    QCOMPARE(x[size_t(std::min_element(y.begin(), y.end()) - y.begin())], 31337.0);
    QCOMPARE(x[size_t(std::max_element(y.begin(), y.end()) - y.begin())], 77777.0);
    QCOMPARE(d.drawCount(), std::int64_t{100000});
  }

  void eachBucketKeepsItsMinAndMax() {
    TraceDecimator d(8);  // 4 buckets
    const double values[] = {3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3};
    for (int i = 0; i < 16; ++i) d.append(i, values[i]);
    QCOMPARE(d.bucketWidth(), std::int64_t{4});
    std::vector<double> x, y;
    d.points(x, y);
    // Buckets {3,1,4,1} {5,9,2,6} {5,3,5,8} {9,7,9,3}; ties keep the earlier draw.
    const std::vector<double> ex{1, 2, 5, 6, 9, 11, 12, 15};
    const std::vector<double> ey{1, 4, 9, 2, 3, 8, 9, 3};
    QCOMPARE(x, ex);
    QCOMPARE(y, ey);
  }

  void orderOfArrivalDoesNotMatter() {
    TraceDecimator forward(50), backward(50);
    dpsynth::ui::test::FakeData data(4);
    std::vector<double> v;
    for (int i = 0; i < 1000; ++i) v.push_back(data.normal());
    for (int i = 0; i < 1000; ++i) forward.append(i, v[size_t(i)]);
    for (int i = 999; i >= 0; --i) backward.append(i, v[size_t(i)]);
    std::vector<double> fx, fy, bx, by;
    forward.points(fx, fy);
    backward.points(bx, by);
    QCOMPARE(fx, bx);
    QCOMPARE(fy, by);
  }

  void ignoresBadInputAndClears() {
    TraceDecimator d(1);
    QCOMPARE(d.maxPoints(), 4);
    d.append(-1, 1.0);
    d.append(0, std::nan(""));
    QCOMPARE(d.pointCount(), 0);
    d.append(3, 1.0);
    QCOMPARE(d.pointCount(), 1);
    d.clear();
    QCOMPARE(d.pointCount(), 0);
    QCOMPARE(d.bucketWidth(), std::int64_t{1});
  }
};

QTEST_MAIN(TraceDecimatorTest)
#include "trace_decimator_test.moc"
