#include "core/pipeline/disclosure.h"

#include <algorithm>
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

/// One key column's cells as compared when grouping: a text column's level ranks, or a numeric
/// column's texts written once into one buffer.
class KeyCells {
 public:
  KeyCells(const data::SourceCells& source, std::size_t c, std::size_t n,
           const std::stop_token& stop) {
    const data::SourceColumn& column = source.dataset().source.cells.at(c);
    if (column.kind() == data::SourceColumn::Kind::text) {
      const auto& levels = column.levels();
      std::vector<std::uint32_t> byText(levels.size());
      for (std::size_t k = 0; k < levels.size(); ++k) byText[k] = static_cast<std::uint32_t>(k);
      std::sort(byText.begin(), byText.end(),
                [&](std::uint32_t a, std::uint32_t b) { return levels[a] < levels[b]; });
      std::vector<std::uint32_t> levelRank(levels.size());
      for (std::size_t k = 0; k < byText.size(); ++k)
        levelRank[byText[k]] = static_cast<std::uint32_t>(k);  // the levels are distinct texts
      rank_.resize(n);
      for (std::size_t i = 0; i < n; ++i) rank_[i] = levelRank[column.codes()[i]];
      return;
    }
    ends_.resize(n);
    exec::StopCheck check(stop);
    for (std::size_t i = 0; i < n; ++i) {
      check.tick();
      text_ += source(i, c).view();
      ends_[i] = static_cast<std::uint32_t>(text_.size());
    }
  }
  /// <0, 0, >0 as record a's cell text compares with record b's.
  int compare(std::uint32_t a, std::uint32_t b) const {
    if (!rank_.empty()) return rank_[a] < rank_[b] ? -1 : rank_[a] > rank_[b] ? 1 : 0;
    return cell(a).compare(cell(b));
  }

 private:
  std::string_view cell(std::uint32_t i) const {
    const std::uint32_t begin = i == 0 ? 0 : ends_[i - 1];
    return std::string_view(text_).substr(begin, ends_[i] - begin);
  }
  std::vector<std::uint32_t> rank_;
  std::string text_;
  std::vector<std::uint32_t> ends_;
};

/// Each row's key group: rows in the order of their key cells' text, numbered by runs of equal
/// keys. Refined one column at a time (sorted by the groups so far, then the column's text), so
/// that once every group is a single record the other columns are not looked at; the numbers are
/// those of one sort by all the cells.
std::vector<std::uint32_t> keyGroups(const data::Dataset& dataset,
                                     const std::vector<std::size_t>& columns,
                                     const std::stop_token& stop) {
  const std::size_t n = dataset.size();
  const data::SourceCells source(dataset);
  std::vector<std::uint32_t> group(n, 0);
  std::vector<std::uint32_t> order(n);
  std::uint32_t groups = n > 0 ? 1 : 0;
  for (const std::size_t c : columns) {
    if (groups == n) break;  // every record alone: later cells cannot split a group
    const KeyCells cells(source, c, n, stop);
    const auto compare = [&](std::uint32_t a, std::uint32_t b) {
      if (group[a] != group[b]) return group[a] < group[b] ? -1 : 1;
      return cells.compare(a, b);
    };
    for (std::size_t i = 0; i < n; ++i) order[i] = static_cast<std::uint32_t>(i);
    exec::stableSort(
        order.begin(), order.end(),
        [&](std::uint32_t a, std::uint32_t b) { return compare(a, b) < 0; }, stop);
    std::vector<std::uint32_t> next(n);
    std::uint32_t number = 0;
    for (std::size_t k = 0; k < n; ++k) {
      if (k > 0 && compare(order[k - 1], order[k]) != 0) ++number;
      next[order[k]] = number;
    }
    group = std::move(next);
    groups = n > 0 ? number + 1 : 0;
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
  // An empty database discloses no one: every measure is undefined (null in the report).
  if (n == 0 && !sourceRows) return {};
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
