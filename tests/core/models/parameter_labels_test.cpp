#include "core/models/parameter_labels.h"

#include <QtTest>

using namespace dpsynth::core::models;

class ParameterLabelsTest : public QObject {
  Q_OBJECT
 private slots:
  void coefficientsTakeTheDesignNames() {
    const std::vector<std::string> design = {"(Intercept)", "age", "gender=M", "region=North"};
    const std::vector<std::string> names = {"beta[0]",  "beta[1]",  "beta[2]", "beta[3]",
                                            "sigma[0]", "sigma[2]", "phi"};
    const std::vector<std::string> want = {
        "intercept",       "age", "gender=M", "region=North", "sigma[intercept]",
        "sigma[gender=M]", "phi"};
    QVERIFY(parameterLabels(names, design) == want);
  }

  void unknownNamesAreKept() {
    const std::vector<std::string> names = {"beta[7]", "sigma", "beta[x]", "betas[0]"};
    QVERIFY(parameterLabels(names, {"(Intercept)"}) == names);
  }
};

QTEST_APPLESS_MAIN(ParameterLabelsTest)
#include "parameter_labels_test.moc"
