#pragma once
/// Exact sufficient statistics that let a family's log-likelihood cost O(K²) per gradient
/// whatever the number of records (SPEC §2: "cost per gradient"). They are built once per model
/// from the pattern design the linear predictor is computed from (η = X β), the pattern outcomes
/// and the pattern weights (Σ α over each pattern's records), and are used only for uncensored
/// fits: a clamp needs each record's own contribution.
#include <Eigen/Dense>
#include <cmath>
#include <cstddef>
#include <stop_token>

namespace dpsynth::core::models {

/// The weighted residual sum of squares of a linear model, Q(β) = Σ_p w_p (y_p − x_p β)², and its
/// gradient, from precomputed statistics.
///
/// Numerics. Expanding Q = yᵀWy − 2βᵀXᵀWy + βᵀXᵀWXβ loses every digit Q has relative to yᵀWy:
/// with |y| ~ 10⁶ and residuals ~ 1, the three terms are ~10¹² n and Q ~ n. Centring y removes
/// the mean but not what the covariates explain (R² near 1 has the same problem), so instead Q is
/// expanded around the weighted least-squares fit β₀, with r₀ = y − Xβ₀ computed record by record:
///   Q(β) = Q(β₀) − 2 δᵀ XᵀW r₀ + ‖T δ‖²,   δ = β − β₀,   TᵀT = XᵀWX,
/// where Q(β₀) = Σ w r₀² is a sum of non-negative terms (compensated), XᵀW r₀ is ~0 (kept, so
/// the identity is exact whatever β₀ is), and T = R Πᵀ comes from a column-pivoted Householder QR
/// of √W X (never forming XᵀWX, whose condition number is the square of the design's). Near the
/// posterior every term has the size of Q itself, so Q keeps full relative precision.
class ResidualSquares {
 public:
  /// Patterns [0, active) of X (P × K), y (P) and w (P, all > 0 in that range) are used.
  /// `stop` is checked between the steps (the QR, each solve, each pass over the patterns) and
  /// inside the passes: exec::Cancelled.
  ResidualSquares(const Eigen::MatrixXd& X, const Eigen::VectorXd& y, const Eigen::VectorXd& w,
                  std::size_t active, const std::stop_token& stop = {});

  /// Q(β); adds scale · (−½ ∂Q/∂β) = scale · XᵀW(y − Xβ) into gradient (size K). No heap
  /// allocation.
  double evaluate(const Eigen::Ref<const Eigen::VectorXd>& beta, double scale,
                  Eigen::Ref<Eigen::VectorXd> gradient) const;

  double weightSum() const { return weightSum_; }
  const Eigen::VectorXd& center() const { return center_; }

 private:
  Eigen::VectorXd center_;       ///< β₀
  double centerSquares_ = 0.0;   ///< Q(β₀)
  Eigen::VectorXd centerSlope_;  ///< XᵀW r₀
  Eigen::MatrixXd factor_;       ///< T, K × K
  double weightSum_ = 0.0;
};

/// Σ w, Σ w a_p and Σ w b_p over patterns [0, active), compensated: the statistics of a
/// likelihood that is linear in two per-pattern data terms once η is shared by all records
/// (beta intercept-only: a = log y, b = log(1 − y)).
struct WeightedSums {
  double weight = 0.0;
  double a = 0.0;
  double b = 0.0;
};

/// Neumaier-compensated running sum (the error does not grow with the number of terms).
class CompensatedSum {
 public:
  void add(double x) {
    const double t = sum_ + x;
    if (std::abs(sum_) >= std::abs(x)) {
      correction_ += (sum_ - t) + x;
    } else {
      correction_ += (x - t) + sum_;
    }
    sum_ = t;
  }
  double value() const { return sum_ + correction_; }

 private:
  double sum_ = 0.0;
  double correction_ = 0.0;
};

}  // namespace dpsynth::core::models
