#include "core/pipeline/verdict.h"

#include <QtTest>

#include "core/pipeline/setting_problem.h"

using namespace dpsynth::core::pipeline;

class VerdictTest : public QObject {
  Q_OBJECT
 private slots:
  void allTruncatedIsUnusable() {
    // weighted-e with every record truncated: Δ = 0 and ε = 0 say nothing.
    MechanismResult r;
    r.config.mechanism = Mechanism::weightedE;
    r.truncatedRecords = 1000;
    const Eigen::VectorXd y = Eigen::VectorXd::LinSpaced(1000, 1, 10);
    const Verdict v = judge(r, y, y);
    QVERIFY(!v.usable);
    QCOMPARE(verdictName(v), std::string("unusable"));
    QVERIFY(v.reasons.front().find("1000 of 1000 records truncated") != std::string::npos);
  }

  void deltaZeroFromTruncationIsUnusable() {
    // 999 of 1000 truncated and Δ = 0: not "perfectly private", just nothing left.
    MechanismResult r;
    r.config.mechanism = Mechanism::weightedE;
    r.truncatedRecords = 3;
    auto fit = std::make_shared<StageResult>();
    fit->lipschitz.max = 0;
    r.final = fit;
    const Eigen::VectorXd y = Eigen::VectorXd::LinSpaced(10, 1, 10);
    const Verdict v = judge(r, y, y);
    QVERIFY(!v.usable);
    QVERIFY(v.reasons.front().find("Δ = 0") != std::string::npos);
  }

  /// An aDP fit whose chains disagree (R-hat 1.53, ESS 5) is unusable and says why, beside
  /// any other reason; an exact draw has no chains to judge.
  void aFitThatDidNotConvergeIsUnusable() {
    MechanismResult r;
    r.config.mechanism = Mechanism::censorW;
    r.censoredRecords = 9;
    auto fit = std::make_shared<StageResult>();
    fit->name = "censor-w";
    fit->lipschitz.max = 1;
    fit->posterior = {{"beta[0]", 0, 1, -1, 0, 1, 1.53, 5, 5}};
    fit->sample.edit().chains.resize(2);
    r.final = fit;
    const Eigen::VectorXd y = Eigen::VectorXd::LinSpaced(10, 1, 10);
    const Verdict v = judge(r, y, y);
    QVERIFY(!v.usable);
    QCOMPARE(v.reasons.size(), std::size_t(2));
    QVERIFY(v.reasons[0].find("censored") != std::string::npos);
    QVERIFY2(v.reasons[1].find("did not converge") != std::string::npos &&
                 v.reasons[1].find("R-hat 1.5300 for beta[0]") != std::string::npos &&
                 v.reasons[1].find("bulk-ESS 5 for beta[0]") != std::string::npos,
             v.reasons[1].c_str());
    fit->posterior = {{"beta[0]", 0, 1, -1, 0, 1, 1.001, 900, 900}};
    r.censoredRecords = 1;
    QVERIFY(judge(r, y, y).usable);
    fit->posterior = {{"beta[0]", 0, 1, -1, 0, 1, 1.53, 5, 5}};
    fit->sampling = Sampling::exactEnvelope;
    QVERIFY(judge(r, y, y).usable);
  }

  void halfCensoredIsTheLimit() {
    MechanismResult r;
    r.config.mechanism = Mechanism::censorW;
    const Eigen::VectorXd y = Eigen::VectorXd::LinSpaced(10, 1, 10);
    r.censoredRecords = 5;
    QVERIFY(judge(r, y, y).usable);
    r.censoredRecords = 6;
    QVERIFY(!judge(r, y, y).usable);
  }

  void syntheticMeanFarOffIsUnusable() {
    MechanismResult r;
    r.config.mechanism = Mechanism::censorUw;
    const Eigen::VectorXd y = Eigen::VectorXd::Constant(100, 100.0);
    const Eigen::VectorXd near = Eigen::VectorXd::Constant(100, 90.0);
    const Eigen::VectorXd far = Eigen::VectorXd::Constant(100, 0.3);
    QVERIFY(judge(r, y, near).usable);
    const Verdict v = judge(r, y, far);
    QVERIFY(!v.usable);
    QVERIFY(v.reasons.front().find("synthetic mean 0.3") != std::string::npos);
  }

  void epsilonIsAnOutcomeForTheWeightedFits() {
    for (Mechanism m : {Mechanism::unweighted, Mechanism::lw, Mechanism::cw, Mechanism::lwFinal,
                        Mechanism::cwFinal})
      QVERIFY(!usesEpsilonTarget(m));
    for (Mechanism m : {Mechanism::sw, Mechanism::weightedE, Mechanism::censorUw,
                        Mechanism::censorW, Mechanism::ph})
      QVERIFY(usesEpsilonTarget(m));
  }

  void problemsNameFieldsForEachFrontEnd() {
    MechanismConfig c;
    c.mechanism = Mechanism::ph;
    c.epsilon = 1.0;
    const auto problems = c.problems();
    QCOMPARE(problems.size(), std::size_t{1});
    QCOMPARE(problems[0].fields.size(), std::size_t{2});
    const auto flag = [](SettingField f) { return "--" + settingKey(f); };
    QVERIFY(describe(problems[0], flag).find("set --lower and --upper") != std::string::npos);
    const std::string plain = describe(problems[0]);
    QVERIFY(plain.find("set lower and upper") != std::string::npos);
    QVERIFY(plain.find('{') == std::string::npos);
  }
};

QTEST_APPLESS_MAIN(VerdictTest)
#include "verdict_test.moc"
