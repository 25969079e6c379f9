#pragma once
/// Linear regression: y ~ Normal(η, σ), β_j ~ Normal(0, 10·s), σ ~ half-Cauchy(0, 5·s) where s
/// is the user's public sd scale. u = (β_0..β_{K-1}, log σ); the auxiliary is log σ.
#include <cmath>

#include "core/models/glm_likelihood.h"
#include "core/models/special_math.h"
#include "core/models/sufficient_stats.h"

namespace dpsynth::core::models {

class NormalLikelihood {
 public:
  static constexpr double kBetaSd = 10.0;     ///< times sdScale
  static constexpr double kSigmaScale = 5.0;  ///< times sdScale

  struct Data {
    double y;
  };
  struct Params {
    double sigma;
    double logSigma;
    double invVar;  ///< 1/σ²
  };
  struct EtaTerms {};

  explicit NormalLikelihood(GlmShape shape) : shape_(shape) {}

  int dim() const { return shape_.coefficients + 1; }
  int auxIndex() const { return shape_.coefficients; }
  std::vector<std::string> parameterNames() const;
  Eigen::VectorXd constrain(const Eigen::VectorXd& u) const;
  Eigen::VectorXd unconstrain(const Eigen::VectorXd& theta) const;
  Eigen::VectorXd initialPoint(const Eigen::VectorXd& y) const;
  double logPrior(const Eigen::VectorXd& u, Eigen::VectorXd& grad) const;

  static Data data(double y) { return {y}; }

  Params params(const Eigen::VectorXd& u) const {
    const double logSigma = u[auxIndex()];
    return {std::exp(logSigma), logSigma, std::exp(-2.0 * logSigma)};
  }

  template <bool kGrad>
  static EtaTerms etaTerms(double, const Params&) {
    return {};
  }

  template <bool kGrad>
  static RecordTerms record(const Data& d, double eta, const EtaTerms&, const Params& p) {
    const double resid = d.y - eta;
    const double z2 = resid * resid * p.invVar;
    RecordTerms r;
    r.f = -detail::kHalfLog2Pi - p.logSigma - 0.5 * z2;
    if constexpr (kGrad) {
      r.dEta = resid * p.invVar;
      r.dAux = z2 - 1.0;  // d/d log σ
    }
    return r;
  }

  double draw(random::Rng& rng, double eta, const Params& p) const;

  /// Uncensored fits, weighted or not: Σ_p w_p f_p = −W (½ log 2π + log σ) − Q(β) / (2σ²) with
  /// W = Σ w and Q the weighted residual sum of squares (sufficient_stats.h).
  using Sufficient = ResidualSquares;
  bool usesSufficient() const { return true; }
  static Sufficient sufficient(const RecordGroups& groups, const std::vector<Data>&,
                               const std::stop_token& stop) {
    return ResidualSquares(groups.X, groups.y, groups.weight, groups.active, stop);
  }
  double sufficientLogLik(const Sufficient& stats, const Eigen::VectorXd& u, const Params& p,
                          Eigen::VectorXd& grad) const {
    const int k = shape_.coefficients;
    const double q = stats.evaluate(u.head(k), p.invVar, grad.head(k));
    const double w = stats.weightSum();
    grad[k] += q * p.invVar - w;  // d/d log σ
    return -w * (detail::kHalfLog2Pi + p.logSigma) - 0.5 * q * p.invVar;
  }

  /// RegressionStart: the mode of β given σ under the prior (ridge regression), alternated a
  /// few times with σ at the residual sd. With a weak prior this is least squares; with a prior
  /// that dominates (an sd scale far below the outcome's) it is near the posterior, where
  /// β_0 = mean(y) would start the chains thousands of posterior sds away.
  /// Each pass over the records checks `stop` (exec::Cancelled): at 10^6 records they are
  /// tens of milliseconds each.
  void regressionStart(const Eigen::VectorXd& y, const Eigen::MatrixXd& X, Eigen::VectorXd& u,
                       const std::stop_token& stop) const;

 private:
  GlmShape shape_;
};

}  // namespace dpsynth::core::models
