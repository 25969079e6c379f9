#include "core/study/replicate_source.h"

#include <QtTest>
#include <cmath>

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

  void normalGeneratorDrawsItsMeanAndSd() {
    // The frontier's public source for the normal family: n draws of Normal(mu, sigma), no
    // covariates. Sample mean within 5 standard errors of mu, sample sd within 5% of sigma.
    study::StudyConfig config;
    config.source.generator = study::Generator::parse("normal(-3,2)");
    config.source.n = 20000;
    const study::ReplicateSource source(config);
    QCOMPARE(source.size(), std::size_t(20000));
    const auto d = source.draw(7);
    QCOMPARE(d.family, dpsynth::core::models::Family::normal);
    QCOMPARE(d.size(), std::size_t(20000));
    QCOMPARE(d.X.cols(), Eigen::Index(1));
    const double mean = d.y.mean();
    const double sd = std::sqrt((d.y.array() - mean).square().sum() / (d.y.size() - 1));
    QVERIFY2(std::abs(mean + 3) < 5 * 2 / std::sqrt(20000.0), qPrintable(QString::number(mean)));
    QVERIFY2(std::abs(sd - 2) < 0.1, qPrintable(QString::number(sd)));
    QVERIFY(d.y.minCoeff() < -3 && d.y.maxCoeff() > -3);  // not a constant
    QVERIFY(source.draw(7).y == d.y);                     // seeded: the same replicate
    QVERIFY(source.draw(8).y != d.y);
  }
};

QTEST_APPLESS_MAIN(ReplicateSourceTest)
#include "replicate_source_test.moc"
