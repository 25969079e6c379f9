#include "core/report/release_note.h"

#include <cmath>

#include "core/report/html_writer.h"
#include "core/utility/utility.h"
#include "core/version.h"

namespace dpsynth::core::report {

namespace {

using Facts = std::vector<std::pair<std::string, std::string>>;
using pipeline::Guarantee;
using pipeline::Mechanism;

std::string meaning(const pipeline::MechanismResult& m) {
  switch (m.guarantee) {
    case Guarantee::DP:
      return "Strict ε-differential privacy: for any two databases that differ in one record, "
             "the probability of producing any given synthetic dataset changes by at most a "
             "factor exp(ε). The bound holds whatever the confidential data are.";
    case Guarantee::aDP:
      return "Asymptotic differential privacy: ε = 2Δ, where Δ is the largest contribution of "
             "any record to the weighted log pseudo-likelihood over the posterior draws of this "
             "fit. ε describes this database (a local guarantee) and holds as the data grow; it "
             "is not a worst-case bound over all possible databases.";
    case Guarantee::none:
      break;
  }
  return "No formal privacy guarantee: the unweighted synthesizer is a reference point and its "
         "output should not be released.";
}

/// The analyst's choices, never values the run derived from the confidential data.
Facts tuning(const ReportInputs& in, const pipeline::MechanismResult& m) {
  const auto& c = m.config;
  const Mechanism mech = c.mechanism;
  Facts facts;
  const bool weighted = mech == Mechanism::lw || mech == Mechanism::cw ||
                        mech == Mechanism::lwFinal || mech == Mechanism::cwFinal ||
                        mech == Mechanism::weightedE || mech == Mechanism::censorW;
  if (c.epsilon) facts.push_back({"Target ε", displayNumber(*c.epsilon)});
  if (weighted)
    facts.push_back({"Weight scale c / shift g", displayNumber(c.c) + " / " + displayNumber(c.g)});
  if (mech == Mechanism::cw || mech == Mechanism::cwFinal)
    facts.push_back({"CW radius r", displayNumber(c.radius) +
                                        (c.radiusRelative ? " (relative to |y|)" : " (absolute)")});
  if (mech == Mechanism::lwFinal || mech == Mechanism::cwFinal)
    facts.push_back({"Re-weighting k",
                     c.k ? displayNumber(*c.k) : "auto (searched on the data; not published)"});
  if (mech == Mechanism::weightedE || mech == Mechanism::censorW)
    facts.push_back({"Downscale d", c.downscale ? displayNumber(*c.downscale)
                                                : "auto (chosen from the data; not published)"});
  if (mech == Mechanism::ph) {
    facts.push_back(
        {"Histogram bins", c.bins > 0 ? std::to_string(c.bins)
                                      : "⌈√n⌉ = " + std::to_string(m.ph ? m.ph->noisy.size() : 0)});
    facts.push_back({"Public bounds", (c.lower ? displayNumber(*c.lower) : "?") + " to " +
                                          (c.upper ? displayNumber(*c.upper) : "?")});
  } else {
    const auto& n = in.settings.nuts;
    facts.push_back({"Sampler", std::to_string(n.chains) + " chains × (" +
                                    std::to_string(n.warmup) + " warm-up + " +
                                    std::to_string(n.draws) + " draws), NUTS"});
  }
  return facts;
}

std::string mechanismSection(const ReportInputs& in, std::size_t j) {
  const auto& m = in.run.mechanisms[j];
  const int datasets = static_cast<int>(in.synthetic[j].size());
  std::string html = "<section class=\"release\">\n<h2>" + escapeHtml(in.labels[j]) + "</h2>\n";
  if (m.guarantee == Guarantee::none)
    html +=
        "<div class=\"banner warning\">No formal privacy guarantee: do not release these "
        "data.</div>\n";
  if (m.ph && !m.ph->forRelease)
    html +=
        "<div class=\"banner warning\">NOT FOR RELEASE: the histogram noise was seeded "
        "(reproducible mode for studies and tests).</div>\n";
  html += "<p>" + escapeHtml(pipeline::mechanismDescription(m.config.mechanism)) + "</p>\n";
  Facts facts{{"Guarantee", pipeline::guaranteeName(m.guarantee)},
              {"ε per synthetic dataset", displayNumber(m.epsilon)},
              {"Synthetic datasets (m)", std::to_string(datasets)},
              {"Total ε (m · ε, basic composition)", displayNumber(datasets * m.epsilon)}};
  html += htmlFacts(facts);
  html += "<p>" + escapeHtml(meaning(m)) + "</p>\n";
  html += "<p class=\"note\">Releasing " + std::to_string(datasets) +
          " synthetic dataset(s) from the same confidential data spends m · ε = " +
          escapeHtml(displayNumber(datasets * m.epsilon)) + " under basic composition.</p>\n";
  html += "<h3>Settings</h3>\n" + htmlFacts(tuning(in, m));

  html += "<h3>Synthetic " + escapeHtml(in.dataset.outcomeName) + "</h3>\n";
  std::vector<std::vector<std::string>> rows;
  for (std::size_t k = 0; k < in.synthetic[j].size(); ++k) {
    const auto s = utility::describe(in.synthetic[j][k]);
    rows.push_back({in.syntheticFiles[j][k], displayNumber(s.mean), displayNumber(s.median),
                    displayNumber(s.q15), displayNumber(s.q90)});
  }
  html += htmlTable({"file", "mean", "median", "q15", "q90"}, rows);
  html += "<p class=\"note\">Computed on the synthetic data only.</p>\n</section>\n";
  return html;
}

}  // namespace

std::string releaseNoteHtml(const ReportInputs& in) {
  const auto& d = in.dataset;
  std::string covariates;
  for (const auto& c : in.session.dataset.covariates)
    covariates += (covariates.empty() ? "" : ", ") + c;

  std::string body =
      "<div class=\"banner public\">Release note — describes the synthetic data "
      "and their privacy guarantee; contains no statistics of the confidential "
      "data.</div>\n";
  body += "<h1>Synthetic data release note</h1>\n<p class=\"meta\">Produced by dpsynth " +
          escapeHtml(version()) + "</p>\n";
  body += "<h2>The synthetic data</h2>\n";
  body += htmlFacts(
      {{"Synthesized variable", d.outcomeName},
       {"Model family", models::familyName(d.family)},
       {"Records per synthetic dataset", std::to_string(d.size())},
       {"Covariates (copied unchanged, public)", covariates.empty() ? "none" : covariates}});
  body +=
      "<p>Each synthetic dataset keeps the original columns; only the synthesized variable "
      "is replaced, by draws from a Bayesian model fitted under the privacy mechanism below "
      "(one posterior draw per dataset).</p>\n";
  if (in.run.mechanisms.size() > 1)
    body +=
        "<p class=\"note\">The sections below describe alternative releases. Publishing the "
        "output of several of them from the same confidential data adds their total ε "
        "(basic composition).</p>\n";
  for (std::size_t j = 0; j < in.run.mechanisms.size(); ++j) body += mechanismSection(in, j);
  return htmlPage("Synthetic data release note", body);
}

}  // namespace dpsynth::core::report
