#pragma once
/// Empirical disclosure risk of a mechanism's first synthetic dataset (utility/disclosure_risk.h)
/// with the declared covariates as the intruder's keys and the outcome as the target. Computed
/// from the confidential data: internal reports, results.csv and studies only, never release/.
#include <Eigen/Dense>
#include <nlohmann/json.hpp>
#include <stop_token>
#include <vector>

#include "core/data/dataset.h"
#include "core/utility/disclosure_risk.h"

namespace dpsynth::core::pipeline {

/// Keys are the declared covariates' text as in the input file (a synthetic record takes those
/// of its source row: sourceRows, when the published size differs from n). A dataset without
/// covariates has one key for every record.
utility::DisclosureRisk disclosureRisk(const data::Dataset& dataset,
                                       const Eigen::VectorXd& synthetic,
                                       const std::vector<std::size_t>* sourceRows = nullptr,
                                       double tolerance = utility::kDefaultRiskTolerance,
                                       const std::stop_token& stop = {});

/// {"replicated_uniques", "attribute_cap", "attribute_cap_baseline", "dcr_share", "uniques",
///  "matched", "tolerance", "keys": [covariates]}; null members where undefined.
nlohmann::json disclosureRiskJson(const data::Dataset& dataset, const utility::DisclosureRisk& r,
                                  double tolerance = utility::kDefaultRiskTolerance);

}  // namespace dpsynth::core::pipeline
