#include "core/pipeline/disclosure.h"

#include <cstdint>
#include <stdexcept>
#include <string>

#include "core/exec/cancellation.h"
#include "core/exec/interruptible_sort.h"
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

/// Each row's key group: rows sorted by their key cells (compared in place, no string per
/// row), then numbered by runs of equal keys.
std::vector<std::uint32_t> keyGroups(const data::Dataset& dataset,
                                     const std::vector<std::size_t>& columns,
                                     const std::stop_token& stop) {
  const std::size_t n = dataset.size();
  const auto& rows = dataset.source.rows;
  auto compare = [&](std::size_t a, std::size_t b) {
    for (std::size_t c : columns) {
      const int r = rows[a][c].compare(rows[b][c]);
      if (r != 0) return r;
    }
    return 0;
  };
  std::vector<std::uint32_t> order(n);
  for (std::size_t i = 0; i < n; ++i) order[i] = static_cast<std::uint32_t>(i);
  exec::stableSort(
      order.begin(), order.end(),
      [&](std::uint32_t a, std::uint32_t b) { return compare(a, b) < 0; }, stop);
  std::vector<std::uint32_t> group(n);
  std::uint32_t next = 0;
  for (std::size_t k = 0; k < n; ++k) {
    if (k > 0 && compare(order[k - 1], order[k]) != 0) ++next;
    group[order[k]] = next;
  }
  return group;
}

}  // namespace

utility::DisclosureRisk disclosureRisk(const data::Dataset& dataset,
                                       const Eigen::VectorXd& synthetic,
                                       const std::vector<std::size_t>* sourceRows, double tolerance,
                                       const std::stop_token& stop) {
  const std::size_t n = static_cast<std::size_t>(dataset.y.size());
  const auto rows = static_cast<std::size_t>(synthetic.size());
  if (sourceRows ? sourceRows->size() != rows : rows != n)
    throw std::invalid_argument("disclosure risk: one source row per synthetic record is needed");
  const std::vector<std::size_t> columns = keyColumns(dataset);
  std::vector<std::uint32_t> groupsConf, groupsSyn;  // empty: no covariates, one group
  if (!columns.empty()) {
    groupsConf = keyGroups(dataset, columns, stop);
    groupsSyn.resize(rows);
    for (std::size_t r = 0; r < rows; ++r)
      groupsSyn[r] = groupsConf[sourceRows ? (*sourceRows)[r] : r];
  }
  return utility::measureDisclosureRiskByGroup(groupsConf, dataset.y, groupsSyn, synthetic,
                                               tolerance, stop);
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
