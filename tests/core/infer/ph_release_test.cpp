/// The ph release (ph_release.h): the file round trip and its checks, the mechanism's binning,
/// the exact release likelihood (raw and clamped-at-zero counts), the acceptance bound on every
/// proposal, and the posterior at both ends of ε: the binned-data posterior for large ε, the
/// prior for tiny ε.
#include "core/infer/ph_release.h"

#include <QtTest>
#include <cmath>
#include <nlohmann/json.hpp>
#include <vector>

#include "core/infer/da_sampler.h"
#include "core/random/rng.h"

namespace infer = dpsynth::core::infer;
namespace models = dpsynth::core::models;
namespace privacy = dpsynth::core::privacy;
namespace rnd = dpsynth::core::random;

namespace {

infer::PhReleaseFile phTestRelease() {
  infer::PhReleaseFile r;
  r.lower = 0;
  r.upper = 10;
  r.bins = 8;
  r.epsilon = 1;
  privacy::phNoiseRate(1.0, 2, r.rateNum, r.rateDen);
  r.noisyCounts = {1, 3, 7, 11, 12, 9, 5, 2};
  r.n = 50;
  return r;
}

/// log P(noise = k) of the discrete Laplace law with rate t, normalised.
double phTestLogPmf(std::int64_t k, double t) {
  return std::log((1 - std::exp(-t)) / (1 + std::exp(-t))) - t * std::abs(static_cast<double>(k));
}

/// log P(released | C) summed over bins, by brute force: for clamped counts a 0 is
/// P(C + K ≤ 0), summed term by term.
double phTestLogLik(const std::vector<std::int64_t>& released, const Eigen::VectorXd& C, double t,
                    bool clamped) {
  double s = 0;
  for (std::size_t j = 0; j < released.size(); ++j) {
    const auto c = static_cast<std::int64_t>(C[static_cast<Eigen::Index>(j)]);
    if (clamped && released[j] == 0) {
      double p = 0;
      for (std::int64_t k = -c; k > -c - 400; --k) p += std::exp(phTestLogPmf(k, t));
      s += std::log(p);
    } else {
      s += phTestLogPmf(released[j] - c, t);
    }
  }
  return s;
}

/// Forwards to a model and checks the acceptance ratio of every proposal against a bound.
class PhTestWatchedModel final : public infer::RecordAdditiveModel {
 public:
  PhTestWatchedModel(const infer::RecordAdditiveModel& m, double logBound)
      : m_(m), bound_(logBound) {}
  int recordCount() const override { return m_.recordCount(); }
  int recordWidth() const override { return m_.recordWidth(); }
  int statisticDim() const override { return m_.statisticDim(); }
  int parameterDim() const override { return m_.parameterDim(); }
  std::vector<std::string> parameterNames() const override { return m_.parameterNames(); }
  Eigen::VectorXd initialTheta(rnd::Rng& rng) const override { return m_.initialTheta(rng); }
  void drawRecord(const Eigen::VectorXd& t, rnd::Rng& rng, double* out) const override {
    m_.drawRecord(t, rng, out);
  }
  void addStatistic(const double* r, Eigen::VectorXd& T) const override { m_.addStatistic(r, T); }
  double moveStatistic(Eigen::VectorXd& T, const double* from, const double* to) const override {
    const double d = m_.moveStatistic(T, from, to);
    ++calls;  // one chain and one thread in the test: no race
    if (d < bound_ - 1e-12) ++violations;
    lowest = std::min(lowest, d);
    return d;
  }
  Eigen::VectorXd drawTheta(const Eigen::VectorXd& T, rnd::Rng& rng) const override {
    return m_.drawTheta(T, rng);
  }
  std::unique_ptr<infer::ThetaStep> makeThetaStep(int warmup) const override {
    return m_.makeThetaStep(warmup);
  }
  mutable long long calls = 0, violations = 0;
  mutable double lowest = 0;

 private:
  const infer::RecordAdditiveModel& m_;
  double bound_;
};

double phTestNormalCdf(double z) { return 0.5 * std::erfc(-z / std::sqrt(2.0)); }

}  // namespace

class PhReleaseTest : public QObject {
  Q_OBJECT

 private slots:
  void roundTrip() {
    infer::PhReleaseFile r = phTestRelease();
    r.neighbours = privacy::Neighbours::addRemove;
    privacy::phNoiseRate(1.0, 1, r.rateNum, r.rateDen);
    r.noisyCounts[2] = -2;
    r.synthesizerFamily = models::Family::negbin;
    r.notForRelease = true;
    r.integer = true;
    r.nSource = privacy::SizeSource::noisy;  // add-remove: n is a noisy count (SPEC §0)
    r.sizeEpsilon = 0.25;
    const std::string text = infer::phReleaseToJson(r);
    const infer::PhReleaseFile back = infer::phReleaseFromJson(text, "r.json");
    QCOMPARE(back.lower, r.lower);
    QCOMPARE(back.upper, r.upper);
    QCOMPARE(back.bins, r.bins);
    QCOMPARE(back.integer, true);
    QCOMPARE(back.epsilon, r.epsilon);
    QVERIFY(back.neighbours == privacy::Neighbours::addRemove);
    QCOMPARE(back.sensitivity(), 1);
    QCOMPARE(back.rateNum, r.rateNum);
    QCOMPARE(back.rateDen, r.rateDen);
    QVERIFY(back.noisyCounts == r.noisyCounts);
    QCOMPARE(back.n, 50);
    QVERIFY(back.synthesizerFamily == models::Family::negbin);
    QVERIFY(back.notForRelease);
    QVERIFY(back.nSource == privacy::SizeSource::noisy);
    QCOMPARE(back.sizeEpsilon, 0.25);
    QVERIFY(!back.clampedAtZero);
    QCOMPARE(infer::phReleaseToJson(back), text);
    const auto j = nlohmann::json::parse(text);
    QCOMPARE(j["kind"].get<std::string>(), std::string("ph"));
    QCOMPARE(j["edges"].size(), std::size_t(9));
    // n is the published (noisy) size, said so, with the ε it spent.
    QCOMPARE(j["n_source"].get<std::string>(), std::string("noisy"));
    QCOMPARE(j["size_epsilon"].get<double>(), 0.25);
    QCOMPARE(j["epsilon_total"].get<double>(), r.epsilon + 0.25);
    QVERIFY(j["n_note"].get<std::string>().find("noisy") != std::string::npos);
    // A file written before n_source existed reads as a public n.
    auto old = j;
    old.erase("n_source");
    old.erase("size_epsilon");
    QVERIFY(infer::phReleaseFromJson(old.dump(), "old.json").nSource ==
            privacy::SizeSource::publicSize);
  }

  void badFilesGetOneLine_data() {
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("value");
    QTest::addColumn<QString>("message");
    QTest::newRow("version") << "version"
                             << "2"
                             << "unsupported release version";
    QTest::newRow("bins") << "bins"
                          << "7"
                          << "expected 7 noisy counts";
    QTest::newRow("bounds") << "bounds"
                            << R"({"lower": 3, "upper": 3})"
                            << "lower < upper";
    QTest::newRow("rate") << "noise_rate"
                          << R"({"numerator": 600000, "denominator": 1000000})"
                          << "above epsilon / sensitivity";
    QTest::newRow("sensitivity") << "sensitivity"
                                 << "1"
                                 << "does not match the neighbour";
    QTest::newRow("neighbours") << "neighbours"
                                << R"("swap")"
                                << "replace-one";
    QTest::newRow("n") << "n"
                       << "0"
                       << "n must be between 1 and";
    QTest::newRow("type") << "noisy_counts"
                          << R"(["a"])"
                          << "noisy_counts must be a whole number";
    QTest::newRow("edges") << "edges"
                           << "[0, 1]"
                           << "edges do not match";
    QTest::newRow("clamped") << "noisy_counts_clamped_at_zero"
                             << "true"
                             << "cannot be negative";
  }

  void badFilesGetOneLine() {
    QFETCH(QString, key);
    QFETCH(QString, value);
    QFETCH(QString, message);
    infer::PhReleaseFile r = phTestRelease();
    r.noisyCounts[0] = -1;
    auto j = nlohmann::json::parse(infer::phReleaseToJson(r));
    j[key.toStdString()] = nlohmann::json::parse(value.toStdString());
    try {
      infer::phReleaseFromJson(j.dump(), "bad.json");
      QFAIL("accepted");
    } catch (const std::invalid_argument& e) {
      const QString what = e.what();
      QVERIFY2(what.startsWith("bad.json: ") && what.contains(message) && !what.contains('\n'),
               qPrintable(what));
    }
  }

  void publishesTheNoisyCountsOnly() {
    Eigen::VectorXd y(40);
    for (int i = 0; i < 40; ++i) y[i] = (i * 37) % 23 * 0.5;
    privacy::PhConfig cfg;
    cfg.lower = 0;
    cfg.upper = 12;
    cfg.bins = 6;
    cfg.epsilon = 0.5;
    cfg.reproducibleSeed = rnd::Seed(3);
    const privacy::PhRelease ph = privacy::perturbHistogram(y, cfg);
    QVERIFY(ph.noisy != ph.counts);
    const infer::PhReleaseFile r =
        infer::phReleaseFile(ph, 0.5, privacy::Neighbours::replaceOne, 40, models::Family::normal);
    QVERIFY(r.noisyCounts == ph.noisy);
    QVERIFY(r.notForRelease);
    QVERIFY(r.edges() == ph.edges);
    const auto j = nlohmann::json::parse(infer::phReleaseToJson(r));
    QVERIFY(!j.contains("counts") && !j.contains("probabilities") && !j.contains("seed"));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             infer::phReleaseFile(ph, 0.5, privacy::Neighbours::addRemove, 40, {}));
  }

  void binsAreTheMechanismsBins() {
    // Boundary values, values outside [a, b] (clamped into the end bins) and ±inf.
    const std::vector<double> values{-3,   0,     1.25,      1.2499999, 2.5,  9.9999, 10,
                                     10.5, 1e300, -INFINITY, INFINITY,  3.75, 8.75,   6.25};
    Eigen::VectorXd y = Eigen::Map<const Eigen::VectorXd>(values.data(), 14);
    privacy::PhConfig cfg;
    cfg.lower = 0;
    cfg.upper = 10;
    cfg.bins = 8;
    cfg.reproducibleSeed = rnd::Seed(1);
    const privacy::PhRelease ph = privacy::perturbHistogram(y, cfg);
    const infer::PhModel model(phTestRelease(), models::Family::normal);
    Eigen::VectorXd T = Eigen::VectorXd::Zero(8);
    for (double v : values) model.addStatistic(&v, T);
    for (int j = 0; j < 8; ++j)
      QCOMPARE(T[j], static_cast<double>(ph.counts[static_cast<std::size_t>(j)]));
  }

  void moveRatioIsTheReleaseLikelihood_data() {
    QTest::addColumn<bool>("clamped");
    QTest::newRow("raw counts") << false;
    QTest::newRow("clamped at zero") << true;
  }

  void moveRatioIsTheReleaseLikelihood() {
    QFETCH(bool, clamped);
    infer::PhReleaseFile r = phTestRelease();
    r.epsilon = 1.4;
    privacy::phNoiseRate(r.epsilon, 2, r.rateNum, r.rateDen);
    r.noisyCounts = clamped ? std::vector<std::int64_t>{0, 3, 0, 11, 0, 9, 5, 0}
                            : std::vector<std::int64_t>{-2, 3, 0, 11, -1, 9, 5, 2};
    r.clampedAtZero = clamped;
    const infer::PhModel model(r, models::Family::normal);
    const double t = r.rate();
    rnd::Rng rng = rnd::makeRng(rnd::Seed(5), 0);
    std::vector<double> records;
    Eigen::VectorXd T = Eigen::VectorXd::Zero(8);
    for (int i = 0; i < 30; ++i) {
      records.push_back(10.0 * rnd::uniform01(rng));
      model.addStatistic(&records.back(), T);
    }
    int checked = 0;
    for (int k = 0; k < 200; ++k) {
      const auto i = static_cast<std::size_t>(rnd::uniformIndex(rng, records.size()));
      const double to = 12.0 * rnd::uniform01(rng) - 1.0;
      const double before = phTestLogLik(r.noisyCounts, T, t, clamped);
      const double delta = model.moveStatistic(T, &records[i], &to);
      const double after = phTestLogLik(r.noisyCounts, T, t, clamped);
      QVERIFY2(std::abs(delta - (after - before)) < 1e-9,
               qPrintable(QString("%1 vs %2").arg(delta).arg(after - before)));
      checked += delta != 0.0;
      records[i] = to;
    }
    QVERIFY(checked > 50);
  }

  void drawThetaIsNotConjugate() {
    const infer::PhModel model(phTestRelease(), models::Family::normal);
    rnd::Rng rng = rnd::makeRng(rnd::Seed(1), 0);
    QVERIFY_THROWS_EXCEPTION(std::logic_error, model.drawTheta(Eigen::VectorXd::Zero(8), rng));
    QVERIFY(model.makeThetaStep(10) != nullptr);
  }

  void acceptanceIsAboveTheBoundOnEveryProposal_data() {
    QTest::addColumn<bool>("addRemove");
    QTest::addColumn<int>("family");
    QTest::newRow("replace-one normal") << false << static_cast<int>(models::Family::normal);
    QTest::newRow("replace-one poisson") << false << static_cast<int>(models::Family::poisson);
    QTest::newRow("add-remove negbin") << true << static_cast<int>(models::Family::negbin);
    QTest::newRow("replace-one beta") << false << static_cast<int>(models::Family::beta);
  }

  void acceptanceIsAboveTheBoundOnEveryProposal() {
    QFETCH(bool, addRemove);
    QFETCH(int, family);
    infer::PhReleaseFile r = phTestRelease();
    r.epsilon = 0.6;
    r.neighbours = addRemove ? privacy::Neighbours::addRemove : privacy::Neighbours::replaceOne;
    privacy::phNoiseRate(r.epsilon, r.sensitivity(), r.rateNum, r.rateDen);
    if (family == static_cast<int>(models::Family::beta)) r.upper = 1;
    // Counts far from what the records give, so that many proposals lose.
    r.noisyCounts = {30, -4, 0, 0, 25, -3, 0, 2};
    const infer::PhModel ph(r, static_cast<models::Family>(family));
    // Pure ε-DP: e^{−ε} for replace-one; add-remove neighbours are one step apart, a replaced
    // record is two, e^{−2ε}.
    const double logBound = addRemove ? -2 * r.epsilon : -r.epsilon;
    const PhTestWatchedModel model(ph, logBound);
    infer::DaConfig c;
    c.iterations = 400;
    c.warmup = 100;
    c.chains = 1;
    c.threads = 1;
    c.seed = 17;
    const infer::DaResult result = infer::runDataAugmentation(model, c);
    QCOMPARE(model.violations, 0LL);
    QVERIFY(model.calls >= result.proposals());
    QVERIFY(result.minAcceptance() >= std::exp(logBound) - 1e-12);
    QVERIFY(result.minAcceptance() >= r.acceptanceBound() - 1e-12);
    // The bound is reached: a record leaves an under-filled bin for an over-filled one.
    QVERIFY(std::abs(model.lowest + 2 * r.rate()) < 1e-12);
  }

  void largeEpsilonRecoversTheBinnedDataPosterior() {
    // D = C, t = 50: the latent histogram is pinned to C, so θ's posterior is the normal
    // posterior given only the bins (values below 1.25 in the first bin, above 8.75 in the
    // last), computed here by quadrature on a (β, σ) grid with the family's default priors.
    infer::PhReleaseFile r = phTestRelease();
    r.epsilon = 100;
    r.rateNum = 50;
    r.rateDen = 1;
    const infer::PhModel model(r, models::Family::normal);
    const std::vector<double> e = r.edges();
    double z = 0, mb = 0, ms = 0, peak = -INFINITY;
    std::vector<double> logs;
    auto logPost = [&](double b, double s) {
      double l = -b * b / 200.0 - std::log1p(s * s / 25.0);
      for (int j = 0; j < 8; ++j) {
        const double hi =
            j == 7 ? 1.0 : phTestNormalCdf((e[static_cast<std::size_t>(j) + 1] - b) / s);
        const double lo = j == 0 ? 0.0 : phTestNormalCdf((e[static_cast<std::size_t>(j)] - b) / s);
        l += static_cast<double>(r.noisyCounts[static_cast<std::size_t>(j)]) * std::log(hi - lo);
      }
      return l;
    };
    for (int pass = 0; pass < 2; ++pass) {
      for (int i = 0; i <= 300; ++i) {
        for (int k = 1; k <= 300; ++k) {
          const double b = 3.5 + 3.0 * i / 300.0, s = 0.5 + 3.5 * k / 300.0;
          const double l = logPost(b, s);
          if (pass == 0) {
            peak = std::max(peak, l);
            continue;
          }
          const double w = std::exp(l - peak);
          z += w;
          mb += w * b;
          ms += w * s;
        }
      }
    }
    const double meanBeta = mb / z, meanSigma = ms / z;
    infer::DaConfig c;
    c.iterations = 5000;
    c.warmup = 1000;
    c.chains = 2;
    c.threads = 1;
    c.seed = 4;
    const auto s = infer::summarize(model, infer::runDataAugmentation(model, c));
    QCOMPARE(QString::fromStdString(s[1].name), QString("sigma"));
    const double seBeta = s[0].sd / std::sqrt(s[0].ess), seSigma = s[1].sd / std::sqrt(s[1].ess);
    QVERIFY2(std::abs(s[0].mean - meanBeta) < 4 * seBeta + 1e-3,
             qPrintable(QString("beta %1 vs %2 (se %3)").arg(s[0].mean).arg(meanBeta).arg(seBeta)));
    QVERIFY2(
        std::abs(s[1].mean - meanSigma) < 4 * seSigma + 1e-3,
        qPrintable(QString("sigma %1 vs %2 (se %3)").arg(s[1].mean).arg(meanSigma).arg(seSigma)));
  }

  void tinyEpsilonReturnsThePrior() {
    // t = 1e-6: the release says nothing, so θ keeps its prior β ~ Normal(0, 10),
    // σ ~ half-Cauchy(0, 5) (median 5).
    infer::PhReleaseFile r = phTestRelease();
    r.epsilon = 2e-6;
    r.rateNum = 1;
    r.rateDen = 1000000;
    r.n = 3;
    r.noisyCounts = {0, 0, 3, 0, 0, 0, 0, 0};
    const infer::PhModel model(r, models::Family::normal);
    infer::DaConfig c;
    c.iterations = 24000;
    c.warmup = 2000;
    c.chains = 2;
    c.threads = 1;
    c.seed = 6;
    const auto result = infer::runDataAugmentation(model, c);
    QVERIFY(result.minAcceptance() > 1 - 1e-5);
    const auto s = infer::summarize(model, result);
    const double seBeta = 10.0 / std::sqrt(s[0].ess);
    QVERIFY2(std::abs(s[0].mean) < 4 * seBeta, qPrintable(QString("beta mean %1").arg(s[0].mean)));
    QVERIFY2(std::abs(s[0].sd - 10.0) < 1.0, qPrintable(QString("beta sd %1").arg(s[0].sd)));
    // se of a median: sqrt(1/4 / ESS) / density at the median, 1 / (5π) for half-Cauchy(0, 5).
    const double seMedian = 0.5 / std::sqrt(s[1].ess) * 5.0 * M_PI;
    QVERIFY2(std::abs(s[1].q50 - 5.0) < 4 * seMedian,
             qPrintable(QString("sigma median %1 (se %2)").arg(s[1].q50).arg(seMedian)));
  }
};

QTEST_APPLESS_MAIN(PhReleaseTest)
#include "ph_release_test.moc"
