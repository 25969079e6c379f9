#include <QtTest>
#include <limits>

#include "core/mcmc/nuts_config.h"

using dpsynth::core::mcmc::NutsConfig;

namespace {
bool mentions(const std::vector<std::string>& problems, const char* word) {
  for (const auto& p : problems) {
    if (p.find(word) != std::string::npos) return true;
  }
  return false;
}
}  // namespace

class ConfigTest : public QObject {
  Q_OBJECT

 private slots:
  void defaultsAreValidAndStanLike() {
    const NutsConfig c;
    QVERIFY(c.validate().empty());
    QCOMPARE(c.chains, 4);
    QCOMPARE(c.warmup, 1000);
    QCOMPARE(c.draws, 1000);
    QCOMPARE(c.maxTreeDepth, 10);
    QCOMPARE(c.targetAccept, 0.8);
  }

  void everyProblemIsListed() {
    NutsConfig c;
    c.chains = 0;
    c.warmup = -1;
    c.draws = 0;
    c.threads = -2;
    c.maxTreeDepth = 0;
    c.targetAccept = 1.0;
    c.initRadius = std::numeric_limits<double>::infinity();
    c.progressEvery = 0;
    const auto problems = c.validate();
    QCOMPARE(int(problems.size()), 8);
    for (const char* field : {"chains", "warmup", "draws", "threads", "maxTreeDepth",
                              "targetAccept", "initRadius", "progressEvery"}) {
      QVERIFY2(mentions(problems, field), field);
    }
  }

  void initsMustMatchChainsAndBeFinite() {
    NutsConfig c;
    c.chains = 2;
    c.inits = {Eigen::VectorXd::Zero(2)};
    QVERIFY(mentions(c.validate(), "inits"));
    c.inits = {Eigen::VectorXd::Zero(2), Eigen::VectorXd::Zero(3)};
    QVERIFY(mentions(c.validate(), "inits[1]"));
    c.inits = {Eigen::VectorXd::Zero(2), Eigen::VectorXd::Constant(2, std::nan(""))};
    QVERIFY(mentions(c.validate(), "non-finite"));
    c.inits = {Eigen::VectorXd::Zero(2), Eigen::VectorXd::Ones(2)};
    QVERIFY(c.validate().empty());
  }

  void boundaries() {
    NutsConfig c;
    c.warmup = 0;
    c.threads = 0;
    c.initRadius = 0.0;
    c.maxTreeDepth = 20;
    QVERIFY(c.validate().empty());
    c.maxTreeDepth = 21;
    QCOMPARE(int(c.validate().size()), 1);
    c.maxTreeDepth = 10;
    c.targetAccept = 0.0;
    QCOMPARE(int(c.validate().size()), 1);
    c.targetAccept = std::nan("");
    QCOMPARE(int(c.validate().size()), 1);
  }
};

QTEST_APPLESS_MAIN(ConfigTest)
#include "config_test.moc"
