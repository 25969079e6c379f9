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
    // The total and the per-chain figure the bound is about (50 over 2 chains).
    QVERIFY(anyMentions(warnings,
                        "bulk-ESS 50 (25 per chain over 2 chains) for beta[1] is below "
                        "100 per chain"));
  }

  void censoredStagesMayNameTheCensoredRegion() {
    const auto warnings = pipeline::detail::diagnosticWarnings(
        "censor-uw", poorPosterior(), diagnosticsSample(3), 10, /*censored=*/true);
    QVERIFY(anyMentions(warnings, "censored region"));
    QVERIFY(anyMentions(warnings, "heavy censoring"));
  }

  /// A count or beta coefficient beyond ±100 (a covariate in units far too small for the prior)
  /// gets a warning that names it and says how to rescale; the intercept's says to centre; the
  /// normal family's coefficients, in the outcome's units, get none.
  void farCoefficientsSayRescale() {
    std::vector<mcmc::ParameterSummary> posterior(4);
    posterior[0].name = "beta[0]";
    posterior[0].mean = 2.5;
    posterior[1].name = "beta[1]";
    posterior[1].mean = 1.4e5;
    posterior[2].name = "beta[2]";
    posterior[2].mean = -99.0;  // within the bound
    posterior[3].name = "phi";
    posterior[3].mean = 1e6;  // not a coefficient
    const std::vector<std::string> labels{"intercept", "small", "age", "phi"};
    for (auto family : {models::Family::negbin, models::Family::poisson, models::Family::beta}) {
      const auto warnings =
          pipeline::detail::coefficientScaleWarnings("unweighted", posterior, family, labels);
      QCOMPARE(warnings.size(), std::size_t(1));
      QVERIFY(anyMentions(warnings, "stage unweighted: the coefficient of small averages 1.4e+05"));
      QVERIFY(anyMentions(warnings, "multiply it by 1e+05"));
    }
    QVERIFY(pipeline::detail::coefficientScaleWarnings("unweighted", posterior,
                                                       models::Family::normal, labels)
                .empty());
    posterior[0].mean = -120.0;
    const auto warnings = pipeline::detail::coefficientScaleWarnings(
        "lw-final", posterior, models::Family::poisson, labels);
    QCOMPARE(warnings.size(), std::size_t(2));
    QVERIFY(anyMentions(warnings, "stage lw-final: the intercept averages -120"));
    QVERIFY(anyMentions(warnings, "centre the covariates"));
  }
};

QTEST_APPLESS_MAIN(DiagnosticWarningsTest)
#include "diagnostic_warnings_test.moc"
