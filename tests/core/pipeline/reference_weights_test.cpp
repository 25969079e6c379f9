/// Weight functions from a reference dataset with covariates (SPEC §0, censor-w): the reference
/// draws live in the reference model's unconstrained space (its QR transform comes from the
/// reference design, negbin's data scales from the reference data), so they must be converted
/// before the model of the data being released evaluates them or starts a chain from them.
#include <QtTest>
#include <cmath>
#include <memory>
#include <vector>

#include "core/data/csv_table.h"
#include "core/data/dataset.h"
#include "core/models/model.h"
#include "core/pipeline/pipeline.h"
#include "core/pipeline/stage_runner.h"
#include "core/privacy/weights.h"
#include "core/random/rng.h"
#include "support/model_fixtures.h"

namespace data = dpsynth::core::data;
namespace models = dpsynth::core::models;
namespace pipeline = dpsynth::core::pipeline;
namespace privacy = dpsynth::core::privacy;
namespace rnd = dpsynth::core::random;
using models::Family;

namespace {

/// A regression on one covariate centred at `offset` with spread `scale`; the outcome depends
/// on the covariate's standardised value.
data::Dataset regression(Family family, Eigen::Index n, double offset, double scale,
                         std::uint64_t seed) {
  auto rng = rnd::makeRng(seed, 1);
  Eigen::MatrixXd standard(n, 1), x(n, 1);
  for (Eigen::Index i = 0; i < n; ++i) {
    standard(i, 0) = std::round(10.0 * rnd::standardNormal(rng)) / 10.0;
    x(i, 0) = offset + scale * standard(i, 0);
  }
  return dpsynth::test::makeDataset(family,
                                    dpsynth::test::fixtureOutcomes(family, standard, n, seed), x);
}

pipeline::RunSettings settingsFor(Family family) {
  pipeline::RunSettings s;
  s.model.family = family;
  s.nuts.chains = 2;
  s.nuts.warmup = 200;
  s.nuts.draws = 150;
  s.nuts.seed = 5;
  return s;
}

}  // namespace

class ReferenceWeightsTest : public QObject {
  Q_OBJECT

 private slots:
  /// α_i of censor-w with reference weights equals the weight function computed here
  /// independently: the reference draws on the constrained scale, evaluated record by record by
  /// a direct-form model of the data being released (u = β: no transform to get wrong).
  void weightFunctionUsesTheReferencePosterior_data() {
    QTest::addColumn<int>("family");
    for (Family f : {Family::poisson, Family::negbin, Family::normal})
      QTest::newRow(models::familyName(f).c_str()) << int(f);
  }

  void weightFunctionUsesTheReferencePosterior() {
    QFETCH(int, family);
    const Family f = Family(family);
    const auto reference = std::make_shared<const data::Dataset>(regression(f, 90, 0.0, 1.0, 11));
    const auto released = regression(f, 70, 0.3, 1.2, 12);  // another design, another R*
    auto settings = settingsFor(f);
    settings.weightReference = reference;
    pipeline::MechanismConfig config;
    config.mechanism = pipeline::Mechanism::censorW;
    config.epsilon = 8;
    config.downscale = 1.0;  // α is then the weight function itself
    const auto run = pipeline::runMechanisms(released, {config}, settings);
    const auto& result = run.mechanisms.front();
    const auto& referenceFit = result.stages.front();
    QVERIFY(referenceFit->reference);
    QVERIFY(result.final && !result.final->reference);

    const auto referenceModel = models::makeModel(*reference, settings.model);
    models::ModelSpec direct = settings.model;
    direct.parameterisation = models::Parameterisation::direct;
    const auto releasedModel = models::makeModel(released, direct);
    const Eigen::MatrixXd draws = referenceFit->sample->pooled();
    Eigen::VectorXd fMax = Eigen::VectorXd::Zero(Eigen::Index(released.size()));
    Eigen::VectorXd logLik(Eigen::Index(released.size()));
    for (Eigen::Index s = 0; s < draws.rows(); ++s) {
      const Eigen::VectorXd theta = referenceModel->constrain(draws.row(s).transpose());
      releasedModel->recordLogLik(releasedModel->unconstrain(theta), logLik);
      fMax = fMax.cwiseMax(logLik.cwiseAbs());
    }
    const Eigen::VectorXd& refF = referenceFit->lipschitz.perRecordRaw;
    const auto want =
        privacy::lwWeightsFromReference(fMax, refF.minCoeff(), refF.maxCoeff(), config.c, config.g);
    const auto& alpha = result.final->alpha;
    QCOMPARE(alpha.size(), want.size());
    int inside = 0;
    for (std::size_t i = 0; i < alpha.size(); ++i) {
      QVERIFY2(std::abs(alpha[i] - want[i]) < 1e-9,
               qPrintable(QString("record %1: %2, want %3").arg(i).arg(alpha[i]).arg(want[i])));
      inside += alpha[i] > 0.0 && alpha[i] < 1.0;
    }
    QVERIFY(inside > 5);  // the weights are not all clamped: the comparison has power
  }

  /// A stage of other data starts the next fit from its draws converted to the new space.
  /// The data as their own "public" reference would make censor-w's DP label false: refused
  /// before any sampling, unless the run is a study's replicate (nothing released).
  void aReferenceHoldingTheDataIsRefused() {
    const auto data =
        std::make_shared<const data::Dataset>(regression(Family::poisson, 40, 0.0, 1.0, 31));
    auto settings = settingsFor(Family::poisson);
    settings.weightReference = data;
    pipeline::MechanismConfig config;
    config.mechanism = pipeline::Mechanism::censorW;
    config.epsilon = 8;
    try {
      (void)pipeline::runMechanisms(*data, {config}, settings);
      QFAIL("a reference holding the data was accepted");
    } catch (const std::invalid_argument& e) {
      QVERIFY2(std::string(e.what()).find("same records") != std::string::npos, e.what());
    }
    // The same records in another order are the data too (they passed as a reference).
    data::Dataset shuffled = *data;
    for (Eigen::Index i = 0; i < shuffled.X.rows(); ++i) {
      const Eigen::Index j = shuffled.X.rows() - 1 - i;
      shuffled.y[i] = data->y[j];
      shuffled.X.row(i) = data->X.row(j);
    }
    QVERIFY(shuffled.y != data->y);
    settings.weightReference = std::make_shared<const data::Dataset>(shuffled);
    try {
      (void)pipeline::runMechanisms(*data, {config}, settings);
      QFAIL("a reference holding the data's records in another order was accepted");
    } catch (const std::invalid_argument& e) {
      QVERIFY2(std::string(e.what()).find("same records") != std::string::npos, e.what());
    }
    // One record changed: another dataset (the check does not refuse a different file).
    shuffled.y[0] += 1;
    settings.weightReference = std::make_shared<const data::Dataset>(shuffled);
    settings.nuts.warmup = 50;
    settings.nuts.draws = 50;
    QCOMPARE(pipeline::runMechanisms(*data, {config}, settings).mechanisms.size(), std::size_t{1});
    settings.weightReference = data;
    settings.referenceMayBeTheData = true;
    settings.nuts.warmup = 50;
    settings.nuts.draws = 50;
    QCOMPARE(pipeline::runMechanisms(*data, {config}, settings).mechanisms.size(), std::size_t{1});
  }

  /// Last period's synthetic CSV as the reference of this period's SPSS file: the labelled
  /// covariate's levels come in label order there and sorted in the CSV, so another level is
  /// left out. Refused before any sampling, with a hint at what differs and what to do.
  void aReferenceWithOtherDummiesIsRefusedWithAHint() {
    data::CsvTable coded = data::parseCsv("y,sex\n1,1\n2,2\n0,1\n3,2\n", "d.sav");
    coded.columns.resize(2);
    coded.columns[1].valueLabels = {{"1", "male"}, {"2", "female"}};
    coded.columns[1].labelsAreLevels = false;
    const data::CsvTable released = data::parseCsv("y,sex\n1,male\n2,female\n0,female\n", "r.csv");
    data::DatasetSpec spec;
    spec.outcome = "y";
    spec.covariates = {"sex"};
    spec.family = Family::poisson;
    const data::Dataset dataset = data::buildDataset(coded, spec);
    auto settings = settingsFor(Family::poisson);
    settings.weightReference =
        std::make_shared<const data::Dataset>(data::buildDataset(released, spec));
    pipeline::MechanismConfig config;
    config.mechanism = pipeline::Mechanism::censorW;
    config.epsilon = 8;
    try {
      (void)pipeline::runMechanisms(dataset, {config}, settings);
      QFAIL("a reference of another design was accepted");
    } catch (const std::invalid_argument& e) {
      const std::string what = e.what();
      QVERIFY2(what.find("sex=female; reference: poisson with (Intercept), sex=male") !=
                   std::string::npos,
               e.what());
      QVERIFY2(what.find("--reference COLUMN=LEVEL") != std::string::npos, e.what());
    }
  }

  void initsAreConvertedBetweenSpaces() {
    const auto a = regression(Family::poisson, 50, 0.0, 1.0, 21);
    const auto b = regression(Family::poisson, 50, 40.0, 9.0, 22);
    const auto from = models::makeModel(a, {Family::poisson});
    const auto to = models::makeModel(b, {Family::poisson});
    pipeline::StageResult previous;
    for (int c = 0; c < 2; ++c) {
      dpsynth::core::mcmc::ChainResult chain;
      chain.draws = Eigen::MatrixXd::Random(3, from->dim());
      previous.sample.edit().chains.push_back(chain);
    }
    const auto same = pipeline::detail::initsFrom(previous, 3);
    const auto converted = pipeline::detail::initsFrom(previous, 3, from.get(), to.get());
    QCOMPARE(same.size(), std::size_t(3));
    QCOMPARE(converted.size(), std::size_t(3));
    // Chain c starts from the last draw of previous chain c mod 2 (then the one before it).
    QCOMPARE(same[0], Eigen::VectorXd(previous.sample->chains[0].draws.row(2).transpose()));
    QCOMPARE(same[1], Eigen::VectorXd(previous.sample->chains[1].draws.row(2).transpose()));
    QCOMPARE(same[2], Eigen::VectorXd(previous.sample->chains[0].draws.row(1).transpose()));
    for (std::size_t c = 0; c < 3; ++c) {
      const Eigen::VectorXd want = from->constrain(same[c]);
      QVERIFY((to->constrain(converted[c]) - want).cwiseAbs().maxCoeff() < 1e-9);
      QVERIFY((to->constrain(same[c]) - want).cwiseAbs().maxCoeff() > 1e-3);
    }
  }
};

QTEST_APPLESS_MAIN(ReferenceWeightsTest)
#include "reference_weights_test.moc"
