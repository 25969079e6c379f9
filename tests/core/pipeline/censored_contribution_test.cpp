/// The censoring bound of SPEC §0 measured on the mechanism, not on a reduction that is clamped
/// by construction: at every released draw of a censor-uw run, the log target of the censored
/// pseudo posterior (the function the sampler draws from) is evaluated on the data and on a
/// neighbour with one record replaced by an extreme value; the difference must stay within
/// U − L ≤ ε/2 (replace-one) or max(|L|, |U|) ≤ ε/2 (add-remove, record removed). The unclamped
/// contributions at the same draws exceed ε/2, so without the clamp the test fails, and a model
/// with a clamp twice as wide is shown to fail it.
#include <QtTest>
#include <algorithm>
#include <cmath>

#include "core/data/csv_table.h"
#include "core/models/model.h"
#include "core/pipeline/pipeline.h"
#include "core/random/rng.h"
#include "support/sample_data.h"

using namespace dpsynth::core;
using namespace dpsynth::core::pipeline;
using dpsynth::test::bundledSample;

namespace {

RunSettings censoredContributionSettings(models::Family family, privacy::Neighbours neighbours) {
  RunSettings s;
  s.model.family = family;
  s.nuts.chains = 2;
  s.nuts.warmup = 300;
  s.nuts.draws = 300;
  s.nuts.seed = 20261124;
  s.neighbours = neighbours;
  return s;
}

/// A normal regression on a scale where single log densities straddle ±ε/4: y = 0.5 x + noise
/// with sd 0.2, x from -1 to 1.
data::Dataset censoredContributionRegression() {
  std::string text = "x,y\n";
  random::Rng rng = random::makeRng(random::Seed{7});
  for (int i = 0; i < 120; ++i) {
    const double x = -1.0 + 2.0 * i / 119.0;
    const double y = 0.5 * x + 0.2 * random::standardNormal(rng);
    text += std::to_string(x) + "," + std::to_string(y) + "\n";
  }
  data::DatasetSpec spec;
  spec.outcome = "y";
  spec.covariates = {"x"};
  spec.family = models::Family::normal;
  return data::buildDataset(data::parseCsv(text, "regression.csv"), spec);
}

/// The dataset with record j's outcome set to `value` (replace-one) or record j removed.
data::Dataset censoredContributionNeighbour(const data::Dataset& d, Eigen::Index j,
                                            std::optional<double> value) {
  data::Dataset out = d;
  if (value) {
    out.y[j] = *value;
    return out;
  }
  const Eigen::Index n = d.y.size();
  out.y.resize(n - 1);
  out.X.resize(n - 1, d.X.cols());
  for (Eigen::Index i = 0, k = 0; i < n; ++i) {
    if (i == j) continue;
    out.y[k] = d.y[i];
    out.X.row(k) = d.X.row(i);
    ++k;
  }
  return out;
}

struct CensoredSpread {
  double maxDifference = 0;  ///< max over draws and neighbours of |log target(x) − log target(x′)|
  double maxRaw = 0;         ///< max over draws and records of the unclamped |f_θ(x_i)|
};

/// The spread of the mechanism's log target between the data and each neighbour, at the draws
/// of `stage`, for a model clamped to [lower, upper].
CensoredSpread censoredSpread(const data::Dataset& d, const RunSettings& settings,
                              const StageResult& stage, double lower, double upper,
                              const std::vector<std::optional<double>>& replacements) {
  models::LikelihoodWeights w;
  w.lower = lower;
  w.upper = upper;
  const auto model = models::makeModel(d, settings.model, w);
  const Eigen::MatrixXd draws = stage.sample->pooled();
  CensoredSpread out;
  Eigen::VectorXd raw(static_cast<Eigen::Index>(d.size()));
  for (Eigen::Index s = 0; s < draws.rows(); s += 7) {
    model->recordLogLik(draws.row(s).transpose(), raw);
    out.maxRaw = std::max(out.maxRaw, raw.cwiseAbs().maxCoeff());
  }
  for (const auto& value : replacements) {
    for (Eigen::Index j : {Eigen::Index{0}, static_cast<Eigen::Index>(d.size() / 2)}) {
      const data::Dataset other = censoredContributionNeighbour(d, j, value);
      const auto neighbour = models::makeModel(other, settings.model, w);
      for (Eigen::Index s = 0; s < draws.rows(); s += 7) {
        const Eigen::VectorXd u = draws.row(s).transpose();
        const double a = model->logDensity(u);
        const double b = neighbour->logDensity(models::convertDraw(*model, *neighbour, u));
        out.maxDifference = std::max(out.maxDifference, std::abs(a - b));
      }
    }
  }
  return out;
}

}  // namespace

class CensoredContributionTest : public QObject {
  Q_OBJECT

 private slots:
  void oneRecordMovesTheTargetByAtMostHalfEpsilon_data() {
    QTest::addColumn<QString>("sample");
    QTest::addColumn<int>("family");
    QTest::addColumn<int>("neighbours");
    QTest::addColumn<double>("epsilon");
    const int replace = static_cast<int>(privacy::Neighbours::replaceOne);
    const int addRemove = static_cast<int>(privacy::Neighbours::addRemove);
    QTest::newRow("beta replace-one") << "beta" << int(models::Family::beta) << replace << 1.0;
    QTest::newRow("beta add-remove") << "beta" << int(models::Family::beta) << addRemove << 1.0;
    QTest::newRow("poisson replace-one")
        << "nbmix" << int(models::Family::poisson) << replace << 2.0;
    QTest::newRow("normal regression replace-one")
        << "regression" << int(models::Family::normal) << replace << 2.0;
  }

  void oneRecordMovesTheTargetByAtMostHalfEpsilon() {
    QFETCH(QString, sample);
    QFETCH(int, family);
    QFETCH(int, neighbours);
    QFETCH(double, epsilon);
    const auto f = static_cast<models::Family>(family);
    const auto relation = static_cast<privacy::Neighbours>(neighbours);
    const data::Dataset d = sample == "regression" ? censoredContributionRegression()
                                                   : bundledSample(sample.toStdString(), f, 120);
    const RunSettings settings = censoredContributionSettings(f, relation);
    MechanismConfig config;
    config.mechanism = Mechanism::censorUw;
    config.epsilon = epsilon;
    const auto run = runMechanisms(d, {config}, settings);
    const MechanismResult& r = run.mechanisms.front();
    QVERIFY(r.clamp.has_value());
    QVERIFY(r.final);

    // Replacements at the edges of the support, where one record's log density is largest.
    std::vector<std::optional<double>> replacements;
    if (relation == privacy::Neighbours::addRemove) {
      replacements.push_back(std::nullopt);
    } else if (f == models::Family::beta) {
      replacements = {1e-4, 0.9999};
    } else if (f == models::Family::normal) {
      replacements = {d.y.minCoeff() - 50 * std::abs(d.y.minCoeff()), d.y.maxCoeff() * 50};
    } else {
      replacements = {0.0, d.y.maxCoeff() * 20};
    }
    const double L = r.clamp->lower, U = r.clamp->upper;
    const double bound = relation == privacy::Neighbours::addRemove ? std::max(-L, U) : U - L;
    QVERIFY2(bound <= epsilon / 2 + 1e-12, qPrintable(QString("interval [%1, %2]").arg(L).arg(U)));

    const CensoredSpread spread = censoredSpread(d, settings, *r.final, L, U, replacements);
    QVERIFY2(spread.maxDifference <= bound * (1 + 1e-9),
             qPrintable(QString("one record moved the target by %1 > %2")
                            .arg(spread.maxDifference)
                            .arg(bound)));
    // The clamp is doing the work: unclamped, single records reach beyond ε/2.
    QVERIFY2(spread.maxRaw > epsilon / 2,
             qPrintable(QString("raw contributions %1 never exceed eps/2").arg(spread.maxRaw)));

    // The same measurement rejects a clamp twice as wide.
    const CensoredSpread wide = censoredSpread(d, settings, *r.final, 2 * L, 2 * U, replacements);
    QVERIFY2(wide.maxDifference > bound * 1.05,
             qPrintable(QString("a clamp twice as wide moved the target by only %1 (bound %2)")
                            .arg(wide.maxDifference)
                            .arg(bound)));
  }
};

QTEST_APPLESS_MAIN(CensoredContributionTest)
#include "censored_contribution_test.moc"
