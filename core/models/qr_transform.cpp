#include "core/models/qr_transform.h"

#include <algorithm>
#include <cmath>

#include "core/exec/cancellation.h"

namespace dpsynth::core::models {

namespace {

/// The k × k upper triangular R of the QR decomposition of X·diag(scale) (n × k, n > k): one
/// Householder QR, in place on the scaled copy, when the rows fit in a block; otherwise the
/// blocks' R's stacked and reduced as they come (a tall-skinny QR), so that neither a scaled
/// copy of a 10⁶-row design is held nor one uninterruptible pass made over it.
Eigen::MatrixXd upperFactor(const Eigen::MatrixXd& X, const Eigen::VectorXd& scale,
                            const std::stop_token& stop) {
  const Eigen::Index n = X.rows(), k = X.cols();
  constexpr Eigen::Index block = QrTransform::kRowBlock;
  if (n <= block) {
    Eigen::MatrixXd scaled = X * scale.asDiagonal();
    const Eigen::HouseholderQR<Eigen::Ref<Eigen::MatrixXd>> qr(scaled);
    return qr.matrixQR().topRows(k).triangularView<Eigen::Upper>();
  }
  Eigen::MatrixXd r;  // the R of the rows so far (k × k once the first block is in)
  Eigen::MatrixXd stacked;
  for (Eigen::Index start = 0; start < n; start += block) {
    exec::throwIfStopped(stop);
    const Eigen::Index count = std::min(block, n - start);
    stacked.resize(r.rows() + count, k);
    if (r.rows() > 0) stacked.topRows(r.rows()) = r;
    stacked.bottomRows(count) = X.middleRows(start, count) * scale.asDiagonal();
    const Eigen::HouseholderQR<Eigen::Ref<Eigen::MatrixXd>> qr(stacked);
    const Eigen::Index top = std::min(stacked.rows(), k);
    r = qr.matrixQR().topRows(top).triangularView<Eigen::Upper>();
  }
  exec::throwIfStopped(stop);
  return r;
}

}  // namespace

std::optional<QrTransform> QrTransform::fromDesign(const Eigen::MatrixXd& X,
                                                   const std::stop_token& stop) {
  const Eigen::Index n = X.rows();
  const Eigen::Index k = X.cols();
  if (k < 2 || n <= k) return std::nullopt;
  // Decompose the design with unit-norm columns: then |R_jj| is the sine of the angle between
  // column j and the span of the earlier columns, a scale-free collinearity measure. The R of
  // X itself is that R times the column norms (X = Q·R_s·D).
  const Eigen::VectorXd norms = X.colwise().norm().transpose();
  if (!(norms.array() > 0.0).all() || !norms.allFinite()) return std::nullopt;
  exec::throwIfStopped(stop);
  Eigen::MatrixXd r = upperFactor(X, norms.cwiseInverse(), stop);
  for (Eigen::Index j = 0; j < k; ++j) {
    if (!(std::abs(r(j, j)) >= kCollinearity)) return std::nullopt;
    if (r(j, j) < 0.0) r.row(j) *= -1.0;  // flips the sign of Q's column j too: still X = QR
  }
  for (Eigen::Index j = 0; j < k; ++j) r.col(j) *= norms[j];  // R·D, column by column
  r /= std::sqrt(static_cast<double>(n - 1));
  if (!r.allFinite()) return std::nullopt;
  return QrTransform(std::move(r));
}

QrTransform::QrTransform(Eigen::MatrixXd r)
    : r_(std::move(r)),
      inverse_(r_.triangularView<Eigen::Upper>().solve(
          Eigen::MatrixXd::Identity(r_.rows(), r_.cols()))) {
  inverse_.triangularView<Eigen::StrictlyLower>().setZero();
}

void QrTransform::thetaToBeta(Eigen::Ref<Eigen::VectorXd> v) const {
  // β_i = Σ_{j ≥ i} (R*⁻¹)_ij θ_j: row i of the triangle reads θ_j before β_j replaces it.
  const Eigen::Index k = inverse_.rows();
  for (Eigen::Index i = 0; i < k; ++i) {
    double sum = 0.0;
    for (Eigen::Index j = i; j < k; ++j) sum += inverse_(i, j) * v[j];
    v[i] = sum;
  }
}

void QrTransform::betaToTheta(Eigen::Ref<Eigen::VectorXd> v) const {
  const Eigen::VectorXd beta = v;
  v.noalias() = r_.triangularView<Eigen::Upper>() * beta;
}

void QrTransform::betaGradientToTheta(Eigen::Ref<Eigen::VectorXd> g) const {
  // (R*⁻ᵀg)_i = Σ_{j ≤ i} (R*⁻¹)_ji g_j: from the last row down, so g_j (j ≤ i) is still ∂/∂β.
  for (Eigen::Index i = inverse_.rows() - 1; i >= 0; --i) {
    double sum = 0.0;
    for (Eigen::Index j = 0; j <= i; ++j) sum += inverse_(j, i) * g[j];
    g[i] = sum;
  }
}

Eigen::MatrixXd QrTransform::designToQ(const Eigen::MatrixXd& rows,
                                       const std::stop_token& stop) const {
  return designToQ(Eigen::MatrixXd(rows), stop);
}

Eigen::MatrixXd QrTransform::designToQ(Eigen::MatrixXd&& rows, const std::stop_token& stop) const {
  // Q* = X R*⁻¹, i.e. Q*ᵀ = R*⁻ᵀ Xᵀ: one lower-triangular solve per row, a block of rows at a
  // time in place (each row's solve is its own, so the blocks give the same numbers).
  Eigen::MatrixXd qt;
  for (Eigen::Index start = 0; start < rows.rows(); start += kRowBlock) {
    exec::throwIfStopped(stop);
    const Eigen::Index count = std::min(kRowBlock, rows.rows() - start);
    qt = rows.middleRows(start, count).transpose();
    r_.transpose().triangularView<Eigen::Lower>().solveInPlace(qt);
    rows.middleRows(start, count) = qt.transpose();
  }
  return std::move(rows);
}

}  // namespace dpsynth::core::models
