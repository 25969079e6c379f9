/// Synthetic datasets drawn and written one at a time (issue 21, 5): the same bytes as the
/// table-of-strings route they replace, the same datasets as synthesize(), a bound on m, and
/// a stop request that leaves nothing.
#include "core/pipeline/bundle_writer.h"

#include <QDir>
#include <QTemporaryDir>
#include <QtTest>
#include <stop_token>

#include "core/data/csv_table.h"
#include "core/data/csv_writer.h"
#include "core/exec/cancellation.h"
#include "core/pipeline/synthesis.h"

namespace pipeline = dpsynth::core::pipeline;
namespace data = dpsynth::core::data;

namespace {

/// Public covariates that need quoting (a comma, a quote, blanks), a column that never leaves,
/// a count outcome (written rounded), and ';' as the file's delimiter.
data::Dataset awkwardDataset() {
  std::string text = "id;y;g;note\n";
  const char* groups[] = {"a,b", "say \"hi\"", " padded ", "plain"};
  for (int i = 0; i < 40'000; ++i)
    text += "P" + std::to_string(i) + ";" + std::to_string(i % 11) + ";" + groups[i % 4] + ";n" +
            std::to_string(i) + "\n";
  data::DatasetSpec spec;
  spec.outcome = "y";
  spec.covariates = {"g"};
  spec.family = dpsynth::core::models::Family::poisson;
  return data::buildDataset(data::parseCsv(text, "awkward.csv"), spec);
}

}  // namespace

class BundleWriterTest : public QObject {
  Q_OBJECT
 private slots:
  void theTextIsFormatCsvOfTheRows() {
    const data::Dataset d = awkwardDataset();
    Eigen::VectorXd y(static_cast<Eigen::Index>(d.size()));
    for (Eigen::Index i = 0; i < y.size(); ++i) y[i] = 0.4 * static_cast<double>(i % 17);
    for (int j : {0, 3}) {
      const std::string expected = data::formatCsv(
          pipeline::releasedColumns(d), pipeline::syntheticRows(d, y, 9, j), d.source.delimiter);
      QVERIFY(pipeline::syntheticCsvText(d, y, 9, j) == expected);
    }
  }

  void synthesizerDrawsWhatSynthesizeDraws() {
    const data::Dataset d = awkwardDataset();
    pipeline::MechanismResult result;
    result.config.mechanism = pipeline::Mechanism::unweighted;
    auto stage = std::make_shared<pipeline::StageResult>();
    stage->sample.edit().chains.resize(2);
    stage->sample.edit().chains[0].draws = Eigen::MatrixXd::Constant(3, d.X.cols(), 0.1);
    stage->sample.edit().chains[1].draws = Eigen::MatrixXd::Constant(4, d.X.cols(), -0.2);
    stage->sample.edit().chains[1].draws(2, 0) = 1.5;
    result.final = stage;
    const dpsynth::core::models::ModelSpec spec{d.family};
    const auto all = pipeline::synthesize(d, result, spec, 4, 21);
    const pipeline::Synthesizer one(d, result, spec, 21);
    for (int j = 3; j >= 0; --j) QVERIFY(one.draw(j) == all[static_cast<std::size_t>(j)]);
    std::stop_source stop;
    stop.request_stop();
    QVERIFY_THROWS_EXCEPTION(dpsynth::core::exec::Cancelled, one.draw(0, stop.get_token()));
  }

  void anUnfinishedBundleLeavesNothing() {
    QTemporaryDir tmp;
    const data::Dataset d = awkwardDataset();
    pipeline::MechanismResult result;
    result.config.mechanism = pipeline::Mechanism::unweighted;
    const Eigen::VectorXd y = Eigen::VectorXd::Ones(static_cast<Eigen::Index>(d.size()));
    std::stop_source stop;
    {
      pipeline::SyntheticBundleWriter writer(tmp.filePath("s.csv").toStdString(), d, result, 3, 5);
      writer.add(y);
      stop.request_stop();
      QVERIFY_THROWS_EXCEPTION(dpsynth::core::exec::Cancelled, writer.add(y, stop.get_token()));
      QCOMPARE(QDir(tmp.path()).entryList(QDir::Files), QStringList{"s_1.csv"});
    }
    QVERIFY(QDir(tmp.path()).entryList(QDir::Files | QDir::Hidden).isEmpty());
  }

  void theVolumeBoundNamesTheLargestM() {
    const auto bound = pipeline::kMaxSyntheticRecords;
    pipeline::checkSyntheticVolume(bound / 1000, 1000, 1, "--datasets");  // exactly at the bound
    pipeline::checkSyntheticVolume(1, bound * 10, 3, "--datasets");       // one dataset always fits
    try {
      pipeline::checkSyntheticVolume(bound / 1000 + 1, 1000, 1, "--datasets");
      QFAIL("one dataset past the bound");
    } catch (const std::invalid_argument& e) {
      QVERIFY2(QString(e.what()).contains("use --datasets 100000 or less"), e.what());
    }
    try {
      pipeline::checkSyntheticVolume(100, 1'000'000, 2, "synthetic_datasets");
      QFAIL("m x n x mechanisms past the bound");
    } catch (const std::invalid_argument& e) {
      QVERIFY2(QString(e.what()).contains("for each of 2 mechanisms") &&
                   QString(e.what()).contains("use synthetic_datasets 50 or less"),
               e.what());
    }
  }

  /// A copied covariate wider than Stata's str2045 is refused before any sampling, from the
  /// data's own cells (it was refused when the rows were written, after the run); a CSV takes
  /// it, and a value of 2045 bytes is written.
  void aStataStringTooWideIsRefusedBeforeTheRun() {
    const auto datasetWith = [](std::size_t bytes) {
      data::DatasetSpec spec;
      spec.outcome = "y";
      spec.covariates = {"note"};
      spec.family = dpsynth::core::models::Family::poisson;
      const std::string wide(bytes, 'x');
      return data::buildDataset(
          data::parseCsv("y,note\n1," + wide + "\n2,b\n3,b\n0," + wide + "\n", "wide.csv"), spec);
    };
    const data::Dataset wide = datasetWith(3000);
    try {
      pipeline::checkSyntheticOutput("s.dta", wide);
      QFAIL("a string of 3000 bytes was accepted for Stata");
    } catch (const data::WriteError& e) {
      QVERIFY2(QString(e.what()).contains("'note'"), e.what());
    }
    pipeline::checkSyntheticOutput("s.csv", wide);
    pipeline::checkSyntheticOutput("s.dta", datasetWith(2045));
  }
};

QTEST_APPLESS_MAIN(BundleWriterTest)
#include "bundle_writer_test.moc"
