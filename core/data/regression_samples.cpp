#include "core/data/regression_samples.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>

#include "core/random/rng.h"

namespace dpsynth::core::data {

namespace rnd = core::random;

namespace {

/// Index of the category an u ~ U(0, 1) falls in, for cumulative probabilities ending at 1.
template <std::size_t N>
std::size_t category(double u, const std::array<double, N>& cumulative) {
  std::size_t k = 0;
  while (k + 1 < N && u >= cumulative[k]) ++k;
  return k;
}

void requireRecords(std::size_t n) {
  if (n < 2) throw std::invalid_argument("regression sample: n must be at least 2");
}

}  // namespace

Dataset normalRegressionSample(std::size_t n, std::uint64_t seed) {
  requireRecords(n);
  static constexpr std::array<double, 4> kGroupCumulative{0.4, 0.7, 0.9, 1.0};
  static constexpr std::array<double, 4> kGroupEffect{0.0, 0.5, -0.4, 1.0};
  const auto rows = static_cast<Eigen::Index>(n);
  Eigen::MatrixXd X = Eigen::MatrixXd::Zero(rows, 7);
  Eigen::VectorXd y(rows);
  rnd::Rng rng = rnd::makeRng(seed, 0);
  for (Eigen::Index i = 0; i < rows; ++i) {
    // One statement per draw: the order of draws must not depend on argument evaluation order.
    const double x1 = rnd::standardNormal(rng);
    const double x2 = rnd::standardNormal(rng);
    const double x3 = rnd::standardNormal(rng);
    const std::size_t group = category(rnd::uniform01(rng), kGroupCumulative);
    const double noise = rnd::standardNormal(rng);
    X(i, 0) = 1.0;
    X(i, 1) = x1;
    X(i, 2) = x2;
    X(i, 3) = x3;
    if (group > 0) X(i, 3 + static_cast<Eigen::Index>(group)) = 1.0;
    y[i] = 10.0 + 1.5 * x1 - 0.8 * x2 + 0.3 * x3 + kGroupEffect[group] + 2.0 * noise;
  }
  return numericDataset("y", models::Family::normal, std::move(y), std::move(X),
                        {"(Intercept)", "x1", "x2", "x3", "group=b", "group=c", "group=d"});
}

Dataset poissonRegressionSample(std::size_t n, std::uint64_t seed) {
  requireRecords(n);
  static constexpr std::array<double, 6> kHouseholdCumulative{0.25, 0.55, 0.75, 0.9, 0.97, 1.0};
  static constexpr std::array<double, 4> kRegionEffect{0.0, 0.4, -0.3, 0.1};
  const auto rows = static_cast<Eigen::Index>(n);
  Eigen::MatrixXd X = Eigen::MatrixXd::Zero(rows, 5);
  Eigen::VectorXd y(rows);
  rnd::Rng rng = rnd::makeRng(seed, 0);
  for (Eigen::Index i = 0; i < rows; ++i) {
    const std::size_t region = rnd::uniformIndex(rng, 4);
    const double household =
        1.0 + static_cast<double>(category(rnd::uniform01(rng), kHouseholdCumulative));
    const double eta = std::log(4.0) + 0.3 * (household - 3.0) + kRegionEffect[region];
    X(i, 0) = 1.0;
    X(i, 1) = household;
    if (region > 0) X(i, 1 + static_cast<Eigen::Index>(region)) = 1.0;
    y[i] = static_cast<double>(rnd::poisson(rng, std::exp(eta)));
  }
  return numericDataset("count", models::Family::poisson, std::move(y), std::move(X),
                        {"(Intercept)", "household", "region=south", "region=east", "region=west"});
}

Dataset surveyRegressionSample(models::Family family, std::size_t n, std::uint64_t seed) {
  requireRecords(n);
  if (family == models::Family::normal) {
    throw std::invalid_argument("survey regression sample: poisson, negbin or beta only");
  }
  static constexpr std::array<double, 4> kRegionEffect{0.0, 0.3, -0.2, 0.0};
  static constexpr std::array<double, 3> kSectorEffect{0.0, 0.4, 0.0};
  const auto rows = static_cast<Eigen::Index>(n);
  Eigen::MatrixXd X = Eigen::MatrixXd::Zero(rows, 8);
  Eigen::VectorXd y(rows);
  rnd::Rng rng = rnd::makeRng(seed, 0);
  for (Eigen::Index i = 0; i < rows; ++i) {
    const std::size_t region = rnd::uniformIndex(rng, 4);
    const std::size_t sector = rnd::uniformIndex(rng, 3);
    const double age = std::round(10.0 * (20.0 + 45.0 * rnd::uniform01(rng))) / 10.0;
    const double income = std::round(1e4 + 9e4 * rnd::uniform01(rng));
    const double eta =
        0.2 + kRegionEffect[region] + kSectorEffect[sector] + 0.01 * age + 8e-6 * income;
    X(i, 0) = 1.0;
    if (region > 0) X(i, static_cast<Eigen::Index>(region)) = 1.0;
    if (sector > 0) X(i, 3 + static_cast<Eigen::Index>(sector)) = 1.0;
    X(i, 6) = age;
    X(i, 7) = income;
    switch (family) {
      case models::Family::negbin:
        y[i] = static_cast<double>(rnd::negativeBinomial(rng, std::exp(eta), 2.0));
        break;
      case models::Family::poisson:
        y[i] = static_cast<double>(rnd::poisson(rng, std::exp(eta - 1.0)));
        break;
      default: {
        const double mean = 1.0 / (1.0 + std::exp(-(eta - 1.2 - 0.015 * age - 1.1e-5 * income)));
        const double v = rnd::beta(rng, 20.0 * mean, 20.0 * (1.0 - mean));
        y[i] = std::clamp(std::round(v * 1e6) / 1e6, 1e-6, 1.0 - 1e-6);
      }
    }
  }
  const char* outcome = family == models::Family::beta ? "share" : "visits";
  return numericDataset(outcome, family, std::move(y), std::move(X),
                        {"(Intercept)", "region=south", "region=east", "region=west",
                         "sector=private", "sector=nonprofit", "age", "income"});
}

Dataset continuousNegbinSample(std::size_t n, std::uint64_t seed) {
  requireRecords(n);
  const auto rows = static_cast<Eigen::Index>(n);
  Eigen::MatrixXd X(rows, 6);
  Eigen::VectorXd y(rows);
  rnd::Rng rng = rnd::makeRng(seed, 0);
  for (Eigen::Index i = 0; i < rows; ++i) {
    const double age = 20.0 + 45.0 * rnd::uniform01(rng);
    const double income = 1e4 + 9e4 * rnd::uniform01(rng);
    const double hours = 60.0 * rnd::uniform01(rng);
    const double distance = std::pow(10.0, -1.0 + 3.0 * rnd::uniform01(rng));
    const double score = rnd::standardNormal(rng);
    const double eta =
        0.5 + 0.01 * age + 5e-6 * income + 0.005 * hours - 0.1 * std::log10(distance) + 0.2 * score;
    X.row(i) << 1.0, age, income, hours, distance, score;
    y[i] = static_cast<double>(rnd::negativeBinomial(rng, std::exp(eta), 2.0));
  }
  return numericDataset("count", models::Family::negbin, std::move(y), std::move(X),
                        {"(Intercept)", "age", "income", "hours", "distance", "score"});
}

}  // namespace dpsynth::core::data
