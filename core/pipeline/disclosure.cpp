#include "core/pipeline/disclosure.h"

#include <stdexcept>
#include <string>

#include "core/exec/cancellation.h"
#include "core/pipeline/export.h"

namespace dpsynth::core::pipeline {

namespace {

/// The released columns other than the outcome: the declared covariates.
std::vector<std::size_t> keyColumns(const data::Dataset& dataset) {
  std::vector<std::size_t> out;
  if (dataset.source.header.empty()) return out;
  for (const auto& name : releasedColumns(dataset))
    if (name != dataset.outcomeName) out.push_back(dataset.source.columnIndex(name));
  return out;
}

std::string keyOf(const data::Dataset& dataset, const std::vector<std::size_t>& columns,
                  std::size_t row) {
  std::string key;
  for (std::size_t c : columns) {
    key += dataset.source.rows[row][c];
    key += '\x1f';  // a unit separator: "a" + "bc" and "ab" + "c" stay apart
  }
  return key;
}

}  // namespace

utility::DisclosureRisk disclosureRisk(const data::Dataset& dataset,
                                       const Eigen::VectorXd& synthetic,
                                       const std::vector<std::size_t>* sourceRows,
                                       double tolerance, const std::stop_token& stop) {
  const std::size_t n = static_cast<std::size_t>(dataset.y.size());
  const auto rows = static_cast<std::size_t>(synthetic.size());
  if (sourceRows ? sourceRows->size() != rows : rows != n)
    throw std::invalid_argument("disclosure risk: one source row per synthetic record is needed");
  const std::vector<std::size_t> columns = keyColumns(dataset);
  std::vector<std::string> keysConf, keysSyn;  // empty: no covariates, one group
  if (!columns.empty()) {
    keysConf.resize(n);
    keysSyn.resize(rows);
    for (std::size_t i = 0; i < n; ++i) {
      if ((i & 65535) == 0) exec::throwIfStopped(stop);
      keysConf[i] = keyOf(dataset, columns, i);
    }
    for (std::size_t r = 0; r < rows; ++r) keysSyn[r] = keysConf[sourceRows ? (*sourceRows)[r] : r];
  }
  return utility::measureDisclosureRisk(keysConf, dataset.y, keysSyn, synthetic, tolerance, stop);
}

nlohmann::json disclosureRiskJson(const data::Dataset& dataset, const utility::DisclosureRisk& r,
                                  double tolerance) {
  const auto value = [](const std::optional<double>& v) {
    return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
  };
  nlohmann::json keys = nlohmann::json::array();
  for (const auto& name : releasedColumns(dataset))
    if (name != dataset.outcomeName) keys.push_back(name);
  return {{"replicated_uniques", value(r.replicatedUniques)},
          {"attribute_cap", value(r.attributeCap)},
          {"attribute_cap_baseline", value(r.attributeCapBaseline)},
          {"dcr_share", value(r.dcrShare)},
          {"uniques", r.uniques},
          {"matched", r.matched},
          {"tolerance", tolerance},
          {"keys", keys}};
}

}  // namespace dpsynth::core::pipeline
