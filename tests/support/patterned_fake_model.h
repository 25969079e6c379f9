#pragma once
/// A SynthesisModel whose records share log-likelihood patterns, like GlmModel's grouped records:
/// pattern p has outcome y_p and f_p(u) = FakeSynthesisModel::recordLogLikAt(y_p, mu, log_tau);
/// record i belongs to pattern recordPattern[i]. An outcome of +inf gives f = -inf and NaN gives
/// f = NaN, so reductions can be checked on non-finite values. Counts pattern evaluations and can
/// call a hook after each (e.g. to request a stop after N evaluations).
#include <Eigen/Dense>
#include <atomic>
#include <cstddef>
#include <functional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "support/fake_synthesis_model.h"

namespace dpsynth::test {

class PatternedFakeModel final : public core::models::SynthesisModel {
 public:
  PatternedFakeModel(std::vector<double> patternY, std::vector<std::size_t> recordPattern)
      : y_(std::move(patternY)), map_(std::move(recordPattern)) {
    for (std::size_t p : map_) {
      if (p >= y_.size()) throw std::invalid_argument("PatternedFakeModel: pattern out of range");
    }
  }

  int dim() const override { return 2; }
  std::vector<std::string> parameterNames() const override { return {"mu", "log_tau"}; }
  double logDensity(const Eigen::VectorXd&, Eigen::VectorXd& grad) const override {
    grad.setZero(2);
    return 0.0;
  }
  Eigen::VectorXd constrain(const Eigen::VectorXd& u) const override { return u; }
  Eigen::VectorXd unconstrain(const Eigen::VectorXd& theta) const override { return theta; }
  std::size_t records() const override { return map_.size(); }
  core::models::Family family() const override { return core::models::Family::normal; }
  const core::models::LikelihoodWeights& weights() const override { return weights_; }
  void simulate(const Eigen::VectorXd&, core::random::Rng&, Eigen::Ref<Eigen::VectorXd>,
                const std::stop_token& = {}) const override {}

  void recordLogLik(const Eigen::VectorXd& u, Eigen::Ref<Eigen::VectorXd> out) const override {
    for (std::size_t i = 0; i < map_.size(); ++i) {
      out[static_cast<Eigen::Index>(i)] =
          FakeSynthesisModel::recordLogLikAt(y_[map_[i]], u[0], u[1]);
    }
  }
  std::span<const std::size_t> recordPatterns() const override { return map_; }
  std::size_t patternCount() const override { return y_.size(); }
  void patternLogLik(const Eigen::VectorXd& u, std::size_t begin, std::size_t end,
                     Eigen::Ref<Eigen::VectorXd> out) const override {
    if (end > y_.size() || begin > end || static_cast<std::size_t>(out.size()) != end - begin) {
      throw std::invalid_argument("PatternedFakeModel: bad range");
    }
    for (std::size_t p = begin; p < end; ++p) {
      out[static_cast<Eigen::Index>(p - begin)] =
          FakeSynthesisModel::recordLogLikAt(y_[p], u[0], u[1]);
    }
    evaluations.fetch_add(1, std::memory_order_relaxed);
    if (afterEvaluation) afterEvaluation();
  }

  /// patternLogLik calls so far.
  mutable std::atomic<std::size_t> evaluations{0};
  /// Called after every patternLogLik (from the worker threads; must be thread-safe).
  std::function<void()> afterEvaluation;

 private:
  std::vector<double> y_;
  std::vector<std::size_t> map_;
  core::models::LikelihoodWeights weights_;
};

}  // namespace dpsynth::test
