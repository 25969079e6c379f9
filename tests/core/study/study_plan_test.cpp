#include "core/study/study_plan.h"

#include <QtTest>
#include <set>

#include "core/random/rng.h"

namespace study = dpsynth::core::study;
namespace pipeline = dpsynth::core::pipeline;

namespace {

study::StudyConfig studyPlanConfig() {
  study::StudyConfig c;
  c.source.generator = study::Generator::parse("beta(0.5,3)");
  c.source.n = 100;
  c.mechanisms = {pipeline::Mechanism::unweighted, pipeline::Mechanism::lw,
                  pipeline::Mechanism::weightedE, pipeline::Mechanism::censorUw,
                  pipeline::Mechanism::ph};
  c.epsilon = {5, 4, 3};
  c.tuning.downscale = {1.0, std::nullopt};
  c.replicates = 7;
  c.seed = 42;
  return c;
}

}  // namespace

class StudyPlanTest : public QObject {
  Q_OBJECT

 private slots:
  void cellsCrossOnlyTheAxesAMechanismUses() {
    const auto config = studyPlanConfig();
    const auto cells = study::studyCells(config);
    // unweighted 1 + lw 1 + weighted-e 3 ε × 2 d + censor-uw 3 + ph 3 = 14.
    QCOMPARE(cells.size(), std::size_t(14));
    QCOMPARE(cells[0].mechanism, pipeline::Mechanism::unweighted);
    QVERIFY(!cells[0].epsilon && !cells[0].c && !cells[0].hasDownscale);
    QCOMPARE(cells[1].mechanism, pipeline::Mechanism::lw);
    QVERIFY(!cells[1].epsilon);
    QCOMPARE(*cells[1].c, 1.0);
    QCOMPARE(cells[2].mechanism, pipeline::Mechanism::weightedE);
    QCOMPARE(*cells[2].epsilon, 5.0);
    QVERIFY(cells[2].hasDownscale);
    QCOMPARE(*cells[2].downscale, 1.0);
    QVERIFY(!cells[3].downscale.has_value());  // auto
    QCOMPARE(*cells[7].epsilon, 3.0);
    QCOMPARE(cells[8].mechanism, pipeline::Mechanism::censorUw);
    QVERIFY(!cells[8].hasDownscale && !cells[8].c);
    for (std::size_t i = 0; i < cells.size(); ++i)
      for (std::size_t j = 0; j < i; ++j) QVERIFY(!(cells[i] == cells[j]));
    // Every cell's settings are valid for the pipeline; PH of a beta outcome gets [0, 1].
    for (const auto& cell : cells) {
      const auto m = cell.mechanismConfig(config);
      QVERIFY2(m.validate().empty(), pipeline::mechanismName(m.mechanism).c_str());
    }
    const auto ph = cells.back().mechanismConfig(config);
    QCOMPARE(*ph.lower, 0.0);
    QCOMPARE(*ph.upper, 1.0);
    QVERIFY(!cells[3].mechanismConfig(config).downscale.has_value());
  }

  void replicateSeedIsTheDocumentedFunction() {
    using dpsynth::core::random::splitMix64;
    QCOMPARE(study::replicateSeed(42, 0), splitMix64(splitMix64(42) ^ 0x9E3779B97F4A7C15ULL));
    QCOMPARE(study::replicateSeed(42, 2), splitMix64(splitMix64(42) ^ (3 * 0x9E3779B97F4A7C15ULL)));
    std::set<std::uint64_t> seen;
    for (std::uint64_t seed : {0ULL, 1ULL, 2ULL})
      for (int r = 0; r < 1000; ++r) seen.insert(study::replicateSeed(seed, r));
    QCOMPARE(seen.size(), std::size_t(3000));
  }

  void shardsPartitionTheReplicates() {
    const auto config = studyPlanConfig();
    QCOMPARE(study::shardReplicates(config, study::Shard::parse("0/3")),
             (std::vector<int>{0, 3, 6}));
    QCOMPARE(study::shardReplicates(config, study::Shard::parse("1/3")), (std::vector<int>{1, 4}));
    QCOMPARE(study::shardReplicates(config, study::Shard::parse("2/3")), (std::vector<int>{2, 5}));
    QCOMPARE(study::shardReplicates(config, study::Shard{}).size(), std::size_t(7));
    for (const char* bad : {"3/3", "1", "a/3", "-1/3", "1/0", "1/3x", "/3"})
      QVERIFY_THROWS_EXCEPTION(std::invalid_argument, study::Shard::parse(bad));
  }
};

QTEST_APPLESS_MAIN(StudyPlanTest)
#include "study_plan_test.moc"
