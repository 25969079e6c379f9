#pragma once
/// Instance (b) of SPEC §6, paper 004 §5: normal linear regression y = xβ + σe (x with an
/// intercept column) released through clamped, normalised sufficient statistics.
///
/// The mechanism. Every predictor and the outcome has public bounds [a, b]; a value v is clamped
/// to [a, b] and mapped to ṽ = 2(v − a)/(b − a) − 1 ∈ [−1, 1]. With w = (1, x̃_1..x̃_p, ỹ), one
/// record contributes the entries of w wᵀ that 004 releases: x̃ᵀỹ (p + 1: Σỹ, Σx̃_jỹ), ỹᵀỹ, and
/// the unique entries of x̃ᵀx̃ except the constant (1,1) entry (Σx̃_j, then Σx̃_jx̃_k for j ≤ k):
/// d = (p + 1)(p + 4)/2 sums. Under replace-one neighbours (004's Hamming distance 1) their L1
/// sensitivity is at most Δ = p² + 3p + 3 (004). Proof of the bound: with z = (x̃, ỹ) ∈ [−1, 1]^q,
/// q = p + 1, d_i = |z_i − z′_i| and s_i = |z_i + z′_i| ≤ 2 − d_i, every entry obeys
/// |z_i z_k − z′_i z′_k| ≤ (d_i s_k + s_i d_k)/2 and |z_i − z′_i| = d_i, so the change is at most
/// D + Σd_i s_i/2 + D·S/2 (D = Σd_i, S = Σs_i) ≤ q(q + 2)²/(2(q + 1)), which is below p² + 3p + 3
/// for every p ≥ 1 (the difference times 2(p + 2) is p³ + 3p² + 3p + 3).
///
/// Exact noise. Continuous Laplace noise from floating point is not ε-DP (Mironov 2012), so each
/// contribution is rounded to the grid γ = 2^−10 and the sums get exact discrete Laplace noise
/// from bits (core/privacy), in grid units, of rate t ≤ ε / Δ_γ with Δ_γ = Δ/γ + d: rounding moves
/// each entry's change by less than one grid step. In natural units the noise is Laplace-like
/// with scale γ/t ≈ Δ/ε; the inference below uses the same rounding, so its η is exact.
///
/// The model (004 §5 and S-5): σ and the predictor distribution (independent normals with known
/// means and sds; 004 uses N(m, I)) are known and stated in the release; β ~ N(0, τ² I), τ = 2.
#include <Eigen/Dense>
#include <cstdint>
#include <string>
#include <vector>

#include "core/infer/record_additive.h"
#include "core/privacy/neighbours.h"
#include "core/privacy/perturbed_histogram.h"

namespace dpsynth::core::infer {

/// The grid the per-record contributions are rounded to: 2^−10 (multiples add exactly).
inline constexpr double kLinregGrid = 1.0 / 1024.0;
/// At most this many predictors: keeps the noise rate's denominator within discreteLaplace's.
inline constexpr int kLinregMaxPredictors = 20;

/// Public column names and clamping bounds.
struct LinregLayout {
  std::vector<std::string> predictors;  ///< p names
  std::vector<double> lower, upper;     ///< p bounds, predictor order
  std::string outcome;
  double outcomeLower = 0.0, outcomeUpper = 0.0;

  int predictorCount() const { return static_cast<int>(predictors.size()); }
  /// d = (p + 1)(p + 4)/2 released sums.
  int statisticCount() const;
  /// Names of the released sums, in release order, over normalised values: "y", "A*y", …,
  /// "y*y", "A", …, "A*A", "A*B", ….
  std::vector<std::string> statisticNames() const;
  /// 004's L1 sensitivity p² + 3p + 3 (replace-one, normalised units).
  int sensitivity() const;
  /// Δ/γ + d: the sensitivity of the rounded sums in grid units.
  std::uint64_t gridSensitivity() const;
  /// One message per problem: 1..kLinregMaxPredictors predictors, distinct names, bounds finite
  /// with lower < upper, sizes that match.
  std::vector<std::string> validate() const;
};

/// One record's rounded contribution (statisticCount() values, multiples of kLinregGrid) from
/// raw values (p predictors, then the outcome): clamp, normalise, multiply, round.
void linregContribution(const LinregLayout& layout, const double* raw, double* out);
/// The contribution from values already normalised to [−1, 1] (q = p + 1 values, outcome last).
void linregNormalisedContribution(int predictors, const double* normalised, double* out);
/// Σ of the rounded contributions of raw records (rows: p predictors, then the outcome).
Eigen::VectorXd linregStatistic(const LinregLayout& layout,
                                const std::vector<std::vector<double>>& records);

/// What the analyst assumes known (004 §5): σ, the predictor distribution, the prior sd τ.
struct LinregModelSpec {
  double sigma = 1.0;
  std::vector<double> predictorMeans, predictorSds;  ///< independent normals, one per predictor
  double priorSd = 2.0;
  std::vector<std::string> validate(int predictors) const;
};

/// The data-augmentation model. A latent record holds the raw values (p predictors, outcome),
/// then its rounded released contribution (d values), then its raw xᵀx (unique entries with the
/// intercept, (p+1)(p+2)/2 values) and xᵀy (p + 1), computed once when drawn. T holds the sums
/// of the last three blocks: η reads the first d; θ | x reads the raw ones (the conjugate
/// posterior on the unclamped latent records), so moveStatistic is O(p²) and independent of n.
/// θ = β = (intercept, one slope per predictor).
class LinregModel final : public RecordAdditiveModel {
 public:
  /// noisy: d released sums (natural units); laplaceScale: b with η ∝ exp(−Σ|s − T| / b).
  /// Throws std::invalid_argument for an invalid layout or spec, a wrong number of sums, n < 1
  /// or a non-positive scale.
  LinregModel(LinregLayout layout, LinregModelSpec spec, int records, Eigen::VectorXd noisy,
              double laplaceScale);

  int recordCount() const override { return n_; }
  int recordWidth() const override { return q_ + d_ + rawDim(); }
  int statisticDim() const override { return d_ + rawDim(); }
  int parameterDim() const override { return q_; }
  /// "beta[(Intercept)]", then "beta[NAME]" per predictor.
  std::vector<std::string> parameterNames() const override;

  Eigen::VectorXd initialTheta(random::Rng& rng) const override;
  /// The prior draw initialTheta makes.
  std::optional<Eigen::VectorXd> drawPriorTheta(random::Rng& rng) const override {
    return initialTheta(rng);
  }
  void drawRecord(const Eigen::VectorXd& theta, random::Rng& rng, double* out) const override;
  void addStatistic(const double* record, Eigen::VectorXd& T) const override;
  double moveStatistic(Eigen::VectorXd& T, const double* from, const double* to) const override;
  Eigen::VectorXd drawTheta(const Eigen::VectorXd& T, random::Rng& rng) const override;

  /// Fills a record's derived blocks from its raw values (record[0..p]); drawRecord uses it.
  void completeRecord(double* record) const;
  /// Mean and covariance of β | raw xᵀx, xᵀy (the conjugate normal; T as in statisticDim()).
  void conjugatePosterior(const Eigen::VectorXd& T, Eigen::VectorXd& mean,
                          Eigen::MatrixXd& covariance) const;

 private:
  int rawDim() const { return q_ * (q_ + 1) / 2 + q_; }
  /// The conjugate posterior's precision xᵀx/σ² + I/τ², and its score xᵀy/σ², from T.
  Eigen::MatrixXd posteriorPrecision(const Eigen::VectorXd& T, Eigen::VectorXd& score) const;

  LinregLayout layout_;
  LinregModelSpec spec_;
  int n_;
  int q_;  ///< p + 1 coefficients
  int d_;  ///< released sums
  Eigen::VectorXd noisy_;
  double scale_;
};

/// A linear-regression release (README "Release files", kind "linreg").
struct LinregRelease {
  LinregLayout layout;
  LinregModelSpec spec;
  int n = 0;
  double epsilon = 0.0;  ///< as asked; the noise rate never exceeds it
  /// Replace-one only (004's Hamming distance 1; the sensitivity above is that relation's).
  privacy::Neighbours neighbours = privacy::Neighbours::replaceOne;
  /// Discrete Laplace rate num/den ≤ ε/Δ_γ per grid unit: P(noise = k·γ) ∝ exp(−|k| t).
  std::uint64_t rateNum = 0, rateDen = 1;
  Eigen::VectorXd noisy;  ///< d sums, natural units (multiples of kLinregGrid)
  bool notForRelease = false;

  /// b = γ·den/num: η(s | T) ∝ exp(−Σ|s − T| / b) in natural units (≈ Δ/ε).
  double laplaceScale() const;
  LinregModel model() const;
};

/// Clamps, normalises and sums the records (p predictors, then the outcome; raw values), and
/// adds exact discrete Laplace noise on the grid to every sum. Throws std::invalid_argument for
/// an invalid layout or spec, ε outside [1e-6, 1e6], no records, a record of the wrong width or
/// a value that is not finite.
LinregRelease makeLinregRelease(const LinregLayout& layout, const LinregModelSpec& spec,
                                const std::vector<std::vector<double>>& records, double epsilon,
                                privacy::BitSource& bits, bool notForRelease);

/// JSON text (version 1, kind "linreg").
std::string linregReleaseToJson(const LinregRelease& release);
/// Parses a linreg release file; `file` names it in messages. Throws std::invalid_argument with
/// one line (missing or ill-typed keys, unknown mechanism or relation, sizes that do not match,
/// a noise rate above ε/Δ_γ).
LinregRelease linregReleaseFromJson(const std::string& text, const std::string& file);

}  // namespace dpsynth::core::infer
