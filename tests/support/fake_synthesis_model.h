#pragma once
/// A tiny SynthesisModel with a closed-form record log-likelihood, for tests that need a model
/// but not a real family (brute-force checks of Lipschitz bounds, weights, pipelines).
///
/// Parameters u = (mu, log_tau) on R^2 (constrain is the identity). Record i has
///   f_i(u) = -exp(log_tau) (y_i - mu)^2 / 2 + log_tau / 2,
/// the normal log-likelihood with precision exp(log_tau), without the -log(2 pi)/2 constant, so
/// f can be positive or negative. The log density is the weighted, clamped pseudo
/// log-likelihood sum_i clamp(alpha_i f_i, -M, M) plus independent Normal(0, priorSd) priors.
#include <Eigen/Dense>
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstddef>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/models/model.h"
#include "core/random/rng.h"

namespace dpsynth::test {

class FakeSynthesisModel final : public core::models::SynthesisModel {
 public:
  explicit FakeSynthesisModel(std::vector<double> y, core::models::LikelihoodWeights weights = {},
                              double priorSd = 10.0)
      : y_(std::move(y)), weights_(std::move(weights)), priorSd_(priorSd) {
    if (!weights_.alpha.empty() && weights_.alpha.size() != y_.size()) {
      throw std::invalid_argument("FakeSynthesisModel: alpha has the wrong size");
    }
  }

  /// The closed form, for brute-force checks in tests.
  static double recordLogLikAt(double y, double mu, double logTau) {
    const double d = y - mu;
    return -0.5 * std::exp(logTau) * d * d + 0.5 * logTau;
  }

  int dim() const override { return 2; }
  std::vector<std::string> parameterNames() const override { return {"mu", "log_tau"}; }

  double logDensity(const Eigen::VectorXd& u, Eigen::VectorXd& grad) const override {
    grad.resize(2);
    const double mu = u[0], logTau = u[1];
    const double tau = std::exp(logTau);
    const double v = priorSd_ * priorSd_;
    double lp = -0.5 * (mu * mu + logTau * logTau) / v;
    grad[0] = -mu / v;
    grad[1] = -logTau / v;
    for (std::size_t i = 0; i < y_.size(); ++i) {
      const double a = weights_.alpha.empty() ? 1.0 : weights_.alpha[i];
      if (a == 0.0) continue;
      const double d = y_[i] - mu;
      const double c = a * recordLogLikAt(y_[i], mu, logTau);
      if (c > weights_.upper || c < weights_.lower) {
        lp += std::clamp(c, weights_.lower, weights_.upper);  // flat beyond the clamp
        continue;
      }
      lp += c;
      grad[0] += a * tau * d;
      grad[1] += a * (-0.5 * tau * d * d + 0.5);
    }
    if (!std::isfinite(lp)) return -std::numeric_limits<double>::infinity();
    return lp;
  }

  Eigen::VectorXd constrain(const Eigen::VectorXd& u) const override { return u; }
  Eigen::VectorXd unconstrain(const Eigen::VectorXd& theta) const override { return theta; }

  std::size_t records() const override { return y_.size(); }
  core::models::Family family() const override { return core::models::Family::normal; }

  void recordLogLik(const Eigen::VectorXd& u, Eigen::Ref<Eigen::VectorXd> out) const override {
    recordLogLikCalls.fetch_add(1, std::memory_order_relaxed);
    for (std::size_t i = 0; i < y_.size(); ++i) {
      out[static_cast<Eigen::Index>(i)] = recordLogLikAt(y_[i], u[0], u[1]);
    }
  }

  void simulate(const Eigen::VectorXd& u, core::random::Rng& rng, Eigen::Ref<Eigen::VectorXd> out,
                const std::stop_token& = {}) const override {
    const double sd = std::exp(-0.5 * u[1]);
    for (Eigen::Index i = 0; i < out.size(); ++i) out[i] = core::random::normal(rng, u[0], sd);
  }

  const core::models::LikelihoodWeights& weights() const override { return weights_; }
  const std::vector<double>& y() const { return y_; }

  /// How often recordLogLik ran (e.g. to check that a reduction makes one pass over the draws).
  mutable std::atomic<std::size_t> recordLogLikCalls{0};

 private:
  std::vector<double> y_;
  core::models::LikelihoodWeights weights_;
  double priorSd_;
};

}  // namespace dpsynth::test
