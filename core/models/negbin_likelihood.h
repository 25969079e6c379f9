#pragma once
/// NB2 regression with log link: mean μ = e^η, variance μ + μ²/φ. Hierarchical shrinkage on the
/// coefficients: σ_j ~ half-Student-t(3, 0, 1), β_j ~ Normal(0, σ_j); τ = 1/φ ~ half-Cauchy(0, 5).
/// u = (β_0..β_{K-1}, log σ_0..log σ_{K-1}, log τ); the auxiliary is log τ.
#include <cmath>

#include "core/models/glm_likelihood.h"
#include "core/models/special_math.h"

namespace dpsynth::core::models {

class NegbinLikelihood {
 public:
  static constexpr double kSigmaNu = 3.0;
  static constexpr double kTauScale = 5.0;
  /// Below this count, lgamma(y+φ) − lgamma(φ) is summed as Σ log(φ+k): cheaper than two log
  /// gammas and free of their cancellation when φ is large (the near-Poisson regime).
  static constexpr int kSmallCount = 8;

  struct Data {
    double y;
    double logGammaY1;  ///< lgamma(y + 1)
    int smallCount;     ///< y when y is an integer below kSmallCount, else -1
  };
  struct Params {
    double phi;
    double logPhi;
    double logGammaPhi;
    double digammaPhi;
  };
  struct EtaTerms {
    double logShareMu;   ///< log(μ / (μ + φ))
    double logSharePhi;  ///< log(φ / (μ + φ))
    double shareMu;      ///< μ / (μ + φ)
    double sharePhi;     ///< φ / (μ + φ)
  };

  explicit NegbinLikelihood(GlmShape shape) : shape_(shape) {}

  int dim() const { return 2 * shape_.coefficients + 1; }
  int auxIndex() const { return 2 * shape_.coefficients; }
  std::vector<std::string> parameterNames() const;
  Eigen::VectorXd constrain(const Eigen::VectorXd& u) const;
  Eigen::VectorXd unconstrain(const Eigen::VectorXd& theta) const;
  Eigen::VectorXd initialPoint(const Eigen::VectorXd& y) const;
  double logPrior(const Eigen::VectorXd& u, Eigen::VectorXd& grad) const;

  static Data data(double y) {
    const int small = y < kSmallCount && y == std::floor(y) ? static_cast<int>(y) : -1;
    return {y, detail::logGamma(y + 1.0), small};
  }

  Params params(const Eigen::VectorXd& u) const {
    const double logPhi = -u[auxIndex()];
    const double phi = std::exp(logPhi);
    return {phi, logPhi, detail::logGamma(phi), detail::digamma(phi)};
  }

  template <bool kGrad>
  static EtaTerms etaTerms(double eta, const Params& p) {
    // log(μ+φ) = logaddexp(η, log φ), split so that neither share is computed by subtraction.
    const double d = eta - p.logPhi;
    const double logShareMu = -detail::log1pExp(-d);
    const double logSharePhi = -detail::log1pExp(d);
    return {logShareMu, logSharePhi, std::exp(logShareMu), std::exp(logSharePhi)};
  }

  template <bool kGrad>
  static RecordTerms record(const Data& d, double eta, const EtaTerms& e, const Params& p) {
    double logGammaRatio = 0.0;  // lgamma(y+φ) − lgamma(φ)
    double digammaDiff = 0.0;    // ψ(y+φ) − ψ(φ)
    if (d.smallCount >= 0) {
      for (int k = 0; k < d.smallCount; ++k) {
        logGammaRatio += std::log(p.phi + k);
        if constexpr (kGrad) digammaDiff += 1.0 / (p.phi + k);
      }
    } else {
      logGammaRatio = detail::logGamma(d.y + p.phi) - p.logGammaPhi;
      if constexpr (kGrad) digammaDiff = detail::digamma(d.y + p.phi) - p.digammaPhi;
    }
    RecordTerms r;
    r.f = logGammaRatio - d.logGammaY1 + p.phi * e.logSharePhi + d.y * e.logShareMu;
    if constexpr (kGrad) {
      r.dEta = d.y * e.sharePhi - p.phi * e.shareMu;  // φ(y − μ)/(μ + φ)
      const double invSum = e.sharePhi / p.phi;       // 1/(μ + φ)
      const double dPhi = digammaDiff + e.logSharePhi + e.shareMu - d.y * invSum;
      r.dAux = -p.phi * dPhi;  // φ = e^{−u}
    }
    return r;
  }

  double draw(random::Rng& rng, double eta, const Params& p) const;

 private:
  GlmShape shape_;
};

}  // namespace dpsynth::core::models
