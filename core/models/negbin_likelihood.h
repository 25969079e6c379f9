#pragma once
/// NB2 regression with log link: mean μ = e^η, variance μ + μ²/φ. Hierarchical shrinkage on the
/// coefficients: σ_j ~ half-Student-t(3, 0, 1), β_j ~ Normal(0, σ_j); τ = 1/φ ~ half-Cauchy(0, 5).
/// u = (c_0..c_{K-1}, s_0..s_{K-1}, log τ); the auxiliary is log τ.
///
/// Intercept-only models and the direct form: centred, c_j = β_j and s_j = log σ_j.
/// Regressions (shape.integratedScales): σ_j is integrated out. Each σ_j is informed by its β_j
/// only, so where the data pin β_j to a small value the joint (β_j, σ_j) is a funnel spanning
/// orders of magnitude, which no fixed metric follows (measured on the salary sample: hundreds
/// of divergences centred or non-centred). β_j's marginal prior p(β_j) is one-dimensional and
/// closed-form (ScaleMixturePrior), so the sampler moves (β, φ) only: c = θ = basis·b with b_j the
/// SpikeMap coordinate of β_j (basis is the design's QR R*, so that θ is about as well
/// conditioned as a Poisson regression's), and s_j = w_j is an independent standard normal from
/// which σ_j = the w_j-quantile of σ_j | β_j follows exactly (constrain()); the sampler draws
/// the w_j afresh after each transition instead of moving them (exactCoordinates()). The
/// posterior of (β, σ, φ) is the centred one; only the coordinates differ.
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

#include "core/models/glm_likelihood.h"
#include "core/models/qr_transform.h"
#include "core/models/scale_mixture_prior.h"
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
    int outcome = -1;   ///< index among the model's distinct outcomes (indexOutcomes), or -1
  };
  /// The φ-terms of one distinct outcome y (OutcomeTable).
  struct PhiTerms {
    double logGammaRatio;  ///< lgamma(y + φ) − lgamma(φ)
    double digammaDiff;    ///< ψ(y + φ) − ψ(φ) (0 when tabulated without derivatives)
  };
  struct Params {
    double phi;
    double logPhi;
    double logGammaPhi;
    double digammaPhi;
    const PhiTerms* table = nullptr;  ///< per Data::outcome, when tabulated for this call
  };
  struct EtaTerms {
    double logShareMu;   ///< log(μ / (μ + φ))
    double logSharePhi;  ///< log(φ / (μ + φ))
    double shareMu;      ///< μ / (μ + φ)
    double sharePhi;     ///< φ / (μ + φ)
  };

  explicit NegbinLikelihood(GlmShape shape);

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

  /// Numbers the distinct outcomes of the pattern data (OutcomeTable).
  void indexOutcomes(std::vector<Data>& data);
  /// params with the φ-terms of every distinct outcome (OutcomeTable): a count model has tens
  /// to hundreds of distinct outcomes against thousands of patterns, so each pattern then costs
  /// one exp and one log1p. Not worth it when the outcomes are nearly all distinct.
  template <bool kGrad>
  Params tabulate(const Params& p, std::size_t evaluations) const {
    if (distinct_.empty() || 2 * distinct_.size() > evaluations) return p;
    PhiTerms* table = phiTable(distinct_.size());
    for (std::size_t i = 0; i < distinct_.size(); ++i) {
      double digammaDiff = 0.0;
      table[i].logGammaRatio = logGammaRatio<kGrad>(distinct_[i], p, digammaDiff);
      table[i].digammaDiff = digammaDiff;
    }
    Params out = p;
    out.table = table;
    return out;
  }

  /// One exp and one log1p: with e = e^{−|d|}, d = η − log φ, the shares are 1/(1 + e) and
  /// e/(1 + e) and their logs −log1p(e) and −|d| − log1p(e), none formed by subtraction.
  template <bool kGrad>
  static EtaTerms etaTerms(double eta, const Params& p) {
    const double d = eta - p.logPhi;
    const double e = std::exp(-std::abs(d));
    const double l = std::log1p(e);
    const double big = 1.0 / (1.0 + e);
    const double small = e * big;
    if (d > 0.0) return {-l, -d - l, big, small};  // μ > φ
    return {d - l, -l, small, big};
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
    double gammaRatio = 0.0;
    if (p.table && d.outcome >= 0) {
      const PhiTerms& t = p.table[d.outcome];
      gammaRatio = t.logGammaRatio;
      digammaDiff = t.digammaDiff;
    } else {
      gammaRatio = logGammaRatio<kGrad>(d, p, digammaDiff);
    }
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

  /// BlockLikelihood: etaTerms' exp and log1p for the whole block in Eigen's packets, the rest
  /// per pattern.
  template <bool kGrad>
  static void block(const Data* d, const double* eta, std::size_t n, const Params& p, double* f,
                    double* dEta, double* dAux) {
    alignas(64) double gap[kMaxPatternBlock];  // d = η − log φ
    alignas(64) double e[kMaxPatternBlock];    // e^{−|d|}
    alignas(64) double l[kMaxPatternBlock];    // log1p(e)
    alignas(64) double inv[kMaxPatternBlock];  // 1/(1 + e)
    const std::size_t m = (n + 3) & ~std::size_t{3};
    for (std::size_t k = 0; k < n; ++k) gap[k] = eta[k] - p.logPhi;
    for (std::size_t k = n; k < m; ++k) gap[k] = 0.0;
    // Four lanes at a time in registers and Eigen's packets. log1p(e) = log u − ((u − 1) − e)/u
    // with u = 1 + e: the correction restores what the rounding of u lost (e/u where u rounds
    // to 1), with no select(), which Eigen 3.4 evaluates element by element with libm's log.
    using Lanes = Eigen::Array4d;
    for (std::size_t k = 0; k < m; k += 4) {
      const Lanes x = (-Eigen::Map<const Lanes>(gap + k).abs()).exp();
      const Lanes u = x + 1.0;
      Eigen::Map<Lanes>(e + k) = x;
      Eigen::Map<Lanes>(l + k) = u.log() - ((u - 1.0) - x) / u;
      Eigen::Map<Lanes>(inv + k) = u.inverse();
    }
    if (p.table) {
      tabulatedTail<kGrad>(d, n, m, p, gap, e, l, inv, f, dEta, dAux);
      return;
    }
    for (std::size_t k = 0; k < n; ++k) {
      const double big = inv[k];
      const double small = e[k] * big;
      const bool muAbove = gap[k] > 0.0;
      const EtaTerms t = muAbove ? EtaTerms{-l[k], -gap[k] - l[k], big, small}
                                 : EtaTerms{gap[k] - l[k], -l[k], small, big};
      const RecordTerms r = record<kGrad>(d[k], eta[k], t, p);
      f[k] = r.f;
      if constexpr (kGrad) {
        dEta[k] = r.dEta;
        dAux[k] = r.dAux;
      }
    }
  }

  /// block's per-pattern part when the φ-terms are tabulated (every pattern's outcome is then
  /// indexed by the model): the table's terms gathered into arrays first, then record()'s
  /// arithmetic in straight loops without branches that the compiler vectorises. The same
  /// operations in the same order as record(), so the same bits; m is n rounded up to whole
  /// packets.
  template <bool kGrad>
  static void tabulatedTail(const Data* d, std::size_t n, std::size_t m, const Params& p,
                            const double* gap, const double* e, const double* l, const double* inv,
                            double* f, double* dEta, double* dAux) {
    alignas(64) double y[kMaxPatternBlock];
    alignas(64) double constant[kMaxPatternBlock];  // lgamma(y + φ) − lgamma(φ) − lgamma(y + 1)
    alignas(64) double digammaDiff[kMaxPatternBlock];
    alignas(64) double out[kMaxPatternBlock];
    for (std::size_t k = 0; k < n; ++k) {
      const Data& dk = d[k];
      y[k] = dk.y;
      if (dk.outcome >= 0) {
        const PhiTerms& t = p.table[dk.outcome];
        constant[k] = t.logGammaRatio - dk.logGammaY1;
        digammaDiff[k] = t.digammaDiff;
      } else {  // as record(): an outcome the table does not number
        constant[k] = logGammaRatio<kGrad>(dk, p, digammaDiff[k]) - dk.logGammaY1;
      }
    }
    for (std::size_t k = n; k < m; ++k) y[k] = constant[k] = digammaDiff[k] = 0.0;
    const double phi = p.phi;
    for (std::size_t k = 0; k < m; ++k) {
      const bool muAbove = gap[k] > 0.0;
      const double logShareMu = muAbove ? -l[k] : gap[k] - l[k];
      const double logSharePhi = muAbove ? -gap[k] - l[k] : -l[k];
      out[k] = constant[k] + phi * logSharePhi + y[k] * logShareMu;
    }
    for (std::size_t k = 0; k < n; ++k) f[k] = out[k];
    if constexpr (kGrad) {
      alignas(64) double aux[kMaxPatternBlock];
      for (std::size_t k = 0; k < m; ++k) {
        const double big = inv[k];
        const double small = e[k] * big;
        const bool muAbove = gap[k] > 0.0;
        const double logSharePhi = muAbove ? -gap[k] - l[k] : -l[k];
        const double shareMu = muAbove ? big : small;
        const double sharePhi = muAbove ? small : big;
        out[k] = y[k] * sharePhi - phi * shareMu;
        const double invSum = sharePhi / phi;
        const double dPhi = digammaDiff[k] + logSharePhi + shareMu - y[k] * invSum;
        aux[k] = -phi * dPhi;
      }
      for (std::size_t k = 0; k < n; ++k) {
        dEta[k] = out[k];
        dAux[k] = aux[k];
      }
    }
  }

  double draw(random::Rng& rng, double eta, const Params& p) const;

  /// VectorPass: the weight of each distinct outcome (indexOutcomes' numbering) and
  /// −Σ_p w_p lgamma(y_p + 1). A call then evaluates the φ-terms once per distinct outcome
  /// that has weight, and the kernel one exp and one log per pattern.
  struct PassData {
    std::vector<double> outcomeWeight;
    double constant = 0.0;
    /// Per pattern (all of them), for the Lipschitz values: the position of its outcome's
    /// logGammaRatio in a PhiTerms table counted in doubles, and its lgamma(y + 1).
    std::vector<std::int32_t> tableIndex;
    std::vector<double> logGammaY1;
  };
  PassData passData(const RecordGroups& groups, const std::vector<Data>& data) const;
  /// Σ over distinct outcomes of weight × (lgamma(y + φ) − lgamma(φ)) into ratios and of
  /// weight × (ψ(y + φ) − ψ(φ)) into digammas (the gradient pass's φ-terms).
  void phiTermSums(const PassData& passData, const Params& p, double& ratios,
                   double& digammas) const;
  bool vectorPass(const PassData& passData, const RecordGroups& groups,
                  const kernels::Design& design, const Eigen::VectorXd& u, double& logLik,
                  double& gradAux, double* gCoef) const;
  bool vectorValues(const PassData& passData, const RecordGroups& groups,
                    const std::vector<Data>& data, const kernels::Design& design, std::size_t first,
                    const Eigen::VectorXd& u, double* out) const;

  /// The data scale d_j of each coefficient, from the design and the outcomes' mean and
  /// variance (never the weights): the sd β_j would have from the data alone.
  static std::vector<double> dataScales(const Eigen::VectorXd& y, const Eigen::MatrixXd& X);
  /// The width of each coefficient's SpikeMap: kSpikeWidthShare of its data scale, capped at
  /// SpikeMap::kMaxWidth (the cap where the scale is not finite).
  static std::vector<double> spikeWidths(const Eigen::VectorXd& y, const Eigen::MatrixXd& X);
  /// Half the data scale. Inside its width the map bends the likelihood as well as the prior;
  /// at one data scale it bent the whole core of a coefficient whose posterior straddles 0 (the
  /// survey file's intercept: min bulk-ESS about 2070, 66–72k gradients a fit), at half of it
  /// that coefficient mixed as the others (3400–3850, 62–65k); at a third and a fifth other
  /// files took more gradients again, the prior's slope left outside the width (the README has
  /// the sweep).
  static constexpr double kSpikeWidthShare = 0.5;

  /// ExactlyDrawnCoordinates: with integrated scales the w_j are independent standard normals
  /// in the posterior too, so they are drawn after each transition instead of sampled (σ_j |
  /// β_j is then exactly their quantile); the sampler moves (θ, log τ) only.
  std::vector<int> exactCoordinates() const {
    std::vector<int> out;
    if (integrated_)
      for (int j = 0; j < shape_.coefficients; ++j) out.push_back(shape_.coefficients + j);
    return out;
  }
  void completeDraw(Eigen::Ref<Eigen::VectorXd> u, random::Rng& rng) const {
    if (!integrated_) return;
    for (int j = 0; j < shape_.coefficients; ++j)
      u[shape_.coefficients + j] = random::standardNormal(rng);
  }

  /// Whether the coefficients are sampled through basis and SpikeMaps (TransformedCoefficients).
  bool transformsCoefficients() const { return integrated_; }
  /// β at u.
  void coefficients(const Eigen::VectorXd& u, Eigen::VectorXd& beta) const;
  /// grad += (∂β/∂u)ᵀ gBeta.
  void addCoefficientGradient(const Eigen::VectorXd& u, const Eigen::VectorXd& gBeta,
                              Eigen::VectorXd& grad) const;

 private:
  /// The calling thread's table of at least `size` entries.
  static PhiTerms* phiTable(std::size_t size);
  /// The spike maps at one point (integrated scales): β, dβ/db, and the prior density of b with
  /// its derivative, per coefficient. logPrior, coefficients and addCoefficientGradient of one
  /// gradient are called at the same point, so each thread keeps the last point's values
  /// (keyed by this likelihood's id and the coordinates themselves, so never stale).
  struct SpikePoint {
    std::uint64_t owner = 0;
    Eigen::VectorXd head;  ///< θ, the point
    Eigen::VectorXd beta, slope, logPrior, dLogPrior;
  };
  const SpikePoint& spikePoint(const Eigen::VectorXd& u) const;

  GlmShape shape_;
  bool integrated_;
  std::vector<SpikeMap> spikes_;      ///< per coefficient (integrated scales)
  std::optional<QrTransform> basis_;  ///< θ = basis·b (integrated scales)
  std::uint64_t id_;                  ///< distinct per constructed likelihood (SpikePoint)
  std::vector<Data> distinct_;    ///< distinct outcomes, in index order (indexOutcomes)
};

}  // namespace dpsynth::core::models
