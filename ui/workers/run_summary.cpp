#include "ui/workers/run_summary.h"

#include <algorithm>
#include <cmath>

#include "core/exec/cancellation.h"
#include "core/models/parameter_labels.h"
#include "core/summary/run_summary.h"
#include "ui/field_names.h"

namespace dpsynth::ui {

namespace pipeline = core::pipeline;

namespace {

std::vector<double> toStd(const Eigen::VectorXd& v) { return {v.data(), v.data() + v.size()}; }

MechanismPlotData plotData(const core::data::Dataset& dataset,
                           const pipeline::MechanismResult& result,
                           const core::models::Model& model, const Eigen::VectorXd& synthetic) {
  MechanismPlotData p;
  p.name = QString::fromStdString(pipeline::mechanismName(result.config.mechanism));
  p.strictDp = result.guarantee == pipeline::Guarantee::DP;
  p.epsilon = result.epsilon;
  p.synthetic = toStd(synthetic);
  const auto& fin = result.final;
  if (!fin) return p;  // ph: no fit
  p.lipschitzMax = fin->lipschitz.max;
  if (std::isfinite(fin->lower) && std::isfinite(fin->upper))
    p.strictBound = core::privacy::clampBound({fin->lower, fin->upper});
  p.deltaPerRecord = toStd(fin->lipschitz.perRecord);
  p.weights = fin->alpha.empty() ? std::vector<double>(dataset.size(), 1.0) : fin->alpha;
  // The fit the final one was derived from (skipping the refits of a k search) shows what
  // re-weighting, truncation or censoring changed.
  const auto at = std::find(result.stages.begin(), result.stages.end(), fin);
  for (auto it = at; at != result.stages.end() && it != result.stages.begin();) {
    const auto& before = *--it;
    if (before->k) continue;
    p.deltaBefore = toStd(before->lipschitz.perRecord);
    p.weightsBefore =
        before->alpha.empty() ? std::vector<double>(dataset.size(), 1.0) : before->alpha;
    break;
  }
  for (const auto& name :
       core::models::parameterLabels(model.parameterNames(), dataset.designNames))
    p.parameterNames.push_back(QString::fromStdString(name));
  p.finalStage = QString::fromStdString(fin->name);
  for (const auto& chain : fin->sample->chains)
    p.chainDraws.push_back(constrainDraws(model, chain.draws));
  const Eigen::MatrixXd pooled = fin->sample->pooled();
  p.parameterDraws.assign(p.parameterNames.size(), std::vector<double>(pooled.rows()));
  for (Eigen::Index s = 0; s < pooled.rows(); ++s) {
    const Eigen::VectorXd theta = model.constrain(pooled.row(s).transpose());
    for (Eigen::Index j = 0; j < theta.size() && j < Eigen::Index(p.parameterDraws.size()); ++j) {
      p.parameterDraws[j][s] = theta[j];
    }
  }
  return p;
}

}  // namespace

std::vector<double> constrainDraws(const core::models::Model& model, const Eigen::MatrixXd& draws) {
  std::vector<double> out;
  out.reserve(static_cast<std::size_t>(draws.rows() * draws.cols()));
  for (Eigen::Index s = 0; s < draws.rows(); ++s) {
    const Eigen::VectorXd theta = model.constrain(draws.row(s).transpose());
    out.insert(out.end(), theta.data(), theta.data() + theta.size());
  }
  return out;
}

bool summarizeRun(const core::data::Dataset& dataset, const pipeline::RunSettings& settings,
                  const pipeline::RunResult& result, RunOutput& output, std::stop_token stop) {
  // The run's one summary (core/summary/run_summary.h): the same seed rule, first datasets and
  // results rows as `dpsynth fit`, "Export all" and studies, so the table shown here is the
  // one results.csv holds.
  core::summary::RunSummary summary;
  try {
    summary = core::summary::summarizeRun(dataset, result, settings, stop);
  } catch (const core::exec::Cancelled&) {
    return false;
  }
  const auto model = core::models::makeModel(dataset, settings.model);
  for (std::size_t j = 0; j < result.mechanisms.size(); ++j) {
    const auto& mechanism = result.mechanisms[j];
    output.plots.push_back(plotData(dataset, mechanism, *model, summary.firstSynthetic[j]));
    QStringList warnings;
    for (const auto& w : mechanism.warnings) warnings << withFieldNames(w);
    output.warnings.push_back(warnings);
  }
  output.table = std::move(summary.rows);
  return true;
}

}  // namespace dpsynth::ui
