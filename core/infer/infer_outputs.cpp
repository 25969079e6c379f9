#include "core/infer/infer_outputs.h"

#include <cmath>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/data/csv_writer.h"

namespace dpsynth::core::infer {
namespace {

nlohmann::json finiteOrNull(double x) {
  return std::isfinite(x) ? nlohmann::json(x) : nlohmann::json();
}

}  // namespace

std::string inferDrawsCsv(const RecordAdditiveModel& model, const DaResult& result) {
  std::ostringstream out;
  out << "chain,draw";
  for (const auto& name : model.parameterNames()) out << ',' << data::quoteCsvField(name);
  out << '\n';
  for (std::size_t c = 0; c < result.chains.size(); ++c) {
    const Eigen::MatrixXd& d = result.chains[c].draws;
    for (Eigen::Index r = 0; r < d.rows(); ++r) {
      out << c << ',' << r;
      for (Eigen::Index p = 0; p < d.cols(); ++p) out << ',' << data::formatNumber(d(r, p));
      out << '\n';
    }
  }
  return out.str();
}

std::string inferTraceCsv(const DaResult& result) {
  std::ostringstream out;
  out << "chain,sweep,acceptance\n";
  for (std::size_t c = 0; c < result.chains.size(); ++c) {
    const Eigen::VectorXd& a = result.chains[c].sweepAcceptance;
    for (Eigen::Index s = 0; s < a.size(); ++s) {
      out << c << ',' << s << ',' << data::formatNumber(a[s]) << '\n';
    }
  }
  return out.str();
}

std::string inferSummaryJson(const RecordAdditiveModel& model, const DaResult& result,
                             const InferRunInfo& info) {
  nlohmann::ordered_json summary;
  summary["release"] = info.release;
  summary["kind"] = info.kind;
  if (!info.family.empty()) summary["family"] = info.family;
  if (info.sdScale) summary["sd_scale"] = *info.sdScale;
  summary["epsilon"] = info.epsilon;
  summary["iterations"] = info.iterations;
  summary["warmup"] = info.warmup;
  summary["chains"] = info.chains;
  summary["budget_factor"] = info.budgetFactor;
  summary["converged"] = info.convergenceProblems.empty();
  summary["warnings"] = info.convergenceProblems;
  summary["mean_acceptance"] = result.meanAcceptance();
  summary["min_acceptance"] = result.minAcceptance();
  summary["acceptance_bound"] = info.acceptanceBound;
  summary["proposals"] = result.proposals();
  summary["gradient_evaluations"] = result.gradientEvaluations();
  summary["seconds"] = result.seconds;
  if (info.seed) {
    summary["seed"] = *info.seed;
    summary["not_for_release"] = true;
  }
  nlohmann::ordered_json parameters = nlohmann::ordered_json::object();
  for (const auto& s : summarize(model, result)) {
    parameters[s.name] = {{"mean", s.mean},
                          {"sd", s.sd},
                          {"q05", s.q05},
                          {"q50", s.q50},
                          {"q95", s.q95},
                          {"rhat", finiteOrNull(s.rhat)},
                          {"ess", finiteOrNull(s.ess)}};
  }
  summary["parameters"] = parameters;
  return summary.dump(2) + "\n";
}

InferOutputs inferOutputs(const RecordAdditiveModel& model, const DaResult& result,
                          const InferRunInfo& info) {
  return {inferDrawsCsv(model, result), inferSummaryJson(model, result, info),
          inferTraceCsv(result)};
}

}  // namespace dpsynth::core::infer
