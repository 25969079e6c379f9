/// The empirical privacy audit (SPEC §0, tests/support/privacy_audit.h), second part: the
/// released parameter draw of an intercept-only censored release, and whether a release appears.
/// Each honest mechanism must stay below its label and each broken variant must be caught
/// above it:
///   - the censoring interval: censor-uw's draw θ (the synthetic data are drawn from it, so
///     they can say no more than θ) with the interval of SPEC §0, and with one twice as wide;
///   - the release decision: the exact route releases whatever the data, while the route it
///     replaced (NUTS from the unweighted fit, then refused when the draws fail the sampling
///     screen) releases in about a third of the runs on one database and almost never on a
///     neighbour with one record moved to 0.0001.
/// Prints its rows of the README's audit table, as audit_test does.
#include <QtTest>
#include <cmath>
#include <functional>
#include <thread>
#include <vector>

#include "core/pipeline/pipeline.h"
#include "core/pipeline/screen.h"
#include "core/pipeline/stage_runner.h"
#include "core/privacy/exact_sampler.h"
#include "core/privacy/neighbours.h"
#include "support/model_fixtures.h"
#include "support/privacy_audit.h"

namespace pipeline = dpsynth::core::pipeline;
namespace privacy = dpsynth::core::privacy;
namespace rnd = dpsynth::core::random;
using dpsynth::core::models::Family;
using dpsynth::test::auditLossLowerBound;
using dpsynth::test::auditLossLowerBoundAt;
using dpsynth::test::auditLossLowerBoundDiscrete;
using dpsynth::test::printAuditRow;

namespace {

/// f(r; θ) = log Beta(r | λφ, λ(1 − φ)) at a beta intercept-only draw u = (logit φ, log(λ − 0.1))
/// (the models' unconstrained layout): what an adversary who knows the record r computes from
/// the released θ.
double betaLogDensityAt(double r, const Eigen::VectorXd& u) {
  const double phi = 1.0 / (1.0 + std::exp(-u[0]));
  const double lambda = 0.1 + std::exp(u[1]);
  const double a = lambda * phi, b = lambda * (1.0 - phi);
  return std::lgamma(a + b) - std::lgamma(a) - std::lgamma(b) + (a - 1.0) * std::log(r) +
         (b - 1.0) * std::log1p(-r);
}

/// runs values of `one(run)`, run = 0..runs-1, on two threads (each run is seeded by its
/// index, so the values do not depend on the threads).
template <class T>
std::vector<T> onTwoThreads(int runs, const std::function<T(int)>& one) {
  std::vector<T> out(static_cast<std::size_t>(runs));
  auto work = [&](int first) {
    for (int r = first; r < runs; r += 2) out[static_cast<std::size_t>(r)] = one(r);
  };
  std::thread other(work, 1);
  work(0);
  other.join();
  return out;
}

pipeline::RunSettings samplingAuditSettings(std::uint64_t seed, privacy::Neighbours neighbours,
                                            int chains, int warmup, int draws) {
  pipeline::RunSettings s;
  s.model.family = Family::beta;
  s.nuts.chains = chains;
  s.nuts.warmup = warmup;
  s.nuts.draws = draws;
  s.nuts.threads = 1;
  s.lipschitzThreads = 1;
  s.nuts.seed = seed;
  s.neighbours = neighbours;
  return s;
}

/// f(r; θ) at censor-uw's released draw, the pipeline run as executed (one exact draw per run).
std::vector<double> pipelineStatistic(const std::vector<double>& y, double r, double epsilon,
                                      privacy::Neighbours neighbours, int runs,
                                      std::uint64_t offset) {
  const auto d = dpsynth::test::makeDataset(Family::beta, y);
  pipeline::MechanismConfig c;
  c.mechanism = pipeline::Mechanism::censorUw;
  c.epsilon = epsilon;
  return onTwoThreads<double>(runs, [&](int run) {
    const auto s =
        samplingAuditSettings(offset + static_cast<std::uint64_t>(run), neighbours, 1, 0, 1);
    const auto result = pipeline::runMechanisms(d, {c}, s).mechanisms.front();
    if (result.sampling != pipeline::Sampling::exactEnvelope)
      throw std::logic_error("audit: censor-uw intercept-only was not drawn exactly");
    return betaLogDensityAt(r, result.final->sample->chains.front().draws.row(0).transpose());
  });
}

/// The same from the exact sampler alone, with the censoring interval of SPEC §0 multiplied by
/// `widen` (1: the interval the pipeline uses; 2: a clamp twice as wide).
std::vector<double> exactStatistic(const std::vector<double>& y, double r, double epsilon,
                                   privacy::Neighbours neighbours, double widen, int runs,
                                   std::uint64_t offset) {
  privacy::ExactProblem p;
  p.family = Family::beta;
  p.y = Eigen::Map<const Eigen::VectorXd>(y.data(), static_cast<Eigen::Index>(y.size()));
  const auto interval = privacy::censorInterval(Family::beta, neighbours, epsilon);
  p.lower = widen * interval.lower;
  p.upper = widen * interval.upper;
  return onTwoThreads<double>(runs, [&](int run) {
    rnd::Rng rng = rnd::makeRng(offset + static_cast<std::uint64_t>(run));
    const auto drawn = privacy::sampleExact(p, 1, rng);
    return betaLogDensityAt(r, drawn.draws.row(0).transpose());
  });
}

/// 1 when censor-uw's release appears (a DP label, no refusal), the pipeline as executed.
std::vector<int> pipelineAppears(const std::vector<double>& y, int runs, std::uint64_t offset) {
  const auto d = dpsynth::test::makeDataset(Family::beta, y);
  pipeline::MechanismConfig c;
  c.mechanism = pipeline::Mechanism::censorUw;
  c.epsilon = 1.0;
  return onTwoThreads<int>(runs, [&](int run) {
    const auto s = samplingAuditSettings(offset + static_cast<std::uint64_t>(run),
                                         privacy::Neighbours::replaceOne, 1, 0, 1);
    const auto result = pipeline::runMechanisms(d, {c}, s).mechanisms.front();
    return result.refusals.empty() && result.guarantee == pipeline::Guarantee::DP ? 1 : 0;
  });
}

/// 1 when the route the exact sampler replaced releases: NUTS (4 chains, 1000 warm-up and
/// 2000 draws) of the censored fit started from the unweighted fit, refused when
/// its draws fail the sampling screen (screen.h), with no retry.
std::vector<int> gatedAppears(const std::vector<double>& y, int runs, std::uint64_t offset) {
  const auto d = dpsynth::test::makeDataset(Family::beta, y);
  const auto interval = privacy::censorInterval(Family::beta, privacy::Neighbours::replaceOne, 1.0);
  const std::vector<double> ones(y.size(), 1.0);
  return onTwoThreads<int>(runs, [&](int run) {
    const auto s = samplingAuditSettings(offset + static_cast<std::uint64_t>(run),
                                         privacy::Neighbours::replaceOne, 4, 1000, 2000);
    pipeline::StageCache cache;
    pipeline::detail::StageRunner runner(d, s, &cache, {}, nullptr);
    const auto start = runner.run("audit", "unweighted", "unweighted", ones, std::nullopt, nullptr);
    const auto fit = runner.run("audit", "censor-uw", "censor-uw", ones, interval, start);
    return pipeline::screenFailures(fit->name, fit->posterior, fit->sample).empty() ? 1 : 0;
  });
}

}  // namespace

class AuditSamplingTest : public QObject {
  Q_OBJECT
 private slots:
  /// Add-remove, ε = 1: x = {0.5, 0.5} and x′ = x plus r = 0.005. Under the beta prior (a
  /// U-shaped beta for most of its mass) r's clamped term sits at the top of the interval over
  /// most of the prior and at the bottom where f(r; θ) is low, so the event {f(r; θ) <= −0.85}
  /// separates the two databases nearly as much as the interval allows. Quadrature over the
  /// prior puts the event's loss at about 0.8 with the interval of SPEC §0 and 1.8 with one
  /// twice as wide (the event was chosen from that analysis, before these runs). Replace-one
  /// pairs of natural data stay near ε/2 even with the wide clamp, so the clamp's width is
  /// audited under add-remove, where a record's whole term comes and goes.
  void censoringIntervalOfTheReleasedDraw() {
    const double eps = 1.0, r = 0.005, event = -0.85;
    const auto ar = privacy::Neighbours::addRemove;
    const std::vector<double> x{0.5, 0.5};
    const std::vector<double> withR{0.5, 0.5, r};
    const int pipelineRuns = 1500, exactRuns = 10000;
    const double asExecuted =
        auditLossLowerBoundAt(pipelineStatistic(x, r, eps, ar, pipelineRuns, 500000),
                              pipelineStatistic(withR, r, eps, ar, pipelineRuns, 600000), event);
    const double honest =
        auditLossLowerBoundAt(exactStatistic(x, r, eps, ar, 1.0, exactRuns, 700000),
                              exactStatistic(withR, r, eps, ar, 1.0, exactRuns, 800000), event);
    const auto wideA = exactStatistic(x, r, eps, ar, 2.0, exactRuns, 900000);
    const auto wideB = exactStatistic(withR, r, eps, ar, 2.0, exactRuns, 1000000);
    const double wide = auditLossLowerBoundAt(wideA, wideB, event);
    // The deciles of the pooled values, with no event chosen in advance, see it too, with a
    // thinner margin (printed, not required).
    const double wideDeciles = auditLossLowerBound(wideA, wideB);
    printAuditRow("censor-uw, beta θ (pipeline)", "add-remove", eps, "f(r; θ)", pipelineRuns,
                  asExecuted, false);
    printAuditRow("censor-uw, beta θ (exact sampler)", "add-remove", eps, "f(r; θ)", exactRuns,
                  honest, false);
    printAuditRow("clamp twice as wide", "add-remove", eps, "f(r; θ)", exactRuns, wide, true);
    printAuditRow("clamp twice as wide", "add-remove", eps, "f(r; θ), deciles", exactRuns,
                  wideDeciles, true);
    QVERIFY2(asExecuted < eps, qPrintable(QString::number(asExecuted)));
    QVERIFY2(honest < eps, qPrintable(QString::number(honest)));
    QVERIFY2(wide > eps, qPrintable(QString::number(wide)));
  }

  /// Replace-one, ε = 1, beta n = 20 and the neighbour with record 3 moved to 0.0001: whether
  /// a release appears. The exact route always releases; the gated NUTS route is caught.
  void whetherAReleaseAppears() {
    const double eps = 1.0;
    std::vector<double> x;
    for (std::size_t i = 0; i < 20; ++i)
      x.push_back(0.3 + 0.4 * static_cast<double>((i * 7) % 20) / 20);
    std::vector<double> moved = x;
    moved[3] = 0.0001;
    const int exactRuns = 200, gatedRuns = 500;
    const auto a = pipelineAppears(x, exactRuns, 1100000);
    const auto b = pipelineAppears(moved, exactRuns, 1200000);
    QCOMPARE(std::count(a.begin(), a.end(), 1), static_cast<long>(exactRuns));
    QCOMPARE(std::count(b.begin(), b.end(), 1), static_cast<long>(exactRuns));
    const double honest = auditLossLowerBoundDiscrete(a, b);
    const auto ga = gatedAppears(x, gatedRuns, 1300000);
    const auto gb = gatedAppears(moved, gatedRuns, 1400000);
    const double gated = auditLossLowerBoundDiscrete(ga, gb);
    qInfo("gated route: released in %ld of %d runs, and %ld of %d with the record moved",
          static_cast<long>(std::count(ga.begin(), ga.end(), 1)), gatedRuns,
          static_cast<long>(std::count(gb.begin(), gb.end(), 1)), gatedRuns);
    printAuditRow("censor-uw, beta n=20 (exact route)", "replace-one", eps, "release appears",
                  exactRuns, honest, false);
    printAuditRow("NUTS + refusal gate (old route)", "replace-one", eps, "release appears",
                  gatedRuns, gated, true);
    QVERIFY2(honest < eps, qPrintable(QString::number(honest)));
    QVERIFY2(gated > eps, qPrintable(QString::number(gated)));
  }
};

QTEST_APPLESS_MAIN(AuditSamplingTest)
#include "audit_sampling_test.moc"
