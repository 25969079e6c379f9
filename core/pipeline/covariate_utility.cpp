#include "core/pipeline/covariate_utility.h"

#include <cmath>
#include <stdexcept>
#include <string>

namespace dpsynth::core::pipeline {

using nlohmann::json;

utility::RegressionFamily regressionFamily(models::Family family) {
  switch (family) {
    case models::Family::normal:
      return utility::RegressionFamily::normal;
    case models::Family::poisson:
      return utility::RegressionFamily::poisson;
    case models::Family::negbin:
      return utility::RegressionFamily::negbin;
    case models::Family::beta:
      return utility::RegressionFamily::beta;
  }
  return utility::RegressionFamily::normal;
}

bool marginalOnly(Mechanism mechanism) { return mechanism == Mechanism::ph; }

namespace {

/// (covariate, reference level text) for each categorical covariate found in the file's text.
std::vector<std::pair<std::string, std::string>> referenceLevels(const data::Dataset& d) {
  std::vector<std::pair<std::string, std::string>> out;
  if (d.source.size() != d.size()) return out;
  for (const auto& cov : d.covariateNames) {
    std::vector<Eigen::Index> columns;
    for (std::size_t j = 1; j < d.designNames.size(); ++j)
      if (d.designNames[j].rfind(cov + "=", 0) == 0)
        columns.push_back(static_cast<Eigen::Index>(j));
    if (columns.empty()) continue;
    const std::size_t col = d.source.columnIndex(cov);
    for (Eigen::Index i = 0; i < d.X.rows(); ++i) {
      bool reference = true;
      for (const auto c : columns) reference = reference && d.X(i, c) == 0.0;
      if (reference) {
        out.emplace_back(
            cov, std::string(data::SourceCells(d)(static_cast<std::size_t>(i), col).view()));
        break;
      }
    }
  }
  return out;
}

json finiteOrNull(double v) { return std::isfinite(v) ? json(v) : json(nullptr); }

}  // namespace

std::optional<utility::CovariateUtility> covariateUtility(
    const data::Dataset& dataset, const Eigen::VectorXd& synthetic,
    const std::vector<std::size_t>* sourceRows, const std::stop_token& stop) {
  if (dataset.interceptOnly()) return std::nullopt;
  if (!sourceRows)
    return utility::measureCovariateUtility(dataset.y, synthetic, dataset.X, dataset.designNames,
                                            regressionFamily(dataset.family),
                                            referenceLevels(dataset), stop);
  if (sourceRows->size() != static_cast<std::size_t>(synthetic.size()))
    throw std::invalid_argument("covariateUtility: one source row per synthetic record is needed");
  Eigen::MatrixXd XSyn(synthetic.size(), dataset.X.cols());
  for (std::size_t r = 0; r < sourceRows->size(); ++r)
    XSyn.row(static_cast<Eigen::Index>(r)) =
        dataset.X.row(static_cast<Eigen::Index>((*sourceRows)[r]));
  return utility::measureCovariateUtility(dataset.y, dataset.X, synthetic, XSyn,
                                          dataset.designNames, regressionFamily(dataset.family),
                                          referenceLevels(dataset), stop);
}

json covariateUtilityJson(const std::optional<utility::CovariateUtility>& u) {
  if (!u) return nullptr;
  json coefficients = json::array();
  for (const auto& c : u->regression.coefficients) {
    coefficients.push_back({{"name", c.name},
                            {"confidential", finiteOrNull(c.confidential)},
                            {"confidential_se", finiteOrNull(c.confidentialSe)},
                            {"synthetic", finiteOrNull(c.synthetic)},
                            {"synthetic_se", finiteOrNull(c.syntheticSe)},
                            {"ci_overlap", finiteOrNull(c.overlap)},
                            {"std_diff", finiteOrNull(c.standardized)}});
  }
  json groups = json::array();
  for (const auto& g : u->groups) {
    groups.push_back({{"covariate", g.covariate},
                      {"level", g.level},
                      {"records", g.records},
                      {"confidential", g.confidential},
                      {"synthetic", finiteOrNull(g.synthetic)},
                      {"abs_diff", finiteOrNull(std::abs(g.confidential - g.synthetic))}});
  }
  return {{"ci_overlap", finiteOrNull(u->regression.meanOverlap)},
          {"max_std_diff", finiteOrNull(u->regression.maxStandardized)},
          {"pmse", finiteOrNull(u->pmse)},
          {"max_group_mean_diff", u->maxGroupMeanDiff ? json(*u->maxGroupMeanDiff) : json(nullptr)},
          {"regression",
           "the model's GLM (same family and link) fitted by IRLS to the confidential and to the "
           "synthetic outcomes with the same covariate rows; 95% intervals beta +- 1.96 se"},
          {"propensity_model",
           "logistic regression of the synthetic indicator on intercept, y, the covariate "
           "columns and y times each covariate column; pmse = mean (p - c)^2, c the synthetic "
           "share"},
          {"coefficients", coefficients},
          {"group_means", groups}};
}

}  // namespace dpsynth::core::pipeline
