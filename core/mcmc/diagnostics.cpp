#include "core/mcmc/diagnostics.h"

#include <algorithm>
#include <boost/math/distributions/normal.hpp>
#include <cmath>
#include <complex>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <unsupported/Eigen/FFT>

#include "core/utility/utility.h"

namespace dpsynth::core::mcmc {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
/// Fewest draws per (split) chain for which the autocorrelation series makes sense.
constexpr Eigen::Index kMinDraws = 4;

using Chains = std::vector<Eigen::VectorXd>;

/// What the diagnostics of one summary share between parameters: the FFT with its plans and
/// buffers, and the normal scores of the ranks. The score of a rank depends only on the rank
/// and the number of draws, and without ties every parameter has the same ranks 1..S, so each
/// inverse normal is evaluated once per summary instead of once per parameter and transform.
class Workspace {
 public:
  /// Phi^{-1}((r - 3/8) / (s + 1/4)) for the rank r = twiceRank / 2 (ties give half ranks).
  double score(Eigen::Index twiceRank, Eigen::Index s) {
    if (s != scoreDraws_) {
      scoreDraws_ = s;
      scores_.assign(static_cast<std::size_t>(2 * s + 2), kUnset);
    }
    double& cached = scores_[static_cast<std::size_t>(twiceRank)];
    if (std::isnan(cached)) {
      const double rank = 0.5 * static_cast<double>(twiceRank);
      const double denominator = static_cast<double>(s) + 0.25;
      cached = boost::math::quantile(boost::math::normal(), (rank - 0.375) / denominator);
    }
    return cached;
  }

  Eigen::FFT<double> fft;
  std::vector<std::complex<double>> signal, spectrum, correlation;
  std::vector<std::pair<double, Eigen::Index>> order, folded;

 private:
  static constexpr double kUnset = std::numeric_limits<double>::quiet_NaN();
  Eigen::Index scoreDraws_ = -1;
  std::vector<double> scores_;
};

/// Sorted copy for type-7 quantiles (utility::quantileSorted). Unlike utility::quantile it does
/// not refuse NaN: diagnostics report NaN for non-finite chains instead of throwing.
std::vector<double> sortedValues(const Eigen::VectorXd& values) {
  std::vector<double> sorted(values.data(), values.data() + values.size());
  std::sort(sorted.begin(), sorted.end());
  return sorted;
}

void checkShape(const Chains& chains, Eigen::Index minLength) {
  if (chains.empty()) throw std::invalid_argument("diagnostics: no chains");
  const Eigen::Index n = chains.front().size();
  for (const Eigen::VectorXd& chain : chains) {
    if (chain.size() != n) throw std::invalid_argument("diagnostics: chains of unequal length");
  }
  if (n < minLength) {
    throw std::invalid_argument("diagnostics: need at least " + std::to_string(minLength) +
                                " draws per chain, got " + std::to_string(n));
  }
}

bool allFinite(const Chains& chains) {
  return std::all_of(chains.begin(), chains.end(),
                     [](const Eigen::VectorXd& c) { return c.allFinite(); });
}

bool allEqual(const Chains& chains) {
  const double first = chains.front()[0];
  return std::all_of(chains.begin(), chains.end(),
                     [first](const Eigen::VectorXd& c) { return (c.array() == first).all(); });
}

/// NaN when there is nothing to diagnose (checked once, before any transformation).
bool degenerate(const Chains& chains) { return !allFinite(chains) || allEqual(chains); }

Eigen::VectorXd pool(const Chains& chains) {
  Eigen::VectorXd all(static_cast<Eigen::Index>(chains.size()) * chains.front().size());
  Eigen::Index offset = 0;
  for (const Eigen::VectorXd& chain : chains) {
    all.segment(offset, chain.size()) = chain;
    offset += chain.size();
  }
  return all;
}

double sampleVariance(const Eigen::VectorXd& x) {
  const double mean = x.mean();
  return (x.array() - mean).square().sum() / static_cast<double>(x.size() - 1);
}

/// Gelman–Rubin potential scale reduction of chains that are already split.
double rhatOfChains(const Chains& chains) {
  const auto m = static_cast<Eigen::Index>(chains.size());
  const auto n = static_cast<double>(chains.front().size());
  Eigen::VectorXd means(m), variances(m);
  for (Eigen::Index c = 0; c < m; ++c) {
    means[c] = chains[static_cast<std::size_t>(c)].mean();
    variances[c] = sampleVariance(chains[static_cast<std::size_t>(c)]);
  }
  const double between = n * sampleVariance(means);
  const double within = variances.mean();
  return std::sqrt((between / within + n - 1.0) / n);
}

Eigen::VectorXd autocovarianceWith(const Eigen::VectorXd& x, Workspace& work);

/// The mean over chains of their autocovariances, lag by lag as the ESS asks for them: the
/// first lags directly (O(n) a chain and lag), which is all that chains mixing well need; past
/// kDirectLags, every lag at once by FFT (O(n log n) a chain).
class MeanAutocovariance {
 public:
  MeanAutocovariance(const Chains& chains, Workspace& work) : chains_(chains), work_(work) {
    centred_.reserve(chains.size());
    for (const Eigen::VectorXd& chain : chains) {
      centred_.push_back(chain.array() - chain.mean());
    }
  }

  double at(Eigen::Index lag) {
    if (lag < kDirectLags) {
      double total = 0.0;
      for (const Eigen::VectorXd& x : centred_) {
        const Eigen::Index n = x.size();
        total += x.head(n - lag).dot(x.tail(n - lag)) / static_cast<double>(n);
      }
      return total / static_cast<double>(centred_.size());
    }
    if (all_.size() == 0) {
      Eigen::MatrixXd acov(chains_.front().size(), static_cast<Eigen::Index>(chains_.size()));
      for (std::size_t c = 0; c < chains_.size(); ++c) {
        acov.col(static_cast<Eigen::Index>(c)) = autocovarianceWith(chains_[c], work_);
      }
      all_ = acov.rowwise().mean();
    }
    return all_[lag];
  }

 private:
  static constexpr Eigen::Index kDirectLags = 32;
  const Chains& chains_;
  Workspace& work_;
  Chains centred_;
  Eigen::VectorXd all_;
};

/// ESS of chains that are already split (Geyer's initial monotone sequence, with the
/// last-even-lag correction of Vehtari et al. for antithetic chains).
double essOfChains(const Chains& chains, Workspace& work) {
  const auto m = static_cast<Eigen::Index>(chains.size());
  const Eigen::Index n = chains.front().size();
  if (n < kMinDraws || allEqual(chains)) return kNaN;

  MeanAutocovariance acov(chains, work);
  Eigen::VectorXd means(m);
  for (Eigen::Index c = 0; c < m; ++c) means[c] = chains[static_cast<std::size_t>(c)].mean();
  const double nd = static_cast<double>(n);
  const double meanVar = acov.at(0) * nd / (nd - 1.0);
  double varPlus = meanVar * (nd - 1.0) / nd;
  if (m > 1) varPlus += sampleVariance(means);
  auto rhoAt = [&](Eigen::Index lag) { return 1.0 - (meanVar - acov.at(lag)) / varPlus; };

  // Initial positive sequence: sum autocorrelations in (even, odd) pairs while pairs are
  // positive, leaving the last pairs out as a bias correction.
  Eigen::VectorXd rho = Eigen::VectorXd::Zero(n + 2);
  Eigen::Index t = 0;
  double rhoEven = 1.0;
  double rhoOdd = rhoAt(1);
  rho[0] = rhoEven;
  rho[1] = rhoOdd;
  while (t < n - 5 && !std::isnan(rhoEven + rhoOdd) && rhoEven + rhoOdd > 0) {
    t += 2;
    rhoEven = rhoAt(t);
    rhoOdd = rhoAt(t + 1);
    if (rhoEven + rhoOdd >= 0) {
      rho[t] = rhoEven;
      rho[t + 1] = rhoOdd;
    }
  }
  const Eigen::Index maxT = t;
  if (rhoEven > 0) rho[maxT] = rhoEven;  // enters the improved estimate below

  // Initial monotone sequence: no pair may exceed the previous one.
  for (Eigen::Index k = 2; k <= maxT - 2; k += 2) {
    if (rho[k] + rho[k + 1] > rho[k - 2] + rho[k - 1]) {
      rho[k] = (rho[k - 2] + rho[k - 1]) / 2.0;
      rho[k + 1] = rho[k];
    }
  }

  const double total = static_cast<double>(m) * nd;
  // Geyer's truncated sum with the last even lag counted once (reduces variance when the chain
  // is antithetic); bounded so that ESS <= S log10(S).
  const double tau = -1.0 + 2.0 * rho.head(maxT).sum() + rho[maxT];
  return total / std::max(tau, 1.0 / std::log10(total));
}

Chains foldAround(const Chains& chains, double median) {
  Chains folded;
  folded.reserve(chains.size());
  for (const Eigen::VectorXd& chain : chains) folded.push_back((chain.array() - median).abs());
  return folded;
}

Chains indicatorAtMost(const Chains& chains, double threshold) {
  Chains indicators;
  indicators.reserve(chains.size());
  for (const Eigen::VectorXd& chain : chains) {
    indicators.push_back((chain.array() <= threshold).cast<double>());
  }
  return indicators;
}

using Order = std::vector<std::pair<double, Eigen::Index>>;

/// (value, index) pairs of the values sorted by value into order: tied values share one score
/// (scoresOf), so the order within a tie does not matter and the sort need not be stable.
void sortWithIndex(const Eigen::VectorXd& values, Order& order) {
  order.resize(static_cast<std::size_t>(values.size()));
  for (Eigen::Index i = 0; i < values.size(); ++i) {
    order[static_cast<std::size_t>(i)] = {values[i], i};
  }
  std::sort(order.begin(), order.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
}

/// The normal score of each value's rank, at its index, from the values sorted with their
/// indices; equal values (adjacent in order) share the score of their average rank.
Eigen::VectorXd scoresOf(const Order& order, Workspace& work) {
  const auto s = static_cast<Eigen::Index>(order.size());
  Eigen::VectorXd z(s);
  for (Eigen::Index begin = 0; begin < s;) {
    Eigen::Index end = begin + 1;
    while (end < s && order[static_cast<std::size_t>(end)].first ==
                          order[static_cast<std::size_t>(begin)].first) {
      ++end;
    }
    // Ranks begin+1 .. end (1-based) are tied: each gets their average (begin + 1 + end) / 2.
    const double score = work.score(begin + 1 + end, s);
    for (Eigen::Index k = begin; k < end; ++k) z[order[static_cast<std::size_t>(k)].second] = score;
    begin = end;
  }
  return z;
}

/// The pooled values cut back into chains of `length` each, in pool()'s order.
Chains unpool(const Eigen::VectorXd& all, Eigen::Index length) {
  Chains chains;
  chains.reserve(static_cast<std::size_t>(all.size() / length));
  for (Eigen::Index offset = 0; offset + length <= all.size(); offset += length) {
    chains.push_back(all.segment(offset, length));
  }
  return chains;
}

Chains rankNormalizeWith(const Chains& chains, Workspace& work) {
  checkShape(chains, 1);
  if (!allFinite(chains)) throw std::invalid_argument("rankNormalize: non-finite draw");
  sortWithIndex(pool(chains), work.order);
  return unpool(scoresOf(work.order, work), chains.front().size());
}

/// The order of |x − median| from the order of x, without a second sort: the values below the
/// median, largest first, merged with those at or above it, smallest first. Each run is sorted
/// (x ↦ |x − median| rounds monotonically on either side), so the merge is, and equal folded
/// values are adjacent, as scoresOf needs.
void foldedOrder(const Order& order, double median, Order& folded) {
  const auto split = static_cast<std::ptrdiff_t>(
      std::lower_bound(order.begin(), order.end(), median,
                       [](const auto& a, double m) { return a.first < m; }) -
      order.begin());
  folded.clear();
  folded.reserve(order.size());
  std::ptrdiff_t below = split - 1;
  auto above = static_cast<std::size_t>(split);
  auto foldAt = [&](std::size_t i) { return std::abs(order[i].first - median); };
  while (below >= 0 || above < order.size()) {
    const bool takeBelow = above == order.size() ||
                           (below >= 0 && foldAt(static_cast<std::size_t>(below)) <= foldAt(above));
    const std::size_t i = takeBelow ? static_cast<std::size_t>(below--) : above++;
    folded.push_back({foldAt(i), order[i].second});
  }
}

Eigen::VectorXd autocovarianceWith(const Eigen::VectorXd& x, Workspace& work) {
  const Eigen::Index n = x.size();
  if (n == 0) return {};
  // Zero-pad to a power of two >= 2n so that the circular correlation has no wrap-around.
  Eigen::Index size = 1;
  while (size < 2 * n) size *= 2;
  const double mean = x.mean();
  work.signal.assign(static_cast<std::size_t>(size), 0.0);
  for (Eigen::Index i = 0; i < n; ++i) work.signal[static_cast<std::size_t>(i)] = x[i] - mean;

  work.fft.fwd(work.spectrum, work.signal);
  for (std::complex<double>& value : work.spectrum) value = std::norm(value);
  work.fft.inv(work.correlation, work.spectrum);  // scaled by 1/size

  Eigen::VectorXd acov(n);
  for (Eigen::Index k = 0; k < n; ++k) {
    acov[k] = work.correlation[static_cast<std::size_t>(k)].real() / static_cast<double>(n);
  }
  return acov;
}

/// The rank-normalised split R-hat from the bulk ranks and the folded ranks (of |x − median|),
/// each over the split chains: the larger of the two R-hats, NaN if either is.
double rhatOfRanks(const Chains& bulkRanks, const Chains& foldedRanks) {
  const double bulk = rhatOfChains(bulkRanks);
  const double tail = rhatOfChains(foldedRanks);
  if (std::isnan(bulk) || std::isnan(tail)) return kNaN;
  return std::max(bulk, tail);
}

/// The same from the bulk ranks (rank-normalised split chains) and the pooled median.
double rhatFromRanks(const Chains& chains, const Chains& bulkRanks, double median,
                     Workspace& work) {
  return rhatOfRanks(bulkRanks, rankNormalizeWith(splitChains(foldAround(chains, median)), work));
}

/// Tail-ESS given the pooled 5% and 95% quantiles.
double essTailAt(const Chains& chains, double q05, double q95, Workspace& work) {
  const double lower = essOfChains(splitChains(indicatorAtMost(chains, q05)), work);
  const double upper = essOfChains(splitChains(indicatorAtMost(chains, q95)), work);
  if (std::isnan(lower) || std::isnan(upper)) return kNaN;
  return std::min(lower, upper);
}

}  // namespace

std::vector<Eigen::VectorXd> splitChains(const std::vector<Eigen::VectorXd>& chains) {
  checkShape(chains, 2);
  const Eigen::Index n = chains.front().size();
  const Eigen::Index half = n / 2;
  Chains split;
  split.reserve(2 * chains.size());
  for (const Eigen::VectorXd& chain : chains) {
    split.push_back(chain.head(half));
    split.push_back(chain.tail(half));  // skips the middle draw when n is odd
  }
  return split;
}

std::vector<Eigen::VectorXd> rankNormalize(const std::vector<Eigen::VectorXd>& chains) {
  Workspace work;
  return rankNormalizeWith(chains, work);
}

Eigen::VectorXd autocovariance(const Eigen::VectorXd& x) {
  Workspace work;
  return autocovarianceWith(x, work);
}

double quantile(const Eigen::VectorXd& values, double prob) {
  if (values.size() == 0) throw std::invalid_argument("quantile: no values");
  if (!(prob >= 0.0 && prob <= 1.0)) throw std::invalid_argument("quantile: prob not in [0, 1]");
  return utility::quantileSorted(sortedValues(values), prob);
}

double splitRhat(const std::vector<Eigen::VectorXd>& chains) {
  checkShape(chains, kMinDraws);
  if (degenerate(chains)) return kNaN;
  return rhatOfChains(splitChains(chains));
}

double rankNormalizedSplitRhat(const std::vector<Eigen::VectorXd>& chains) {
  checkShape(chains, kMinDraws);
  if (degenerate(chains)) return kNaN;
  Workspace work;
  const Chains bulkRanks = rankNormalizeWith(splitChains(chains), work);
  return rhatFromRanks(chains, bulkRanks, quantile(pool(chains), 0.5), work);
}

double essBulk(const std::vector<Eigen::VectorXd>& chains) {
  checkShape(chains, kMinDraws);
  if (degenerate(chains)) return kNaN;
  Workspace work;
  return essOfChains(rankNormalizeWith(splitChains(chains), work), work);
}

double essTail(const std::vector<Eigen::VectorXd>& chains) {
  checkShape(chains, kMinDraws);
  if (degenerate(chains)) return kNaN;
  const std::vector<double> sorted = sortedValues(pool(chains));
  Workspace work;
  return essTailAt(chains, utility::quantileSorted(sorted, 0.05),
                   utility::quantileSorted(sorted, 0.95), work);
}

double essBasic(const std::vector<Eigen::VectorXd>& chains) {
  checkShape(chains, kMinDraws);
  if (degenerate(chains)) return kNaN;
  Workspace work;
  return essOfChains(splitChains(chains), work);
}

std::vector<ParameterSummary> summarize(const models::Model& model, const SampleResult& result) {
  if (result.chains.empty()) {
    throw std::invalid_argument("summarize: the result holds no chains (cancelled run?)");
  }
  const int dim = model.dim();
  const std::vector<std::string> names = model.parameterNames();
  if (static_cast<int>(names.size()) != dim) {
    throw std::invalid_argument("summarize: parameterNames() does not match dim()");
  }
  const Eigen::Index draws = result.chains.front().draws.rows();
  for (const ChainResult& chain : result.chains) {
    if (chain.draws.rows() != draws || chain.draws.cols() != dim) {
      throw std::invalid_argument("summarize: chains of unequal length or wrong dimension");
    }
  }
  if (draws < 1) throw std::invalid_argument("summarize: no draws");

  // Constrained draws, one matrix per chain (draws x dim).
  std::vector<Eigen::MatrixXd> constrained;
  constrained.reserve(result.chains.size());
  for (const ChainResult& chain : result.chains) {
    Eigen::MatrixXd theta(draws, dim);
    for (Eigen::Index d = 0; d < draws; ++d) {
      const Eigen::VectorXd value = model.constrain(chain.draws.row(d).transpose());
      if (value.size() != dim) {
        throw std::invalid_argument("summarize: constrain() returned the wrong dimension");
      }
      theta.row(d) = value.transpose();
    }
    constrained.push_back(std::move(theta));
  }

  std::vector<ParameterSummary> summaries;
  summaries.reserve(static_cast<std::size_t>(dim));
  Workspace work;
  for (int j = 0; j < dim; ++j) {
    Chains chains;
    chains.reserve(constrained.size());
    for (const Eigen::MatrixXd& theta : constrained) chains.push_back(theta.col(j));
    const Eigen::VectorXd all = pool(chains);

    ParameterSummary summary;
    summary.name = names[static_cast<std::size_t>(j)];
    summary.mean = all.mean();
    summary.sd = all.size() > 1 ? std::sqrt(sampleVariance(all)) : kNaN;
    // One sort for the quantiles and the ranks (NaN draws have no order: sortedValues).
    std::vector<double> sorted;
    if (all.allFinite()) {
      sortWithIndex(all, work.order);
      sorted.reserve(work.order.size());
      for (const auto& [value, index] : work.order) sorted.push_back(value);
    } else {
      sorted = sortedValues(all);
    }
    summary.q025 = utility::quantileSorted(sorted, 0.025);
    summary.q50 = utility::quantileSorted(sorted, 0.5);
    summary.q975 = utility::quantileSorted(sorted, 0.975);
    if (draws >= kMinDraws && degenerate(chains)) {
      summary.rhat = summary.essBulk = summary.essTail = kNaN;
    } else if (draws >= kMinDraws) {
      // What rankNormalizedSplitRhat, essBulk and essTail compute, with the bulk ranks and the
      // sorted draws (median, 5% and 95% quantiles) shared between them.
      Chains bulkRanks;
      if (draws % 2 == 0) {
        // The split chains pool to `all` itself (no middle draw is left out), so the one sort
        // for the quantiles gives the bulk ranks, and a merge of it the folded ones.
        bulkRanks = unpool(scoresOf(work.order, work), draws / 2);
        foldedOrder(work.order, summary.q50, work.folded);
        summary.rhat = rhatOfRanks(bulkRanks, unpool(scoresOf(work.folded, work), draws / 2));
      } else {
        bulkRanks = rankNormalizeWith(splitChains(chains), work);
        summary.rhat = rhatFromRanks(chains, bulkRanks, summary.q50, work);
      }
      summary.essBulk = essOfChains(bulkRanks, work);
      summary.essTail = essTailAt(chains, utility::quantileSorted(sorted, 0.05),
                                  utility::quantileSorted(sorted, 0.95), work);
    } else {
      summary.rhat = summary.essBulk = summary.essTail = kNaN;
    }
    summaries.push_back(std::move(summary));
  }
  return summaries;
}

}  // namespace dpsynth::core::mcmc
