#include "core/infer/nuts_theta_step.h"

#include <cmath>
#include <limits>
#include <map>
#include <stdexcept>
#include <type_traits>

#include "core/mcmc/nuts_kernel.h"
#include "core/models/beta_likelihood.h"
#include "core/models/negbin_likelihood.h"
#include "core/models/normal_likelihood.h"
#include "core/models/poisson_likelihood.h"
#include "core/models/sufficient_stats.h"

namespace dpsynth::core::infer {

namespace {

using models::CompensatedSum;
using models::GlmShape;
using models::RecordTerms;

constexpr double kLatentNegInf = -std::numeric_limits<double>::infinity();

GlmShape latentShape(double sdScale) {
  GlmShape shape;
  shape.coefficients = 1;
  shape.interceptOnly = true;
  shape.sdScale = sdScale;
  return shape;
}

/// Σ_i of the family's record terms at η, from the running statistics (see the header).
template <class L>
class LatentStats;

template <>
class LatentStats<models::PoissonLikelihood> {
 public:
  using L = models::PoissonLikelihood;
  explicit LatentStats(double) {}
  void add(double y, double sign) {
    n_ += sign;
    sumY_.add(sign * y);
    sumLogGamma_.add(sign * L::data(y).logGammaY1);
  }
  double n() const { return n_; }
  RecordTerms total(double eta, const L::Params& p) const {
    const L::Data mean{sumY_.value() / n_, sumLogGamma_.value() / n_};
    return scaled(L::record<true>(mean, eta, L::etaTerms<true>(eta, p), p), n_);
  }
  static RecordTerms scaled(RecordTerms r, double n) { return {n * r.f, n * r.dEta, n * r.dAux}; }

 private:
  double n_ = 0;
  CompensatedSum sumY_, sumLogGamma_;
};

template <>
class LatentStats<models::BetaLikelihood> {
 public:
  using L = models::BetaLikelihood;
  explicit LatentStats(double) {}
  void add(double y, double sign) {
    const L::Data d = L::data(y);
    n_ += sign;
    sumLogY_.add(sign * d.logY);
    sumLog1mY_.add(sign * d.log1mY);
  }
  double n() const { return n_; }
  RecordTerms total(double eta, const L::Params& p) const {
    const L::Data mean{sumLogY_.value() / n_, sumLog1mY_.value() / n_};
    const RecordTerms r = L::record<true>(mean, eta, L::etaTerms<true>(eta, p), p);
    return {n_ * r.f, n_ * r.dEta, n_ * r.dAux};
  }

 private:
  double n_ = 0;
  CompensatedSum sumLogY_, sumLog1mY_;
};

template <>
class LatentStats<models::NormalLikelihood> {
 public:
  using L = models::NormalLikelihood;
  explicit LatentStats(double centre) : centre_(centre) {}
  void add(double y, double sign) {
    const double d = y - centre_;
    n_ += sign;
    sum_.add(sign * d);
    squares_.add(sign * d * d);
  }
  double n() const { return n_; }
  RecordTerms total(double eta, const L::Params& p) const {
    const double s = sum_.value();
    const double ssw = std::max(0.0, squares_.value() - s * s / n_);
    const L::Data mean{centre_ + s / n_};
    const RecordTerms r = L::record<true>(mean, eta, L::etaTerms<true>(eta, p), p);
    // Σ (y − η)² = SSW + n (ȳ − η)²: the record at ȳ carries the second part.
    return {n_ * r.f - 0.5 * ssw * p.invVar, n_ * r.dEta, n_ * r.dAux + ssw * p.invVar};
  }

 private:
  double centre_;
  double n_ = 0;
  CompensatedSum sum_, squares_;
};

template <>
class LatentStats<models::NegbinLikelihood> {
 public:
  using L = models::NegbinLikelihood;
  explicit LatentStats(double) {}
  void add(double y, double sign) {
    n_ += sign;
    auto it = table_.find(y);
    if (it == table_.end()) it = table_.emplace(y, Entry{0.0, L::data(y)}).first;
    it->second.count += sign;
    if (it->second.count == 0.0) table_.erase(it);
  }
  double n() const { return n_; }
  RecordTerms total(double eta, const L::Params& p) const {
    const L::EtaTerms e = L::etaTerms<true>(eta, p);
    RecordTerms t;
    for (const auto& [value, entry] : table_) {
      const RecordTerms r = L::record<true>(entry.data, eta, e, p);
      t.f += entry.count * r.f;
      t.dEta += entry.count * r.dEta;
      t.dAux += entry.count * r.dAux;
    }
    return t;
  }

 private:
  struct Entry {
    double count;
    L::Data data;
  };
  double n_ = 0;
  std::map<double, Entry> table_;  ///< ordered: the summation order is the same everywhere
};

template <class L>
class LatentOutcomeModel final : public LatentOutcomeDensity {
 public:
  LatentOutcomeModel(const L& lik, double centre) : lik_(lik), stats_(centre) {}

  int dim() const override { return lik_.dim(); }
  std::vector<std::string> parameterNames() const override { return lik_.parameterNames(); }
  Eigen::VectorXd constrain(const Eigen::VectorXd& u) const override { return lik_.constrain(u); }
  Eigen::VectorXd unconstrain(const Eigen::VectorXd& theta) const override {
    return lik_.unconstrain(theta);
  }

  double logDensity(const Eigen::VectorXd& u, Eigen::VectorXd& grad) const override {
    grad.setZero(dim());
    if (u.size() != dim() || !u.allFinite()) return kLatentNegInf;
    const double logPrior = lik_.logPrior(u, grad);
    if (!std::isfinite(logPrior)) return kLatentNegInf;
    if (stats_.n() == 0.0) return grad.allFinite() ? logPrior : kLatentNegInf;
    // Intercept-only: η = u[0] for every family (SPEC §2, core/models).
    const RecordTerms t = stats_.total(u[0], lik_.params(u));
    grad[0] += t.dEta;
    if (lik_.auxIndex() >= 0) grad[lik_.auxIndex()] += t.dAux;
    const double total = logPrior + t.f;
    if (!std::isfinite(total) || !grad.allFinite()) return kLatentNegInf;
    return total;
  }

  void add(double y) override { stats_.add(y, 1.0); }
  void move(double from, double to) override {
    stats_.add(from, -1.0);
    stats_.add(to, 1.0);
  }
  long long count() const override { return static_cast<long long>(stats_.n()); }

 private:
  const L& lik_;
  LatentStats<L> stats_;
};

template <class L>
class FamilyNutsThetaStep final : public ThetaStep {
 public:
  FamilyNutsThetaStep(const L& lik, int warmup, double centre)
      : lik_(lik),
        model_(lik, centre),
        kernel_(model_, mcmc::MetricKind::diag, warmup, 10, 0.8),
        params_(lik.params(Eigen::VectorXd::Zero(lik.dim()))) {}

  void addRecord(const double* record) override { model_.add(record[0]); }
  void moveRecord(const double* from, const double* to) override { model_.move(from[0], to[0]); }

  void start(const Eigen::VectorXd& theta, random::Rng& rng, std::stop_token stop) override {
    mcmc::PhasePoint z(lik_.dim());
    z.q = lik_.unconstrain(theta);
    kernel_.hamiltonian().updatePotential(z);
    if (!std::isfinite(z.logDensity)) {
      throw std::runtime_error(
          "data augmentation: the starting parameters have zero posterior density");
    }
    kernel_.start(z, rng, stop);
    cache();
  }

  Eigen::VectorXd step(random::Rng& rng, std::stop_token stop) override {
    kernel_.refresh();  // the latent records moved since the last step
    kernel_.step(rng, stop);
    cache();
    return lik_.constrain(kernel_.position());
  }

  void drawRecord(random::Rng& rng, double* out) const override {
    out[0] = lik_.draw(rng, eta_, params_);
  }

  long long gradientEvaluations() const override { return kernel_.gradientEvaluations(); }

 private:
  void cache() {
    params_ = lik_.params(kernel_.position());
    eta_ = kernel_.position()[0];
  }

  const L& lik_;
  LatentOutcomeModel<L> model_;
  mcmc::NutsKernel kernel_;
  typename L::Params params_;
  double eta_ = 0.0;
};

template <class L>
class FamilyLatent final : public LatentFamily {
 public:
  FamilyLatent(models::Family family, double sdScale)
      : family_(family), lik_(latentShape(sdScale)) {}

  models::Family family() const override { return family_; }
  int dim() const override { return lik_.dim(); }
  std::vector<std::string> parameterNames() const override { return lik_.parameterNames(); }
  Eigen::VectorXd constrain(const Eigen::VectorXd& u) const override { return lik_.constrain(u); }
  Eigen::VectorXd unconstrain(const Eigen::VectorXd& theta) const override {
    return lik_.unconstrain(theta);
  }
  Eigen::VectorXd initialPoint(const Eigen::VectorXd& y) const override {
    return lik_.initialPoint(y);
  }
  double draw(const Eigen::VectorXd& theta, random::Rng& rng) const override {
    const Eigen::VectorXd u = lik_.unconstrain(theta);
    return lik_.draw(rng, u[0], lik_.params(u));
  }
  std::unique_ptr<LatentOutcomeDensity> makeDensity(double centre) const override {
    return std::make_unique<LatentOutcomeModel<L>>(lik_, centre);
  }
  std::unique_ptr<ThetaStep> makeThetaStep(int warmup, double centre) const override {
    return std::make_unique<FamilyNutsThetaStep<L>>(lik_, warmup, centre);
  }

 private:
  models::Family family_;
  L lik_;
};

}  // namespace

std::unique_ptr<LatentFamily> makeLatentFamily(models::Family family, double sdScale) {
  if (!(sdScale > 0.0) || !std::isfinite(sdScale)) {
    throw std::invalid_argument("the sd scale must be a positive number");
  }
  switch (family) {
    case models::Family::poisson:
      return std::make_unique<FamilyLatent<models::PoissonLikelihood>>(family, sdScale);
    case models::Family::negbin:
      return std::make_unique<FamilyLatent<models::NegbinLikelihood>>(family, sdScale);
    case models::Family::beta:
      return std::make_unique<FamilyLatent<models::BetaLikelihood>>(family, sdScale);
    case models::Family::normal:
      return std::make_unique<FamilyLatent<models::NormalLikelihood>>(family, sdScale);
  }
  throw std::invalid_argument("unknown family");
}

}  // namespace dpsynth::core::infer
