#pragma once
/// The covariate-aware utility measures (utility/regression_utility.h) for a dataset and one
/// synthetic outcome vector, with the model's own family, and their report JSON.
#include <Eigen/Dense>
#include <nlohmann/json.hpp>
#include <optional>
#include <stop_token>
#include <vector>

#include "core/data/dataset.h"
#include "core/pipeline/mechanism.h"
#include "core/utility/regression_utility.h"

namespace dpsynth::core::pipeline {

/// The regression family of the synthesizer's GLM: same link and variance function.
utility::RegressionFamily regressionFamily(models::Family family);

/// True for mechanisms that draw the outcome ignoring the covariates (ph): their marginal
/// utility says nothing about the outcome–covariate relation.
bool marginalOnly(Mechanism mechanism);

/// The measures for synthetic outcomes that keep the dataset's covariate rows; nullopt when the
/// model has no covariates (intercept only). Reference levels of categorical covariates are
/// named from the file's text when the dataset has it.
/// sourceRows: the input row whose covariates each synthetic record has (MechanismResult::
/// sourceRows, when the published size differs from n); null: synthetic record i has row i's.
/// Seconds of IRLS on 10^6 records: `stop` ends them with exec::Cancelled.
std::optional<utility::CovariateUtility> covariateUtility(
    const data::Dataset& dataset, const Eigen::VectorXd& synthetic,
    const std::vector<std::size_t>* sourceRows = nullptr, const std::stop_token& stop = {});

/// {"ci_overlap", "max_std_diff", "pmse", "max_group_mean_diff", "coefficients": [...],
///  "group_means": [...], "propensity_model", "regression"}; null when u is nullopt.
nlohmann::json covariateUtilityJson(const std::optional<utility::CovariateUtility>& u);

}  // namespace dpsynth::core::pipeline
