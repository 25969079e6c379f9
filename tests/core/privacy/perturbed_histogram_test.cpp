#include "core/privacy/perturbed_histogram.h"

#include <QtTest>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <tuple>

#include "core/random/rng.h"

using namespace dpsynth::core;
using namespace dpsynth::core::privacy;

namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

PhConfig boundedConfig(double lower, double upper, int bins, double epsilon) {
  PhConfig c;
  c.lower = lower;
  c.upper = upper;
  c.bins = bins;
  c.epsilon = epsilon;
  return c;
}

std::string thrownMessage(const Eigen::VectorXd& y, const PhConfig& config) {
  try {
    perturbHistogram(y, config);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return {};
}

bool mentions(const std::vector<std::string>& errors, const std::string& needle) {
  for (const auto& e : errors) {
    if (e.find(needle) != std::string::npos) return true;
  }
  return false;
}

/// Checks the discrete Laplace pmf, mean and variance for rate t = num/den.
void checkDiscreteLaplace(std::uint64_t num, std::uint64_t den, std::uint64_t seed) {
  const int draws = 200000;
  const double t = static_cast<double>(num) / static_cast<double>(den);
  const auto source = makeSeededSource(seed);
  std::map<std::int64_t, int> counts;
  double sum = 0.0, sumSq = 0.0;
  for (int i = 0; i < draws; ++i) {
    const std::int64_t k = discreteLaplace(*source, num, den);
    ++counts[k];
    sum += static_cast<double>(k);
    sumSq += static_cast<double>(k) * static_cast<double>(k);
  }
  const double r = std::exp(-t);
  for (std::int64_t k : {0, 1, -1, 2, -2, 5, -5}) {
    const double p = std::pow(r, std::abs(static_cast<double>(k))) * (1.0 - r) / (1.0 + r);
    const double se = std::sqrt(p * (1.0 - p) / draws);
    const double got = static_cast<double>(counts[k]) / draws;
    if (std::abs(got - p) > 4.0 * se) {
      QFAIL(qPrintable(QStringLiteral("t=%1 k=%2: empirical %3, expected %4 (se %5)")
                           .arg(t)
                           .arg(k)
                           .arg(got)
                           .arg(p)
                           .arg(se)));
    }
  }
  const double variance = 2.0 * r / ((1.0 - r) * (1.0 - r));
  const double mean = sum / draws;
  QVERIFY2(std::abs(mean) < 4.0 * std::sqrt(variance / draws), qPrintable(QString::number(mean)));
  const double empiricalVar = sumSq / draws - mean * mean;
  QVERIFY2(std::abs(empiricalVar / variance - 1.0) < 0.03,
           qPrintable(QStringLiteral("variance %1, expected %2").arg(empiricalVar).arg(variance)));
}

}  // namespace

class PerturbedHistogramTest : public QObject {
  Q_OBJECT

 private slots:
  void discreteLaplaceHasTheRightDistribution() {
    checkDiscreteLaplace(500000, 1000000, 1);  // t = 1/2 (epsilon = 1), unreduced fraction
    checkDiscreteLaplace(3, 20, 2);            // t = 0.15: wide noise
    checkDiscreteLaplace(9, 4, 3);             // t = 2.25 > 1: mostly 0 and +-1
  }

  void discreteLaplaceRejectsZeroRate() {
    const auto source = makeSeededSource(1);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, discreteLaplace(*source, 0, 10));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, discreteLaplace(*source, 1, 0));
  }

  void noiseRateRoundsDown() {
    std::uint64_t num = 0, den = 0;
    phNoiseRate(1.0, num, den);
    QCOMPARE(num, std::uint64_t{500000});
    QCOMPARE(den, std::uint64_t{1000000});
    phNoiseRate(0.25, num, den);
    QCOMPARE(num, std::uint64_t{125000});
    phNoiseRate(2.0000019, num, den);  // t = 1.00000095 -> 1.000000
    QCOMPARE(num, std::uint64_t{1000000});
    // ε is the decimal the user typed and every file prints: 0.3 gives t = 0.15 exactly (the
    // double nearest 0.3 lies below it, and rounding its product down gave 0.149999).
    phNoiseRate(0.3, num, den);
    QCOMPARE(num, std::uint64_t{150000});
    phNoiseRate(0.1, num, den);
    QCOMPARE(num, std::uint64_t{50000});
    // In general num/den <= epsilon/2 < (num + 1)/den, up to the double's own rounding.
    random::Rng rng = random::makeRng(17);
    for (int i = 0; i < 10000; ++i) {
      const double epsilon = 1e-5 + 20.0 * random::uniform01(rng);
      phNoiseRate(epsilon, num, den);
      QCOMPARE(den, std::uint64_t{1000000});
      const long double half = static_cast<long double>(epsilon) * 500000.0L;
      QVERIFY(static_cast<long double>(num) <= half * (1.0L + 1e-15L));
      QVERIFY(static_cast<long double>(num + 1) > half * (1.0L - 1e-15L));
    }
    // The smallest ε the options accept works where Δ1 = 1, and is refused (too small a
    // rate) where Δ1 = 2.
    discreteLaplaceRate(1e-6, 1, "test", num, den);
    QCOMPARE(num, std::uint64_t{1});
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, phNoiseRate(1e-6, num, den));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, phNoiseRate(0.0, num, den));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, phNoiseRate(-1.0, num, den));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, phNoiseRate(kInfinity, num, den));
  }

  /// ⌊ε·10^6/d⌋ of the decimal ε stands for, by hand.
  void decimalMicros() {
    QCOMPARE(decimalMicrosDown(1e-6), std::uint64_t{1});
    QCOMPARE(decimalMicrosDown(0.000001), std::uint64_t{1});
    QCOMPARE(decimalMicrosDown(2.5e-7), std::uint64_t{0});
    QCOMPARE(decimalMicrosDown(0.3), std::uint64_t{300000});
    QCOMPARE(decimalMicrosDown(0.3, 2), std::uint64_t{150000});
    QCOMPARE(decimalMicrosDown(1.0000019), std::uint64_t{1000001});
    QCOMPARE(decimalMicrosDown(1.0000019, 2), std::uint64_t{500000});
    QCOMPARE(decimalMicrosDown(123.456789), std::uint64_t{123456789});
    QCOMPARE(decimalMicrosDown(1e6), std::uint64_t{1000000000000});
    QCOMPARE(decimalMicrosDown(1e6, 3), std::uint64_t{333333333333});
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, decimalMicrosDown(1e300));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, decimalMicrosDown(0.0));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, decimalMicrosDown(kInfinity));
  }

  void sources() {
    const auto os = makeOsRandomSource();
    std::set<std::uint64_t> seen;
    for (int i = 0; i < 1000; ++i) seen.insert(os->next64());
    QCOMPARE(seen.size(), std::size_t{1000});
    QVERIFY(makeOsRandomSource()->next64() != makeOsRandomSource()->next64());

    const auto a = makeSeededSource(5), b = makeSeededSource(5), c = makeSeededSource(6);
    bool differs = false;
    for (int i = 0; i < 10; ++i) {
      const std::uint64_t x = a->next64();
      QCOMPARE(x, b->next64());
      differs = differs || x != c->next64();
    }
    QVERIFY(differs);
  }

  void releaseUsesOsNoiseUnlessSeeded() {
    random::Rng rng = random::makeRng(3);
    Eigen::VectorXd y(20000);
    for (Eigen::Index i = 0; i < y.size(); ++i) y[i] = 100.0 * random::uniform01(rng);
    PhConfig config = boundedConfig(0.0, 100.0, 50, 0.1);  // noise sd ~ 28 per bin
    const PhRelease first = perturbHistogram(y, config);
    const PhRelease second = perturbHistogram(y, config);
    QVERIFY(first.forRelease);
    QVERIFY(second.forRelease);
    QVERIFY(first.counts == second.counts);
    QVERIFY(first.noisy != second.noisy);

    config.reproducibleSeed = 42;
    const PhRelease s1 = perturbHistogram(y, config);
    const PhRelease s2 = perturbHistogram(y, config);
    QVERIFY(!s1.forRelease);
    QVERIFY(s1.noisy == s2.noisy);
    QVERIFY(s1.probabilities == s2.probabilities);
    QVERIFY(s1.noisy != s1.counts);  // noise was added
  }

  void countsAndClamping() {
    // Edges 0,2,4,6,8,10; bins are [left, right) except the last, [8, 10].
    const Eigen::VectorXd y =
        (Eigen::VectorXd(11) << -5, 0, 0.5, 2, 3, 4, 9.99, 10, 42, -kInfinity, kInfinity)
            .finished();
    PhConfig config = boundedConfig(0.0, 10.0, 5, 1.0);
    config.reproducibleSeed = 1;
    const PhRelease r = perturbHistogram(y, config);
    QVERIFY(r.edges == std::vector<double>({0, 2, 4, 6, 8, 10}));
    QVERIFY(r.counts == std::vector<std::int64_t>({4, 2, 1, 0, 4}));
    // q_j = max(D_j, 0) / sum of max(D, 0).
    double positive = 0.0;
    for (std::int64_t d : r.noisy) positive += static_cast<double>(std::max<std::int64_t>(d, 0));
    QVERIFY(positive > 0.0);
    for (std::size_t j = 0; j < r.probabilities.size(); ++j) {
      const double want = static_cast<double>(std::max<std::int64_t>(r.noisy[j], 0)) / positive;
      QVERIFY(std::abs(r.probabilities[j] - want) < 1e-15);
    }
  }

  void countingAgreesWithTheEdges() {
    // Values exactly on an edge, and one ulp below it, under awkward bounds where the division
    // (v - lower)/(upper - lower)*m misjudges the bin: the counts must follow the stored edges
    // ([left, right), the last bin closed).
    for (const auto& [lower, upper, bins] :
         {std::tuple{-3.7, 12.9, 7}, std::tuple{0.1, 0.7, 30}, std::tuple{1e-3, 1e3, 97},
          std::tuple{-1.0, 0.3, 13}}) {
      PhConfig config = boundedConfig(lower, upper, bins, 1.0);
      config.reproducibleSeed = 1;
      const std::vector<double> edges =
          perturbHistogram(Eigen::VectorXd::Zero(1), config).edges;  // edges do not depend on y
      std::vector<double> values;
      for (double e : edges) {
        values.push_back(e);
        values.push_back(std::nextafter(e, -kInfinity));
        values.push_back(std::nextafter(e, kInfinity));
      }
      std::vector<std::int64_t> expected(static_cast<std::size_t>(bins), 0);
      for (double v : values) {
        std::size_t j = 0;
        if (v >= upper) {
          j = bins - 1;
        } else if (v > lower) {
          while (!(v >= edges[j] && v < edges[j + 1])) ++j;
        }
        ++expected[j];
      }
      const Eigen::VectorXd y = Eigen::Map<const Eigen::VectorXd>(
          values.data(), static_cast<Eigen::Index>(values.size()));
      QVERIFY(perturbHistogram(y, config).counts == expected);
    }
  }

  void samplerSkipsBinsWithoutIntegers() {
    // A hand-made release whose middle bin [0.3, 0.6) holds no integer but has q > 0: the
    // sampler must renormalise over bins 0 ({0}) and 2 ({1}).
    random::Rng rng = random::makeRng(21);
    PhRelease r;
    r.edges = {0.0, 0.3, 0.6, 1.0};
    r.probabilities = {0.2, 0.6, 0.2};
    r.integer = true;
    const Eigen::VectorXd syn = samplePerturbedHistogram(r, 20000, rng);
    int ones = 0;
    for (Eigen::Index i = 0; i < syn.size(); ++i) {
      QVERIFY(syn[i] == 0.0 || syn[i] == 1.0);
      ones += syn[i] == 1.0 ? 1 : 0;
    }
    QVERIFY(std::abs(ones / 20000.0 - 0.5) < 4.0 * std::sqrt(0.25 / 20000.0));
  }

  void defaultBinCount() {
    PhConfig config = boundedConfig(0.0, 1.0, 0, 1.0);
    config.reproducibleSeed = 1;
    QCOMPARE(perturbHistogram(Eigen::VectorXd::Constant(16, 0.5), config).counts.size(),
             std::size_t{4});
    QCOMPARE(perturbHistogram(Eigen::VectorXd::Constant(17, 0.5), config).counts.size(),
             std::size_t{5});
  }

  void boundsAreRequired() {
    const Eigen::VectorXd y = Eigen::VectorXd::LinSpaced(100, 0.0, 50.0);  // data at hand...
    PhConfig config;  // ...but no public bounds: must be refused, never inferred from y
    const std::string message = thrownMessage(y, config);
    QVERIFY2(message.find("needs public bounds: pass --lower and --upper") != std::string::npos,
             message.c_str());
    QVERIFY(message.find("never from the confidential data") != std::string::npos);
    config.lower = 0.0;
    QVERIFY(!thrownMessage(y, config).empty());
    config.lower.reset();
    config.upper = 50.0;
    QVERIFY(!thrownMessage(y, config).empty());
  }

  void validateMessages() {
    QVERIFY(boundedConfig(0, 1, 0, 1).validate().empty());
    QVERIFY(mentions(boundedConfig(2, 1, 0, 1).validate(), "--lower < --upper"));
    QVERIFY(mentions(boundedConfig(1, 1, 0, 1).validate(), "--lower < --upper"));
    QVERIFY(mentions(boundedConfig(0, 1, 0, 0).validate(), "--epsilon > 0"));
    QVERIFY(mentions(boundedConfig(0, 1, 0, -2).validate(), "--epsilon > 0"));
    QVERIFY(mentions(boundedConfig(0, 1, -1, 1).validate(), "--bins"));
    QVERIFY(mentions(boundedConfig(0, kInfinity, 0, 1).validate(), "finite"));
    PhConfig noInteger = boundedConfig(0.2, 0.8, 0, 1);
    noInteger.integer = true;
    QVERIFY(mentions(noInteger.validate(), "integer"));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             perturbHistogram(Eigen::VectorXd::Zero(5), boundedConfig(2, 1, 0, 1)));
  }

  void integerSamplingStaysOnIntegersOfTheBin() {
    // Edges 0, 2.5, 5, 7.5, 10: integers {0,1,2}, {3,4}, {5,6,7}, {8,9,10}.
    random::Rng rng = random::makeRng(8);
    Eigen::VectorXd y(4400);
    for (Eigen::Index i = 0; i < y.size(); ++i) y[i] = static_cast<double>(i % 11);
    PhConfig config = boundedConfig(0.0, 10.0, 4, 1.0);
    config.integer = true;
    config.reproducibleSeed = 9;
    const PhRelease r = perturbHistogram(y, config);
    QVERIFY(r.integer);
    QVERIFY(r.counts == std::vector<std::int64_t>({1200, 800, 1200, 1200}));
    const Eigen::VectorXd syn = samplePerturbedHistogram(r, 40000, rng);
    QCOMPARE(syn.size(), Eigen::Index{40000});
    std::map<int, int> seen;
    for (Eigen::Index i = 0; i < syn.size(); ++i) {
      QCOMPARE(syn[i], std::round(syn[i]));
      QVERIFY(syn[i] >= 0.0 && syn[i] <= 10.0);
      ++seen[static_cast<int>(syn[i])];
    }
    QCOMPARE(seen.size(), std::size_t{11});
    // Within a bin the integers are equally likely: P(v) = q_bin / #integers in the bin.
    const int binSize[4] = {3, 2, 3, 3};
    for (int v = 0; v <= 10; ++v) {
      const int bin = v <= 2 ? 0 : v <= 4 ? 1 : v <= 7 ? 2 : 3;
      const double p = r.probabilities[bin] / binSize[bin];
      const double se = std::sqrt(p * (1 - p) / 40000.0);
      QVERIFY2(std::abs(seen[v] / 40000.0 - p) < 4.0 * se, qPrintable(QString::number(v)));
    }
  }

  void integerBinsWithoutIntegersAreNeverUsed() {
    // Width 0.3: only bins 0 [0,.3), 3 [.9,1.2), 6 [1.8,2.1) and 9 [2.7,3] hold an integer.
    random::Rng rng = random::makeRng(10);
    Eigen::VectorXd y(400);
    for (Eigen::Index i = 0; i < y.size(); ++i) y[i] = static_cast<double>(i % 4);
    PhConfig config = boundedConfig(0.0, 3.0, 10, 0.2);  // heavy noise on the empty bins
    config.integer = true;
    config.reproducibleSeed = 11;
    const PhRelease r = perturbHistogram(y, config);
    for (int j : {1, 2, 4, 5, 7, 8}) QCOMPARE(r.probabilities[j], 0.0);
    const Eigen::VectorXd syn = samplePerturbedHistogram(r, 20000, rng);
    for (Eigen::Index i = 0; i < syn.size(); ++i) {
      QVERIFY(syn[i] == 0.0 || syn[i] == 1.0 || syn[i] == 2.0 || syn[i] == 3.0);
    }
  }

  void zeroProbabilityBinsAreNeverSampled() {
    random::Rng rng = random::makeRng(12);
    PhRelease r;
    r.edges = {0, 1, 2, 3, 4};
    r.probabilities = {0.5, 0.0, 0.5, 0.0};
    r.integer = false;
    const Eigen::VectorXd syn = samplePerturbedHistogram(r, 20000, rng);
    int low = 0;
    for (Eigen::Index i = 0; i < syn.size(); ++i) {
      QVERIFY((syn[i] >= 0.0 && syn[i] < 1.0) || (syn[i] >= 2.0 && syn[i] < 3.0));
      low += syn[i] < 1.0 ? 1 : 0;
    }
    QVERIFY(std::abs(low / 20000.0 - 0.5) < 4.0 * std::sqrt(0.25 / 20000.0));

    // All-zero q: flat over the bins.
    r.probabilities = {0.0, 0.0, 0.0, 0.0};
    const Eigen::VectorXd flat = samplePerturbedHistogram(r, 20000, rng);
    int perBin[4] = {0, 0, 0, 0};
    for (Eigen::Index i = 0; i < flat.size(); ++i) {
      QVERIFY(flat[i] >= 0.0 && flat[i] <= 4.0);
      ++perBin[std::min(3, static_cast<int>(flat[i]))];
    }
    for (int c : perBin) QVERIFY(std::abs(c / 20000.0 - 0.25) < 4.0 * std::sqrt(0.1875 / 20000.0));
  }

  void probabilitiesFromNoisyCounts() {
    const std::vector<double> q = phProbabilities({3, -2, 0, 5});
    QVERIFY(q == std::vector<double>({3.0 / 8.0, 0.0, 0.0, 5.0 / 8.0}));
    // Every noisy count <= 0: uniform.
    QVERIFY(phProbabilities({-1, 0, -3}) == std::vector<double>({1.0 / 3, 1.0 / 3, 1.0 / 3}));
    // Ineligible bins get 0 and are left out of the uniform fallback.
    QVERIFY(phProbabilities({-1, 7, -2, 0}, {true, false, true, true}) ==
            std::vector<double>({1.0 / 3, 0.0, 1.0 / 3, 1.0 / 3}));
    QVERIFY(phProbabilities({2, 7, 2}, {true, false, true}) ==
            std::vector<double>({0.5, 0.0, 0.5}));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, phProbabilities({1, 2}, {true}));
  }
};

QTEST_APPLESS_MAIN(PerturbedHistogramTest)
#include "perturbed_histogram_test.moc"
