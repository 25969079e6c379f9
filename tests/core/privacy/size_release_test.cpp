/// The published size (SPEC §0 "The size of the data"): the two-sided geometric noise against
/// its closed form, the ε_n-indistinguishability of neighbouring sizes, and which size a run
/// publishes under each relation.
#include "core/privacy/size_release.h"

#include <QtTest>
#include <cmath>
#include <map>
#include <stdexcept>
#include <string>

using namespace dpsynth::core::privacy;

namespace {

/// A bit source that must not be read: publishing a public or declared size spends no noise.
class UnreadSource final : public BitSource {
 public:
  std::uint64_t next64() override { throw std::logic_error("the size noise was drawn"); }
};

/// rows published for n records under add-remove, `runs` times from one seeded source.
std::map<std::size_t, int> publishedRows(std::size_t n, double epsilon, int runs,
                                         std::uint64_t seed) {
  SizeSettings settings;
  settings.epsilon = epsilon;
  const auto bits = makeSeededSource(seed);
  std::map<std::size_t, int> counts;
  for (int r = 0; r < runs; ++r)
    ++counts[publishSize(n, settings, Neighbours::addRemove, false, *bits).rows];
  return counts;
}

int countAtMost(const std::map<std::size_t, int>& counts, std::size_t t) {
  int k = 0;
  for (const auto& [rows, c] : counts)
    if (rows <= t) k += c;
  return k;
}

}  // namespace

class SizeReleaseTest : public QObject {
  Q_OBJECT

 private slots:
  /// P(K = 0) = (1 − α)/(1 + α) = tanh(ε/2) and P(|K| ≥ k + 1 | |K| ≥ k) = α = e^{−ε} for
  /// k ≥ 1, within four Monte Carlo standard errors; the noise is symmetric.
  void noiseIsTheTwoSidedGeometric() {
    for (const double epsilon : {0.1, 0.5, 2.0}) {
      const int draws = 200000;
      const auto bits = makeSeededSource(11);
      std::map<std::int64_t, int> counts;
      int positive = 0, negative = 0;
      for (int i = 0; i < draws; ++i) {
        const std::int64_t k = sizeNoise(*bits, epsilon);
        ++counts[std::abs(k)];
        positive += k > 0;
        negative += k < 0;
      }
      const double alpha = std::exp(-epsilon);
      const double p0 = (1 - alpha) / (1 + alpha);
      QCOMPARE(p0, std::tanh(epsilon / 2));  // the same closed form two ways
      const double got0 = double(counts[0]) / draws;
      const double se0 = std::sqrt(p0 * (1 - p0) / draws);
      QVERIFY2(std::abs(got0 - p0) < 4 * se0,
               qPrintable(
                   QStringLiteral("eps %1: P(0) %2, expected %3").arg(epsilon).arg(got0).arg(p0)));
      // Tail ratios: P(|K| ≥ k) = 2α^k/(1 + α) for k ≥ 1, so among |K| ≥ k the share with
      // |K| ≥ k + 1 is α, for the first few k that have at least 2000 draws.
      int atLeast = draws - counts[0];
      for (std::int64_t k = 1; k < 7; ++k) {
        const int next = atLeast - counts[k];
        if (atLeast < 2000) break;
        const double ratio = double(next) / atLeast;
        const double se = std::sqrt(alpha * (1 - alpha) / atLeast);
        QVERIFY2(std::abs(ratio - alpha) < 4 * se,
                 qPrintable(QStringLiteral("eps %1, k %2: tail ratio %3, expected %4")
                                .arg(epsilon)
                                .arg(k)
                                .arg(ratio)
                                .arg(alpha)));
        atLeast = next;
      }
      const double half = (1 - p0) / 2;
      const double seHalf = std::sqrt(half * (1 - half) / draws);
      QVERIFY(std::abs(double(positive) / draws - half) < 4 * seHalf);
      QVERIFY(std::abs(double(negative) / draws - half) < 4 * seHalf);
    }
  }

  /// The guarantee never exceeds ε_n: the rate is ε_n rounded down to a multiple of 1e-6.
  void rateIsRoundedDown() {
    std::uint64_t num = 0, den = 0;
    discreteLaplaceRate(0.1234567, 1, "size", num, den);
    QCOMPARE(num, std::uint64_t{123456});
    QCOMPARE(den, std::uint64_t{1000000});
    discreteLaplaceRate(0.1, 1, "size", num, den);  // the double nearest 0.1 is just above it
    QCOMPARE(num, std::uint64_t{100000});
    const auto bits = makeSeededSource(1);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, sizeNoise(*bits, 0.0));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, sizeNoise(*bits, 5e-7));
  }

  /// Two neighbouring databases under add-remove (n = 20 and 19): for every threshold t,
  /// P(ñ ≤ t | 19) / P(ñ ≤ t | 20) ≤ e^{ε_n}, with equality for t ≤ 19 (the closed form: below
  /// the centre the geometric tail ratio is exactly 1/α). Measured over 8000 draws each; the
  /// same comparison of an exact n would be unbounded.
  void neighbouringSizesAreEpsilonNIndistinguishable() {
    const double epsilon = 0.5;
    const int runs = 8000;
    const auto a = publishedRows(20, epsilon, runs, 5);
    const auto b = publishedRows(19, epsilon, runs, 6);
    double largest = 0;
    for (std::size_t t = 14; t <= 27; ++t) {
      const double pa = double(countAtMost(a, t)) / runs;
      const double pb = double(countAtMost(b, t)) / runs;
      QVERIFY2(pa > 0.01 && pb > 0.01, qPrintable(QString::number(t)));
      const double logRatio = std::log(pb / pa);
      // Monte Carlo standard error of the log ratio (delta method), four of them.
      const double se = std::sqrt((1 - pa) / (pa * runs) + (1 - pb) / (pb * runs));
      QVERIFY2(logRatio < epsilon + 4 * se,
               qPrintable(QStringLiteral("t %1: log ratio %2 above eps_n %3 (se %4)")
                              .arg(t)
                              .arg(logRatio)
                              .arg(epsilon)
                              .arg(se)));
      if (t <= 19)
        QVERIFY2(std::abs(logRatio - epsilon) < 4 * se,
                 qPrintable(QStringLiteral("t %1: log ratio %2, expected %3")
                                .arg(t)
                                .arg(logRatio)
                                .arg(epsilon)));
      largest = std::max(largest, logRatio);
    }
    QVERIFY(largest > epsilon / 2);  // the test sees the noise's real privacy loss
    // The row count varies: many distinct values, and 20 is far from always published.
    QVERIFY(a.size() > 10);
    QVERIFY(a.at(20) < runs / 2);
  }

  void whichSizeIsPublished() {
    UnreadSource none;
    SizeSettings settings;
    // Replace-one with every record kept: n is public and published as it is.
    PublishedSize s = publishSize(57, settings, Neighbours::replaceOne, false, none);
    QCOMPARE(s.rows, std::size_t{57});
    QVERIFY(s.source == SizeSource::publicSize);
    QCOMPARE(s.epsilon, 0.0);
    // A declared size, under either relation, whatever n: no noise, no ε.
    settings.declaredRows = 300;
    for (auto relation : {Neighbours::replaceOne, Neighbours::addRemove}) {
      s = publishSize(57, settings, relation, true, none);
      QCOMPARE(s.rows, std::size_t{300});
      QVERIFY(s.source == SizeSource::declared);
      QCOMPARE(s.epsilon, 0.0);
    }
    settings.declaredRows.reset();
    settings.epsilon = 0.3;
    // Add-remove, and the complete records of replace-one after dropping: noisy at ε_n, and
    // exactly max(1, n + K) for the K the same source draws.
    for (auto [relation, complete] :
         {std::pair{Neighbours::addRemove, false}, std::pair{Neighbours::replaceOne, true}}) {
      QVERIFY(sizeIsConfidential(relation, complete));
      const auto bits = makeSeededSource(9);
      const auto same = makeSeededSource(9);
      for (int r = 0; r < 200; ++r) {
        s = publishSize(57, settings, relation, complete, *bits);
        QVERIFY(s.source == SizeSource::noisy);
        QCOMPARE(s.epsilon, 0.3);
        const std::int64_t expected = std::max<std::int64_t>(1, 57 + sizeNoise(*same, 0.3));
        QCOMPARE(std::int64_t(s.rows), expected);
      }
    }
    QVERIFY(!sizeIsConfidential(Neighbours::replaceOne, false));
  }

  /// The clamp at one record is post-processing: for n = 1 the published size is 1 exactly when
  /// K ≤ 0, P = 1/(1 + α), never below.
  void clampsAtOneRecord() {
    SizeSettings settings;
    settings.epsilon = 0.7;
    const auto bits = makeSeededSource(3);
    const int runs = 20000;
    int ones = 0;
    for (int r = 0; r < runs; ++r) {
      const auto s = publishSize(1, settings, Neighbours::addRemove, false, *bits);
      QVERIFY(s.rows >= 1);
      ones += s.rows == 1;
    }
    const double p = 1 / (1 + std::exp(-0.7));
    QVERIFY(std::abs(double(ones) / runs - p) < 4 * std::sqrt(p * (1 - p) / runs));
  }

  void badSettingsAreRefused() {
    SizeSettings settings;
    QVERIFY(settings.validate().empty());
    QCOMPARE(settings.epsilon, kDefaultSizeEpsilon);
    settings.declaredRows = 0;
    QCOMPARE(settings.validate().size(), std::size_t{1});
    settings.declaredRows = kMaxDeclaredRows + 1;
    QCOMPARE(settings.validate().size(), std::size_t{1});
    settings.declaredRows.reset();
    settings.epsilon = std::nan("");
    QVERIFY(settings.validate().front().find("size epsilon") != std::string::npos);
    const auto bits = makeSeededSource(1);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             publishSize(10, settings, Neighbours::addRemove, false, *bits));
  }

  void sourcesHaveStableNames() {
    for (auto s : {SizeSource::publicSize, SizeSource::noisy, SizeSource::declared})
      QVERIFY(parseSizeSource(sizeSourceName(s)) == s);
    QCOMPARE(sizeSourceName(SizeSource::publicSize), std::string("public (replace-one)"));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, parseSizeSource("exact"));
  }
};

QTEST_APPLESS_MAIN(SizeReleaseTest)
#include "size_release_test.moc"
