/// The sampler warnings say what happened: censoring is named only for a censored stage (an
/// unweighted fit has no censored region to blame), and each warning names its stage and the
/// parameter or count it is about.
#include <QtTest>
#include <string>
#include <vector>

#include "core/mcmc/diagnostics.h"
#include "core/mcmc/sampler.h"
#include "core/pipeline/stage_runner.h"

using namespace dpsynth::core;

namespace {

mcmc::SampleResult diagnosticsSample(int divergences) {
  mcmc::SampleResult sample;
  sample.chains.resize(2);
  sample.chains[0].divergences = divergences;
  return sample;
}

std::vector<mcmc::ParameterSummary> poorPosterior() {
  mcmc::ParameterSummary p;
  p.name = "beta[1]";
  p.rhat = 1.2;
  p.essBulk = 50.0;
  return {p};
}

bool anyMentions(const std::vector<std::string>& warnings, const std::string& word) {
  for (const auto& w : warnings)
    if (w.find(word) != std::string::npos) return true;
  return false;
}

}  // namespace

class DiagnosticWarningsTest : public QObject {
  Q_OBJECT

 private slots:
  void uncensoredStagesDoNotBlameCensoring() {
    const auto warnings = pipeline::detail::diagnosticWarnings(
        "unweighted", poorPosterior(), diagnosticsSample(7), 10, /*censored=*/false);
    QCOMPARE(warnings.size(), std::size_t(3));  // R-hat, ESS, divergences
    QVERIFY(!anyMentions(warnings, "censor"));
    QVERIFY(anyMentions(warnings, "7 divergent transitions"));
    QVERIFY(anyMentions(warnings, "strong curvature"));
    QVERIFY(anyMentions(warnings, "beta[1]"));
  }

  void censoredStagesMayNameTheCensoredRegion() {
    const auto warnings = pipeline::detail::diagnosticWarnings(
        "censor-uw", poorPosterior(), diagnosticsSample(3), 10, /*censored=*/true);
    QVERIFY(anyMentions(warnings, "censored region"));
    QVERIFY(anyMentions(warnings, "heavy censoring"));
  }
};

QTEST_APPLESS_MAIN(DiagnosticWarningsTest)
#include "diagnostic_warnings_test.moc"
