#pragma once
/// Stan's QR reparameterisation of a regression (Stan User's Guide, "The QR reparameterization"):
/// with the thin QR decomposition X = QR of the record-level n × K design, scaled as
/// Q* = Q·sqrt(n−1) and R* = R/sqrt(n−1), the sampler moves θ = R*β and the linear predictor is
/// η = Xβ = Q*θ. The columns of Q* are orthogonal with unit sample variance, so for a linear
/// model the coefficients θ are uncorrelated and equally scaled whatever the covariates' units
/// and correlations; for other GLMs they are much closer to it than β.
///
/// R* depends on X only (never on y or the weights): every stage fitted on one dataset shares
/// one unconstrained space, so one stage's draws can start the next. Draws of a model on other
/// data (a reference dataset) live in a different space: map them with models::convertDraws.
#include <Eigen/Dense>
#include <optional>
#include <stop_token>

namespace dpsynth::core::models {

class QrTransform {
 public:
  /// Columns whose distance from the span of the earlier ones is below this fraction of their
  /// own norm make the design (nearly) rank-deficient: θ would not determine β well, so such
  /// designs keep the direct parameterisation (their posterior is proper through the prior).
  static constexpr double kCollinearity = 1e-8;

  /// R* of the n × K design X (K ≥ 2), with a positive diagonal so that θ_0 is the intercept at
  /// the covariates' means (times sqrt(n/(n−1))). Nullopt when n ≤ K, a column is all zero or
  /// the columns are (nearly) linearly dependent.
  /// A design of more than kRowBlock rows is reduced block by block (the R of the stacked R's
  /// of the blocks is the R of X: unique once its diagonal is positive), checking `stop`
  /// between blocks (exec::Cancelled): one Householder pass over 10^6 rows takes long enough
  /// to be felt after Ctrl-C.
  static std::optional<QrTransform> fromDesign(const Eigen::MatrixXd& X,
                                               const std::stop_token& stop = {});
  static constexpr Eigen::Index kRowBlock = Eigen::Index(1) << 15;
  /// From a given K × K upper triangular R* with a nonzero diagonal (negbin's basis).
  explicit QrTransform(Eigen::MatrixXd r);

  /// Upper triangular K × K R* (for tests).
  const Eigen::MatrixXd& r() const { return r_; }
  int size() const { return static_cast<int>(r_.rows()); }

  /// β = R*⁻¹θ in place. R*⁻¹ is formed once: a sampler maps every gradient's point and
  /// gradient, and Eigen's triangular solver costs more per call on a small R* than the 36
  /// products of an 8 × 8 triangle.
  void thetaToBeta(Eigen::Ref<Eigen::VectorXd> v) const;
  /// θ = R*β in place.
  void betaToTheta(Eigen::Ref<Eigen::VectorXd> v) const;
  /// Chain rule for a function of β = R*⁻¹θ: ∂/∂θ = R*⁻ᵀ ∂/∂β, in place (R*⁻¹ as above).
  void betaGradientToTheta(Eigen::Ref<Eigen::VectorXd> g) const;
  /// Rows of Q* = X R*⁻¹ for the given design rows, kRowBlock at a time between checks of
  /// `stop`.
  Eigen::MatrixXd designToQ(const Eigen::MatrixXd& rows, const std::stop_token& stop = {}) const;
  /// The same, consuming rows: they are replaced block by block, so that at 10⁶ rows the peak
  /// is one copy of the design instead of three.
  Eigen::MatrixXd designToQ(Eigen::MatrixXd&& rows, const std::stop_token& stop = {}) const;

 private:
  Eigen::MatrixXd r_;
  Eigen::MatrixXd inverse_;  ///< R*⁻¹, upper triangular
};

}  // namespace dpsynth::core::models
