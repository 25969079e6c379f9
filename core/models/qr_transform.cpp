#include "core/models/qr_transform.h"

#include <cmath>

namespace dpsynth::core::models {

std::optional<QrTransform> QrTransform::fromDesign(const Eigen::MatrixXd& X) {
  const Eigen::Index n = X.rows();
  const Eigen::Index k = X.cols();
  if (k < 2 || n <= k) return std::nullopt;
  // Decompose the design with unit-norm columns: then |R_jj| is the sine of the angle between
  // column j and the span of the earlier columns, a scale-free collinearity measure. The R of
  // X itself is that R times the column norms (X = Q·R_s·D).
  const Eigen::VectorXd norms = X.colwise().norm().transpose();
  if (!(norms.array() > 0.0).all() || !norms.allFinite()) return std::nullopt;
  // Decomposed in place (the same arithmetic as a copy): at 10⁶ rows a copy is another 8·K MB.
  Eigen::MatrixXd scaled = X * norms.cwiseInverse().asDiagonal();
  const Eigen::HouseholderQR<Eigen::Ref<Eigen::MatrixXd>> qr(scaled);
  Eigen::MatrixXd r = qr.matrixQR().topRows(k).triangularView<Eigen::Upper>();
  for (Eigen::Index j = 0; j < k; ++j) {
    if (!(std::abs(r(j, j)) >= kCollinearity)) return std::nullopt;
    if (r(j, j) < 0.0) r.row(j) *= -1.0;  // flips the sign of Q's column j too: still X = QR
  }
  for (Eigen::Index j = 0; j < k; ++j) r.col(j) *= norms[j];  // R·D, column by column
  r /= std::sqrt(static_cast<double>(n - 1));
  if (!r.allFinite()) return std::nullopt;
  return QrTransform(std::move(r));
}

void QrTransform::thetaToBeta(Eigen::Ref<Eigen::VectorXd> v) const {
  r_.triangularView<Eigen::Upper>().solveInPlace(v);
}

void QrTransform::betaToTheta(Eigen::Ref<Eigen::VectorXd> v) const {
  const Eigen::VectorXd beta = v;
  v.noalias() = r_.triangularView<Eigen::Upper>() * beta;
}

void QrTransform::betaGradientToTheta(Eigen::Ref<Eigen::VectorXd> g) const {
  r_.transpose().triangularView<Eigen::Lower>().solveInPlace(g);
}

Eigen::MatrixXd QrTransform::designToQ(const Eigen::MatrixXd& rows) const {
  return designToQ(Eigen::MatrixXd(rows));
}

Eigen::MatrixXd QrTransform::designToQ(Eigen::MatrixXd&& rows) const {
  // Q* = X R*⁻¹, i.e. Q*ᵀ = R*⁻ᵀ Xᵀ: one lower-triangular solve per row.
  Eigen::MatrixXd qt = rows.transpose();
  rows = Eigen::MatrixXd();
  r_.transpose().triangularView<Eigen::Lower>().solveInPlace(qt);
  return qt.transpose();
}

}  // namespace dpsynth::core::models
