#include "core/data/generators.h"

#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "core/data/csv_writer.h"
#include "core/data/dataset.h"
#include "core/data/value_parsing.h"
#include "support/test_files.h"

namespace data = dpsynth::core::data;
using dpsynth::core::models::Family;
using Strings = std::vector<std::string>;

namespace {

std::vector<double> column(const data::CsvTable& table, std::size_t j) {
  std::vector<double> values;
  for (const auto& row : table.rows) values.push_back(data::parseNumber(row[j]).value());
  return values;
}

double mean(const std::vector<double>& v) {
  double sum = 0.0;
  for (const double x : v) sum += x;
  return sum / static_cast<double>(v.size());
}

double variance(const std::vector<double>& v) {
  const double m = mean(v);
  double sum = 0.0;
  for (const double x : v) sum += (x - m) * (x - m);
  return sum / static_cast<double>(v.size() - 1);
}

}  // namespace

class GeneratorsTest : public QObject {
  Q_OBJECT

 private slots:
  void describesTheKinds() {
    QVERIFY(data::sampleKinds() == (Strings{"nbmix", "beta", "poisson", "salary"}));
    QCOMPARE(data::defaultSampleSize("nbmix"), std::size_t{1000});
    QCOMPARE(data::defaultSampleSize("beta"), std::size_t{2000});
    QCOMPARE(data::defaultSampleSize("poisson"), std::size_t{1000});
    QCOMPARE(data::defaultSampleSize("salary"), std::size_t{1000});
    QCOMPARE(data::defaultSampleSeed("nbmix"), std::uint64_t{20261122});
    QCOMPARE(data::defaultSampleSeed("salary"), std::uint64_t{20261125});
    QCOMPARE(QString::fromStdString(data::samplePath("beta")),
             QString("resources/samples/beta.csv"));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, data::generateSample("gamma", 10, 1));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, data::defaultSampleSeed("gamma"));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, data::generateSample("beta", 0, 1));
  }

  void sameSeedSameTable_data() {
    QTest::addColumn<QString>("kind");
    for (const auto& kind : data::sampleKinds()) {
      QTest::newRow(kind.c_str()) << QString::fromStdString(kind);
    }
  }

  void sameSeedSameTable() {
    QFETCH(QString, kind);
    const std::string k = kind.toStdString();
    const data::CsvTable a = data::generateSample(k, 300, 99);
    const data::CsvTable b = data::generateSample(k, 300, 99);
    const data::CsvTable c = data::generateSample(k, 300, 100);
    QVERIFY(a.header == b.header);
    QVERIFY(a.rows == b.rows);
    QVERIFY(a.rows != c.rows);
    QCOMPARE(a.rows.size(), std::size_t{300});
    QCOMPARE(a.lineOfRow.front(), std::size_t{2});
    QCOMPARE(a.lineOfRow.back(), std::size_t{301});
    // A longer table starts with the shorter one: records are drawn one after another.
    const data::CsvTable longer = data::generateSample(k, 400, 99);
    QVERIFY(std::equal(a.rows.begin(), a.rows.end(), longer.rows.begin()));
  }

  void reproducesTheBundledFiles_data() { sameSeedSameTable_data(); }

  void reproducesTheBundledFiles() {
    QFETCH(QString, kind);
    const std::string k = kind.toStdString();
    const data::CsvTable table =
        data::generateSample(k, data::defaultSampleSize(k), data::defaultSampleSeed(k));
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const std::string path = dir.filePath("sample.csv").toStdString();
    data::writeCsvAtomic(path, table.header, table.rows);
    const std::string committed =
        dpsynth::test::readFile(std::string(DPSYNTH_SOURCE_DIR) + "/" + data::samplePath(k));
    QVERIFY2(!committed.empty(), "the bundled sample is missing");
    QVERIFY2(dpsynth::test::readFile(path) == committed,
             "regenerate resources/samples (see resources/README.md)");
  }

  void nbmixMatchesItsMixture() {
    // Mean 100; variance = E[μ + μ²/φ] = 100 + 10000·(0.2/5 + 0.8/20) = 900.
    const data::CsvTable t = data::generateSample("nbmix", 20000, 1);
    QVERIFY(t.header == (Strings{"count"}));
    const auto v = column(t, 0);
    QVERIFY(std::all_of(v.begin(), v.end(), [](double x) { return x >= 0 && x == std::floor(x); }));
    QVERIFY(std::abs(mean(v) - 100.0) < 1.0);       // standard error 0.21
    QVERIFY(std::abs(variance(v) - 900.0) < 90.0);  // standard error about 15
  }

  void betaMatchesBetaHalfThree() {
    // Mean a/(a+b) = 1/7; variance ab/((a+b)²(a+b+1)) = 1.5/55.125.
    const data::CsvTable t = data::generateSample("beta", 20000, 2);
    QVERIFY(t.header == (Strings{"value"}));
    const auto v = column(t, 0);
    QVERIFY(std::all_of(v.begin(), v.end(), [](double x) { return x > 0.0 && x < 1.0; }));
    QVERIFY(std::abs(mean(v) - 1.0 / 7.0) < 0.005);         // standard error 0.0012
    QVERIFY(std::abs(variance(v) - 1.5 / 55.125) < 0.002);  // standard error 0.0003
    // The text reads back to exactly the drawn double: formatNumber is round-trip exact.
    for (std::size_t i = 0; i < 50; ++i) {
      QCOMPARE(QString::fromStdString(data::formatNumber(v[i])),
               QString::fromStdString(std::string(t.rows[i][0])));
    }
  }

  void poissonMatchesPoissonHundred() {
    const data::CsvTable t = data::generateSample("poisson", 20000, 3);
    const auto v = column(t, 0);
    QVERIFY(std::abs(mean(v) - 100.0) < 0.5);      // standard error 0.07
    QVERIFY(std::abs(variance(v) - 100.0) < 6.0);  // standard error 1
  }

  void salaryHasTheDocumentedShape() {
    const data::CsvTable t = data::generateSample("salary", 20000, 4);
    QVERIFY(t.header == (Strings{"gender", "age_group", "weeks_worked", "salary"}));
    std::map<std::string, std::vector<double>> logSalaryByGender;
    std::set<std::string> ages;
    std::vector<double> weeks, logSalary;
    for (const auto& row : t.rows) {
      QVERIFY(row[0] == "F" || row[0] == "M");
      ages.emplace(row[1]);
      const double w = data::parseNumber(row[2]).value();
      QVERIFY(w >= 1 && w <= 52 && w == std::floor(w));
      const double s = data::parseNumber(row[3]).value();
      QVERIFY(s > 0.0);
      QCOMPARE(row[3].size() - row[3].find('.'), std::size_t{3});  // two decimals
      weeks.push_back(w);
      logSalary.push_back(std::log(s));
      logSalaryByGender[std::string(row[0])].push_back(std::log(s));
    }
    QVERIFY(ages == (std::set<std::string>{"16-24", "25-34", "35-49", "50-64"}));
    const auto full = std::count(weeks.begin(), weeks.end(), 52.0);
    QVERIFY(full > 1500);  // 52 is the most common value
    QVERIFY(mean(weeks) > 40 && mean(weeks) < 47);
    // The documented effects: men +0.12 on the log scale; fewer weeks, lower pay.
    const double gap = mean(logSalaryByGender["M"]) - mean(logSalaryByGender["F"]);
    QVERIFY(std::abs(gap - 0.12) < 0.04);
    std::vector<double> fullYear, partYear;
    for (std::size_t i = 0; i < weeks.size(); ++i) {
      (weeks[i] == 52 ? fullYear : partYear).push_back(logSalary[i]);
    }
    QVERIFY(mean(fullYear) > mean(partYear) + 0.05);
  }

  void valuesEqualTheTextOnceParsed() {
    for (const std::string kind : {"nbmix", "beta", "poisson"}) {
      const auto table = data::generateSample(kind, 3000, 77);
      data::DatasetSpec spec;
      spec.outcome = table.header.front();
      spec.family = kind == "beta" ? Family::beta : Family::negbin;
      const data::Dataset fromText = data::buildDataset(table, spec);
      const Eigen::VectorXd values = data::generateValues(kind, 3000, 77);
      QVERIFY(values == fromText.y);
    }
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, data::generateValues("salary", 10, 1));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, data::generateValues("nbmix", 0, 1));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, data::generateValues("gamma", 10, 1));
  }

  void samplesBuildTheirIntendedDatasets() {
    const auto bundled = [](const std::string& kind) {
      return data::generateSample(kind, data::defaultSampleSize(kind),
                                  data::defaultSampleSeed(kind));
    };
    QCOMPARE(data::suggestFamily(bundled("nbmix"), "count"), Family::negbin);
    QCOMPARE(data::suggestFamily(bundled("poisson"), "count"), Family::negbin);
    QCOMPARE(data::suggestFamily(bundled("beta"), "value"), Family::beta);
    data::DatasetSpec spec;
    spec.outcome = "salary";
    spec.covariates = {"gender", "age_group", "weeks_worked"};
    const data::Dataset d = data::buildDataset(bundled("salary"), spec);
    QCOMPARE(d.X.cols(), Eigen::Index{6});  // intercept, gender, 3 age dummies, weeks
  }
};

QTEST_APPLESS_MAIN(GeneratorsTest)
#include "generators_test.moc"
