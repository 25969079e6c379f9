/// The outcome summary's statistics: the quartiles come from partial sorts (the GUI thread
/// computes them for 10^6 records after each load) and must equal the type-7 quantiles of
/// core::utility exactly, whatever n, ties and order.
#include "ui/widgets/outcome_summary.h"

#include <QtTest>
#include <random>

#include "core/utility/utility.h"

using dpsynth::ui::outcomeStatistics;
namespace utility = dpsynth::core::utility;

class OutcomeSummaryTest : public QObject {
  Q_OBJECT

 private slots:
  void quartilesEqualTheType7Quantiles() {
    std::mt19937_64 engine(5);
    for (const int n : {1, 2, 3, 4, 5, 10, 101, 1000, 4097}) {
      for (const bool ties : {false, true}) {
        Eigen::VectorXd y(n);
        for (int i = 0; i < n; ++i) {
          const double u = std::uniform_real_distribution<double>(-50, 50)(engine);
          y[i] = ties ? std::round(u / 10) : u;
        }
        const auto s = outcomeStatistics(y);
        QCOMPARE(s.n, std::size_t(n));
        QCOMPARE(s.q25, utility::quantile(y, 0.25));
        QCOMPARE(s.median, utility::quantile(y, 0.5));
        QCOMPARE(s.q75, utility::quantile(y, 0.75));
        QCOMPARE(s.min, y.minCoeff());
        QCOMPARE(s.max, y.maxCoeff());
      }
    }
  }

  void handComputedQuartiles() {
    Eigen::VectorXd y(4);
    y << 7, 1, 3, 10;  // sorted 1 3 7 10: h = 0.75, 1.5, 2.25
    const auto s = outcomeStatistics(y);
    QCOMPARE(s.q25, 1 + 0.75 * (3 - 1));
    QCOMPARE(s.median, 3 + 0.5 * (7 - 3));
    QCOMPARE(s.q75, 7 + 0.25 * (10 - 7));
    QCOMPARE(s.mean, 5.25);
    QCOMPARE(outcomeStatistics(Eigen::VectorXd()).n, std::size_t(0));
  }
};

QTEST_MAIN(OutcomeSummaryTest)
#include "outcome_summary_test.moc"
