/// The convergence check of data augmentation (da_convergence.h): its sentences by hand, and the
/// extension of a run left at the defaults: 2×, then 4× the sweeps and warm-up, from fresh
/// randomness, and never beyond the cap.
#include "core/infer/da_convergence.h"

#include <QtTest>
#include <cmath>
#include <optional>

#include "core/infer/naive_bayes_release.h"

namespace infer = dpsynth::core::infer;

namespace {

/// 40 records of a two-class, one-feature layout; firstCount, when given, replaces the first
/// noisy count (a release edited by hand).
infer::NaiveBayesModel convergenceModel(double epsilon = 1.0,
                                        std::optional<double> firstCount = std::nullopt) {
  infer::NaiveBayesLayout l;
  l.classes = {"a", "b"};
  l.features = {"f"};
  l.levels = {{"x", "y"}};
  std::vector<std::vector<int>> records;
  for (int i = 0; i < 40; ++i) records.push_back({i % 2, (i / 2) % 2});
  Eigen::VectorXd counts = infer::naiveBayesCounts(l, records);
  if (firstCount) counts[0] = *firstCount;
  return infer::NaiveBayesModel(l, 40, counts, 2.0 * 2 / epsilon);
}

infer::DaConfig convergenceConfig(int iterations, int warmup) {
  infer::DaConfig c;
  c.seed = 5;
  c.iterations = iterations;
  c.warmup = warmup;
  c.chains = 2;
  c.threads = 1;
  return c;
}

}  // namespace

class DaConvergenceTest : public QObject {
  Q_OBJECT
 private slots:
  void problemsNameTheWorstParameter() {
    std::vector<infer::DaParameterSummary> s(3);
    s[0] = {"p[a]", 0, 0, 0, 0, 0, 1.002, 900};
    s[1] = {"p[b]", 0, 0, 0, 0, 0, 1.3, 150};
    s[2] = {"q", 0, 0, 0, 0, 0, 1.05, 12};
    const auto problems = infer::daConvergenceProblems(s, 2);
    QCOMPARE(problems.size(), std::size_t(2));
    QCOMPARE(problems[0], std::string("R-hat 1.30 for p[b] (converged chains have at most 1.01)"));
    QCOMPARE(problems[1], std::string("bulk-ESS 12 for q (at least 100 per chain are needed, "
                                      "200 for 2 chains)"));
    s[1].rhat = 1.005;
    s[1].ess = 400;
    s[2] = {"q", 0, 0, 0, 0, 0, 1.0, 200};
    QVERIFY(infer::daConvergenceProblems(s, 2).empty());
    s[2].rhat = std::nan("");
    QCOMPARE(infer::daConvergenceProblems(s, 2).front(),
             std::string("R-hat not computable for q (converged chains have at most 1.01)"));
  }

  void anAcceptanceBelowTheBoundIsAProblem() {
    const double bound = std::exp(-1.0);
    QVERIFY(infer::daAcceptanceProblem(0.5, bound).empty());
    QVERIFY(infer::daAcceptanceProblem(bound, bound).empty());
    QVERIFY(!infer::daAcceptanceProblem(3.7e-6, bound).empty());
    // The mechanism keeps the bound on a release it could make; a count edited to 1e17 breaks it
    // (the sums lose their precision), and the check says so.
    const auto fair = infer::runDataAugmentation(convergenceModel(), convergenceConfig(400, 100));
    QVERIFY2(infer::daAcceptanceProblem(fair.minAcceptance(), bound).empty(),
             qPrintable(QString::number(fair.minAcceptance())));
    const auto broken =
        infer::runDataAugmentation(convergenceModel(1.0, 1e17), convergenceConfig(400, 100));
    QVERIFY2(!infer::daAcceptanceProblem(broken.minAcceptance(), bound).empty(),
             qPrintable(QString::number(broken.minAcceptance())));
  }

  void aRunAtTheDefaultsIsExtendedUpToTheCap() {
    const auto model = convergenceModel();
    // 30 sweeps keep 10 draws per chain: never 100 effective draws per chain.
    std::vector<int> retries;
    const auto run = infer::runDataAugmentationChecked(
        model, convergenceConfig(30, 20), true, {}, {}, {},
        [&](int factor, const std::vector<std::string>& problems) {
          QVERIFY(!problems.empty());
          retries.push_back(factor);
        });
    QCOMPARE(retries, (std::vector<int>{2, 4}));
    QCOMPARE(run.budgetFactor, 4);
    QCOMPARE(run.config.iterations, 120);
    QCOMPARE(run.config.warmup, 80);
    QCOMPARE(run.result.chains.front().draws.rows(), Eigen::Index(40));
    QVERIFY(!run.problems.empty());
    // Asked for explicitly: kept, with its problems.
    const auto kept = infer::runDataAugmentationChecked(model, convergenceConfig(30, 20), false);
    QCOMPARE(kept.budgetFactor, 1);
    QCOMPARE(kept.config.iterations, 30);
    QVERIFY(!kept.problems.empty());
    // Long enough at once: no extension.
    const auto enough =
        infer::runDataAugmentationChecked(model, convergenceConfig(3000, 500), true);
    QVERIFY2(enough.problems.empty(),
             enough.problems.empty() ? "" : enough.problems.front().c_str());
    QCOMPARE(enough.budgetFactor, 1);
  }

  /// At ε = 10^-5 the release says nothing: the posterior is the prior (Dirichlet(2, 2) for
  /// the class probability: mean 1/2, sd 1/√20), and the joint prior-predictive step, accepted
  /// almost always, gives nearly independent draws where the Gibbs sweeps alone random-walk.
  void aReleaseThatSaysNothingGivesThePriorQuickly() {
    const auto model = convergenceModel(1e-5);
    const auto run = infer::runDataAugmentationChecked(model, convergenceConfig(2000, 500), true);
    QVERIFY2(run.problems.empty(), run.problems.empty() ? "" : run.problems.front().c_str());
    QCOMPARE(run.budgetFactor, 1);
    long long tried = 0, accepted = 0;
    for (const auto& c : run.result.chains) {
      tried += c.jointProposals;
      accepted += c.jointAccepted;
    }
    QCOMPARE(tried, 2LL * 2000 / 4);
    QVERIFY(accepted > 0.95 * static_cast<double>(tried));
    const auto& pa = run.summary.front();  // p[a]
    QVERIFY2(std::abs(pa.mean - 0.5) < 0.02, qPrintable(QString::number(pa.mean)));
    QVERIFY2(std::abs(pa.sd - 1.0 / std::sqrt(20.0)) < 0.02, qPrintable(QString::number(pa.sd)));
    QVERIFY2(pa.ess > 500, qPrintable(QString::number(pa.ess)));
  }
};

QTEST_APPLESS_MAIN(DaConvergenceTest)
#include "da_convergence_test.moc"
