#include "core/privacy/lipschitz.h"

#include <algorithm>
#include <cmath>
#include <exception>
#include <stdexcept>
#include <string>
#include <thread>

#include "core/utility/utility.h"

namespace dpsynth::core::privacy {

namespace {

/// Running maxima of one worker: everything it needs is O(n), whatever its share of draws.
struct Partial {
  Eigen::VectorXd perRecord;
  Eigen::VectorXd perRecordRaw;
  std::vector<char> censored;  ///< record i left [L, U] in at least one of this worker's draws
};

/// |alpha_i f| with the conventions that keep the bound honest: a record of weight 0 contributes
/// exactly 0 (even where f = -inf, where 0 * inf would be NaN), and a NaN log-likelihood counts
/// as unbounded rather than being silently skipped by max().
double rawContribution(double alpha, double f) {
  if (alpha == 0.0) return 0.0;
  const double a = std::abs(alpha * f);
  return std::isnan(a) ? std::numeric_limits<double>::infinity() : a;
}

/// The signed contribution alpha f with the same conventions (weight 0 is exactly 0; NaN is
/// unbounded, on the side that can hit a clamp).
double signedContribution(double alpha, double f) {
  if (alpha == 0.0) return 0.0;
  const double c = alpha * f;
  return std::isnan(c) ? -std::numeric_limits<double>::infinity() : c;
}

void processDraws(const models::SynthesisModel& model, const Eigen::MatrixXd& draws,
                  const models::LikelihoodWeights& weights, Eigen::Index begin,
                  Eigen::Index end, Partial& partial, Eigen::VectorXd& perDrawMax) {
  const auto& alpha = weights.alpha;
  const double lower = weights.lower, upper = weights.upper;
  const auto n = static_cast<Eigen::Index>(model.records());
  Eigen::VectorXd scratch(n);
  Eigen::VectorXd u(draws.cols());
  for (Eigen::Index s = begin; s < end; ++s) {
    u = draws.row(s).transpose();
    model.recordLogLik(u, scratch);
    double drawMax = 0.0;
    for (Eigen::Index i = 0; i < n; ++i) {
      const double w = alpha.empty() ? 1.0 : alpha[static_cast<std::size_t>(i)];
      const double raw = rawContribution(w, scratch[i]);
      const double c = signedContribution(w, scratch[i]);
      const double clamped = std::abs(std::clamp(c, lower, upper));
      if (c < lower || c > upper) partial.censored[static_cast<std::size_t>(i)] = 1;
      partial.perRecordRaw[i] = std::max(partial.perRecordRaw[i], raw);
      partial.perRecord[i] = std::max(partial.perRecord[i], clamped);
      drawMax = std::max(drawMax, clamped);
    }
    perDrawMax[s] = drawMax;
  }
}

}  // namespace

LipschitzResult computeLipschitz(const models::SynthesisModel& model, const Eigen::MatrixXd& draws,
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

  const Eigen::Index S = draws.rows();
  const auto nIdx = static_cast<Eigen::Index>(n);
  const auto workers = static_cast<Eigen::Index>(std::min<Eigen::Index>(threads, S));

  LipschitzResult result;
  result.perDrawMax = Eigen::VectorXd::Zero(S);
  std::vector<Partial> partials(static_cast<std::size_t>(workers));
  for (Partial& p : partials) {
    p.perRecord = Eigen::VectorXd::Zero(nIdx);
    p.perRecordRaw = Eigen::VectorXd::Zero(nIdx);
    p.censored.assign(n, 0);
  }

  // Contiguous blocks of draws; each worker writes its own Partial and its own slice of
  // perDrawMax. Maxima are exact, so merging gives the same bits for any number of workers.
  auto blockBegin = [&](Eigen::Index w) { return S * w / workers; };
  if (workers == 1) {
    processDraws(model, draws, weights, 0, S, partials[0], result.perDrawMax);
  } else {
    std::vector<std::exception_ptr> errors(static_cast<std::size_t>(workers));
    {
      std::vector<std::jthread> pool;
      pool.reserve(static_cast<std::size_t>(workers));
      for (Eigen::Index w = 0; w < workers; ++w) {
        pool.emplace_back([&, w] {
          try {
            processDraws(model, draws, weights, blockBegin(w), blockBegin(w + 1),
                         partials[static_cast<std::size_t>(w)], result.perDrawMax);
          } catch (...) {
            errors[static_cast<std::size_t>(w)] = std::current_exception();
          }
        });
      }
    }  // jthreads join here
    for (const auto& e : errors) {
      if (e) std::rethrow_exception(e);
    }
  }

  result.perRecord = partials[0].perRecord;
  result.perRecordRaw = partials[0].perRecordRaw;
  std::vector<char> censored = partials[0].censored;
  for (std::size_t w = 1; w < partials.size(); ++w) {
    result.perRecord = result.perRecord.cwiseMax(partials[w].perRecord);
    result.perRecordRaw = result.perRecordRaw.cwiseMax(partials[w].perRecordRaw);
    for (std::size_t i = 0; i < n; ++i) censored[i] |= partials[w].censored[i];
  }
  partials.clear();

  result.max = n > 0 ? result.perRecord.maxCoeff() : 0.0;
  result.maxRaw = n > 0 ? result.perRecordRaw.maxCoeff() : 0.0;
  result.q90 = utility::quantile(result.perDrawMax, 0.90);
  result.q95 = utility::quantile(result.perDrawMax, 0.95);
  result.censoredRecords =
      static_cast<std::size_t>(std::count(censored.begin(), censored.end(), char{1}));
  return result;
}

}  // namespace dpsynth::core::privacy
