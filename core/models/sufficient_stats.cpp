#include "core/models/sufficient_stats.h"

#include <algorithm>
#include <stdexcept>
#include <vector>

#include "core/exec/cancellation.h"

namespace dpsynth::core::models {

ResidualSquares::ResidualSquares(const Eigen::MatrixXd& X, const Eigen::VectorXd& y,
                                 const Eigen::VectorXd& w, std::size_t active,
                                 const std::stop_token& stop) {
  const auto P = static_cast<Eigen::Index>(active);
  const Eigen::Index K = X.cols();
  if (X.rows() < P || y.size() < P || w.size() < P || K < 1) {
    throw std::invalid_argument("ResidualSquares: inconsistent sizes");
  }
  const auto Xa = X.topRows(P);
  const auto ya = y.head(P);
  const auto wa = w.head(P);
  CompensatedSum total;
  for (Eigen::Index p = 0; p < P; ++p) total.add(wa[p]);
  weightSum_ = total.value();

  // √W X and √W y; one QR serves the least-squares centre and the factor T.
  const Eigen::VectorXd root = wa.cwiseSqrt();
  // Decomposed in place (the same arithmetic as a copy): at 10⁶ patterns a copy is another
  // 8·K MB.
  Eigen::MatrixXd A = root.asDiagonal() * Xa;
  exec::throwIfStopped(stop);
  const Eigen::ColPivHouseholderQR<Eigen::Ref<Eigen::MatrixXd>> qr(A);
  exec::throwIfStopped(stop);
  center_ = qr.solve(root.cwiseProduct(ya));
  if (!center_.allFinite()) center_.setZero(K);  // any centre keeps the identity exact
  exec::throwIfStopped(stop);

  auto residuals = [&] { return Eigen::VectorXd(ya - Xa * center_); };
  Eigen::VectorXd r = residuals();
  exec::throwIfStopped(stop);
  // One step of iterative refinement: the centre's own rounding leaves XᵀW r₀ larger than it
  // needs to be when the design is badly scaled.
  const Eigen::VectorXd step = qr.solve(root.cwiseProduct(r));
  exec::throwIfStopped(stop);
  if (step.allFinite()) {
    center_ += step;
    r = residuals();
  }

  exec::StopCheck check(stop);
  CompensatedSum squares;
  for (Eigen::Index p = 0; p < P; ++p) {
    check.tick();
    squares.add(wa[p] * r[p] * r[p]);
  }
  centerSquares_ = squares.value();
  centerSlope_.resize(K);
  for (Eigen::Index j = 0; j < K; ++j) {
    CompensatedSum s;
    for (Eigen::Index p = 0; p < P; ++p) {
      check.tick();
      s.add(wa[p] * Xa(p, j) * r[p]);
    }
    centerSlope_[j] = s.value();
  }

  // A Π = Q R, so AᵀA = Π Rᵀ R Πᵀ = TᵀT with T = R Πᵀ. With fewer patterns than columns R has
  // only P rows; the missing rows are zero.
  const Eigen::Index rows = std::min(P, K);
  Eigen::MatrixXd R = Eigen::MatrixXd::Zero(K, K);
  R.topRows(rows) = qr.matrixQR().topRows(rows).template triangularView<Eigen::Upper>();
  factor_ = R * qr.colsPermutation().transpose();
}

double ResidualSquares::evaluate(const Eigen::Ref<const Eigen::VectorXd>& beta, double scale,
                                 Eigen::Ref<Eigen::VectorXd> gradient) const {
  const Eigen::Index K = factor_.cols();
  thread_local std::vector<double> scratch;
  if (scratch.size() < static_cast<std::size_t>(2 * K)) scratch.resize(2 * K);
  double* delta = scratch.data();
  double* t = delta + K;
  for (Eigen::Index j = 0; j < K; ++j) delta[j] = beta[j] - center_[j];
  double slope = 0.0;
  for (Eigen::Index j = 0; j < K; ++j) slope += delta[j] * centerSlope_[j];
  double quadratic = 0.0;
  for (Eigen::Index i = 0; i < K; ++i) {
    double ti = 0.0;
    for (Eigen::Index j = 0; j < K; ++j) ti += factor_(i, j) * delta[j];
    t[i] = ti;
    quadratic += ti * ti;
  }
  for (Eigen::Index j = 0; j < K; ++j) {
    double g = 0.0;
    for (Eigen::Index i = 0; i < K; ++i) g += factor_(i, j) * t[i];
    gradient[j] += scale * (centerSlope_[j] - g);
  }
  // Q >= 0 exactly; rounding can only push a perfect fit a hair below. NaN (overflow) passes.
  const double q = centerSquares_ - 2.0 * slope + quadratic;
  return q < 0.0 ? 0.0 : q;
}

}  // namespace dpsynth::core::models
