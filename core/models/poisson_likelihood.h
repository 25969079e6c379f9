#pragma once
/// Poisson regression with log link: y ~ Poisson(e^η), β_j ~ Normal(0, 10). u = β.
#include <cmath>

#include "core/models/glm_likelihood.h"
#include "core/models/special_math.h"

namespace dpsynth::core::models {

class PoissonLikelihood {
 public:
  static constexpr double kBetaSd = 10.0;

  struct Data {
    double y;
    double logGammaY1;  ///< lgamma(y + 1)
  };
  struct Params {};
  struct EtaTerms {
    double mu;
  };

  explicit PoissonLikelihood(GlmShape shape) : shape_(shape) {}

  int dim() const { return shape_.coefficients; }
  int auxIndex() const { return -1; }
  std::vector<std::string> parameterNames() const;
  Eigen::VectorXd constrain(const Eigen::VectorXd& u) const { return u; }
  Eigen::VectorXd unconstrain(const Eigen::VectorXd& theta) const;
  Eigen::VectorXd initialPoint(const Eigen::VectorXd& y) const;
  double logPrior(const Eigen::VectorXd& u, Eigen::VectorXd& grad) const;

  static Data data(double y) { return {y, detail::logGamma(y + 1.0)}; }
  Params params(const Eigen::VectorXd&) const { return {}; }

  template <bool kGrad>
  static EtaTerms etaTerms(double eta, const Params&) {
    return {std::exp(eta)};
  }

  template <bool kGrad>
  static RecordTerms record(const Data& d, double eta, const EtaTerms& e, const Params&) {
    return {d.y * eta - e.mu - d.logGammaY1, d.y - e.mu, 0.0};
  }

  /// BlockLikelihood: e^η of the block in Eigen's packets.
  template <bool kGrad>
  static void block(const Data* d, const double* eta, std::size_t n, const Params&, double* f,
                    double* dEta, double* dAux) {
    alignas(64) double mu[kMaxPatternBlock];
    alignas(64) double in[kMaxPatternBlock];
    const std::size_t m = (n + 3) & ~std::size_t{3};
    for (std::size_t k = 0; k < n; ++k) in[k] = eta[k];
    for (std::size_t k = n; k < m; ++k) in[k] = 0.0;
    for (std::size_t k = 0; k < m; k += 4)
      Eigen::Map<Eigen::Array4d>(mu + k) = Eigen::Map<const Eigen::Array4d>(in + k).exp();
    for (std::size_t k = 0; k < n; ++k) {
      f[k] = d[k].y * eta[k] - mu[k] - d[k].logGammaY1;
      if constexpr (kGrad) {
        dEta[k] = d[k].y - mu[k];
        dAux[k] = 0.0;
      }
    }
  }

  double draw(random::Rng& rng, double eta, const Params&) const;

  /// VectorPass: −Σ_p w_p lgamma(y_p + 1), the part of the log-likelihood that is constant.
  /// The pass's constant −Σ w lgamma(y + 1) and its linear part's statistic t = Xᵀ(w ⊙ y):
  /// Σ_p w_p y_p η_p = tᵀβ, so the kernel never reads y (the design must be X itself, as the
  /// kernels' cells keep it).
  struct PassData {
    double constant = 0.0;
    std::vector<double> linear;
    std::vector<double> logGammaY1;  ///< per pattern, contiguous for the values kernel
  };
  PassData passData(const RecordGroups& groups, const std::vector<Data>& data) const;
  bool vectorPass(const PassData& passData, const RecordGroups& groups,
                  const kernels::Design& design, const Eigen::VectorXd& u, double& logLik,
                  double& gradAux, double* gCoef) const;
  bool vectorValues(const PassData& passData, const RecordGroups& groups,
                    const std::vector<Data>& data, const kernels::Design& design, std::size_t first,
                    const Eigen::VectorXd& u, double* out) const;

 private:
  GlmShape shape_;
};

}  // namespace dpsynth::core::models
