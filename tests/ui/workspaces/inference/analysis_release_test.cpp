/// Every release kind opens in "Analyze a release" with its own acceptance bound and reference
/// densities: linreg with its N(0, τ²) prior and draws-wide range, ph with the family its file
/// names (and a clear refusal when it names none).
#include "ui/workspaces/inference/analysis_release.h"

#include <QTemporaryDir>
#include <QtTest>
#include <cmath>
#include <fstream>
#include <numbers>

#include "core/privacy/perturbed_histogram.h"

namespace infer = dpsynth::core::infer;

namespace {

QString analysisWrite(const QTemporaryDir& dir, const char* name, const std::string& text) {
  const QString path = dir.filePath(name);
  std::ofstream(path.toStdString()) << text;
  return path;
}

}  // namespace

class AnalysisReleaseTest : public QObject {
  Q_OBJECT

 private slots:
  void linregOpensWithItsPriorAndBound() {
    infer::LinregLayout layout;
    layout.predictors = {"a"};
    layout.lower = {-5};
    layout.upper = {5};
    layout.outcome = "y";
    layout.outcomeLower = -10;
    layout.outcomeUpper = 10;
    infer::LinregModelSpec spec;
    spec.sigma = 1;
    spec.predictorMeans = {0};
    spec.predictorSds = {1};
    spec.priorSd = 2;
    auto bits = dpsynth::core::privacy::makeSeededSource(dpsynth::core::random::Seed(3));
    const auto release =
        infer::makeLinregRelease(layout, spec, {{0.5, 1.0}, {-1, -2}, {2, 3}}, 2.0, *bits, true);
    QTemporaryDir dir;
    const auto a = dpsynth::ui::openAnalysisRelease(
        analysisWrite(dir, "lr.json", infer::linregReleaseToJson(release)));
    QCOMPARE(a.kind, QStringLiteral("linreg"));
    QCOMPARE(a.acceptanceBound, std::exp(-2.0));
    QCOMPARE(a.model->parameterDim(), 2);
    QVERIFY(!std::isfinite(a.lower));
    QVERIFY(std::abs(a.prior(1, 0.0) - 1.0 / (2.0 * std::sqrt(2.0 * std::numbers::pi))) < 1e-12);
    QVERIFY(a.notForRelease);
  }

  void phOpensWithTheFamilyItNames() {
    infer::PhReleaseFile ph;
    ph.lower = 0;
    ph.upper = 10;
    ph.bins = 2;
    ph.epsilon = 1;
    ph.rateNum = 1;
    ph.rateDen = 2;
    ph.noisyCounts = {3, 4};
    ph.n = 7;
    QTemporaryDir dir;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             dpsynth::ui::openAnalysisRelease(
                                 analysisWrite(dir, "none.json", infer::phReleaseToJson(ph))));
    ph.synthesizerFamily = dpsynth::core::models::Family::poisson;
    const auto a =
        dpsynth::ui::openAnalysisRelease(analysisWrite(dir, "ph.json", infer::phReleaseToJson(ph)));
    QCOMPARE(a.kind, QStringLiteral("ph"));
    QCOMPARE(a.acceptanceBound, ph.acceptanceBound());
    QCOMPARE(a.acceptanceBound, std::exp(-1.0));  // e^{−2t}, t = 1/2
    QVERIFY(!a.prior);
    QVERIFY(a.layout.join(' ').contains("poisson"));
  }
};

QTEST_GUILESS_MAIN(AnalysisReleaseTest)
#include "analysis_release_test.moc"
