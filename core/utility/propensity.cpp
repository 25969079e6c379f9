/// pMSE (regression_utility.h) with a ridge-penalised logistic fit. An unpenalised fit has no
/// maximum when the indicator is separable (a synthetic file that is garbage: every synthetic y
/// above every confidential one): IRLS then failed and the measure fell back to a design
/// without y, reporting p̂ = c and a pMSE of 1e-32, "indistinguishable", for the worst output.
/// A penalty λ/2·|β|² on the standardised non-intercept coefficients always has a unique,
/// finite maximum: separation gives p̂ near 0 and 1, a large pMSE, while on ordinary data
/// λ = 10^-6 moves p̂ by far less than the measure's own sampling noise.
#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "core/exec/cancellation.h"
#include "core/utility/regression_utility.h"

namespace dpsynth::core::utility {

namespace {

constexpr double kRidge = 1e-6;
constexpr int kMaxNewtonSteps = 200;

/// The pMSE design, made block by block instead of held: at 10^6 records and eight covariate
/// columns the 2n × 18 matrix was 290 MB, a third of a normal regression's peak. Columns:
/// intercept, y, the design's covariate columns (X without its intercept), and y times each
/// covariate column, y centred and scaled on the pooled rows. Every column but the intercept is
/// then standardised on the pooled rows (a constant one becomes zeros), as the ridge penalty
/// wants.
class PropensityDesign {
 public:
  PropensityDesign(const Eigen::VectorXd& yConf, const Eigen::MatrixXd& XConf,
                   const Eigen::VectorXd& ySyn, const Eigen::MatrixXd& XSyn)
      : yConf_(yConf),
        XConf_(XConf),
        ySyn_(ySyn),
        XSyn_(XSyn),
        n0_(XConf.rows()),
        covariates_(XConf.cols() - 1) {
    const Eigen::Index n = rows();
    const double mean = (yConf.sum() + ySyn.sum()) / static_cast<double>(n);
    const double sd =
        std::sqrt(((yConf.array() - mean).square().sum() + (ySyn.array() - mean).square().sum()) /
                  static_cast<double>(n));
    if (sd > 0) {  // a constant y is left as it is
      yMean_ = mean;
      yScale_ = sd;
    }
    // Column means, then standard deviations (two passes, as on a held matrix).
    const Eigen::Index k = cols();
    mean_ = Eigen::VectorXd::Zero(k);
    sd_ = Eigen::VectorXd::Zero(k);
    Eigen::MatrixXd block;
    for (Eigen::Index start = 0; start < n; start += kBlock) {
      const Eigen::Index count = std::min(kBlock, n - start);
      raw(start, count, block);
      mean_ += block.colwise().sum().transpose();
    }
    mean_ /= static_cast<double>(n);
    for (Eigen::Index start = 0; start < n; start += kBlock) {
      const Eigen::Index count = std::min(kBlock, n - start);
      raw(start, count, block);
      sd_ += (block.rowwise() - mean_.transpose())
                 .array()
                 .square()
                 .colwise()
                 .sum()
                 .matrix()
                 .transpose();
    }
    sd_ = (sd_ / static_cast<double>(n)).cwiseSqrt();
  }

  static constexpr Eigen::Index kBlock = 1 << 15;
  Eigen::Index rows() const { return n0_ + XSyn_.rows(); }
  Eigen::Index cols() const { return 2 + 2 * covariates_; }

  /// Standardised rows [start, start + count) into out.
  void block(Eigen::Index start, Eigen::Index count, Eigen::MatrixXd& out) const {
    raw(start, count, out);
    for (Eigen::Index j = 1; j < cols(); ++j) {
      if (sd_[j] > 0) {
        out.col(j) = (out.col(j).array() - mean_[j]) / sd_[j];
      } else {
        out.col(j).setZero();
      }
    }
  }

 private:
  void raw(Eigen::Index start, Eigen::Index count, Eigen::MatrixXd& out) const {
    out.resize(count, cols());
    out.col(0).setOnes();
    // The block's confidential rows, then its synthetic ones, column by column.
    const Eigen::Index inConf = std::clamp<Eigen::Index>(n0_ - start, 0, count);
    auto fill = [&](Eigen::Index at, Eigen::Index m, const Eigen::VectorXd& y,
                    const Eigen::MatrixXd& X, Eigen::Index from) {
      if (m == 0) return;
      out.col(1).segment(at, m) = (y.segment(from, m).array() - yMean_) / yScale_;
      if (covariates_ == 0) return;
      out.block(at, 2, m, covariates_) = X.block(from, 1, m, covariates_);
      out.block(at, 2 + covariates_, m, covariates_) =
          X.block(from, 1, m, covariates_).array().colwise() * out.col(1).segment(at, m).array();
    };
    fill(0, inConf, yConf_, XConf_, start);
    fill(inConf, count - inConf, ySyn_, XSyn_, start + inConf - n0_);
  }

  const Eigen::VectorXd& yConf_;
  const Eigen::MatrixXd& XConf_;
  const Eigen::VectorXd& ySyn_;
  const Eigen::MatrixXd& XSyn_;
  Eigen::Index n0_, covariates_;
  double yMean_ = 0, yScale_ = 1;
  Eigen::VectorXd mean_, sd_;
};

/// Fitted probabilities of the ridge-penalised logistic regression of t on the design (first
/// column the intercept, unpenalised; the others standardised), by damped Newton steps on the
/// strictly concave penalised log-likelihood.
Eigen::VectorXd ridgeLogisticFit(const Eigen::VectorXd& t, const PropensityDesign& design,
                                 const std::stop_token& stop) {
  const Eigen::Index n = design.rows(), k = design.cols();
  Eigen::VectorXd penalty = Eigen::VectorXd::Constant(k, kRidge);
  // The intercept is all but unpenalised; the tiny term keeps the Hessian definite even where
  // every fitted probability is 0 or 1.
  penalty[0] = 1e-12;
  // Every pass over the rows goes in blocks with a stop check between them: one pass over
  // 2·10^6 rows and a dozen columns takes a few hundred milliseconds.
  constexpr Eigen::Index kBlock = PropensityDesign::kBlock;
  // A design of one block (up to 32768 rows, every fit of a file that size) is formed once and
  // kept: each Newton step reads it three times, and forming it cost more than the products.
  // The same values in the same order, so the same fit.
  const bool kept = n <= kBlock;
  Eigen::MatrixXd Zb;
  if (kept) design.block(0, n, Zb);
  auto rowsOf = [&](Eigen::Index start, Eigen::Index rows) -> const Eigen::MatrixXd& {
    if (!kept) design.block(start, rows, Zb);
    return Zb;
  };
  auto objective = [&](const Eigen::VectorXd& beta) {
    double ll = 0;
    for (Eigen::Index start = 0; start < n; start += kBlock) {
      exec::throwIfStopped(stop);
      const Eigen::Index rows = std::min(kBlock, n - start);
      const Eigen::VectorXd eta = rowsOf(start, rows) * beta;
      for (Eigen::Index i = 0; i < rows; ++i) {
        // log(1 + e^η) computed without overflow.
        const double softplus =
            eta[i] > 0 ? eta[i] + std::log1p(std::exp(-eta[i])) : std::log1p(std::exp(eta[i]));
        ll += t[start + i] * eta[i] - softplus;
      }
    }
    return ll - 0.5 * (penalty.array() * beta.array().square()).sum();
  };
  auto probabilities = [&](const Eigen::VectorXd& beta) {
    Eigen::VectorXd p(n);
    for (Eigen::Index start = 0; start < n; start += kBlock) {
      exec::throwIfStopped(stop);
      const Eigen::Index rows = std::min(kBlock, n - start);
      p.segment(start, rows) = (rowsOf(start, rows) * beta).unaryExpr([](double e) {
        return 1.0 / (1.0 + std::exp(-e));
      });
    }
    return p;
  };
  Eigen::VectorXd beta = Eigen::VectorXd::Zero(k);
  double current = objective(beta);
  for (int step = 0; step < kMaxNewtonSteps; ++step) {
    exec::throwIfStopped(stop);
    const Eigen::VectorXd p = probabilities(beta);
    Eigen::VectorXd gradient = -(penalty.array() * beta.array()).matrix();
    Eigen::MatrixXd hessian = penalty.asDiagonal();
    for (Eigen::Index start = 0; start < n; start += kBlock) {
      exec::throwIfStopped(stop);
      const Eigen::Index rows = std::min(kBlock, n - start);
      const Eigen::MatrixXd& Z = rowsOf(start, rows);
      const Eigen::VectorXd pb = p.segment(start, rows);
      const Eigen::VectorXd w = (pb.array() * (1.0 - pb.array())).matrix();
      gradient.noalias() += Z.transpose() * (t.segment(start, rows) - pb);
      hessian.noalias() += Z.transpose() * w.asDiagonal() * Z;
    }
    const Eigen::VectorXd direction = hessian.ldlt().solve(gradient);
    if (!direction.allFinite()) break;
    // Halve the step until the penalised log-likelihood does not fall.
    double scale = 1.0;
    Eigen::VectorXd next = beta + direction;
    double value = objective(next);
    while (!(value >= current) && scale > 1e-10) {
      scale *= 0.5;
      next = beta + scale * direction;
      value = objective(next);
    }
    if (!(value >= current)) break;
    const double change = (next - beta).cwiseAbs().maxCoeff();
    beta = next;
    current = value;
    if (change < 1e-10) break;
  }
  return probabilities(beta);
}

}  // namespace

double pmse(const Eigen::VectorXd& yConf, const Eigen::MatrixXd& XConf, const Eigen::VectorXd& ySyn,
            const Eigen::MatrixXd& XSyn, const std::stop_token& stop) {
  if (yConf.size() != XConf.rows() || ySyn.size() != XSyn.rows() || XConf.cols() != XSyn.cols())
    throw std::invalid_argument("pMSE: inconsistent sizes");
  if (XConf.rows() == 0 || XSyn.rows() == 0)
    throw std::invalid_argument("pMSE: a file has no rows");
  if (!yConf.allFinite() || !ySyn.allFinite() || !XConf.allFinite() || !XSyn.allFinite())
    throw std::invalid_argument("pMSE: a value is not finite");
  const Eigen::Index n0 = XConf.rows(), n1 = XSyn.rows();
  const Eigen::Index n = n0 + n1;
  // The interactions matter: both files share their covariate rows, so a mechanism that keeps
  // y's marginal but loses its relation to a covariate (ph) differs only in them.
  const PropensityDesign design(yConf, XConf, ySyn, XSyn);
  Eigen::VectorXd indicator(n);
  indicator.head(n0).setZero();
  indicator.tail(n1).setOnes();
  const double c = static_cast<double>(n1) / static_cast<double>(n);
  const Eigen::VectorXd p = ridgeLogisticFit(indicator, design, stop);
  return (p.array() - c).square().mean();
}

}  // namespace dpsynth::core::utility
