#include "core/report/internal_report.h"

#include <cmath>

#include "core/exec/cancellation.h"
#include "core/pipeline/release_claim.h"
#include "core/report/html_writer.h"
#include "core/report/svg_chart.h"
#include "core/utility/utility.h"
#include "core/version.h"

namespace dpsynth::core::report {

namespace {

using Facts = std::vector<std::pair<std::string, std::string>>;

std::string optionalNumber(const std::optional<double>& v, const std::string& none = "—") {
  return v ? displayNumber(*v) : none;
}
std::string optionalCount(const std::optional<std::size_t>& v) {
  return v ? std::to_string(*v) : "—";
}
std::string joined(const std::vector<std::string>& items, const std::string& none) {
  if (items.empty()) return none;
  std::string out;
  for (const auto& s : items) out += (out.empty() ? "" : ", ") + s;
  return out;
}
std::vector<double> toVector(const Eigen::VectorXd& v) {
  return std::vector<double>(v.data(), v.data() + v.size());
}

std::string banner() {
  return "<div class=\"banner confidential\">CONFIDENTIAL — internal report. It contains "
         "statistics of the confidential data, record weights and per-record Lipschitz bounds. "
         "Do not publish it: release_note.html is the document that may accompany a "
         "release.</div>\n";
}

std::string dataSection(const ReportInputs& in) {
  const auto& s = in.session;
  const auto& d = in.dataset;
  std::vector<std::string> design(d.designNames.begin() + (d.designNames.empty() ? 0 : 1),
                                  d.designNames.end());
  Facts facts{{"Data file", s.dataFile.empty() ? "(none)" : s.dataFile}};
  if (!s.sample.empty()) facts.push_back({"Bundled sample", s.sample});
  facts.push_back({"SHA-256", s.dataSha256.empty() ? "not recorded in the session" : s.dataSha256});
  facts.push_back({"Records used (n)", std::to_string(d.size())});
  if (d.droppedRows > 0)
    facts.push_back({"Rows dropped (missing values)", std::to_string(d.droppedRows)});
  facts.push_back({"Outcome", d.outcomeName});
  facts.push_back({"Family", models::familyName(d.family)});
  facts.push_back({"Covariate columns", joined(s.dataset.covariates, "none (intercept only)")});
  facts.push_back({"Design columns", joined(design, "none")});

  const auto c = utility::describe(d.y, in.stop);
  const double sd =
      d.size() > 1
          ? std::sqrt((d.y.array() - c.mean).square().sum() / static_cast<double>(d.size() - 1))
          : NAN;
  std::string html = "<h2>Confidential data</h2>\n" + htmlFacts(facts);
  html += "<h3>Summary of the confidential outcome</h3>\n";
  html += htmlTable(
      {"statistic", "mean", "median", "q15", "q90", "sd", "min", "max"},
      {{d.outcomeName, displayNumber(c.mean), displayNumber(c.median), displayNumber(c.q15),
        displayNumber(c.q90), displayNumber(sd), displayNumber(d.size() > 0 ? d.y.minCoeff() : NAN),
        displayNumber(d.size() > 0 ? d.y.maxCoeff() : NAN)}});
  return html;
}

std::string samplerSection(const ReportInputs& in) {
  const auto& n = in.settings.nuts;
  Facts facts{{"Chains", std::to_string(n.chains)},
              {"Warm-up iterations per chain", std::to_string(n.warmup)},
              {"Draws per chain", std::to_string(n.draws)},
              {"Maximum tree depth", std::to_string(n.maxTreeDepth)},
              {"Run", in.settings.release
                          ? std::string("release: seed from the operating system, not kept")
                          : "reproducible, NOT FOR RELEASE: seed " + std::to_string(n.seed.lo)},
              {"Neighbouring databases", privacy::neighboursName(in.settings.neighbours)},
              {"Synthetic datasets per mechanism (m)", std::to_string(in.datasets)}};
  if (in.dataset.family == models::Family::normal)
    facts.push_back({"Prior scale (sd_scale)", displayNumber(in.settings.model.sdScale)});
  return "<h2>Run settings</h2>\n" + htmlFacts(facts);
}

std::string resultsSection(const ReportInputs& in) {
  std::vector<std::vector<std::string>> rows;
  for (const auto& r : in.rows) {
    const bool conf = r.mechanism == "confidential" && r.guarantee.empty();
    rows.push_back({r.mechanism, conf ? "" : r.guarantee, optionalNumber(r.lipschitz, ""),
                    optionalNumber(r.epsilon, ""), optionalCount(r.censored),
                    optionalCount(r.truncated), optionalNumber(r.maxEcdf, ""),
                    optionalNumber(r.avgEcdf, ""), displayNumber(r.mean), displayNumber(r.median),
                    displayNumber(r.q15), displayNumber(r.q90),
                    conf ? "" : (r.marginalOnly ? "yes" : "no"), optionalNumber(r.ciOverlap, ""),
                    optionalNumber(r.maxStdDiff, ""), optionalNumber(r.pmse, ""),
                    optionalNumber(r.maxGroupMeanDiff, "")});
    if (conf)
      for (std::size_t c = 2; c < 8; ++c) rows.back()[c] = "";
  }
  std::string html = "<h2>Results</h2>\n";
  html += htmlTable({"mechanism", "guarantee", "Δ", "ε", "censored", "truncated", "max-ECDF",
                     "avg-ECDF", "mean", "median", "q15", "q90", "marginal only", "CI overlap",
                     "max std. diff.", "pMSE", "max group-mean diff."},
                    rows);
  html +=
      "<p class=\"note\">Utility columns are computed on the first synthetic dataset of "
      "each mechanism; ε is the asked ε for DP mechanisms and ε<sub>x</sub> = 2Δ "
      "otherwise. The same numbers, unrounded, are in results.csv. "
      "<b>Marginal only</b> mechanisms (ph) draw the outcome ignoring the covariates: their "
      "max-ECDF, mean and quantiles can look best while the outcome–covariate relation is "
      "lost. The covariate columns (models with covariates only) compare the model's GLM fitted "
      "to the confidential and to the synthetic outcomes: mean 95% CI overlap (1 = identical, "
      "negative = disjoint), max |β<sub>syn</sub> − β<sub>conf</sub>| / se<sub>conf</sub>; "
      "pMSE of a logistic propensity model on y and the covariates (0 = indistinguishable); "
      "the largest difference of the mean outcome in a level of a categorical covariate.</p>\n";
  std::vector<std::vector<std::string>> risk;
  for (const auto& r : in.rows) {
    if (r.mechanism == "confidential" && r.guarantee.empty()) continue;
    risk.push_back({r.mechanism, optionalNumber(r.replicatedUniques, "–"),
                    optionalNumber(r.attributeCap, "–"),
                    optionalNumber(r.attributeCapBaseline, "–"), optionalNumber(r.dcrShare, "–")});
  }
  html += "<h3>Empirical disclosure risk (first synthetic dataset)</h3>\n";
  html += htmlTable(
      {"mechanism", "replicated uniques", "attribute CAP", "CAP baseline", "DCR share"}, risk);
  html +=
      "<p class=\"note\">Measured on the synthetic file against the confidential data, with the "
      "declared covariates as an intruder's keys and the outcome as the target (matched within "
      "±5%): the share of records unique on keys and outcome that are also unique in the "
      "synthetic file; the share of records whose outcome the synthetic records with their keys "
      "predict (median), against the same guess from the overall median; the share of synthetic "
      "records closer to a confidential record than the closest 5% of confidential pairs. "
      "<b>These numbers come from the confidential data: they are for this internal report and "
      "never enter release/.</b> ε bounds what any file can reveal; these measure what this "
      "file does.</p>\n";

  std::vector<ViolinGroup> groups;
  for (std::size_t j = 0; j < in.run.mechanisms.size(); ++j) {
    const auto& m = in.run.mechanisms[j];
    if (!m.final) continue;
    ViolinGroup g{in.labels[j], toVector(m.final->lipschitz.perRecord), std::nullopt, ""};
    if (m.final->censored()) {
      g.reference = std::max(std::abs(m.final->lower), std::abs(m.final->upper));
      g.referenceLabel = "clamp";
    } else {
      g.reference = m.final->lipschitz.max;
      g.referenceLabel = "Δ";
    }
    groups.push_back(std::move(g));
  }
  if (!groups.empty()) {
    html += "<figure>\n" +
            violinChart(groups, {"By-record Lipschitz bounds Δᵢ of the final fit", "mechanism",
                                 "Δᵢ = maxₛ |αᵢ f(xᵢ; θₛ)|", 640, 300}) +
            "<figcaption>Distribution over records of Δᵢ (censored mechanisms: of the clamped "
            "contributions). Dashed: ε/2 for censored mechanisms, the overall bound Δ "
            "otherwise.</figcaption>\n</figure>\n";
  }
  return html;
}

std::string stagesTable(const pipeline::MechanismResult& m) {
  std::vector<std::vector<std::string>> rows;
  for (const auto& s : m.stages) {
    double maxRhat = 0, minEss = INFINITY;
    for (const auto& p : s->posterior) {
      maxRhat = std::isnan(p.rhat) || std::isnan(maxRhat) ? NAN : std::max(maxRhat, p.rhat);
      minEss = std::min(minEss, p.essBulk);
    }
    if (s->posterior.empty()) maxRhat = minEss = NAN;
    const bool censored = s->censored();
    rows.push_back(
        {s->name, displayNumber(s->lipschitz.max), displayNumber(2 * s->lipschitz.max),
         displayNumber(s->lipschitz.q90), displayNumber(s->lipschitz.q95),
         censored ? "[" + displayNumber(s->lower) + ", " + displayNumber(s->upper) + "]" : "—",
         censored ? std::to_string(s->lipschitz.censoredRecords) : "—",
         std::to_string(s->sample->divergences()), displayNumber(maxRhat), displayNumber(minEss),
         s->k ? displayNumber(*s->k) : "—", s->fromCache ? "yes" : "no"});
  }
  return htmlTable({"stage", "Δ", "εₓ", "Δ q90", "Δ q95", "clamp M", "censored", "divergences",
                    "max R-hat", "min bulk-ESS", "k", "cached"},
                   rows);
}

std::string posteriorTable(const pipeline::StageResult& s) {
  std::vector<std::vector<std::string>> rows;
  for (const auto& p : s.posterior)
    rows.push_back({p.name, displayNumber(p.mean), displayNumber(p.sd), displayNumber(p.q025),
                    displayNumber(p.q50), displayNumber(p.q975), displayNumber(p.rhat),
                    displayNumber(p.essBulk), displayNumber(p.essTail)});
  return htmlTable(
      {"parameter", "mean", "sd", "2.5%", "50%", "97.5%", "R-hat", "bulk-ESS", "tail-ESS"}, rows);
}

std::string mechanismSection(const ReportInputs& in, std::size_t j) {
  const auto& m = in.run.mechanisms[j];
  const auto& c = m.config;
  const auto& row = in.rows[j + 1];
  const pipeline::StageResult* fin = m.final.get();
  std::string html = "<section class=\"mechanism\">\n<h2>Mechanism " + escapeHtml(in.labels[j]) +
                     "</h2>\n<p>" + escapeHtml(pipeline::mechanismDescription(c.mechanism)) +
                     "</p>\n";
  Facts facts{{"Guarantee", pipeline::guaranteeName(pipeline::statedGuarantee(m)) +
                                (m.notForRelease ? " (seeded: not for release; " +
                                                       pipeline::guaranteeName(m.guarantee) +
                                                       " if made without a seed)"
                                                 : "")},
              {"ε", displayNumber(m.epsilon + pipeline::sizeEpsilon(m))}};
  if (pipeline::sizeEpsilon(m) > 0)
    facts.push_back({"ε split", "mechanism " + displayNumber(m.epsilon) + " + noisy size ε_n " +
                                    displayNumber(pipeline::sizeEpsilon(m))});
  facts.push_back({"Records published", std::to_string(m.size.rowsFor(in.dataset.size())) + " (" +
                                            privacy::sizeSourceName(m.size.source) +
                                            "; the data hold " + std::to_string(in.dataset.size()) +
                                            ")"});
  if (!m.refusals.empty()) {
    std::string why;
    for (const auto& r : m.refusals) why += (why.empty() ? "" : "; ") + r;
    facts.push_back({"Release refused (claimed " + pipeline::guaranteeName(m.claimed) + ")", why});
  }
  if (c.epsilon) facts.push_back({"Target ε", displayNumber(*c.epsilon)});
  if (fin) {
    facts.push_back({"Δ (Lipschitz bound)", displayNumber(fin->lipschitz.max)});
    facts.push_back({"Δ q90 / q95 over draws", displayNumber(fin->lipschitz.q90) + " / " +
                                                   displayNumber(fin->lipschitz.q95)});
    if (fin->censored())
      facts.push_back({"Δ without censoring", displayNumber(fin->lipschitz.maxRaw)});
  }
  facts.push_back({"Censored records", optionalCount(m.censoredRecords)});
  facts.push_back({"Truncated records", optionalCount(m.truncatedRecords)});
  using pipeline::Mechanism;
  const Mechanism mech = c.mechanism;
  if (mech == Mechanism::lwFinal || mech == Mechanism::cwFinal)
    facts.push_back({"Re-weighting k", optionalNumber(m.k) + (c.k ? "" : " (auto)")});
  if (mech == Mechanism::weightedE || mech == Mechanism::censorW)
    facts.push_back({"Downscale d", optionalNumber(m.downscale) + (c.downscale ? "" : " (auto)")});
  if (mech != Mechanism::unweighted && mech != Mechanism::sw && mech != Mechanism::censorUw &&
      mech != Mechanism::ph)
    facts.push_back({"Weight scale c / shift g", displayNumber(c.c) + " / " + displayNumber(c.g)});
  if (mech == Mechanism::cw || mech == Mechanism::cwFinal)
    facts.push_back({"CW radius",
                     displayNumber(c.radius) + (c.radiusRelative ? " (relative)" : " (absolute)")});
  if (m.ph) {
    facts.push_back({"Histogram bins", std::to_string(m.ph->noisy.size())});
    facts.push_back({"Public bounds", displayNumber(m.ph->edges.front()) + " to " +
                                          displayNumber(m.ph->edges.back())});
    facts.push_back({"Noise", m.ph->forRelease ? "operating-system random numbers"
                                               : "seeded (NOT FOR RELEASE)"});
  }
  facts.push_back({"Synthetic files", joined(in.syntheticFiles[j], "—")});
  html += htmlFacts(facts);

  if (fin && in.dataset.size() == 0) {
    html += "<h3>Weights α</h3>\n<p>None: the database is empty.</p>\n";
  } else if (fin) {
    const auto& w = fin->weights;
    html += "<h3>Weights α</h3>\n" +
            htmlTable({"", "min", "q25", "median", "mean", "q75", "max"},
                      {{"α", displayNumber(w.min), displayNumber(w.q25), displayNumber(w.median),
                        displayNumber(w.mean), displayNumber(w.q75), displayNumber(w.max)}});
  }
  const auto conf = utility::describe(in.dataset.y);
  html += "<h3>Utility (first synthetic dataset)</h3>\n" +
          htmlTable({"", "mean", "median", "q15", "q90", "max-ECDF", "avg-ECDF"},
                    {{"confidential", displayNumber(conf.mean), displayNumber(conf.median),
                      displayNumber(conf.q15), displayNumber(conf.q90), "", ""},
                     {"synthetic", displayNumber(row.mean), displayNumber(row.median),
                      displayNumber(row.q15), displayNumber(row.q90),
                      optionalNumber(row.maxEcdf, ""), optionalNumber(row.avgEcdf, "")}});
  if (!m.stages.empty()) html += "<h3>Stages</h3>\n" + stagesTable(m);
  if (fin) {
    html += "<h3>Posterior of the final fit</h3>\n" + posteriorTable(*fin);
    std::string steps;
    for (const auto& ch : fin->sample->chains)
      steps += (steps.empty() ? "" : ", ") + displayNumber(ch.stepSize);
    html += "<p class=\"note\">Divergences " + std::to_string(fin->sample->divergences()) +
            ", iterations at the maximum tree depth " +
            std::to_string(fin->sample->treeDepthSaturated()) + ", step sizes " +
            escapeHtml(steps) + ".</p>\n";
  }
  html += "<h3>Diagnostics</h3>\n" + htmlList(m.warnings, "No warnings.");

  if (fin) {
    const std::optional<double> clamp =
        fin->censored()
            ? std::optional<double>(std::max(std::abs(fin->lower), std::abs(fin->upper)))
            : std::nullopt;
    std::vector<double> alpha = fin->alpha;
    if (alpha.empty()) alpha.assign(in.dataset.size(), 1.0);
    exec::throwIfStopped(in.stop);
    html +=
        "<figure>\n" +
        scatterChart(alpha, toVector(fin->lipschitz.perRecordRaw), clamp, "clamp",
                     {"Lipschitz bound against weight", "weight αᵢ", "Δᵢ (uncensored)", 640, 280}) +
        "<figcaption>Each point is a record: its weight and the largest |αᵢ f(xᵢ; θ)| over "
        "the draws of the final fit.</figcaption>\n</figure>\n";
    exec::throwIfStopped(in.stop);
    html += "<figure>\n" +
            violinChart({{"α", alpha, std::nullopt, ""}},
                        {"Weights of the final fit", "", "weight αᵢ", 320, 260}) +
            "</figure>\n";
  }
  exec::throwIfStopped(in.stop);
  html += "<figure>\n" +
          ecdfChart({{"confidential", toVector(in.dataset.y)},
                     {"synthetic", toVector(in.firstSynthetic[j])}},
                    {"Empirical CDF: synthetic against confidential", in.dataset.outcomeName,
                     "F(v)", 640, 280}) +
          "</figure>\n</section>\n";
  return html;
}

}  // namespace

std::string internalReportHtml(const ReportInputs& in) {
  std::string body = banner();
  body += "<h1>dpsynth internal report</h1>\n<p class=\"meta\">dpsynth " + escapeHtml(version()) +
          " · " + std::to_string(in.run.mechanisms.size()) + " mechanism(s) · outcome <b>" +
          escapeHtml(in.dataset.outcomeName) + "</b></p>\n";
  body += dataSection(in) + samplerSection(in) + resultsSection(in);
  for (std::size_t j = 0; j < in.run.mechanisms.size(); ++j) {
    exec::throwIfStopped(in.stop);
    body += mechanismSection(in, j);
  }
  body += banner();
  return htmlPage("CONFIDENTIAL — dpsynth internal report", body);
}

}  // namespace dpsynth::core::report
