#include "core/privacy/lipschitz.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <exception>
#include <limits>
#include <stdexcept>
#include <string>
#include <thread>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "core/exec/cancellation.h"
#include "core/models/regression_kernels.h"
#include "core/utility/utility.h"

namespace dpsynth::core::privacy {

namespace {

/// Patterns evaluated per model call: a tile's pattern data, values and group maxima (a few
/// tens of bytes per pattern) stay in the core's L2 cache while the worker's draws go by, so
/// memory traffic is one read of the data per worker instead of one per draw.
constexpr std::size_t kTilePatterns = 4096;

/// |alpha f| with the conventions that keep the bound honest: a record of weight 0 contributes
/// exactly 0 (even where f = -inf, where 0 * inf would be NaN), and a NaN log-likelihood counts
/// as unbounded rather than being silently skipped by max().
inline double rawContribution(double alpha, double f) {
  if (alpha == 0.0) return 0.0;
  const double a = std::abs(alpha * f);
  return std::isnan(a) ? std::numeric_limits<double>::infinity() : a;
}

/// The signed contribution alpha f with the same conventions (weight 0 is exactly 0; NaN is
/// unbounded, on the side that can hit a clamp).
inline double signedContribution(double alpha, double f) {
  if (alpha == 0.0) return 0.0;
  const double c = alpha * f;
  return std::isnan(c) ? -std::numeric_limits<double>::infinity() : c;
}

/// Running maxima of one worker, per contribution group: O(G) whatever its share of draws.
/// Without censoring the clamped and raw contributions coincide (the clamp is [-inf, inf] and
/// no value leaves it), so only one array is kept.
struct Partial {
  std::vector<double> perGroup;
  std::vector<double> perGroupRaw;  ///< censored passes only
  std::vector<char> censored;       ///< censored passes only: left [L, U] in some draw
};

struct Pass {
  const models::SynthesisModel& model;
  const Eigen::MatrixXd& drawsT;  ///< dim × S: draw s is a contiguous column
  const ContributionGroups& groups;
  double lower, upper;
  bool censoring;
  bool identity;  ///< group g is pattern g for every g
  std::size_t tile;
  std::stop_token stop;
};

/// Folds one tile's pattern values f (f[p - firstPattern]) into the groups [gBegin, gEnd);
/// returns the tile's largest clamped contribution. kIdentity: group g is pattern g (one weight
/// per pattern, the usual case), so values are read in order without the pattern index. Four
/// running per-draw maxima break the dependency chain of one; maxima are exact in any order.
template <bool kCensoring, bool kIdentity>
double foldTile(const Pass& pass, const double* f, std::size_t firstPattern, std::size_t gBegin,
                std::size_t gEnd, Partial& partial) {
  const std::size_t* pattern = pass.groups.pattern.data();
  const double* alpha = pass.groups.alpha.data();
  double* perGroup = partial.perGroup.data();
  double* perGroupRaw = kCensoring ? partial.perGroupRaw.data() : nullptr;
  char* censored = kCensoring ? partial.censored.data() : nullptr;
  const double lower = pass.lower, upper = pass.upper;
  auto value = [&](std::size_t g) {
    if constexpr (kIdentity) {
      return f[g - firstPattern];
    } else {
      return f[pattern[g] - firstPattern];
    }
  };
  auto step = [&](std::size_t g, double& drawMax) {
    const double v = value(g);
    if constexpr (!kCensoring) {
      const double c = rawContribution(alpha[g], v);
      perGroup[g] = std::max(perGroup[g], c);
      drawMax = std::max(drawMax, c);
    } else {
      const double raw = rawContribution(alpha[g], v);
      const double c = signedContribution(alpha[g], v);
      const double clamped = std::abs(std::clamp(c, lower, upper));
      if (c < lower || c > upper) censored[g] = 1;
      perGroupRaw[g] = std::max(perGroupRaw[g], raw);
      perGroup[g] = std::max(perGroup[g], clamped);
      drawMax = std::max(drawMax, clamped);
    }
  };
  if constexpr (!kCensoring && kIdentity) {
    // The common case in the widest vectors the CPU has (the same values as step()).
    double largest = 0.0;
    if (models::kernels::foldContributions(alpha + gBegin, f + (gBegin - firstPattern),
                                           gEnd - gBegin, perGroup + gBegin, largest)) {
      return largest;
    }
  }
  double m0 = 0.0, m1 = 0.0, m2 = 0.0, m3 = 0.0;
  std::size_t g = gBegin;
#if defined(__SSE2__)
  if constexpr (!kCensoring && kIdentity) {
    // The same case on a CPU without AVX2: two groups per instruction; the same values as
    // step(), and maxima are exact in any order, so the same bits.
    const __m128d absMask = _mm_castsi128_pd(_mm_set1_epi64x(0x7fffffffffffffff));
    const __m128d inf = _mm_set1_pd(std::numeric_limits<double>::infinity());
    const __m128d zero = _mm_setzero_pd();
    __m128d m01 = zero, m23 = zero;
    auto contribution = [&](std::size_t at) {
      const __m128d a = _mm_loadu_pd(alpha + at);
      const __m128d product = _mm_and_pd(_mm_mul_pd(a, _mm_loadu_pd(f + (at - firstPattern))),
                                         absMask);  // |alpha f|
      const __m128d nan = _mm_cmpunord_pd(product, product);
      const __m128d bounded = _mm_or_pd(_mm_andnot_pd(nan, product), _mm_and_pd(nan, inf));
      return _mm_andnot_pd(_mm_cmpeq_pd(a, zero), bounded);  // weight 0: exactly +0
    };
    for (; g + 4 <= gEnd; g += 4) {
      const __m128d c01 = contribution(g);
      const __m128d c23 = contribution(g + 2);
      // _mm_max_pd(c, x) is c > x ? c : x, i.e. std::max(x, c).
      _mm_storeu_pd(perGroup + g, _mm_max_pd(c01, _mm_loadu_pd(perGroup + g)));
      _mm_storeu_pd(perGroup + g + 2, _mm_max_pd(c23, _mm_loadu_pd(perGroup + g + 2)));
      m01 = _mm_max_pd(c01, m01);
      m23 = _mm_max_pd(c23, m23);
    }
    alignas(16) double lanes[4];
    _mm_store_pd(lanes, m01);
    _mm_store_pd(lanes + 2, m23);
    m0 = lanes[0];
    m1 = lanes[1];
    m2 = lanes[2];
    m3 = lanes[3];
  }
#endif
  for (; g + 4 <= gEnd; g += 4) {
    step(g, m0);
    step(g + 1, m1);
    step(g + 2, m2);
    step(g + 3, m3);
  }
  for (; g < gEnd; ++g) step(g, m0);
  return std::max(std::max(m0, m1), std::max(m2, m3));
}

/// Draws [begin, end) into partial and perDrawMax[begin, end). Tiles of patterns on the outside,
/// draws inside. Returns false when stopped.
bool processDraws(const Pass& pass, Eigen::Index begin, Eigen::Index end, Partial& partial,
                  Eigen::VectorXd& perDrawMax) {
  const std::size_t P = pass.groups.patterns;
  const auto& first = pass.groups.firstGroup;
  Eigen::VectorXd u(pass.drawsT.rows());
  Eigen::VectorXd f(static_cast<Eigen::Index>(std::min(pass.tile, P)));
  for (Eigen::Index s = begin; s < end; ++s) perDrawMax[s] = 0.0;
  for (std::size_t p0 = 0; p0 < P; p0 += pass.tile) {
    const std::size_t p1 = std::min(P, p0 + pass.tile);
    const auto len = static_cast<Eigen::Index>(p1 - p0);
    for (Eigen::Index s = begin; s < end; ++s) {
      if (pass.stop.stop_requested()) return false;
      u = pass.drawsT.col(s);
      pass.model.patternLogLik(u, p0, p1, f.head(len));
      const double* values = f.data();
      const std::size_t g0 = first[p0], g1 = first[p1];
      double m;
      if (pass.identity) {
        m = pass.censoring ? foldTile<true, true>(pass, values, p0, g0, g1, partial)
                           : foldTile<false, true>(pass, values, p0, g0, g1, partial);
      } else {
        m = pass.censoring ? foldTile<true, false>(pass, values, p0, g0, g1, partial)
                           : foldTile<false, false>(pass, values, p0, g0, g1, partial);
      }
      perDrawMax[s] = std::max(perDrawMax[s], m);
    }
  }
  return true;
}

void validate(const models::SynthesisModel& model, const Eigen::MatrixXd& draws,
              const models::LikelihoodWeights& weights, int threads) {
  const auto& alpha = weights.alpha;
  const std::size_t n = model.records();
  if (!alpha.empty() && alpha.size() != n) {
    throw std::invalid_argument("computeLipschitz: " + std::to_string(alpha.size()) +
                                " weights for " + std::to_string(n) + " records");
  }
  for (double a : alpha) {
    if (!(a >= 0.0 && a <= 1.0)) {
      throw std::invalid_argument("computeLipschitz: weights must lie in [0, 1]");
    }
  }
  if (draws.cols() != model.dim()) {
    throw std::invalid_argument("computeLipschitz: draws have " + std::to_string(draws.cols()) +
                                " columns but the model has dimension " +
                                std::to_string(model.dim()));
  }
  // With no draws every maximum would be 0, i.e. a perfect (and false) privacy bound.
  if (draws.rows() == 0) throw std::invalid_argument("computeLipschitz: no posterior draws");
  if (!(weights.lower < 0.0) || !(weights.upper >= 0.0))
    throw std::invalid_argument("computeLipschitz: the clamp interval needs lower < 0 <= upper");
  if (threads < 1) throw std::invalid_argument("computeLipschitz: threads must be >= 1");
}

}  // namespace

std::optional<LipschitzResult> computeLipschitz(const models::SynthesisModel& model,
                                                const Eigen::MatrixXd& draws,
                                                const models::LikelihoodWeights& weights,
                                                int threads, std::stop_token stop,
                                                const ContributionGroups* prebuilt) {
  validate(model, draws, weights, threads);
  const std::size_t n = model.records();
  std::optional<ContributionGroups> built;
  if (!prebuilt) {
    try {
      built.emplace(groupContributions(model, weights.alpha, stop));
    } catch (const exec::Cancelled&) {
      return std::nullopt;
    }
  }
  const ContributionGroups& groups = prebuilt ? *prebuilt : *built;
  if (groups.records() != n || groups.patterns != model.patternCount()) {
    throw std::invalid_argument("computeLipschitz: the groups were built for another model");
  }

  const Eigen::Index S = draws.rows();
  const auto workers = static_cast<Eigen::Index>(std::min<Eigen::Index>(threads, S));
  const std::size_t G = groups.groups();
  const bool censoring = std::isfinite(weights.lower) || std::isfinite(weights.upper);
  const Eigen::MatrixXd drawsT = draws.transpose();
  // A model without its own pattern map evaluates every record per call: one tile.
  const std::size_t tile =
      model.recordPatterns().empty() ? std::max<std::size_t>(1, groups.patterns) : kTilePatterns;
  bool identity = G == groups.patterns;
  for (std::size_t g = 0; g < G && identity; ++g) identity = groups.pattern[g] == g;
  const Pass pass{model,     drawsT,   groups, weights.lower, weights.upper,
                  censoring, identity, tile,   stop};

  LipschitzResult result;
  result.perDrawMax = Eigen::VectorXd::Zero(S);
  std::vector<Partial> partials(static_cast<std::size_t>(workers));
  for (Partial& p : partials) {
    p.perGroup.assign(G, 0.0);
    if (censoring) {
      p.perGroupRaw.assign(G, 0.0);
      p.censored.assign(G, 0);
    }
  }

  // Contiguous blocks of draws; each worker writes its own Partial and its own slice of
  // perDrawMax. Maxima are exact, so merging gives the same bits for any number of workers.
  auto blockBegin = [&](Eigen::Index w) { return S * w / workers; };
  bool completed = true;
  if (workers == 1) {
    completed = processDraws(pass, 0, S, partials[0], result.perDrawMax);
  } else {
    std::vector<std::exception_ptr> errors(static_cast<std::size_t>(workers));
    std::atomic<bool> stopped{false};
    {
      std::vector<std::jthread> pool;
      pool.reserve(static_cast<std::size_t>(workers));
      for (Eigen::Index w = 0; w < workers; ++w) {
        pool.emplace_back([&, w] {
          try {
            if (!processDraws(pass, blockBegin(w), blockBegin(w + 1),
                              partials[static_cast<std::size_t>(w)], result.perDrawMax)) {
              stopped = true;
            }
          } catch (...) {
            errors[static_cast<std::size_t>(w)] = std::current_exception();
          }
        });
      }
    }  // jthreads join here
    for (const auto& e : errors) {
      if (e) std::rethrow_exception(e);
    }
    completed = !stopped;
  }
  if (!completed) return std::nullopt;

  Partial& merged = partials[0];
  for (std::size_t w = 1; w < partials.size(); ++w) {
    for (std::size_t g = 0; g < G; ++g) {
      merged.perGroup[g] = std::max(merged.perGroup[g], partials[w].perGroup[g]);
    }
    if (censoring) {
      for (std::size_t g = 0; g < G; ++g) {
        merged.perGroupRaw[g] = std::max(merged.perGroupRaw[g], partials[w].perGroupRaw[g]);
        merged.censored[g] |= partials[w].censored[g];
      }
    }
    partials[w] = Partial{};
  }
  const std::vector<double>& raw = censoring ? merged.perGroupRaw : merged.perGroup;

  // Expand to the records.
  const auto nIdx = static_cast<Eigen::Index>(n);
  result.perRecord.resize(nIdx);
  result.perRecordRaw.resize(nIdx);
  std::size_t censoredRecords = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t g = groups.recordGroup[i];
    result.perRecord[static_cast<Eigen::Index>(i)] = merged.perGroup[g];
    result.perRecordRaw[static_cast<Eigen::Index>(i)] = raw[g];
    if (censoring && merged.censored[g]) ++censoredRecords;
  }

  result.max = n > 0 ? result.perRecord.maxCoeff() : 0.0;
  result.maxRaw = n > 0 ? result.perRecordRaw.maxCoeff() : 0.0;
  result.q90 = utility::quantile(result.perDrawMax, 0.90);
  result.q95 = utility::quantile(result.perDrawMax, 0.95);
  result.censoredRecords = censoredRecords;
  return result;
}

LipschitzResult computeLipschitz(const models::SynthesisModel& model, const Eigen::MatrixXd& draws,
                                 const models::LikelihoodWeights& weights, int threads) {
  return *computeLipschitz(model, draws, weights, threads, std::stop_token{});
}

// Why batch maxima. Δ is the largest of S draws of D(θ) = max_i |α_i f_θ(x_i)|, so its Monte
// Carlo error is that of a sample maximum. The bootstrap over draws is known to fail for a
// maximum (a resample contains the sample maximum with probability ≈ 1 − 1/e, so it
// understates the spread); the spread across chains alone rests on 4 values. Batch maxima do
// better: cut each chain into b contiguous batches of m draws (m far above the autocorrelation
// time of NUTS draws, so batches are nearly independent). Each batch maximum is a draw of "the
// maximum of m draws", which extreme-value theory puts close to a Gumbel law for any D with
// exponential-type tails (a smooth function of an approximately normal posterior); the maximum
// of all S = B·m draws is the maximum of the B batch maxima, again Gumbel with the same scale
// β, so it has the same standard deviation πβ/√6 as a batch maximum. The sample sd of the B
// batch maxima therefore estimates the Monte Carlo sd of Δ (with B − 1 degrees of freedom:
// 16 batches give it to about ±18%). For lighter, Gaussian-type tails the scale shrinks slowly
// with m and the estimate errs on the large side. It measures the noise of a fit's own draws
// given its weights (what separates two refits of the same k), not the extra spread that weights
// estimated from an earlier fit add across seeds. Checked on the bundled NB mixture, 20 seeds:
// sd of Δ across seeds 0.149 (unweighted) and 0.053 (lw), mean estimates 0.173 and 0.042.
// The k = auto search only uses it to decide when a refit is close enough to its target; the
// privacy invariant (the chosen fit's bound never exceeds the target) does not depend on it.
double lipschitzMonteCarloSd(const Eigen::VectorXd& perDrawMax,
                             const std::vector<Eigen::Index>& chainLengths, int batchesPerChain) {
  if (batchesPerChain < 1) throw std::invalid_argument("lipschitzMonteCarloSd: batches < 1");
  Eigen::Index total = 0;
  for (Eigen::Index len : chainLengths) {
    if (len < 0) throw std::invalid_argument("lipschitzMonteCarloSd: negative chain length");
    total += len;
  }
  if (total != perDrawMax.size()) {
    throw std::invalid_argument(
        "lipschitzMonteCarloSd: the chain lengths do not add up to the "
        "number of draws");
  }
  std::vector<double> maxima;
  Eigen::Index start = 0;
  for (Eigen::Index len : chainLengths) {
    const Eigen::Index b = std::min<Eigen::Index>(batchesPerChain, len);
    for (Eigen::Index k = 0; k < b; ++k) {
      const Eigen::Index from = start + len * k / b, to = start + len * (k + 1) / b;
      maxima.push_back(perDrawMax.segment(from, to - from).maxCoeff());
    }
    start += len;
  }
  if (maxima.size() < 2) return std::numeric_limits<double>::quiet_NaN();
  double mean = 0.0;
  for (double m : maxima) mean += m;
  mean /= static_cast<double>(maxima.size());
  double ss = 0.0;
  for (double m : maxima) ss += (m - mean) * (m - mean);
  const double sd = std::sqrt(ss / static_cast<double>(maxima.size() - 1));
  return std::isfinite(sd) ? sd : std::numeric_limits<double>::quiet_NaN();
}

}  // namespace dpsynth::core::privacy
