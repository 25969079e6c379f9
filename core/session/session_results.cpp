#include "core/session/session_results.h"

#include <algorithm>
#include <cmath>
#include <numeric>

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

/// Key access with messages that name the file and the key ("results.rows[2].mean").
class Keys {
 public:
  Keys(const json& object, const std::string& file, std::string where)
      : object_(object), file_(file), where_(std::move(where)) {
    if (!object_.is_object()) fail("", "must be a JSON object");
  }
  [[noreturn]] void fail(const std::string& key, const std::string& problem) const {
    throw SessionError("session file '" + file_ + "': " + where_ + (key.empty() ? "" : "." + key) +
                       " " + problem);
  }
  bool has(const std::string& key) const { return object_.contains(key); }
  const json& at(const std::string& key) const {
    const auto it = object_.find(key);
    if (it == object_.end()) fail(key, "is missing");
    return *it;
  }
  double number(const std::string& key) const {
    const json& v = at(key);
    if (!v.is_number()) fail(key, "must be a number");
    return v.get<double>();
  }
  std::optional<double> optionalNumber(const std::string& key) const {
    const json& v = at(key);
    if (v.is_null()) return std::nullopt;
    if (!v.is_number()) fail(key, "must be a number or null");
    return v.get<double>();
  }
  std::optional<std::size_t> optionalCount(const std::string& key) const {
    const json& v = at(key);
    if (v.is_null()) return std::nullopt;
    if (!v.is_number_unsigned()) fail(key, "must be a whole number or null");
    return v.get<std::size_t>();
  }
  std::size_t count(const std::string& key) const {
    const json& v = at(key);
    if (!v.is_number_unsigned()) fail(key, "must be a whole number");
    return v.get<std::size_t>();
  }
  std::string string(const std::string& key) const {
    const json& v = at(key);
    if (!v.is_string()) fail(key, "must be a string");
    return v.get<std::string>();
  }
  bool boolean(const std::string& key) const {
    const json& v = at(key);
    if (!v.is_boolean()) fail(key, "must be true or false");
    return v.get<bool>();
  }
  const json& array(const std::string& key) const {
    const json& v = at(key);
    if (!v.is_array()) fail(key, "must be a list");
    return v;
  }
  std::string where(const std::string& key) const { return where_ + "." + key; }
  const std::string& file() const { return file_; }

 private:
  const json& object_;
  const std::string& file_;
  std::string where_;
};

DistributionSummary summaryFromJson(const json& value, const std::string& file,
                                    const std::string& where) {
  const Keys k(value, file, where);
  DistributionSummary s;
  s.count = k.count("count");
  s.mean = k.number("mean");
  for (const json& q : k.array("quantiles")) {
    if (!q.is_number()) k.fail("quantiles", "must be a list of numbers");
    s.quantiles.push_back(q.get<double>());
  }
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
  const Keys top(value, file, "results");
  SessionResults results;
  results.createdAt = top.string("created_at");
  results.dataSha256 = top.string("data_sha256");
  results.settingsChanged = top.boolean("settings_changed");
  const json& rows = top.array("rows");
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const Keys k(rows[i], file, "results.rows[" + std::to_string(i) + "]");
    StoredRow r;
    r.mechanism = k.string("mechanism");
    r.guarantee = k.string("guarantee");
    r.lipschitz = k.optionalNumber("lipschitz");
    r.epsilon = k.optionalNumber("epsilon");
    r.censored = k.optionalCount("censored");
    r.truncated = k.optionalCount("truncated");
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
    if (k.has("verdict_reasons")) {
      for (const json& reason : k.array("verdict_reasons")) {
        if (!reason.is_string()) k.fail("verdict_reasons", "must be a list of strings");
        r.verdictReasons.push_back(reason.get<std::string>());
      }
    }
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
    const Keys k(mechanisms[i], file, where);
    StoredMechanism m;
    m.mechanism = k.string("mechanism");
    for (const json& w : k.array("warnings")) {
      if (!w.is_string()) k.fail("warnings", "must be a list of strings");
      m.warnings.push_back(w.get<std::string>());
    }
    m.lipschitzMax = k.number("lipschitz_max");
    m.lipschitz = summaryFromJson(k.at("lipschitz"), file, k.where("lipschitz"));
    m.lipschitzBefore =
        summaryFromJson(k.at("lipschitz_before"), file, k.where("lipschitz_before"));
    m.weights = summaryFromJson(k.at("weights"), file, k.where("weights"));
    const json& parameters = k.array("parameters");
    for (std::size_t j = 0; j < parameters.size(); ++j) {
      const Keys p(parameters[j], file, k.where("parameters[" + std::to_string(j) + "]"));
      m.parameters.push_back({p.string("name"), p.number("mean"), p.number("sd"), p.number("q025"),
                              p.number("median"), p.number("q975")});
    }
    results.mechanisms.push_back(std::move(m));
  }
  return results;
}

}  // namespace detail
}  // namespace dpsynth::core::session
