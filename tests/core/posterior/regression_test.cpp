/// Regressions in their sampled forms (QR; negbin with its coefficient scales integrated out)
/// under the dense metric: the same posterior as the direct (centred, per-record) form within
/// Monte Carlo error, calibrated (SBC), free of divergences where the direct form had hundreds
/// (covariates on scales 10⁴ apart included), and reproducible across thread counts.
#include <QtTest>
#include <boost/math/distributions/chi_squared.hpp>
#include <cmath>
#include <vector>

#include "core/data/dataset.h"
#include "core/data/regression_samples.h"
#include "core/mcmc/diagnostics.h"
#include "core/mcmc/sampler.h"
#include "core/models/model.h"
#include "core/random/rng.h"
#include "support/model_fixtures.h"
#include "support/sample_data.h"

using namespace dpsynth::core;
using models::Family;
using models::Parameterisation;

namespace {

constexpr Family kFamilies[] = {Family::poisson, Family::negbin, Family::beta, Family::normal};

data::Dataset regressionData(Family family, Eigen::Index n, std::uint64_t seed) {
  return dpsynth::test::offsetCovariateRegression(family, n, seed, 10.0, 3.0);
}

models::ModelSpec specOf(Family family, Parameterisation p) {
  return dpsynth::test::formSpec(family, p);
}

/// Per parameter, the chains of its draws on a scale with light tails: coefficients as they
/// are, positive parameters (σ, φ, λ) on the log scale, where sd estimates are stable.
std::vector<std::vector<Eigen::VectorXd>> scalarChains(const models::Model& model,
                                                       const mcmc::SampleResult& r) {
  const auto names = model.parameterNames();
  std::vector<std::vector<Eigen::VectorXd>> out(names.size());
  for (const auto& chain : r.chains) {
    std::vector<Eigen::VectorXd> columns(names.size(), Eigen::VectorXd(chain.draws.rows()));
    for (Eigen::Index s = 0; s < chain.draws.rows(); ++s) {
      const Eigen::VectorXd theta = model.constrain(chain.draws.row(s).transpose());
      for (std::size_t p = 0; p < names.size(); ++p) {
        const bool positive = names[p].rfind("beta", 0) != 0;
        columns[p][Eigen::Index(s)] =
            positive ? std::log(theta[Eigen::Index(p)]) : theta[Eigen::Index(p)];
      }
    }
    for (std::size_t p = 0; p < names.size(); ++p) out[p].push_back(columns[p]);
  }
  return out;
}

/// ess is the bulk ESS (for the mean); essSquare that of the squared deviations, which the
/// spread's standard error needs: NUTS's chains are often antithetic in x but not in x², so the
/// bulk ESS overstated the spread's precision (a 4.5-se miss between two kernels' trajectories).
struct Moments {
  double mean = 0, sd = 0, kurtosis = 3, ess = 0, essSquare = 0;
};

Moments moments(const std::vector<Eigen::VectorXd>& chains) {
  Eigen::Index n = 0;
  for (const auto& c : chains) n += c.size();
  Eigen::VectorXd all(n);
  Eigen::Index at = 0;
  for (const auto& c : chains) {
    all.segment(at, c.size()) = c;
    at += c.size();
  }
  Moments m;
  m.mean = all.mean();
  const Eigen::ArrayXd d = all.array() - m.mean;
  const double var = d.square().sum() / double(n - 1);
  m.sd = std::sqrt(var);
  m.kurtosis = d.pow(4).mean() / (var * var);
  m.ess = mcmc::essBulk(chains);
  std::vector<Eigen::VectorXd> squares;
  for (const auto& c : chains) squares.push_back((c.array() - m.mean).square().matrix());
  m.essSquare = mcmc::essBasic(squares);
  return m;
}

mcmc::NutsConfig fourByThousand(std::uint64_t seed, int warmup = 1000) {
  mcmc::NutsConfig cfg;
  cfg.seed = seed;
  cfg.chains = 4;
  cfg.warmup = warmup;
  cfg.draws = 1000;
  cfg.threads = 4;
  return cfg;
}

}  // namespace

class RegressionTest : public QObject {
  Q_OBJECT

 private slots:
  /// Posterior means and sds of every parameter agree between the sampled and the direct form
  /// within 4.5 Monte Carlo standard errors (se of a mean sd/√ESS; of an sd
  /// sd·√((κ − 1)/(4·ESS)) with κ the kurtosis), for 4 × 1000 draws each; negbin's σ_j by their
  /// means only (see below).
  void samplesTheDirectPosterior_data() {
    QTest::addColumn<int>("family");
    QTest::addColumn<bool>("weighted");
    for (Family f : kFamilies)
      for (bool w : {false, true})
        QTest::addRow("%s %s", models::familyName(f).c_str(), w ? "weighted" : "unweighted")
            << int(f) << w;
  }

  void samplesTheDirectPosterior() {
    QFETCH(int, family);
    QFETCH(bool, weighted);
    const Family f = Family(family);
    const auto data = regressionData(f, 80, 71 + std::uint64_t(family));
    models::LikelihoodWeights weights;
    if (weighted) {
      // α uniform on [0, 1], record by record.
      auto rng = random::makeRng(72, 0);
      for (std::size_t i = 0; i < data.size(); ++i) weights.alpha.push_back(random::uniform01(rng));
    }
    const auto fitted = models::makeModel(data, specOf(f, Parameterisation::automatic), weights);
    const auto direct = models::makeModel(data, specOf(f, Parameterisation::direct), weights);
    const auto a = mcmc::sample(*fitted, fourByThousand(73, 500));
    // negbin's direct form is a funnel in (β_j, σ_j): at the default acceptance target it
    // diverges 50-160 times here and samples the neck too little, so its spread of log σ moved
    // by 0.15 with the trajectory (seeds, or the kernels' last bits). A smaller step makes it a
    // steadier reference (6-20 divergences; log σ sd 1.43-1.48 across seeds and kernels).
    mcmc::NutsConfig reference = fourByThousand(74, 500);
    if (f == Family::negbin) {
      reference.targetAccept = 0.99;
      reference.warmup = 1000;
    }
    const auto b = mcmc::sample(*direct, reference);
    const auto chainsA = scalarChains(*fitted, a);
    const auto chainsB = scalarChains(*direct, b);
    const auto names = fitted->parameterNames();
    for (std::size_t p = 0; p < names.size(); ++p) {
      const Moments x = moments(chainsA[p]);
      const Moments y = moments(chainsB[p]);
      QVERIFY2(
          x.ess > 100 && y.ess > 100,
          qPrintable(QString("%1: ESS %2 and %3").arg(names[p].c_str()).arg(x.ess).arg(y.ess)));
      const double seMean = std::sqrt(x.sd * x.sd / x.ess + y.sd * y.sd / y.ess);
      const double seSd = std::sqrt(x.sd * x.sd * (x.kurtosis - 1) / (4 * x.essSquare) +
                                    y.sd * y.sd * (y.kurtosis - 1) / (4 * y.essSquare));
      QVERIFY2(std::abs(x.mean - y.mean) < 4.5 * seMean,
               qPrintable(QString("%1 mean: %2 vs %3 (se %4)")
                              .arg(names[p].c_str())
                              .arg(x.mean)
                              .arg(y.mean)
                              .arg(seMean)));
      // The centred reference is no reference for the spread of negbin's log σ_j: it still
      // diverges in the funnel's neck at acceptance 0.99, and that spread moved with its
      // trajectory (1.42, 1.44 and 1.48 for sigma[3] under AVX-512, AVX2 and the generic
      // kernels, one seed) while the integrated form gave 1.53-1.54 under all three and over
      // seeds. σ_j | β_j is drawn exactly there (its distribution function is checked against
      // quadrature in scale_mixture_prior_test), so β's and φ's spreads are what this compares.
      const bool funnelScale = f == Family::negbin && names[p].rfind("sigma", 0) == 0;
      if (funnelScale) continue;
      QVERIFY2(std::abs(x.sd - y.sd) < 4.5 * seSd, qPrintable(QString("%1 sd: %2 vs %3 (se %4)")
                                                                  .arg(names[p].c_str())
                                                                  .arg(x.sd)
                                                                  .arg(y.sd)
                                                                  .arg(seSd)));
    }
  }

  /// Simulation-based calibration (as in sbc_test) of a normal regression with 3 covariates and
  /// a negbin regression with 2: ranks of the prior draw among thinned posterior draws are
  /// uniform (chi-squared on 10 bins, p > 0.001 per parameter).
  void calibrated_data() {
    QTest::addColumn<int>("family");
    QTest::addColumn<int>("covariates");
    QTest::newRow("normal, 3 covariates") << int(Family::normal) << 3;
    QTest::newRow("negbin, 2 covariates") << int(Family::negbin) << 2;
  }

  void calibrated() {
    QFETCH(int, family);
    QFETCH(int, covariates);
    const Family f = Family(family);
    constexpr int kReplicates = 100, kRecords = 25, kThin = 4, kDraws = 396, kBins = 10;
    const Eigen::Index k = covariates + 1;
    const Eigen::MatrixXd design = dpsynth::test::fixtureCovariates(kRecords, covariates, 81);
    random::Rng rng = random::makeRng(82, std::uint64_t(family));
    auto priorDraw = [&] {
      if (f == Family::normal) {
        Eigen::VectorXd theta(k + 1);
        for (Eigen::Index j = 0; j < k; ++j) theta[j] = random::normal(rng, 0, 10);
        theta[k] = std::abs(random::cauchy(rng, 0, 5));
        return theta;
      }
      Eigen::VectorXd theta(2 * k + 1);
      for (Eigen::Index j = 0; j < k; ++j) {
        theta[k + j] = std::abs(random::studentT(rng, 3));
        theta[j] = random::normal(rng, 0, theta[k + j]);
      }
      theta[2 * k] = 1.0 / std::abs(random::cauchy(rng, 0, 5));
      return theta;
    };
    std::vector<std::vector<int>> bins;
    int done = 0, attempt = 0;
    while (done < kReplicates) {
      ++attempt;
      const Eigen::VectorXd theta = priorDraw();
      const double placeholder = f == Family::negbin ? 1.0 : 0.5;
      const auto shape = models::makeModel(
          dpsynth::test::makeDataset(f, Eigen::VectorXd::Constant(kRecords, placeholder), design),
          {f});
      Eigen::VectorXd y(kRecords);
      try {
        shape->simulate(shape->unconstrain(theta), rng, y);
      } catch (const std::domain_error&) {
        continue;  // a draw with an infinite mean: not representable data
      }
      // Data that are not representable are skipped: conditioning on an event of the data
      // keeps each kept replicate's posterior exact (see sbc_test).
      if (!y.allFinite() || (f == Family::negbin && y.maxCoeff() >= 1e9)) continue;
      if (f == Family::normal && y.cwiseAbs().maxCoeff() > 1e12) continue;
      if ((y.array() == y[0]).all()) continue;
      const auto model = models::makeModel(dpsynth::test::makeDataset(f, y, design), {f});
      mcmc::NutsConfig cfg;
      cfg.chains = 1;
      cfg.warmup = 300;
      cfg.draws = kDraws;
      cfg.seed = 2000 + std::uint64_t(attempt);
      const auto result = mcmc::sample(*model, cfg);
      QCOMPARE(result.metric(), mcmc::MetricKind::dense);
      const auto& d = result.chains.front().draws;
      if (bins.empty()) bins.assign(std::size_t(d.cols()), std::vector<int>(kBins, 0));
      const int kept = kDraws / kThin;
      std::vector<int> ranks(std::size_t(d.cols()), 0);
      for (Eigen::Index s = kThin - 1; s < d.rows(); s += kThin) {
        const Eigen::VectorXd draw = model->constrain(d.row(s).transpose());
        for (Eigen::Index p = 0; p < d.cols(); ++p)
          if (draw[p] < theta[p]) ++ranks[std::size_t(p)];
      }
      for (Eigen::Index p = 0; p < d.cols(); ++p)
        ++bins[std::size_t(p)][ranks[std::size_t(p)] * kBins / (kept + 1)];
      ++done;
    }
    const double expected = double(kReplicates) / kBins;
    const auto names =
        models::makeModel(
            dpsynth::test::makeDataset(f, Eigen::VectorXd::Constant(kRecords, 1.0), design), {f})
            ->parameterNames();
    for (std::size_t p = 0; p < bins.size(); ++p) {
      double chi2 = 0;
      for (int c : bins[p]) chi2 += (c - expected) * (c - expected) / expected;
      const double pValue =
          boost::math::cdf(boost::math::complement(boost::math::chi_squared(kBins - 1), chi2));
      QVERIFY2(pValue > 0.001,
               qPrintable(QString("%1: chi-squared p = %2").arg(names[p].c_str()).arg(pValue)));
    }
  }

  /// The cases that diverged in the direct form: a negbin regression whose slopes the data pin
  /// near zero (weeks worked by gender and age group in the salary sample: 351 divergences and
  /// R-hat 1.08 before), the same with salary (10⁴–10⁵) as a covariate, a 5-covariate negbin
  /// regression, and a survey regression with null effects and age and income on scales 10⁴
  /// apart (57 divergences with the non-centred form and the dense metric). 4 × 1000 draws: no
  /// divergence, R-hat <= 1.01 and bulk-ESS >= 400 for every parameter.
  void negbinRegressionsSampleCleanly_data() {
    QTest::addColumn<QString>("source");
    QTest::newRow("salary weeks_worked ~ gender + age_group") << QString("salary");
    QTest::newRow("salary weeks_worked ~ gender + age_group + salary") << QString("salary2");
    QTest::newRow("generated, 5 covariates") << QString("generated");
    QTest::newRow("survey: region, sector, age, income") << QString("survey");
  }

  void negbinRegressionsSampleCleanly() {
    QFETCH(QString, source);
    data::Dataset dataset;
    if (source.startsWith("salary")) {
      const auto table = data::generateSample("salary", data::defaultSampleSize("salary"),
                                              data::defaultSampleSeed("salary"));
      data::DatasetSpec spec;
      spec.outcome = "weeks_worked";
      spec.covariates = {"gender", "age_group"};
      if (source == "salary2") spec.covariates.push_back("salary");
      spec.family = Family::negbin;
      dataset = data::buildDataset(table, spec);
    } else if (source == "survey") {
      dataset = data::surveyRegressionSample(Family::negbin, 1500, 93);
    } else {
      dataset = dpsynth::test::fixtureDataset(Family::negbin, 500, 5, 91);
    }
    const auto model = models::makeModel(dataset, {Family::negbin});
    const auto result = mcmc::sample(*model, fourByThousand(92));
    QCOMPARE(result.metric(), mcmc::MetricKind::dense);
    QCOMPARE(result.divergences(), 0);
    for (const auto& p : mcmc::summarize(*model, result)) {
      QVERIFY2(p.rhat <= 1.01, qPrintable(QString("%1: R-hat %2").arg(p.name.c_str()).arg(p.rhat)));
      QVERIFY2(p.essBulk >= 400,
               qPrintable(QString("%1: bulk-ESS %2").arg(p.name.c_str()).arg(p.essBulk)));
    }
  }

  /// Seeded regressions (dense metric) give the same draws with 1 and 4 threads.
  void denseRunsDoNotDependOnThreads() {
    for (Family f : {Family::poisson, Family::negbin}) {
      const auto model = models::makeModel(regressionData(f, 80, 95), {f});
      mcmc::NutsConfig cfg;
      cfg.seed = 96;
      cfg.warmup = 300;
      cfg.draws = 200;
      cfg.threads = 1;
      const auto one = mcmc::sample(*model, cfg);
      cfg.threads = 4;
      const auto four = mcmc::sample(*model, cfg);
      QCOMPARE(one.metric(), mcmc::MetricKind::dense);
      for (std::size_t c = 0; c < one.chains.size(); ++c) {
        QVERIFY(one.chains[c].draws == four.chains[c].draws);
        QVERIFY(one.chains[c].inverseMetricDense == four.chains[c].inverseMetricDense);
        QCOMPARE(one.chains[c].stepSize, four.chains[c].stepSize);
        QCOMPARE(one.chains[c].gradientEvaluations, four.chains[c].gradientEvaluations);
      }
    }
  }
};

QTEST_APPLESS_MAIN(RegressionTest)
#include "regression_test.moc"
