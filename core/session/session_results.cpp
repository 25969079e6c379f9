#include "core/session/session_results.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/io/json_reader.h"
#include "core/session/results_json.h"
#include "core/session/session.h"

namespace dpsynth::core::session {

const std::vector<double>& summaryProbabilities() {
  static const std::vector<double> probabilities = [] {
    std::vector<double> p;
    for (int i = 0; i <= 20; ++i) p.push_back(i / 20.0);
    return p;
  }();
  return probabilities;
}

DistributionSummary summarize(std::vector<double> values) {
  DistributionSummary out;
  out.count = values.size();
  if (values.empty()) return out;
  std::sort(values.begin(), values.end());
  out.mean = std::accumulate(values.begin(), values.end(), 0.0) / double(values.size());
  const double last = double(values.size() - 1);
  for (double p : summaryProbabilities()) {
    const double h = p * last;
    const auto lo = static_cast<std::size_t>(std::floor(h));
    const std::size_t hi = std::min(lo + 1, values.size() - 1);
    out.quantiles.push_back(values[lo] + (h - double(lo)) * (values[hi] - values[lo]));
  }
  return out;
}

namespace detail {
namespace {

using nlohmann::json;

json optional(const std::optional<double>& v) { return v ? json(*v) : json(nullptr); }
json optional(const std::optional<std::size_t>& v) { return v ? json(*v) : json(nullptr); }

json summaryToJson(const DistributionSummary& s) {
  return json{{"count", s.count}, {"mean", s.mean}, {"quantiles", s.quantiles}};
}

[[noreturn]] void raiseSessionError(const std::string& message) { throw SessionError(message); }

/// Key access with messages that name the file and the key ("results.rows[2].mean").
io::JsonReader keys(const json& object, const std::string& file, std::string where) {
  return io::JsonReader(object, "session file '" + file + "'", std::move(where), raiseSessionError);
}

DistributionSummary summaryFromJson(const json& value, const std::string& file,
                                    const std::string& where) {
  const io::JsonReader k = keys(value, file, where);
  DistributionSummary s;
  s.count = k.integer<std::size_t>("count", 0);
  s.mean = k.number("mean");
  s.quantiles = k.numberList("quantiles");
  return s;
}

}  // namespace

json resultsToJson(const SessionResults& results) {
  json rows = json::array();
  for (const auto& r : results.rows) {
    rows.push_back({{"mechanism", r.mechanism},
                    {"guarantee", r.guarantee},
                    {"lipschitz", optional(r.lipschitz)},
                    {"epsilon", optional(r.epsilon)},
                    {"censored", optional(r.censored)},
                    {"truncated", optional(r.truncated)},
                    {"max_ecdf", optional(r.maxEcdf)},
                    {"avg_ecdf", optional(r.avgEcdf)},
                    {"mean", r.mean},
                    {"median", r.median},
                    {"q15", r.q15},
                    {"q90", r.q90},
                    {"epsilon_target", optional(r.epsilonTarget)},
                    {"target_ignored", r.targetIgnored},
                    {"usable", r.usable},
                    {"verdict_reasons", r.verdictReasons},
                    {"marginal_only", r.marginalOnly},
                    {"ci_overlap", optional(r.ciOverlap)},
                    {"max_std_diff", optional(r.maxStdDiff)},
                    {"pmse", optional(r.pmse)},
                    {"max_group_mean_diff", optional(r.maxGroupMeanDiff)}});
  }
  json mechanisms = json::array();
  for (const auto& m : results.mechanisms) {
    json parameters = json::array();
    for (const auto& p : m.parameters) {
      parameters.push_back({{"name", p.name},
                            {"mean", p.mean},
                            {"sd", p.sd},
                            {"q025", p.q025},
                            {"median", p.median},
                            {"q975", p.q975}});
    }
    mechanisms.push_back({{"mechanism", m.mechanism},
                          {"warnings", m.warnings},
                          {"lipschitz_max", m.lipschitzMax},
                          {"lipschitz", summaryToJson(m.lipschitz)},
                          {"lipschitz_before", summaryToJson(m.lipschitzBefore)},
                          {"weights", summaryToJson(m.weights)},
                          {"parameters", parameters}});
  }
  return json{{"created_at", results.createdAt},
              {"data_sha256", results.dataSha256},
              {"settings_changed", results.settingsChanged},
              {"summary_probabilities", summaryProbabilities()},
              {"rows", rows},
              {"mechanisms", mechanisms}};
}

SessionResults resultsFromJson(const json& value, const std::string& file) {
  const io::JsonReader top = keys(value, file, "results");
  SessionResults results;
  results.createdAt = top.string("created_at");
  results.dataSha256 = top.string("data_sha256");
  results.settingsChanged = top.boolean("settings_changed");
  const json& rows = top.array("rows");
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const io::JsonReader k = keys(rows[i], file, "results.rows[" + std::to_string(i) + "]");
    StoredRow r;
    r.mechanism = k.string("mechanism");
    r.guarantee = k.string("guarantee");
    r.lipschitz = k.optionalNumber("lipschitz");
    r.epsilon = k.optionalNumber("epsilon");
    r.censored = k.optionalInteger<std::size_t>("censored", 0);
    r.truncated = k.optionalInteger<std::size_t>("truncated", 0);
    r.maxEcdf = k.optionalNumber("max_ecdf");
    r.avgEcdf = k.optionalNumber("avg_ecdf");
    r.mean = k.number("mean");
    r.median = k.number("median");
    r.q15 = k.number("q15");
    r.q90 = k.number("q90");
    // The verdict keys came later: a row without them is usable and used its target.
    if (k.has("epsilon_target")) r.epsilonTarget = k.optionalNumber("epsilon_target");
    if (k.has("target_ignored")) r.targetIgnored = k.boolean("target_ignored");
    if (k.has("usable")) r.usable = k.boolean("usable");
    if (k.has("verdict_reasons")) r.verdictReasons = k.strings("verdict_reasons");
    // The covariate utility keys came later still: absent means not measured.
    if (k.has("marginal_only")) r.marginalOnly = k.boolean("marginal_only");
    if (k.has("ci_overlap")) r.ciOverlap = k.optionalNumber("ci_overlap");
    if (k.has("max_std_diff")) r.maxStdDiff = k.optionalNumber("max_std_diff");
    if (k.has("pmse")) r.pmse = k.optionalNumber("pmse");
    if (k.has("max_group_mean_diff")) r.maxGroupMeanDiff = k.optionalNumber("max_group_mean_diff");
    results.rows.push_back(std::move(r));
  }
  const json& mechanisms = top.array("mechanisms");
  for (std::size_t i = 0; i < mechanisms.size(); ++i) {
    const std::string where = "results.mechanisms[" + std::to_string(i) + "]";
    const io::JsonReader k = keys(mechanisms[i], file, where);
    StoredMechanism m;
    m.mechanism = k.string("mechanism");
    m.warnings = k.strings("warnings");
    m.lipschitzMax = k.number("lipschitz_max");
    m.lipschitz = summaryFromJson(k.require("lipschitz"), file, k.where("lipschitz"));
    m.lipschitzBefore =
        summaryFromJson(k.require("lipschitz_before"), file, k.where("lipschitz_before"));
    m.weights = summaryFromJson(k.require("weights"), file, k.where("weights"));
    const json& parameters = k.array("parameters");
    for (std::size_t j = 0; j < parameters.size(); ++j) {
      const io::JsonReader p =
          keys(parameters[j], file, k.where("parameters[" + std::to_string(j) + "]"));
      m.parameters.push_back({p.string("name"), p.number("mean"), p.number("sd"), p.number("q025"),
                              p.number("median"), p.number("q975")});
    }
    results.mechanisms.push_back(std::move(m));
  }
  return results;
}

}  // namespace detail
}  // namespace dpsynth::core::session
