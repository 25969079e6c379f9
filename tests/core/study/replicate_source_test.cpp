#include "core/study/replicate_source.h"

#include <QtTest>

#include "core/data/csv_table.h"

namespace study = dpsynth::core::study;
namespace data = dpsynth::core::data;

class ReplicateSourceTest : public QObject {
  Q_OBJECT

 private slots:
  void inMemoryBootstrapDrawsAsTheFileDoes() {
    // The studio bootstraps the data it has loaded (a bundled sample has no file): the same
    // dataset in memory must give the same replicates as the config's file.
    study::StudyConfig config;
    study::Bootstrap b;
    b.file = DPSYNTH_SOURCE_DIR "/resources/samples/nbmix.csv";
    b.outcome = "count";
    b.family = dpsynth::core::models::Family::negbin;
    config.source.bootstrap = b;
    config.source.n = 50;
    data::DatasetSpec spec;
    spec.outcome = b.outcome;
    spec.family = b.family;
    const auto original = data::buildDataset(data::readCsv(b.file), spec);

    const study::ReplicateSource fromFile(config);
    const study::ReplicateSource inMemory(config, original);
    QCOMPARE(inMemory.size(), std::size_t(50));
    const auto a = fromFile.draw(123);
    const auto m = inMemory.draw(123);
    QCOMPARE(m.size(), std::size_t(50));
    QVERIFY(a.y == m.y);
    QVERIFY(a.X == m.X);

    config.source.n = 0;  // the loaded data's own size
    QCOMPARE(study::ReplicateSource(config, original).size(), original.size());
  }
};

QTEST_APPLESS_MAIN(ReplicateSourceTest)
#include "replicate_source_test.moc"
