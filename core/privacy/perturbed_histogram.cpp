/// The histogram half of perturbed_histogram.h (the noise lives in discrete_laplace.cpp).
#include "core/privacy/perturbed_histogram.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

namespace dpsynth::core::privacy {

namespace {

/// Integers in bin j: bins are [left, right) except the last, which is [left, upper], so every
/// integer of [lower, upper] lies in exactly one bin. first > last when the bin holds none.
struct IntegerRange {
  double first = 0, last = -1;
  bool empty() const { return first > last; }
  std::uint64_t size() const { return static_cast<std::uint64_t>(last - first) + 1; }
};

IntegerRange integersOfBin(const std::vector<double>& edges, std::size_t j) {
  const bool lastBin = j + 2 == edges.size();
  const double left = edges[j];
  const double right = edges[j + 1];
  return {std::ceil(left), lastBin ? std::floor(right) : std::ceil(right) - 1.0};
}

std::vector<bool> eligibleBins(const std::vector<double>& edges, bool integer) {
  const std::size_t m = edges.size() - 1;
  std::vector<bool> eligible(m, true);
  if (integer) {
    for (std::size_t j = 0; j < m; ++j) eligible[j] = !integersOfBin(edges, j).empty();
  }
  return eligible;
}

}  // namespace

std::size_t phBinOf(double v, const std::vector<double>& edges) {
  const std::size_t m = edges.size() - 1;
  const double lower = edges.front();
  const double upper = edges.back();
  if (!(v > lower)) return 0;  // also -inf: clamped into the first bin
  if (v >= upper) return m - 1;
  const double guess = std::floor((v - lower) / (upper - lower) * static_cast<double>(m));
  auto j = static_cast<std::size_t>(std::clamp(guess, 0.0, static_cast<double>(m - 1)));
  while (j > 0 && v < edges[j]) --j;
  while (j + 1 < m && v >= edges[j + 1]) ++j;
  return j;
}

std::vector<double> phEdges(double lower, double upper, std::size_t m) {
  std::vector<double> edges(m + 1);
  const double width = upper - lower;
  for (std::size_t j = 0; j < m; ++j) {
    edges[j] = lower + width * static_cast<double>(j) / static_cast<double>(m);
  }
  edges[m] = upper;  // exactly, whatever the rounding above
  return edges;
}

std::vector<std::string> PhConfig::validate() const {
  std::vector<std::string> errors;
  if (!lower || !upper) {
    errors.emplace_back(
        "the perturbed histogram needs public bounds: pass --lower and --upper (they must come "
        "from public knowledge, never from the confidential data)");
  } else if (!std::isfinite(*lower) || !std::isfinite(*upper) || !std::isfinite(*upper - *lower)) {
    errors.emplace_back("the perturbed histogram needs finite bounds --lower and --upper");
  } else if (!(*lower < *upper)) {
    std::ostringstream msg;
    msg << "the perturbed histogram needs --lower < --upper (got lower " << *lower << ", upper "
        << *upper << ")";
    errors.push_back(msg.str());
  } else if (integer && std::floor(*upper) < std::ceil(*lower)) {
    std::ostringstream msg;
    msg << "the perturbed histogram for a count family needs at least one integer in [" << *lower
        << ", " << *upper << "]";
    errors.push_back(msg.str());
  }
  if (!std::isfinite(epsilon) || !(epsilon > 0.0)) {
    errors.emplace_back("the perturbed histogram needs --epsilon > 0");
  } else {
    try {
      std::uint64_t num = 0, den = 1;
      phNoiseRate(epsilon, sensitivity, num, den);
    } catch (const std::invalid_argument& e) {
      errors.emplace_back(e.what());
    }
  }
  if (bins < 0) {
    errors.emplace_back("the perturbed histogram needs --bins >= 1 (or 0 for ceil(sqrt(n)))");
  }
  return errors;
}

std::vector<double> phProbabilities(const std::vector<std::int64_t>& noisy,
                                    const std::vector<bool>& eligible) {
  if (!eligible.empty() && eligible.size() != noisy.size()) {
    throw std::invalid_argument("phProbabilities: eligible has the wrong size");
  }
  auto isEligible = [&](std::size_t j) { return eligible.empty() || eligible[j]; };
  std::vector<double> q(noisy.size(), 0.0);
  double total = 0.0;
  std::size_t eligibleCount = 0;
  for (std::size_t j = 0; j < noisy.size(); ++j) {
    if (!isEligible(j)) continue;
    ++eligibleCount;
    q[j] = static_cast<double>(std::max<std::int64_t>(noisy[j], 0));
    total += q[j];
  }
  if (eligibleCount == 0) throw std::invalid_argument("phProbabilities: no eligible bin");
  for (std::size_t j = 0; j < q.size(); ++j) {
    if (!isEligible(j)) continue;
    q[j] = total > 0.0 ? q[j] / total : 1.0 / static_cast<double>(eligibleCount);
  }
  return q;
}

std::size_t phDefaultBins(std::size_t size) {
  return std::max<std::size_t>(
      1, static_cast<std::size_t>(std::ceil(std::sqrt(static_cast<double>(size)))));
}

PhRelease perturbHistogram(const Eigen::VectorXd& y, const PhConfig& config) {
  const std::vector<std::string> errors = config.validate();
  if (!errors.empty()) {
    std::string joined;
    for (const auto& e : errors) joined += (joined.empty() ? "" : "; ") + e;
    throw std::invalid_argument(joined);
  }
  for (Eigen::Index i = 0; i < y.size(); ++i) {
    if (std::isnan(y[i])) throw std::invalid_argument("perturbHistogram: y contains NaN");
  }
  // bins = 0 takes m from n, which is public only under replace-one without dropped records:
  // the pipeline passes m from the published size (size_release.h), never this fallback.
  const std::size_t m = config.bins > 0 ? static_cast<std::size_t>(config.bins)
                                        : phDefaultBins(static_cast<std::size_t>(y.size()));

  PhRelease release;
  release.integer = config.integer;
  release.forRelease = !config.reproducibleSeed.has_value();
  release.sensitivity = config.sensitivity;
  release.edges = phEdges(*config.lower, *config.upper, m);
  release.counts.assign(m, 0);
  for (Eigen::Index i = 0; i < y.size(); ++i) ++release.counts[phBinOf(y[i], release.edges)];

  std::uint64_t num = 0, den = 1;
  phNoiseRate(config.epsilon, config.sensitivity, num, den);
  const std::unique_ptr<BitSource> source =
      config.reproducibleSeed ? makeSeededSource(*config.reproducibleSeed) : makeOsRandomSource();
  release.noisy.resize(m);
  for (std::size_t j = 0; j < m; ++j) {
    release.noisy[j] = release.counts[j] + discreteLaplace(*source, num, den);
  }
  release.probabilities =
      phProbabilities(release.noisy, eligibleBins(release.edges, config.integer));
  return release;
}

Eigen::VectorXd samplePerturbedHistogram(const PhRelease& release, std::size_t n,
                                         random::Rng& rng) {
  if (release.edges.size() < 2 || release.probabilities.size() + 1 != release.edges.size()) {
    throw std::invalid_argument("samplePerturbedHistogram: edges and probabilities do not match");
  }
  const std::size_t m = release.probabilities.size();
  const std::vector<bool> eligible = eligibleBins(release.edges, release.integer);
  std::vector<double> weights(m, 0.0);
  for (std::size_t j = 0; j < m; ++j) {
    const double q = release.probabilities[j];
    if (!(q >= 0.0) || !std::isfinite(q)) {
      throw std::invalid_argument("samplePerturbedHistogram: probabilities must be finite, >= 0");
    }
    if (eligible[j]) weights[j] = q;
  }
  double total = 0.0;
  for (double w : weights) total += w;
  if (total == 0.0) {
    // Same fallback as phProbabilities: flat over the bins that can produce a value.
    for (std::size_t j = 0; j < m; ++j) weights[j] = eligible[j] ? 1.0 : 0.0;
    for (double w : weights) total += w;
    if (total == 0.0) throw std::invalid_argument("samplePerturbedHistogram: no usable bin");
  }
  std::vector<double> cumulative(m);
  double running = 0.0;
  std::size_t lastPositive = 0;
  for (std::size_t j = 0; j < m; ++j) {
    running += weights[j];
    cumulative[j] = running;
    if (weights[j] > 0.0) lastPositive = j;
  }
  total = running;

  Eigen::VectorXd out(static_cast<Eigen::Index>(n));
  for (std::size_t r = 0; r < n; ++r) {
    // A zero-weight bin has the same cumulative value as its predecessor, so upper_bound can
    // never land on it; only the rounding case u == total needs the explicit fallback.
    const double u = random::uniform01(rng) * total;
    auto j = static_cast<std::size_t>(std::upper_bound(cumulative.begin(), cumulative.end(), u) -
                                      cumulative.begin());
    if (j >= m) j = lastPositive;
    const double left = release.edges[j];
    const double right = release.edges[j + 1];
    double value;
    if (release.integer) {
      const IntegerRange range = integersOfBin(release.edges, j);
      value = range.first + static_cast<double>(random::uniformIndex(rng, range.size()));
    } else {
      value = left + (right - left) * random::uniform01(rng);
      if (j + 1 < m && value >= right) value = std::nextafter(right, left);
      value = std::min(value, right);
    }
    out[static_cast<Eigen::Index>(r)] = value;
  }
  return out;
}

}  // namespace dpsynth::core::privacy
