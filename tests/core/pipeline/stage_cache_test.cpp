/// The stage cache (core/pipeline/stage_cache.h): bounded in bytes with least-recently-used
/// eviction, and a hit that shares the cached draws instead of copying them.
#include "core/pipeline/stage_cache.h"

#include <QtTest>
#include <memory>

#include "core/pipeline/pipeline.h"
#include "support/sample_data.h"

namespace pipeline = dpsynth::core::pipeline;
namespace mcmc = dpsynth::core::mcmc;

namespace {

/// A stage holding `draws` × 2 draws in one chain (8 bytes each) and nothing per record.
pipeline::StagePtr stageWithDraws(Eigen::Index draws) {
  auto s = std::make_shared<pipeline::StageResult>();
  mcmc::SampleResult sample;
  sample.chains.resize(1);
  sample.chains[0].draws = Eigen::MatrixXd::Zero(draws, 2);
  s->sample = std::move(sample);
  return s;
}

}  // namespace

class StageCacheTest : public QObject {
  Q_OBJECT

 private slots:
  void bytesCountTheDrawsAndWhatIsPerRecord() {
    auto s = std::make_shared<pipeline::StageResult>(*stageWithDraws(1000));
    const std::size_t draws = pipeline::stageBytes(*s);
    QVERIFY(draws >= 1000 * 2 * sizeof(double));
    s->alpha.assign(500, 1.0);
    s->lipschitz.perRecord = Eigen::VectorXd::Zero(500);
    QVERIFY(pipeline::stageBytes(*s) >= draws + 1000 * sizeof(double));
  }

  void leastRecentlyUsedStagesGoFirst() {
    const std::size_t one = pipeline::stageBytes(*stageWithDraws(1000));
    pipeline::StageCache cache(3 * one + one / 2);  // room for three
    cache.insert("a", stageWithDraws(1000));
    cache.insert("b", stageWithDraws(1000));
    cache.insert("c", stageWithDraws(1000));
    QCOMPARE(cache.size(), std::size_t(3));
    QVERIFY(cache.find("a"));  // a is now the most recently used
    cache.insert("d", stageWithDraws(1000));
    QCOMPARE(cache.size(), std::size_t(3));
    QCOMPARE(cache.evictions(), std::size_t(1));
    QVERIFY(!cache.find("b"));  // b was the least recently used
    QVERIFY(cache.find("a") && cache.find("c") && cache.find("d"));
    QVERIFY(cache.bytes() <= cache.maxBytes());
    // A stage larger than the whole bound is not kept, and evicts nothing.
    cache.insert("huge", stageWithDraws(100000));
    QVERIFY(!cache.find("huge"));
    QCOMPARE(cache.size(), std::size_t(3));
    // Replacing a key keeps one entry and its bytes.
    const std::size_t before = cache.bytes();
    cache.insert("a", stageWithDraws(1000));
    QCOMPARE(cache.size(), std::size_t(3));
    QCOMPARE(cache.bytes(), before);
    cache.clear();
    QCOMPARE(cache.size(), std::size_t(0));
    QCOMPARE(cache.bytes(), std::size_t(0));
  }

  void aHitSharesTheCachedDraws() {
    const auto data =
        dpsynth::test::bundledSample("poisson", dpsynth::core::models::Family::poisson, 200);
    pipeline::RunSettings settings;
    settings.model.family = dpsynth::core::models::Family::poisson;
    settings.nuts.chains = 2;
    settings.nuts.warmup = settings.nuts.draws = 100;
    settings.nuts.seed = 5;
    pipeline::MechanismConfig lw;
    lw.mechanism = pipeline::Mechanism::lw;
    pipeline::StageCache cache;
    const auto first = pipeline::runMechanisms(data, {lw}, settings, &cache);
    const auto second = pipeline::runMechanisms(data, {lw}, settings, &cache);
    const auto& a = first.mechanisms.front().stages;
    const auto& b = second.mechanisms.front().stages;
    QCOMPARE(a.size(), b.size());
    for (std::size_t s = 0; s < a.size(); ++s) {
      QVERIFY(!a[s]->fromCache);
      QVERIFY(b[s]->fromCache);
      QCOMPARE(b[s]->name, a[s]->name);
      // The same draws, not a copy of them.
      QVERIFY(b[s]->sample.sharesWith(a[s]->sample));
    }
    QVERIFY(cache.hits() >= a.size());
    // Editing a shared sample copies it first: the cached stage keeps its draws.
    pipeline::StageResult edited = *b[0];
    edited.sample.edit().chains.clear();
    QVERIFY(!edited.sample.sharesWith(a[0]->sample));
    QVERIFY(!a[0]->sample->chains.empty());
  }
};

QTEST_APPLESS_MAIN(StageCacheTest)
#include "stage_cache_test.moc"
