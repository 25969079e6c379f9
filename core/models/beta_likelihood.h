#pragma once
/// Beta regression with logit link: y ~ Beta(λφ, λ(1−φ)), logit φ = η, λ ~ Pareto(0.1, 1.5).
/// Intercept-only: u = (logit φ, log(λ − 0.1)) with φ ~ Beta(1, 1); regression:
/// u = (β_0..β_{K-1}, log(λ − 0.1)) with β_j ~ Normal(0, 2.5). The auxiliary is log(λ − 0.1).
#include <cmath>

#include "core/models/glm_likelihood.h"
#include "core/models/special_math.h"
#include "core/models/sufficient_stats.h"

namespace dpsynth::core::models {

class BetaLikelihood {
 public:
  static constexpr double kBetaSd = 2.5;
  static constexpr double kLambdaMin = 0.1;    ///< Pareto scale x_m
  static constexpr double kLambdaShape = 1.5;  ///< Pareto shape

  struct Data {
    double logY;
    double log1mY;  ///< log(1 − y)
  };
  struct Params {
    double lambda;
    double lambdaExcess;  ///< λ − 0.1 = e^u, dλ/du
    double logGammaLambda;
    double digammaLambda;
  };
  struct EtaTerms {
    double phi;
    double phiC;  ///< 1 − φ, computed as logistic(−η) so that it keeps precision when φ → 1
    double logGammaA;  ///< lgamma(λφ)
    double logGammaB;  ///< lgamma(λ(1−φ))
    double digammaA;
    double digammaB;
  };

  explicit BetaLikelihood(GlmShape shape) : shape_(shape) {}

  int dim() const { return shape_.coefficients + 1; }
  int auxIndex() const { return shape_.coefficients; }
  std::vector<std::string> parameterNames() const;
  Eigen::VectorXd constrain(const Eigen::VectorXd& u) const;
  Eigen::VectorXd unconstrain(const Eigen::VectorXd& theta) const;
  Eigen::VectorXd initialPoint(const Eigen::VectorXd& y) const;
  double logPrior(const Eigen::VectorXd& u, Eigen::VectorXd& grad) const;

  static Data data(double y) { return {std::log(y), std::log1p(-y)}; }

  Params params(const Eigen::VectorXd& u) const {
    const double excess = std::exp(u[auxIndex()]);
    const double lambda = kLambdaMin + excess;
    return {lambda, excess, detail::logGamma(lambda), detail::digamma(lambda)};
  }

  template <bool kGrad>
  static EtaTerms etaTerms(double eta, const Params& p) {
    EtaTerms e;
    e.phi = detail::logistic(eta);
    e.phiC = detail::logistic(-eta);
    const double a = p.lambda * e.phi;
    const double b = p.lambda * e.phiC;
    if constexpr (kGrad) {
      // Two fused evaluations instead of four separate ones (the gradient's hot path).
      e.logGammaA = detail::logGammaDigamma(a, e.digammaA);
      e.logGammaB = detail::logGammaDigamma(b, e.digammaB);
    } else {
      // The values alone (the Lipschitz pass, the exact sampler's targets) keep libm's lgamma,
      // the function the exact sampler's cell bounds are computed with.
      e.logGammaA = detail::logGamma(a);
      e.logGammaB = detail::logGamma(b);
      e.digammaA = e.digammaB = 0.0;
    }
    return e;
  }

  template <bool kGrad>
  static RecordTerms record(const Data& d, double, const EtaTerms& e, const Params& p) {
    RecordTerms r;
    r.f = p.logGammaLambda - e.logGammaA - e.logGammaB + (p.lambda * e.phi - 1.0) * d.logY +
          (p.lambda * e.phiC - 1.0) * d.log1mY;
    if constexpr (kGrad) {
      r.dEta = e.phi * e.phiC * p.lambda * (e.digammaB - e.digammaA + d.logY - d.log1mY);
      const double dLambda = p.digammaLambda - e.phi * e.digammaA - e.phiC * e.digammaB +
                             e.phi * d.logY + e.phiC * d.log1mY;
      r.dAux = dLambda * p.lambdaExcess;
    }
    return r;
  }

  /// BlockLikelihood: the logistic's exp and both fused log Γ + ψ evaluations of the block in
  /// Eigen's packets (logGammaDigammaBlock), the rest per pattern.
  template <bool kGrad>
  static void block(const Data* d, const double* eta, std::size_t n, const Params& p, double* f,
                    double* dEta, double* dAux) {
    constexpr std::size_t kMax = kMaxPatternBlock;
    alignas(64) double e[kMax], phi[kMax], phiC[kMax], ab[2 * kMax];
    alignas(64) double logGammas[2 * kMax], digammas[2 * kMax];
    const std::size_t m = (n + 3) & ~std::size_t{3};
    for (std::size_t k = 0; k < n; ++k) e[k] = eta[k];
    for (std::size_t k = n; k < m; ++k) e[k] = 0.0;
    for (std::size_t k = 0; k < m; k += 4)
      Eigen::Map<Eigen::Array4d>(e + k) = (-Eigen::Map<const Eigen::Array4d>(e + k).abs()).exp();
    for (std::size_t k = 0; k < m; ++k) {
      const double big = k < n ? 1.0 / (1.0 + e[k]) : 0.5;
      const double small = k < n ? e[k] * big : 0.5;
      const bool up = k < n && eta[k] >= 0.0;  // logistic(η) accurate in both tails
      phi[k] = up ? big : small;
      phiC[k] = up ? small : big;
      ab[k] = p.lambda * phi[k];
      ab[m + k] = p.lambda * phiC[k];
    }
    detail::logGammaDigammaBlock(ab, 2 * m, logGammas, digammas);
    for (std::size_t k = 0; k < n; ++k) {
      EtaTerms t;
      t.phi = phi[k];
      t.phiC = phiC[k];
      t.logGammaA = logGammas[k];
      t.logGammaB = logGammas[m + k];
      t.digammaA = digammas[k];
      t.digammaB = digammas[m + k];
      const RecordTerms r = record<kGrad>(d[k], eta[k], t, p);
      f[k] = r.f;
      if constexpr (kGrad) {
        dEta[k] = r.dEta;
        dAux[k] = r.dAux;
      }
    }
  }

  double draw(random::Rng& rng, double eta, const Params& p) const;

  /// VectorPass: log y and log(1 − y) of every pattern as arrays, and Σ_p w_p.
  struct PassData {
    std::vector<double> logY;
    std::vector<double> log1mY;
    double weight = 0.0;
  };
  PassData passData(const RecordGroups& groups, const std::vector<Data>& data) const;
  bool vectorPass(const PassData& passData, const RecordGroups& groups,
                  const kernels::Design& design, const Eigen::VectorXd& u, double& logLik,
                  double& gradAux, double* gCoef) const;
  bool vectorValues(const PassData& passData, const RecordGroups& groups,
                    const std::vector<Data>& data, const kernels::Design& design, std::size_t first,
                    const Eigen::VectorXd& u, double* out) const;

  /// Intercept-only, uncensored: every record shares η, so Σ_p w_p f_p is linear in
  /// W = Σ w, A = Σ w log y and B = Σ w log(1 − y).
  using Sufficient = WeightedSums;
  bool usesSufficient() const { return shape_.interceptOnly; }
  static Sufficient sufficient(const RecordGroups& groups, const std::vector<Data>& data,
                               const std::stop_token& /*one pass over the patterns: short*/) {
    CompensatedSum w, a, b;
    for (std::size_t p = 0; p < groups.active; ++p) {
      const double weight = groups.weight[static_cast<Eigen::Index>(p)];
      w.add(weight);
      a.add(weight * data[p].logY);
      b.add(weight * data[p].log1mY);
    }
    return {w.value(), a.value(), b.value()};
  }
  double sufficientLogLik(const Sufficient& s, const Eigen::VectorXd& u, const Params& p,
                          Eigen::VectorXd& grad) const {
    const double eta = u[0];
    const EtaTerms e = etaTerms<true>(eta, p);
    grad[0] += e.phi * e.phiC * p.lambda * (s.weight * (e.digammaB - e.digammaA) + s.a - s.b);
    const double dLambda = s.weight * (p.digammaLambda - e.phi * e.digammaA - e.phiC * e.digammaB) +
                           e.phi * s.a + e.phiC * s.b;
    grad[auxIndex()] += dLambda * p.lambdaExcess;
    return s.weight * (p.logGammaLambda - e.logGammaA - e.logGammaB) +
           (p.lambda * e.phi - 1.0) * s.a + (p.lambda * e.phiC - 1.0) * s.b;
  }

 private:
  GlmShape shape_;
};

}  // namespace dpsynth::core::models
