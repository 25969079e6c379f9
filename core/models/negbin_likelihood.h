#pragma once
/// NB2 regression with log link: mean μ = e^η, variance μ + μ²/φ. Hierarchical shrinkage on the
/// coefficients: σ_j ~ half-Student-t(3, 0, 1), β_j ~ Normal(0, σ_j); τ = 1/φ ~ half-Cauchy(0, 5).
/// u = (c_0..c_{K-1}, log σ_0..log σ_{K-1}, log τ); the auxiliary is log τ.
///
/// Intercept-only models and shape.nonCentred == false: centred, c_j = β_j. Regressions with
/// shape.nonCentred: c_j = z_j with β_j = κ_j(σ_j) z_j, κ_j(σ) = σ d_j / √(σ² + d_j²), where
/// d_j (shape.dataScales) is about the sd β_j has from the data alone. Each σ_j is informed by
/// its β_j only, so when the data pin β_j to a small value its posterior spans orders of
/// magnitude either side of d_j: below d_j the centred form has a funnel (β_j squeezed to ±σ_j)
/// and above it the plain non-centred form β_j = σ_j z_j has the mirror image (z_j squeezed to
/// ±d_j/σ_j). κ_j is σ_j below d_j and d_j above it, so z_j's conditional width stays near 1 on
/// both sides (measured on the salary sample: 351 divergences centred, hundreds non-centred,
/// none with κ). d_j = +inf gives the plain non-centred form.
#include <cmath>
#include <limits>

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
  /// Above this φ (and from kSmallCount up) the log-gamma and digamma differences come from
  /// Stirling's series instead of two cancelling evaluations; the series' first omitted terms
  /// are below 1e-25 relative there.
  static constexpr double kLargePhi = 1e6;

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

  explicit NegbinLikelihood(GlmShape shape)
      : shape_(std::move(shape)),
        nonCentredFrom_(shape_.nonCentred && !shape_.interceptOnly ? 0 : shape_.coefficients) {}

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

  /// lgamma(y+φ) − lgamma(φ), and (kGrad) ψ(y+φ) − ψ(φ) into digammaDiff. Shared with the
  /// exact sampler's cell bounds (core/privacy), which must evaluate the same numbers.
  template <bool kGrad>
  static double logGammaRatio(const Data& d, const Params& p, double& digammaDiff) {
    double value = 0.0;
    digammaDiff = 0.0;
    if (d.smallCount >= 0) {
      for (int k = 0; k < d.smallCount; ++k) {
        value += std::log(p.phi + k);
        if constexpr (kGrad) digammaDiff += 1.0 / (p.phi + k);
      }
    } else if (p.phi > kLargePhi) {
      // Stirling's series for both log gammas, their difference taken analytically:
      // (φ − ½)·log1p(y/φ) + y·log(φ + y) − y − y/(12φ(φ + y)) + O(y/φ⁴), and the digammas'
      // log1p(y/φ) + y/(2φ(φ + y)) + y(2φ + y)/(12φ²(φ + y)²) + O(y/φ⁵). The direct
      // differences cancel away all but log10(φ) digits: at φ = 1e13 they are noise of order
      // 0.1 per record, enough to stall a chain in the near-Poisson tail.
      const double ratio = d.y / p.phi;
      const double sum = p.phi + d.y;
      value = (p.phi - 0.5) * std::log1p(ratio) + d.y * std::log(sum) - d.y -
              d.y / (12.0 * p.phi * sum);
      if constexpr (kGrad) {
        digammaDiff = std::log1p(ratio) + d.y / (2.0 * p.phi * sum) +
                      d.y * (2.0 * p.phi + d.y) / (12.0 * p.phi * p.phi * sum * sum);
      }
    } else {
      value = detail::logGamma(d.y + p.phi) - p.logGammaPhi;
      if constexpr (kGrad) digammaDiff = detail::digamma(d.y + p.phi) - p.digammaPhi;
    }
    return value;
  }

  template <bool kGrad>
  static RecordTerms record(const Data& d, double eta, const EtaTerms& e, const Params& p) {
    double digammaDiff = 0.0;  // ψ(y+φ) − ψ(φ)
    const double gammaRatio = logGammaRatio<kGrad>(d, p, digammaDiff);
    RecordTerms r;
    r.f = gammaRatio - d.logGammaY1 + p.phi * e.logSharePhi + d.y * e.logShareMu;
    if constexpr (kGrad) {
      r.dEta = d.y * e.sharePhi - p.phi * e.shareMu;  // φ(y − μ)/(μ + φ)
      const double invSum = e.sharePhi / p.phi;       // 1/(μ + φ)
      const double dPhi = digammaDiff + e.logSharePhi + e.shareMu - d.y * invSum;
      r.dAux = -p.phi * dPhi;  // φ = e^{−u}
    }
    return r;
  }

  double draw(random::Rng& rng, double eta, const Params& p) const;

  /// The data scale d_j of each coefficient for GlmShape::dataScales, from the design and the
  /// outcomes' mean and variance (never the weights): the sd β_j would have from the data alone.
  static std::vector<double> dataScales(const Eigen::VectorXd& y, const Eigen::MatrixXd& X);

  /// Whether any coefficient is non-centred (TransformedCoefficients).
  bool transformsCoefficients() const { return nonCentredFrom_ < shape_.coefficients; }
  /// β at u: c_j for centred coefficients, κ_j(σ_j) z_j for non-centred ones.
  void coefficients(const Eigen::VectorXd& u, Eigen::VectorXd& beta) const {
    const int k = shape_.coefficients;
    beta = u.head(k);
    for (int j = nonCentredFrom_; j < k; ++j) {
      double kappa = 0.0, r = 0.0;
      scaleTerms(j, u[k + j], kappa, r);
      beta[j] *= kappa;
    }
  }
  /// grad += (∂β/∂u)ᵀ gBeta: ∂β_j/∂z_j = κ_j and ∂β_j/∂log σ_j = β_j r_j for non-centred j.
  void addCoefficientGradient(const Eigen::VectorXd& u, const Eigen::VectorXd& gBeta,
                              Eigen::VectorXd& grad) const {
    const int k = shape_.coefficients;
    for (int j = 0; j < nonCentredFrom_; ++j) grad[j] += gBeta[j];
    for (int j = nonCentredFrom_; j < k; ++j) {
      double kappa = 0.0, r = 0.0;
      scaleTerms(j, u[k + j], kappa, r);
      grad[j] += kappa * gBeta[j];
      grad[k + j] += kappa * u[j] * r * gBeta[j];
    }
  }
  /// Non-centred coefficient j at log σ_j = s: κ = σd/√(σ² + d²) (β_j = κ z_j) and
  /// r = d²/(σ² + d²) = d log κ / d log σ; κ = σ and r = 1 without a data scale d.
  void scaleTerms(int j, double s, double& kappa, double& r) const {
    const double sigma = std::exp(s);
    const double d = j < static_cast<int>(shape_.dataScales.size())
                         ? shape_.dataScales[static_cast<std::size_t>(j)]
                         : std::numeric_limits<double>::infinity();
    if (!std::isfinite(d)) {
      kappa = sigma;
      r = 1.0;
      return;
    }
    const double ratio = sigma / d;
    r = 1.0 / (1.0 + ratio * ratio);
    kappa = sigma * std::sqrt(r);
  }

 private:
  GlmShape shape_;
  int nonCentredFrom_;  ///< 0 (non-centred) or K (centred): the first non-centred coefficient
};

}  // namespace dpsynth::core::models
