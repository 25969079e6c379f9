#include "core/report/release_note.h"

#include <cmath>

#include "core/pipeline/export.h"
#include "core/pipeline/release_claim.h"
#include "core/report/html_writer.h"
#include "core/utility/utility.h"
#include "core/version.h"

namespace dpsynth::core::report {

namespace {

using Facts = std::vector<std::pair<std::string, std::string>>;
using pipeline::Guarantee;
using pipeline::Mechanism;

/// What a noisy size adds to the guarantee (empty for a public or declared size).
std::string sizeSentence(const pipeline::MechanismResult& m) {
  if (pipeline::sizeEpsilon(m) <= 0) return {};
  return " The number of records is itself confidential and is published only as a noisy count "
         "(exact two-sided geometric noise at ε_n = " +
         displayNumber(pipeline::sizeEpsilon(m)) +
         ", from the same secret randomness); ε above includes ε_n.";
}

std::string meaning(const pipeline::MechanismResult& m) {
  if (m.notForRelease) {
    // A seeded run claims nothing (SPEC §0): its randomness is not secret.
    std::string s =
        "No privacy guarantee: NOT FOR RELEASE. This reproducible run used a seed, so anyone "
        "with the seed and all records but one could replay it and learn the last one.";
    if (m.guarantee != Guarantee::none)
      s += " Made with secret randomness (without a seed), the same mechanism would give " +
           pipeline::guaranteeName(m.guarantee) + ".";
    return s;
  }
  switch (m.guarantee) {
    case Guarantee::DP: {
      std::string s =
          "Strict ε-differential privacy: for any two neighbouring databases (as defined above), "
          "the probability of producing any given synthetic dataset changes by at most a factor "
          "exp(ε), whatever the confidential data are. ";
      if (m.config.mechanism == Mechanism::ph)
        s += "It rests on exact discrete Laplace noise, calibrated to the L1 sensitivity " +
             std::to_string(m.ph ? m.ph->sensitivity : 2) +
             " of the bin counts, drawn from the operating system's random source, and on "
             "histogram bounds that are public knowledge.";
      else
        s += "It rests on every record's contribution to the log pseudo-likelihood being clamped "
             "to the interval shown (so one record moves the exponent by at most ε/2), on the "
             "released parameters being a draw from that censored pseudo posterior, on "
             "randomness from the operating system that was not kept" +
             std::string(m.referenceWeights
                             ? ", and on record weights given by a function fitted on public "
                               "reference data, so that no record's weight depends on another "
                               "record. "
                             : ". ") +
             pipeline::samplingBasis(m.sampling);
      return s + sizeSentence(m);
    }
    case Guarantee::aDP:
      return "Asymptotic differential privacy: ε = 2Δ, where Δ is the largest contribution of "
             "any record to the weighted log pseudo-likelihood over the posterior draws of this "
             "fit, rounded up to two decimals. This ε is itself computed from the confidential "
             "data (local and data-dependent): it bounds the effect of removing one of this "
             "database's records and holds as the data grow; it is not a worst-case bound over "
             "all possible databases." +
             sizeSentence(m);
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
    // The default bin count comes from the published number of records, never the confidential
    // one (SPEC §0).
    facts.push_back(
        {"Histogram bins",
         c.bins > 0 ? std::to_string(c.bins)
                    : "⌈√(published records)⌉ = " + std::to_string(m.ph ? m.ph->noisy.size() : 0)});
    facts.push_back({"Public bounds", (c.lower ? displayNumber(*c.lower) : "?") + " to " +
                                          (c.upper ? displayNumber(*c.upper) : "?")});
  } else {
    const auto& n = in.settings.nuts;
    if (m.sampling == pipeline::Sampling::exactEnvelope)
      facts.push_back({"Sampler", std::to_string(n.chains * n.draws) +
                                      " exact draws (rejection sampling from a cell envelope)"});
    else
      facts.push_back({"Sampler", std::to_string(n.chains) + " chains × (" +
                                      std::to_string(n.warmup) + " warm-up + " +
                                      std::to_string(n.draws) + " draws), NUTS"});
    facts.push_back({"Sampling", pipeline::samplingName(m.sampling)});
  }
  return facts;
}

std::string releaseMechanismSection(const ReportInputs& in, std::size_t j) {
  const auto& m = in.run.mechanisms[j];
  const int datasets = static_cast<int>(in.syntheticSummaries[j].size());
  std::string html = "<section class=\"release\">\n<h2>" + escapeHtml(in.labels[j]) + "</h2>\n";
  const Guarantee stated = pipeline::statedGuarantee(m);
  if (m.notForRelease)
    html +=
        "<div class=\"banner warning\">NOT FOR RELEASE: a reproducible run (a seed was given) "
        "for studies and tests; it claims no privacy guarantee, since anyone with the seed can "
        "replay it.</div>\n";
  else if (stated == Guarantee::none)
    html +=
        "<div class=\"banner warning\">No formal privacy guarantee: do not release these "
        "data.</div>\n";
  html += "<p>" + escapeHtml(pipeline::mechanismDescription(m.config.mechanism)) + "</p>\n";
  const bool ph = m.ph.has_value();
  const double size = pipeline::sizeEpsilon(m);
  Facts facts{{"Guarantee", pipeline::guaranteeName(stated)}};
  if (m.notForRelease && m.guarantee != Guarantee::none)
    facts.push_back({"Guarantee if made without a seed", pipeline::guaranteeName(m.guarantee)});
  if (stated != Guarantee::none) {
    const double eps = *pipeline::mechanismEpsilon(m);
    const std::string local = stated == Guarantee::aDP ? " (local, rounded up)" : "";
    if (size > 0) {
      facts.push_back({"ε of the synthesizer per dataset" + local, displayNumber(eps)});
      facts.push_back({"ε_n of the noisy number of records (once)", displayNumber(size)});
      facts.push_back(
          {"ε per synthetic dataset (ε + ε_n)", displayNumber(*pipeline::publishedEpsilon(m))});
    } else {
      facts.push_back({"ε per synthetic dataset" + local, displayNumber(eps)});
    }
    facts.push_back({"Synthetic datasets (m)", std::to_string(datasets)});
    facts.push_back({std::string(ph ? "Total ε (one noisy histogram" : "Total ε (m · ε") +
                         (size > 0 ? " + ε_n" : "") + (ph ? ")" : ", basic composition)"),
                     displayNumber(*pipeline::totalEpsilon(m, datasets))});
  }
  if (m.clamp)
    facts.push_back({"Censoring interval [L, U]", "[" + displayNumber(m.clamp->lower) + ", " +
                                                      displayNumber(m.clamp->upper) + "]"});
  if (pipeline::usesReferenceWeights(m.config.mechanism))
    facts.push_back({"Record weights", m.referenceWeights
                                           ? "a weight function fitted on public reference data"
                                           : "computed from the confidential data themselves"});
  html += htmlFacts(facts);
  html += "<p>" + escapeHtml(meaning(m)) + "</p>\n";
  if (stated != Guarantee::none) {
    const std::string total = displayNumber(*pipeline::totalEpsilon(m, datasets));
    const std::string sizePart =
        size > 0 ? " The noisy number of records is shared by every dataset and counted once." : "";
    html += "<p class=\"note\">" +
            escapeHtml((ph ? "All " + std::to_string(datasets) +
                                 " synthetic dataset(s) are drawn from one noisy histogram: "
                                 "together they spend ε = " +
                                 total + " once."
                           : "Releasing " + std::to_string(datasets) +
                                 " synthetic dataset(s) from the same confidential data spends "
                                 "ε = " +
                                 total + " under basic composition.") +
                       sizePart) +
            "</p>\n";
  }
  html += "<h3>Settings</h3>\n" + htmlFacts(tuning(in, m));

  html += "<h3>Synthetic " + escapeHtml(in.dataset.outcomeName) + "</h3>\n";
  std::vector<std::vector<std::string>> rows;
  for (std::size_t k = 0; k < in.syntheticSummaries[j].size(); ++k) {
    const auto& s = in.syntheticSummaries[j][k];
    rows.push_back({in.syntheticFiles[j][k], displayNumber(s.mean), displayNumber(s.median),
                    displayNumber(s.q15), displayNumber(s.q90)});
  }
  html += htmlTable({"file", "mean", "median", "q15", "q90"}, rows);
  html += "<p class=\"note\">Computed on the synthetic data only.</p>\n</section>\n";
  return html;
}

/// The number of records the note states: the published size of the run (one for all its
/// mechanisms), never the confidential n under add-remove (SPEC §0).
Facts sizeFacts(const ReportInputs& in) {
  const auto& first = in.run.mechanisms.front();
  std::string where;
  switch (first.size.source) {
    case privacy::SizeSource::noisy:
      where = "a noisy count of the records at ε_n = " + displayNumber(first.size.epsilon);
      break;
    case privacy::SizeSource::declared:
      where = "declared public by the user";
      break;
    case privacy::SizeSource::publicSize:
      where = "the number of records, public under replace-one";
      break;
  }
  return {{"Records per synthetic dataset",
           std::to_string(first.size.rowsFor(in.dataset.size())) + ": " + where}};
}

/// SPEC §0: a choice taken from the confidential data is stated as outside the guarantee.
std::string tunedOnConfidentialBanner() {
  return "<div class=\"banner warning\">" + escapeHtml(kTunedOnConfidentialSentence) +
         " The privacy guarantee below covers the synthetic data produced with these settings, "
         "not the choice of the settings.</div>\n";
}

}  // namespace

std::string releaseNoteHtml(const ReportInputs& in, bool releasableOnly) {
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
  Facts facts{{"Synthesized variable", d.outcomeName},
              {"Model family", models::familyName(d.family)}};
  for (auto& f : sizeFacts(in)) facts.push_back(std::move(f));
  facts.push_back({"Covariates (copied unchanged, public by declaration, outside the guarantee)",
                   covariates.empty() ? "none" : covariates});
  facts.push_back({"Neighbouring databases", privacy::neighboursName(in.settings.neighbours)});
  body += htmlFacts(facts);
  body += "<p>" +
          escapeHtml(privacy::neighboursMeaning(in.settings.neighbours) + " " +
                     in.run.mechanisms.front().size.meaning()) +
          "</p>\n";
  if (in.settings.tunedOnConfidential) body += tunedOnConfidentialBanner();
  // SPEC §0: a releasable mechanism left out of release/ was left out by a choice, which may
  // have looked at its verdict on the confidential data.
  std::string leftOut;
  for (std::size_t j = 0; j < in.inRelease.size() && j < in.run.mechanisms.size(); ++j) {
    if (in.inRelease[j] || !pipeline::releasable(in.run.mechanisms[j])) continue;
    leftOut += (leftOut.empty() ? " " : ", ") +
               pipeline::mechanismName(in.run.mechanisms[j].config.mechanism);
  }
  if (!leftOut.empty())
    body += "<div class=\"banner warning\">" +
            escapeHtml(std::string(kLeftOutSentence) + leftOut + ".") + "</div>\n";
  body +=
      "<p>Each synthetic dataset holds only the synthesized variable and the covariates "
      "declared public, which are copied as they are (the privacy guarantee covers the "
      "synthesized variable, not the public covariates); every other column of the input was "
      "dropped, and the rows are in a random order. The synthesized variable comes from a "
      "Bayesian model fitted under the privacy mechanism below (one posterior draw per "
      "dataset).</p>\n";
  if (!covariates.empty() &&
      privacy::sizeIsConfidential(in.settings.neighbours, d.completeCasesOnly))
    body +=
        "<p>The covariates are copied from a random sample of the input's records (some "
        "repeated when the published number of records exceeds the input's). Being public by "
        "declaration, their values can show how many records the input holds (for example "
        "the number of distinct rows): the number of records is protected only as far as the "
        "covariates are public anyway.</p>\n";
  std::vector<std::size_t> sections;
  for (std::size_t j = 0; j < in.run.mechanisms.size(); ++j)
    if (!releasableOnly ||
        (in.inRelease.empty() ? pipeline::releasable(in.run.mechanisms[j]) : bool(in.inRelease[j])))
      sections.push_back(j);
  if (sections.size() > 1)
    body +=
        "<p class=\"note\">The sections below describe alternative releases. Publishing the "
        "output of several of them from the same confidential data adds their total ε "
        "(basic composition; counting a shared noisy number of records in each is "
        "conservative).</p>\n";
  for (std::size_t j : sections) body += releaseMechanismSection(in, j);
  return htmlPage("Synthetic data release note", body);
}

}  // namespace dpsynth::core::report
