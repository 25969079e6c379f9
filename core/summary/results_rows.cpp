#include "core/summary/results_rows.h"

#include <charconv>
#include <cmath>
#include <limits>
#include <map>
#include <stdexcept>
#include <variant>

#include "core/data/csv_writer.h"
#include "core/data/quote_value.h"
#include "core/data/value_parsing.h"
#include "core/pipeline/covariate_utility.h"
#include "core/pipeline/disclosure.h"
#include "core/pipeline/release_claim.h"
#include "core/pipeline/verdict.h"
#include "core/utility/utility.h"

namespace dpsynth::core::summary {
namespace {

/// One CSV column: its name and the member it holds. The table is the codec: encoding,
/// decoding and the header cannot disagree.
using Member = std::variant<std::string ResultsRow::*, std::optional<double> ResultsRow::*,
                            double ResultsRow::*, std::optional<std::size_t> ResultsRow::*,
                            bool ResultsRow::*>;
struct Column {
  const char* name;
  Member member;
};

const std::vector<Column>& columns() {
  static const std::vector<Column> kColumns = {
      {"mechanism", &ResultsRow::mechanism},
      {"guarantee", &ResultsRow::guarantee},
      {"lipschitz", &ResultsRow::lipschitz},
      {"epsilon", &ResultsRow::epsilon},
      {"censored", &ResultsRow::censored},
      {"truncated", &ResultsRow::truncated},
      {"max_ecdf", &ResultsRow::maxEcdf},
      {"avg_ecdf", &ResultsRow::avgEcdf},
      {"mean", &ResultsRow::mean},
      {"median", &ResultsRow::median},
      {"q15", &ResultsRow::q15},
      {"q90", &ResultsRow::q90},
      // Added after the first release: new columns go at the end, none is renamed.
      {"marginal_only", &ResultsRow::marginalOnly},
      {"ci_overlap", &ResultsRow::ciOverlap},
      {"max_std_diff", &ResultsRow::maxStdDiff},
      {"pmse", &ResultsRow::pmse},
      {"max_group_mean_diff", &ResultsRow::maxGroupMeanDiff},
      // Empirical disclosure risk (internal: computed from the confidential data).
      {"replicated_uniques", &ResultsRow::replicatedUniques},
      {"attribute_cap", &ResultsRow::attributeCap},
      {"attribute_cap_baseline", &ResultsRow::attributeCapBaseline},
      {"dcr_share", &ResultsRow::dcrShare}};
  return kColumns;
}

template <class... F>
struct Overloaded : F... {
  using F::operator()...;
};
template <class... F>
Overloaded(F...) -> Overloaded<F...>;

[[noreturn]] void badField(const Column& column, const std::string& text, const char* what) {
  throw std::invalid_argument("results row: column '" + std::string(column.name) +
                              "': " + data::quoteForMessage(text, 40) + " is not " + what);
}

/// A number as data::formatNumber wrote it: its exact digits, "Inf" or "-Inf" (utility of a
/// wild synthetic file), "" for none (NaN). nullopt for "" and for text that is no number.
std::optional<double> decodeNumber(const std::string& text, bool& ok) {
  ok = true;
  if (text.empty()) return std::nullopt;
  if (text == "Inf") return std::numeric_limits<double>::infinity();
  if (text == "-Inf") return -std::numeric_limits<double>::infinity();
  const auto v = data::parseNumber(text);
  ok = v.has_value();
  return v;
}

}  // namespace

std::optional<double> ResultsRow::number(const std::string& column) const {
  for (const Column& c : columns()) {
    if (column != c.name) continue;
    return std::visit(
        Overloaded{[&](std::optional<double> ResultsRow::*m) { return this->*m; },
                   [&](double ResultsRow::*m) { return std::optional<double>(this->*m); },
                   [&](std::optional<std::size_t> ResultsRow::*m) {
                     const auto v = this->*m;
                     return v ? std::optional<double>(static_cast<double>(*v)) : std::nullopt;
                   },
                   [](auto) { return std::optional<double>(); }},
        c.member);
  }
  throw std::invalid_argument("results row: no column '" + column + "'");
}

std::vector<std::string> mechanismLabels(const pipeline::RunResult& run) {
  std::map<std::string, int> total;
  for (const auto& m : run.mechanisms) ++total[pipeline::mechanismName(m.config.mechanism)];
  std::map<std::string, int> seen;
  std::vector<std::string> labels;
  for (const auto& m : run.mechanisms) {
    const std::string name = pipeline::mechanismName(m.config.mechanism);
    const int occurrence = ++seen[name];
    // No mechanism name ends in "-<digit>", so a suffixed label never equals another name.
    labels.push_back(occurrence == 1 ? name : name + "-" + std::to_string(occurrence));
  }
  return labels;
}

std::vector<ResultsRow> resultsTable(const data::Dataset& dataset, const pipeline::RunResult& run,
                                     const std::vector<Eigen::VectorXd>& firstSynthetic,
                                     const std::stop_token& stop) {
  if (firstSynthetic.size() != run.mechanisms.size())
    throw std::invalid_argument("results table: one synthetic dataset per mechanism is needed");
  std::vector<ResultsRow> rows;
  const auto conf = utility::describe(dataset.y, stop);
  ResultsRow top;
  top.mechanism = "confidential";
  top.mean = conf.mean;
  top.median = conf.median;
  top.q15 = conf.q15;
  top.q90 = conf.q90;
  rows.push_back(top);

  const auto labels = mechanismLabels(run);
  for (std::size_t j = 0; j < run.mechanisms.size(); ++j) {
    const auto& m = run.mechanisms[j];
    ResultsRow row;
    row.mechanism = labels[j];
    row.guarantee = pipeline::guaranteeName(m.guarantee);
    if (m.final) row.lipschitz = m.final->lipschitz.max;
    row.epsilon = m.epsilon + pipeline::sizeEpsilon(m);  // the published ε (SPEC §0)
    row.censored = m.censoredRecords;
    row.truncated = m.truncatedRecords;
    const auto u = utility::measureUtility(dataset.y, firstSynthetic[j], stop);
    row.maxEcdf = u.maxEcdf;
    row.avgEcdf = u.avgEcdf;
    row.mean = u.mean;
    row.median = u.median;
    row.q15 = u.q15;
    row.q90 = u.q90;
    row.epsilonTarget = m.config.epsilon;
    row.targetIgnored = m.config.epsilon && !pipeline::usesEpsilonTarget(m.config.mechanism);
    const auto verdict = pipeline::judge(m, dataset.y, firstSynthetic[j]);
    row.usable = verdict.usable;
    row.verdictReasons = verdict.reasons;
    row.marginalOnly = pipeline::marginalOnly(m.config.mechanism);
    if (const auto cu =
            pipeline::covariateUtility(dataset, firstSynthetic[j], m.sourceRows.get(), stop)) {
      const auto finite = [](double v) {
        return std::isfinite(v) ? std::optional<double>(v) : std::nullopt;
      };
      row.ciOverlap = finite(cu->regression.meanOverlap);
      row.maxStdDiff = finite(cu->regression.maxStandardized);
      row.pmse = finite(cu->pmse);
      row.maxGroupMeanDiff = cu->maxGroupMeanDiff;
    }
    const auto risk = pipeline::disclosureRisk(dataset, firstSynthetic[j], m.sourceRows.get(),
                                               utility::kDefaultRiskTolerance, stop);
    row.replicatedUniques = risk.replicatedUniques;
    row.attributeCap = risk.attributeCap;
    row.attributeCapBaseline = risk.attributeCapBaseline;
    row.dcrShare = risk.dcrShare;
    rows.push_back(row);
  }
  return rows;
}

const std::vector<std::string>& resultsHeader() {
  static const std::vector<std::string> kHeader = [] {
    std::vector<std::string> h;
    for (const Column& c : columns()) h.emplace_back(c.name);
    return h;
  }();
  return kHeader;
}

std::vector<std::string> resultsCsvFields(const ResultsRow& row) {
  std::vector<std::string> out;
  out.reserve(columns().size());
  for (const Column& c : columns()) {
    out.push_back(std::visit(
        Overloaded{[&](std::string ResultsRow::*m) { return row.*m; },
                   [&](std::optional<double> ResultsRow::*m) {
                     return row.*m ? data::formatNumber(*(row.*m)) : std::string();
                   },
                   [&](double ResultsRow::*m) { return data::formatNumber(row.*m); },
                   [&](std::optional<std::size_t> ResultsRow::*m) {
                     return row.*m ? std::to_string(*(row.*m)) : std::string();
                   },
                   [&](bool ResultsRow::*m) {
                     // The confidential row has no mechanism, so no flag.
                     return row.isConfidential() ? std::string()
                                                 : std::string(row.*m ? "true" : "false");
                   }},
        c.member));
  }
  return out;
}

std::vector<std::vector<std::string>> resultsCsvRows(const std::vector<ResultsRow>& rows) {
  std::vector<std::vector<std::string>> out;
  out.reserve(rows.size());
  for (const auto& r : rows) out.push_back(resultsCsvFields(r));
  return out;
}

ResultsRow resultsRowFromCsv(const std::vector<std::string>& fields) {
  if (fields.size() != columns().size())
    throw std::invalid_argument("results row: " + std::to_string(fields.size()) +
                                " fields where the header has " + std::to_string(columns().size()));
  ResultsRow row;
  for (std::size_t k = 0; k < fields.size(); ++k) {
    const Column& c = columns()[k];
    const std::string& text = fields[k];
    std::visit(Overloaded{[&](std::string ResultsRow::*m) { row.*m = text; },
                          [&](std::optional<double> ResultsRow::*m) {
                            bool ok = true;
                            row.*m = decodeNumber(text, ok);
                            if (!ok) badField(c, text, "a number");
                          },
                          [&](double ResultsRow::*m) {
                            bool ok = true;
                            row.*m = decodeNumber(text, ok).value_or(
                                std::numeric_limits<double>::quiet_NaN());
                            if (!ok) badField(c, text, "a number");
                          },
                          [&](std::optional<std::size_t> ResultsRow::*m) {
                            if (text.empty()) return;
                            std::size_t v = 0;
                            const auto [end, ec] =
                                std::from_chars(text.data(), text.data() + text.size(), v);
                            if (ec != std::errc() || end != text.data() + text.size())
                              badField(c, text, "a count");
                            row.*m = v;
                          },
                          [&](bool ResultsRow::*m) {
                            if (text.empty() || text == "false") return;
                            if (text != "true") badField(c, text, "true or false");
                            row.*m = true;
                          }},
               c.member);
  }
  return row;
}

std::optional<double> csvNumber(const std::string& column, const std::string& text) {
  bool ok = true;
  const auto v = decodeNumber(text, ok);
  if (!ok)
    throw std::invalid_argument("column '" + column + "': " + data::quoteForMessage(text, 40) +
                                " is not a number");
  return v;
}

void writeResultsCsv(const std::string& path, const std::vector<ResultsRow>& rows) {
  data::writeCsvAtomic(path, resultsHeader(), resultsCsvRows(rows));
}

}  // namespace dpsynth::core::summary
