#include "core/models/qr_transform.h"

#include <QtTest>
#include <cmath>

#include "core/exec/cancellation.h"
#include "core/random/rng.h"
#include "support/model_fixtures.h"

using dpsynth::core::models::QrTransform;
namespace rnd = dpsynth::core::random;

namespace {

/// n × 3 design [1, x, z] with x on a large offset and scale and z correlated with x: the kind
/// of design whose coefficients the QR transform is meant to decorrelate.
Eigen::MatrixXd awkwardDesign(Eigen::Index n, std::uint64_t seed) {
  auto rng = rnd::makeRng(seed, 1);
  Eigen::MatrixXd X(n, 3);
  for (Eigen::Index i = 0; i < n; ++i) {
    const double x = 43.0 + 9.0 * rnd::standardNormal(rng);
    X(i, 0) = 1.0;
    X(i, 1) = x;
    X(i, 2) = 0.02 * x + 0.1 * rnd::standardNormal(rng);
  }
  return X;
}

}  // namespace

class QrTransformTest : public QObject {
  Q_OBJECT

 private slots:
  /// Q* = X R*⁻¹ has orthogonal columns with Q*ᵀQ* = (n − 1) I, R* is upper triangular with a
  /// positive diagonal and X = Q* R*: Stan's scaling of the thin QR decomposition.
  void scaledThinQr() {
    const Eigen::Index n = 200;
    const Eigen::MatrixXd X = awkwardDesign(n, 3);
    const auto qr = QrTransform::fromDesign(X);
    QVERIFY(qr.has_value());
    const Eigen::MatrixXd& r = qr->r();
    QCOMPARE(r.rows(), Eigen::Index(3));
    QVERIFY((r.triangularView<Eigen::StrictlyLower>().toDenseMatrix().array() == 0.0).all());
    QVERIFY((r.diagonal().array() > 0.0).all());
    const Eigen::MatrixXd q = qr->designToQ(X);
    const Eigen::MatrixXd gram = q.transpose() * q / double(n - 1);
    QVERIFY2((gram - Eigen::MatrixXd::Identity(3, 3)).cwiseAbs().maxCoeff() < 1e-10,
             qPrintable(QString::number((gram - Eigen::MatrixXd::Identity(3, 3)).norm())));
    QVERIFY((q * r - X).cwiseAbs().maxCoeff() < 1e-9 * X.cwiseAbs().maxCoeff());
    // The intercept column of Q* is constant: θ_0 is the intercept at the covariates' means,
    // scaled by sqrt(n / (n − 1)).
    QVERIFY((q.col(0).array() - std::sqrt(double(n - 1) / n)).abs().maxCoeff() < 1e-12);
    // R*ᵀR* = XᵀX / (n − 1).
    const Eigen::MatrixXd xtx = X.transpose() * X / double(n - 1);
    QVERIFY(((r.transpose() * r - xtx).array().abs() <= 1e-10 * xtx.cwiseAbs().maxCoeff()).all());
  }

  /// A design taller than one block is reduced block by block (a tall-skinny QR): its R* is the
  /// R* of the whole design, as XᵀX / (n − 1) = R*ᵀR* and the orthonormal Q* show; a stop
  /// requested before the call ends it with Cancelled.
  void blockedReductionOfATallDesign() {
    const Eigen::Index n = 2 * QrTransform::kRowBlock + 1234;
    const Eigen::MatrixXd X = awkwardDesign(n, 5);
    const auto qr = QrTransform::fromDesign(X);
    QVERIFY(qr.has_value());
    const Eigen::MatrixXd& r = qr->r();
    QVERIFY((r.triangularView<Eigen::StrictlyLower>().toDenseMatrix().array() == 0.0).all());
    QVERIFY((r.diagonal().array() > 0.0).all());
    const Eigen::MatrixXd xtx = X.transpose() * X / double(n - 1);
    QVERIFY(((r.transpose() * r - xtx).array().abs() <= 1e-10 * xtx.cwiseAbs().maxCoeff()).all());
    const Eigen::MatrixXd q = qr->designToQ(X);
    const Eigen::MatrixXd gram = q.transpose() * q / double(n - 1);
    QVERIFY((gram - Eigen::MatrixXd::Identity(3, 3)).cwiseAbs().maxCoeff() < 1e-9);
    // The same R* as one Householder QR of the whole design (unique with a positive diagonal).
    const Eigen::VectorXd norms = X.colwise().norm().transpose();
    const Eigen::HouseholderQR<Eigen::MatrixXd> whole(X * norms.cwiseInverse().asDiagonal());
    Eigen::MatrixXd direct = whole.matrixQR().topRows(3).triangularView<Eigen::Upper>();
    for (Eigen::Index j = 0; j < 3; ++j)
      if (direct(j, j) < 0.0) direct.row(j) *= -1.0;
    direct = direct * norms.asDiagonal() / std::sqrt(double(n - 1));
    QVERIFY2((direct - r).cwiseAbs().maxCoeff() <= 1e-11 * r.cwiseAbs().maxCoeff(),
             qPrintable(QString::number((direct - r).cwiseAbs().maxCoeff())));
    std::stop_source source;
    source.request_stop();
    QVERIFY_THROWS_EXCEPTION(dpsynth::core::exec::Cancelled,
                             QrTransform::fromDesign(X, source.get_token()));
  }

  void mapsBetweenBetaAndTheta() {
    const Eigen::MatrixXd X = awkwardDesign(50, 4);
    const auto qr = QrTransform::fromDesign(X);
    QVERIFY(qr.has_value());
    const Eigen::Vector3d beta(1.5, -0.25, 3.0);
    Eigen::VectorXd theta = beta;
    qr->betaToTheta(theta);
    QVERIFY((theta - qr->r() * beta).cwiseAbs().maxCoeff() < 1e-12 * theta.cwiseAbs().maxCoeff());
    // η = Xβ = Q*θ.
    QVERIFY((X * beta - qr->designToQ(X) * theta).cwiseAbs().maxCoeff() <
            1e-10 * (X * beta).norm());
    Eigen::VectorXd back = theta;
    qr->thetaToBeta(back);
    QVERIFY((back - beta).cwiseAbs().maxCoeff() < 1e-12);
    // Gradient of f(β(θ)) for f(β) = cᵀβ: R*⁻ᵀc, checked against the finite difference of
    // f(R*⁻¹θ) along each θ coordinate.
    const Eigen::Vector3d c(0.3, -2.0, 7.0);
    Eigen::VectorXd g = c;
    qr->betaGradientToTheta(g);
    for (int j = 0; j < 3; ++j) {
      Eigen::VectorXd up = theta, down = theta;
      up[j] += 1e-3;
      down[j] -= 1e-3;
      qr->thetaToBeta(up);
      qr->thetaToBeta(down);
      const double fd = (c.dot(up) - c.dot(down)) / 2e-3;
      QVERIFY2(std::abs(fd - g[j]) < 1e-8 * std::max(1.0, std::abs(g[j])),
               qPrintable(QString("%1 vs %2").arg(fd).arg(g[j])));
    }
  }

  /// Designs the transform cannot invert well keep the direct parameterisation.
  void refusesDegenerateDesigns() {
    Eigen::MatrixXd X = awkwardDesign(40, 5);
    QVERIFY(!QrTransform::fromDesign(X.leftCols(1)).has_value());  // intercept only
    QVERIFY(!QrTransform::fromDesign(X.topRows(3)).has_value());   // n <= K
    Eigen::MatrixXd collinear = X;
    collinear.col(2) = 2.0 * X.col(1) - X.col(0);
    QVERIFY(!QrTransform::fromDesign(collinear).has_value());
    collinear.col(2) += 1e-12 * X.col(2);  // still collinear to 1e-8 relative
    QVERIFY(!QrTransform::fromDesign(collinear).has_value());
    Eigen::MatrixXd zero = X;
    zero.col(1).setZero();
    QVERIFY(!QrTransform::fromDesign(zero).has_value());
    // Badly scaled but independent columns are what the transform is for.
    Eigen::MatrixXd scaled = X;
    scaled.col(2) *= 1e-6;
    scaled.col(1) *= 1e6;
    QVERIFY(QrTransform::fromDesign(scaled).has_value());
  }
};

QTEST_APPLESS_MAIN(QrTransformTest)
#include "qr_transform_test.moc"
