#pragma once
/// Header-only fake models for sampler tests: targets whose moments are known exactly, plus
/// pathological ones (a funnel, a density that is -inf on a half-space, a slow gradient, a model
/// that throws). All use the identity constrain except LogNormalModel.
#include <Eigen/Dense>
#include <atomic>
#include <chrono>
#include <cmath>
#include <limits>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <stop_token>
#include <string>
#include <thread>
#include <vector>

#include "core/models/model.h"

namespace dpsynth::test {

/// Shared boilerplate: names "x[i]" and the identity transform.
class IdentityModel : public core::models::Model {
 public:
  explicit IdentityModel(int dim) : dim_(dim) {}
  int dim() const override { return dim_; }
  std::vector<std::string> parameterNames() const override {
    std::vector<std::string> names;
    for (int i = 0; i < dim_; ++i) names.push_back("x[" + std::to_string(i) + "]");
    return names;
  }
  Eigen::VectorXd constrain(const Eigen::VectorXd& u) const override { return u; }
  Eigen::VectorXd unconstrain(const Eigen::VectorXd& theta) const override { return theta; }

 private:
  int dim_;
};

/// Independent Normal(mean_i, sd_i^2) coordinates; counts its log-density calls.
class IidGaussianModel : public IdentityModel {
 public:
  explicit IidGaussianModel(int dim)
      : IidGaussianModel(Eigen::VectorXd::Zero(dim), Eigen::VectorXd::Ones(dim)) {}
  IidGaussianModel(Eigen::VectorXd mean, Eigen::VectorXd sd)
      : IdentityModel(static_cast<int>(mean.size())), mean_(std::move(mean)), sd_(std::move(sd)) {}

  double logDensity(const Eigen::VectorXd& u, Eigen::VectorXd& grad) const override {
    calls_.fetch_add(1, std::memory_order_relaxed);
    const Eigen::ArrayXd z = (u - mean_).array() / sd_.array();
    grad = -(z / sd_.array()).matrix();
    return -0.5 * z.square().sum();
  }
  long long calls() const { return calls_.load(); }
  const Eigen::VectorXd& mean() const { return mean_; }
  const Eigen::VectorXd& sd() const { return sd_; }

 private:
  Eigen::VectorXd mean_, sd_;
  mutable std::atomic<long long> calls_{0};
};

/// Multivariate normal N(mean, covariance) through its precision matrix.
class CorrelatedGaussianModel : public IdentityModel {
 public:
  CorrelatedGaussianModel(Eigen::VectorXd mean, const Eigen::MatrixXd& covariance)
      : IdentityModel(static_cast<int>(mean.size())),
        mean_(std::move(mean)),
        precision_(covariance.inverse()) {}

  double logDensity(const Eigen::VectorXd& u, Eigen::VectorXd& grad) const override {
    const Eigen::VectorXd d = u - mean_;
    grad = -precision_ * d;
    return 0.5 * d.dot(grad);
  }

 private:
  Eigen::VectorXd mean_;
  Eigen::MatrixXd precision_;
};

/// An iid standard normal that says its coordinates are correlated (as regressions do), so
/// that the automatic metric choice picks a dense metric for it.
class CorrelatedCoordinatesModel : public IdentityModel {
 public:
  explicit CorrelatedCoordinatesModel(int dim) : IdentityModel(dim) {}
  double logDensity(const Eigen::VectorXd& u, Eigen::VectorXd& grad) const override {
    grad = -u;
    return -0.5 * u.squaredNorm();
  }
  bool correlatedCoordinates() const override { return true; }
};

/// Neal's funnel: v ~ Normal(0, 3), x_i | v ~ Normal(0, exp(v / 2)) for i = 1..dim-1. The neck
/// needs step sizes far below those of the mouth, so NUTS diverges there.
class FunnelModel : public IdentityModel {
 public:
  explicit FunnelModel(int dim) : IdentityModel(dim) {}
  double logDensity(const Eigen::VectorXd& u, Eigen::VectorXd& grad) const override {
    const double v = u[0];
    const Eigen::Index k = u.size() - 1;
    const Eigen::VectorXd x = u.tail(k);
    const double precision = std::exp(-v);
    grad.resize(u.size());
    grad[0] = -v / 9.0 + 0.5 * precision * x.squaredNorm() - 0.5 * static_cast<double>(k);
    grad.tail(k) = -precision * x;
    return -v * v / 18.0 - 0.5 * precision * x.squaredNorm() - 0.5 * static_cast<double>(k) * v;
  }
};

/// Rosenbrock-style banana: x0 ~ Normal(0, 1), x1 | x0 ~ Normal(b (x0^2 - 1), 1), so
/// E[x1] = 0 and Var[x1] = 1 + 2 b^2.
class BananaModel : public IdentityModel {
 public:
  explicit BananaModel(double b = 0.5) : IdentityModel(2), b_(b) {}
  double logDensity(const Eigen::VectorXd& u, Eigen::VectorXd& grad) const override {
    const double r = u[1] - b_ * (u[0] * u[0] - 1.0);
    grad.resize(2);
    grad[0] = -u[0] + r * 2.0 * b_ * u[0];
    grad[1] = -r;
    return -0.5 * u[0] * u[0] - 0.5 * r * r;
  }

 private:
  double b_;
};

/// Standard normal restricted to x[0] > 0 (a half-normal in the first coordinate): -inf on the
/// other half-space, which the sampler must treat as divergent proposals. E|x0| = sqrt(2/pi).
class HalfSpaceGaussianModel : public IdentityModel {
 public:
  explicit HalfSpaceGaussianModel(int dim) : IdentityModel(dim) {}
  double logDensity(const Eigen::VectorXd& u, Eigen::VectorXd& grad) const override {
    if (u[0] <= 0.0) {
      grad.setConstant(std::numeric_limits<double>::quiet_NaN());
      return -std::numeric_limits<double>::infinity();
    }
    grad = -u;
    return -0.5 * u.squaredNorm();
  }
  Eigen::VectorXd initialPoint() const override {
    Eigen::VectorXd x = Eigen::VectorXd::Zero(dim());
    x[0] = 2.5;  // jitter of radius 2 keeps x[0] > 0
    return x;
  }
};

/// A NaN log density everywhere: no starting point can be found.
class NowhereFiniteModel : public IdentityModel {
 public:
  explicit NowhereFiniteModel(int dim) : IdentityModel(dim) {}
  double logDensity(const Eigen::VectorXd& u, Eigen::VectorXd& grad) const override {
    return -std::numeric_limits<double>::quiet_NaN();
  }
};

/// A standard normal whose every evaluation sleeps for `delay` (a stand-in for an expensive
/// likelihood; sleeping rather than spinning leaves the shared CPUs to other work).
class SlowGaussianModel : public IdentityModel {
 public:
  explicit SlowGaussianModel(int dim,
                             std::chrono::microseconds delay = std::chrono::milliseconds(1))
      : IdentityModel(dim), delay_(delay) {}
  double logDensity(const Eigen::VectorXd& u, Eigen::VectorXd& grad) const override {
    std::this_thread::sleep_for(delay_);
    grad = -u;
    return -0.5 * u.squaredNorm();
  }

 private:
  std::chrono::microseconds delay_;
};

/// A standard normal that requests a stop at its `stopAt`-th evaluation and counts the
/// evaluations that begin once that request has returned: cancellation latency measured in
/// events, not milliseconds. (Counting from the `stopAt`-th call instead would also count what
/// another chain evaluates while the requesting thread is still inside `request_stop()`: with
/// evaluations this cheap, that window alone held up to 20 under load.)
class StoppingGaussianModel : public IdentityModel {
 public:
  StoppingGaussianModel(int dim, long long stopAt, std::stop_source& source)
      : IdentityModel(dim), stopAt_(stopAt), source_(source) {}
  double logDensity(const Eigen::VectorXd& u, Eigen::VectorXd& grad) const override {
    if (requested_.load()) afterRequest_.fetch_add(1);
    if (calls_.fetch_add(1) + 1 == stopAt_) {
      source_.request_stop();  // runs the stop callbacks before it returns
      requested_.store(true);
    }
    grad = -u;
    return -0.5 * u.squaredNorm();
  }
  long long evaluations() const { return calls_.load(); }
  /// Evaluations begun after `request_stop()` returned.
  long long evaluationsAfterRequest() const { return afterRequest_.load(); }

 private:
  long long stopAt_;
  std::stop_source& source_;
  mutable std::atomic<long long> calls_{0};
  mutable std::atomic<bool> requested_{false};
  mutable std::atomic<long long> afterRequest_{0};
};

/// A standard normal that throws std::logic_error from its `throwAfter`-th evaluation on (a
/// bug in a model must reach the caller, not vanish in a worker thread).
class ThrowingModel : public IdentityModel {
 public:
  ThrowingModel(int dim, long long throwAfter) : IdentityModel(dim), throwAfter_(throwAfter) {}
  double logDensity(const Eigen::VectorXd& u, Eigen::VectorXd& grad) const override {
    if (calls_.fetch_add(1) + 1 >= throwAfter_) throw std::logic_error("model bug");
    grad = -u;
    return -0.5 * u.squaredNorm();
  }

 private:
  long long throwAfter_;
  mutable std::atomic<long long> calls_{0};
};

/// A standard normal that remembers the first point it was evaluated at (for init tests).
class RecordingModel : public IdentityModel {
 public:
  explicit RecordingModel(int dim) : IdentityModel(dim) {}
  double logDensity(const Eigen::VectorXd& u, Eigen::VectorXd& grad) const override {
    {
      std::lock_guard lock(mutex_);
      if (!first_) first_ = u;
    }
    grad = -u;
    return -0.5 * u.squaredNorm();
  }
  std::optional<Eigen::VectorXd> firstPoint() const {
    std::lock_guard lock(mutex_);
    return first_;
  }

 private:
  mutable std::mutex mutex_;
  mutable std::optional<Eigen::VectorXd> first_;
};

/// u ~ Normal(mu, s^2) on the unconstrained scale, reported as theta = exp(u) (log-normal):
/// exercises constrain() in summaries.
class LogNormalModel : public core::models::Model {
 public:
  LogNormalModel(double mu, double s) : mu_(mu), s_(s) {}
  int dim() const override { return 1; }
  std::vector<std::string> parameterNames() const override { return {"theta"}; }
  double logDensity(const Eigen::VectorXd& u, Eigen::VectorXd& grad) const override {
    const double z = (u[0] - mu_) / s_;
    grad.resize(1);
    grad[0] = -z / s_;
    return -0.5 * z * z;
  }
  Eigen::VectorXd constrain(const Eigen::VectorXd& u) const override { return u.array().exp(); }
  Eigen::VectorXd unconstrain(const Eigen::VectorXd& theta) const override {
    return theta.array().log();
  }

 private:
  double mu_, s_;
};

}  // namespace dpsynth::test
