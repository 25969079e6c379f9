#include <QtTest>
#include <cstring>

#include "core/mcmc/sampler.h"
#include "support/gaussian_models.h"

using dpsynth::core::mcmc::MetricChoice;
using dpsynth::core::mcmc::NutsConfig;
using dpsynth::core::mcmc::sample;
using dpsynth::core::mcmc::SampleResult;
namespace test = dpsynth::test;

namespace {

/// FNV-1a over raw bytes: any change of any bit of a draw changes the hash.
class PinnedDrawsHash {
 public:
  void add(const void* data, std::size_t size) {
    const auto* bytes = static_cast<const unsigned char*>(data);
    for (std::size_t i = 0; i < size; ++i) {
      value_ ^= bytes[i];
      value_ *= 1099511628211ULL;
    }
  }
  void add(double x) { add(&x, sizeof x); }
  void add(long long x) { add(&x, sizeof x); }
  void add(const Eigen::MatrixXd& m) {
    if (m.size() > 0) add(m.data(), sizeof(double) * static_cast<std::size_t>(m.size()));
  }
  std::uint64_t value() const { return value_; }

 private:
  std::uint64_t value_ = 14695981039346656037ULL;
};

/// Everything a run reports that the chain loop decides: draws, adapted step size and metric,
/// divergences, gradient evaluations and acceptance.
std::uint64_t pinnedDrawsDigest(const SampleResult& result) {
  PinnedDrawsHash h;
  for (const auto& chain : result.chains) {
    h.add(chain.draws);
    h.add(chain.stepSize);
    h.add(Eigen::MatrixXd(chain.inverseMetric));
    h.add(chain.inverseMetricDense);
    h.add(static_cast<long long>(chain.divergences));
    h.add(static_cast<long long>(chain.treeDepthSaturated));
    h.add(chain.gradientEvaluations);
    h.add(chain.meanAcceptStat);
  }
  return h.value();
}

NutsConfig pinnedDrawsConfig(std::uint64_t seed, MetricChoice metric) {
  NutsConfig c;
  c.seed = seed;
  c.threads = 1;
  c.chains = 2;
  c.warmup = 250;
  c.draws = 150;
  c.metric = metric;
  return c;
}

}  // namespace

/// Pins the draws of seeded runs to the values recorded before the chain loop became a loop over
/// NutsKernel: a refactoring of the warm-up or transition must not change one bit. (The dense
/// digests were recorded again when the dense metric's regularisation became scale-free.) The
/// digests are those of this build (x86-64, glibc libm); another libm may legitimately differ.
class PinnedDrawsTest : public QObject {
  Q_OBJECT

 private slots:
  void diagonalMetricBanana() {
    test::BananaModel model(0.5);
    const SampleResult r = sample(model, pinnedDrawsConfig(42, MetricChoice::diag));
    QCOMPARE(pinnedDrawsDigest(r), std::uint64_t{13429841461644804153ULL});
  }

  void diagonalMetricCorrelatedGaussian() {
    Eigen::Matrix3d cov;
    cov << 1.0, 0.3, 0.0, 0.3, 2.0, 0.5, 0.0, 0.5, 1.5;
    test::CorrelatedGaussianModel model(Eigen::Vector3d(1.0, 2.0, 3.0), cov);
    const SampleResult r = sample(model, pinnedDrawsConfig(7, MetricChoice::diag));
    QCOMPARE(pinnedDrawsDigest(r), std::uint64_t{2023874336398957984ULL});
  }

  void denseMetricCorrelatedGaussian() {
    Eigen::Matrix3d cov;
    cov << 1.0, 0.9, 0.0, 0.9, 2.0, 0.5, 0.0, 0.5, 1.5;
    test::CorrelatedGaussianModel model(Eigen::Vector3d(1.0, 2.0, 3.0), cov);
    const SampleResult r = sample(model, pinnedDrawsConfig(11, MetricChoice::dense));
    QCOMPARE(r.metric(), dpsynth::core::mcmc::MetricKind::dense);
    QCOMPARE(pinnedDrawsDigest(r), std::uint64_t{16326320160601993935ULL});
  }

  void denseMetricFunnel() {
    test::FunnelModel model(3);
    const SampleResult r = sample(model, pinnedDrawsConfig(3, MetricChoice::dense));
    QCOMPARE(pinnedDrawsDigest(r), std::uint64_t{18118107976758472237ULL});
  }
};

QTEST_APPLESS_MAIN(PinnedDrawsTest)
#include "pinned_draws_test.moc"
