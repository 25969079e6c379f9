#include "core/data/design_match.h"

#include <QtTest>
#include <string>
#include <vector>

#include "core/data/csv_table.h"
#include "core/data/dataset.h"

using dpsynth::core::data::buildDataset;
using dpsynth::core::data::CsvTable;
using dpsynth::core::data::Dataset;
using dpsynth::core::data::DatasetSpec;
using dpsynth::core::data::matchDesign;
using dpsynth::core::data::parseCsv;
using dpsynth::core::models::Family;
using Strings = std::vector<std::string>;

namespace {

DatasetSpec sexSpec() {
  DatasetSpec spec;
  spec.outcome = "y";
  spec.covariates = {"sex", "age"};
  spec.family = Family::poisson;
  return spec;
}

/// This period's file from SPSS: sex coded 1 = male, 2 = female, its levels in label order
/// (male first, so male is the reference and the dummy is sex=female).
Dataset labelledData() {
  CsvTable coded = parseCsv("y,sex,age\n1,1,30\n2,2,41\n0,1,52\n3,2,27\n", "d.sav");
  coded.columns.resize(3);
  coded.columns[1].valueLabels = {{"1", "male"}, {"2", "female"}};
  return buildDataset(coded, sexSpec());
}

}  // namespace

class DesignMatchTest : public QObject {
  Q_OBJECT

 private slots:
  /// Last period's synthetic CSV sorts the levels (female first, the dummy sex=male): matched,
  /// it has the data's columns, sex=female being one minus its sex=male dummy.
  void theSameLevelsInAnotherOrderMatch() {
    const Dataset data = labelledData();
    QVERIFY(data.designNames == (Strings{"(Intercept)", "sex=female", "age"}));
    const Dataset released = buildDataset(
        parseCsv("y,sex,age\n1,male,33\n2,female,45\n0,female,29\n", "r.csv"), sexSpec());
    QVERIFY(released.designNames == (Strings{"(Intercept)", "sex=male", "age"}));
    std::string problem = "stale";
    const auto matched = matchDesign(released, data, &problem);
    QVERIFY2(matched.has_value(), problem.c_str());
    QVERIFY(problem.empty());
    QVERIFY(matched->designNames == data.designNames);
    Eigen::MatrixXd expected(3, 3);
    expected << 1, 0, 33,  // male
        1, 1, 45,          // female
        1, 1, 29;          // female
    QVERIFY(matched->X == expected);
    QVERIFY(matched->y == released.y);
  }

  /// Levels only in one file are named, each side's, and nothing is matched.
  void otherLevelsAreNamed() {
    const Dataset data = labelledData();
    const Dataset released = buildDataset(
        parseCsv("y,sex,age\n1,male,33\n2,other,45\n0,female,29\n", "r.csv"), sexSpec());
    std::string problem;
    QVERIFY(!matchDesign(released, data, &problem).has_value());
    QVERIFY2(problem.find("covariate 'sex': levels only in the data: none; only in the "
                          "reference: other") != std::string::npos,
             problem.c_str());
  }

  /// A covariate that is numbers in one and text in the other is another design.
  void anotherKindIsNamed() {
    const Dataset data = labelledData();
    DatasetSpec spec = sexSpec();
    const Dataset released =
        buildDataset(parseCsv("y,sex,age\n1,0,33\n2,1,45\n0,1,29\n", "r.csv"), spec);
    std::string problem;
    QVERIFY(!matchDesign(released, data, &problem).has_value());
    QVERIFY2(
        problem.find("'sex' is text in the data but numbers in the reference") != std::string::npos,
        problem.c_str());
  }
};

QTEST_APPLESS_MAIN(DesignMatchTest)
#include "design_match_test.moc"
